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
// - Frame sensors: framequat is the body's xquat times the object's quaternion in it (body_iquat,
//   geom_quat, site_quat, cam_quat); frame velocities and accelerations are those of the point
//   fixed in the object's body at the object's origin, so a tracking camera moves as its body
//   does for them; with a reference frame, framelinvel is the rate of change of framepos (the
//   relative velocity minus w_ref x (p - p_ref), in the reference frame) and frameangvel the
//   relative angular velocity in the reference frame.
// - Touch: the sum of the normal forces (pyramidal or elliptic, as contact_force decodes them) of
//   the contacts with a geom of the site's body whose normal ray, from the contact point away from
//   that body, meets the site's volume (a point inside it always does). Force and torque:
//   cfrc_int of the site's body (what its parent exerts on it) at the site, in the site's frame.
// - Noise (sensor_noise > 0, sensornoise enabled), then cutoff, sensor by sensor in model order.
//   Noise comes from d.noise_random (glibc's rand(), as MuJoCo draws it) with standard normals by
//   the polar method: real data gets noise * n added to each element (one normal each); positive
//   data draws one normal per element and adds it only when the value is positive, clamping the
//   sum at zero; axes and quaternions draw four normals n0..n3 (two polar pairs) and are rotated
//   by the angle noise * n0 about the axis (n1, n2, n3) (quaternions on the right, in their own
//   frame).
// - Cutoff (when positive): real data is clamped to [-cutoff, cutoff], positive data to at most
//   cutoff (MuJoCo's compiler refuses cutoffs on axes and quaternions).
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
