// Actuators (computation chapter, "Actuation model"): transmissions, activation dynamics and force
// generation, writing MuJoCo 2.2.2's fields of Data. No heap allocation: temporaries come from the
// Data stack.
#pragma once

#include "joco/data.h"
#include "joco/model.h"

namespace joco {

// Actuator lengths and moment arms (mj_transmission): actuator_length and actuator_moment (dense,
// nu x nv), for every transmission type:
//   joint, jointinparent: gear * qpos for hinge and slide joints; for ball joints the gear axis
//     (child frame; parent frame for jointinparent) dotted with the joint's rotation vector; free
//     joints have length 0, translation along the world gear axis and rotation about the gear
//     axis in the child frame (world frame for jointinparent);
//   tendon: gear * the tendon's length and moment arms;
//   slider-crank: the slider's position along the z axis of the slider site, from the crank pin
//     and the connecting rod's length (a rod too short for the geometry, the "broken crank",
//     keeps the slider at the crank pin's projection);
//   site: length 0 and a force/torque along the gear axes in the site's frame; with a refsite,
//     the site's pose relative to the refsite's frame dotted with gear (translation, then the
//     rotation vector);
//   body (adhesion): length 0, a pull along the normals of the contacts in d.contact[0..ncon)
//     that involve the body's geoms, shared equally between them.
// Needs kinematics, com_pos, tendon and, for body transmissions, the contacts (collision).
void transmission(const Model& m, Data& d);

// Actuator velocities actuator_velocity = actuator_moment qvel (part of mj_fwdVelocity). Needs
// transmission.
void actuator_velocity(const Model& m, Data& d);

// Actuator forces (mj_fwdActuation): the controls, clamped to ctrlrange where ctrllimited (unless
// the clampctrl flag is disabled; d.ctrl itself is not changed), are checked: the first NaN or
// |ctrl| > 1e10 raises kWarnBadCtrl with its index and every control is taken as zero. Then
//   act_dot: integrator ctrl, filter (ctrl - act) / dynprm[0], muscle muscle_dynamics, none: no
//     activation (user: 0);
//   actuator_force = gain * (act, or ctrl without dynamics) + bias, with gain fixed gainprm[0],
//     affine gainprm[0] + gainprm[1] length + gainprm[2] velocity, or muscle_gain (user: 1), and
//     bias affine biasprm[0] + biasprm[1] length + biasprm[2] velocity, or muscle_bias (none and
//     user: 0), clamped to forcerange where forcelimited;
//   qfrc_actuator = actuator_moment' actuator_force.
// Activations are used as they are: MuJoCo 2.2.2 applies actrange when integrating act, not here.
// With the actuation flag disabled, actuator_force and qfrc_actuator are zero and act_dot is left
// as it was. Needs transmission and actuator_velocity.
void actuation(const Model& m, Data& d);

// The gain and bias of actuator u at the current actuator length and velocity, so that its force
// is gain * (act, or ctrl without dynamics) + bias before forcerange clamping (user gain 1 and
// bias 0, as in actuation). Needs transmission and actuator_velocity.
void actuator_gain_bias(const Model& m, const Data& d, int u, double* gain, double* bias);

}  // namespace joco
