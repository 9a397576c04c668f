// Analytic derivatives of the smooth forces for the implicit integrators (computation chapter,
// "Numerical integration"), in the sparse layout of MuJoCo 2.2.2's qDeriv. No heap allocation.
#pragma once

#include "joco/data.h"
#include "joco/model.h"

namespace joco {

// The sparsity pattern of qDeriv (and qLU): row i holds the dofs that are ancestors of dof i, i
// itself and its descendants, increasing (the pattern of qM made symmetric, nD entries):
// D_rownnz, D_rowadr, D_colind.
void derivative_sparsity(const Model& m, Data& d);

// qDeriv = d (qfrc_passive + qfrc_actuator - qfrc_bias) / d qvel on the pattern of
// derivative_sparsity (which it fills too): joint damping, tendon damping, actuators whose gain
// or bias depend on velocity (affine gains and biases, muscle force-velocity), both fluid models
// (exact derivatives of their force laws), and, when with_bias, minus the derivative of the
// Coriolis and centrifugal forces of RNE (implicit; implicitfast leaves it out). Terms coupling
// dofs on different branches of the tree (a tendon or actuator spanning two branches) fall outside
// the pattern and are dropped, as MuJoCo drops them. Needs the position and velocity stages
// (com_pos, tendon, transmission, com_vel and the actuator velocities).
void smooth_velocity_derivative(const Model& m, Data& d, bool with_bias);

}  // namespace joco
