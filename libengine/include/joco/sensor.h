// Sensors (MuJoCo 2.2.2's mj_sensorPos, mj_sensorVel, mj_sensorAcc): each stage fills the part of
// sensordata that belongs to the sensors needing that stage (sensor_needstage), then adds noise
// when the sensornoise flag is enabled and applies cutoffs. They read what the pipeline computed
// before them (kinematics, com_pos, com_vel, tendons, transmissions, actuator forces, constraint
// rows and forces, contacts), so they work whichever code computed those. None allocates.
//
// Conventions, as 2.2.2:
// - A stage does nothing when the sensor disable flag is set.
// - User sensors are left untouched (joco has no sensor callback); noise and cutoff still apply to
//   them as to any sensor of their stage and data type.
// - Cutoff (when positive): real data is clamped to [-cutoff, cutoff], positive data to at most
//   cutoff; axes and quaternions are not clamped.
// - Noise (sensor_noise > 0, sensornoise enabled), from d.noise_random (glibc's rand(), as MuJoCo
//   draws it) with standard normals by the polar method, sensor by sensor in model order: real data
//   gets noise * n added to each element (one normal each); positive data draws one normal and
//   adds it only when the value is positive, clamping the sum at zero; axes and quaternions draw
//   four normals n0..n3 (two polar pairs) and are rotated by the angle noise * n0 about the axis
//   (n1, n2, n3) (quaternions on the right, in their own frame).
#pragma once

#include "joco/data.h"
#include "joco/model.h"

namespace joco {

// Position-dependent sensors: magnetometer, rangefinder, jointpos, tendonpos, actuatorpos,
// ballquat, jointlimitpos, tendonlimitpos, framepos, framequat, frame axes, subtreecom, clock.
void sensor_pos(const Model& m, Data& d);

// Velocity-dependent sensors: velocimeter, gyro, jointvel, tendonvel, actuatorvel, ballangvel,
// jointlimitvel, tendonlimitvel, framelinvel, frameangvel, subtreelinvel, subtreeangmom. Runs
// subtree_vel first when a subtree velocity sensor or a user sensor of this stage is present
// (MuJoCo computes it for its sensor callback).
void sensor_vel(const Model& m, Data& d);

// Acceleration- and force-dependent sensors: touch, accelerometer, force, torque, actuatorfrc,
// jointlimitfrc, tendonlimitfrc, framelinacc, frameangacc. Runs rne_post_constraint first when an
// accelerometer, force, torque, framelinacc, frameangacc or user sensor of this stage is present.
void sensor_acc(const Model& m, Data& d);

// The 6D velocity [angular; linear] of an object's frame (body: its inertial frame, xbody: its
// frame, geom, site, camera) at the frame's origin, in the global frame or, when local, in the
// object's own frame (mj_objectVelocity). Needs com_vel.
void object_velocity(const Model& m, const Data& d, int objtype, int objid, double result[6],
                     bool local);

// The 6D acceleration [angular; linear] of an object's frame, the linear part being the classical
// acceleration of its origin (mj_objectAcceleration). Needs cacc (rne_post_constraint).
void object_acceleration(const Model& m, const Data& d, int objtype, int objid, double result[6],
                         bool local);

}  // namespace joco
