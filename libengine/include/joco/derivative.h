// Derivatives: analytic derivatives of the smooth forces for the implicit integrators (computation
// chapter, "Numerical integration"), in the sparse layout of MuJoCo 2.2.2's qDeriv; finite-
// difference transition Jacobians of step (chapter "Derivatives", mjd_transitionFD); and the
// continuous-time derivatives of forward and inverse dynamics of MuJoCo's `derivative` sample.
#pragma once

#include <array>
#include <span>
#include <vector>

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

// ---- transition Jacobians by finite differences
// ---------------------------------------------------

// The discrete-time transition Jacobians of step (computation chapter, "Derivatives"; MuJoCo
// 2.2.2's mjd_transitionFD). With x = (qpos as a tangent vector, qvel, act) at d's state (nx =
// 2nv + na), u = ctrl, x' the state after one step and y = sensordata (computed at x, u):
//   A = dx'/dx (nx x nx), B = dx'/du (nx x nu), C = dy/dx (nsensordata x nx),
//   D = dy/du (nsensordata x nu),
// all row-major, each optional (null). Columns of the qpos part perturb qpos by eps along one dof
// with integrate_pos (quaternions rotate about a local axis); rows of the qpos part are
// differentiate_pos(x'_perturbed, x'_unperturbed) / eps. Forward differences, or centred ones
// when `centered`. A control limited by actuator_ctrllimited is nudged only within its ctrlrange:
// at or near a bound the difference is one-sided towards the inside (zero column when neither side
// fits). Every step starts from the qacc_warmstart present at the call, so results do not depend on
// the order of evaluation. Stages whose inputs do not move are not recomputed (controls and
// activations: acceleration stage only; velocities: from the velocity stage), except with RK4,
// whose intermediate evaluations overwrite them. Sensors are computed only when C or D is asked
// for. On return d holds the state and inputs it had (time, qpos, qvel, act, ctrl,
// qacc_warmstart); its other arrays hold the last perturbed evaluation. No heap allocation: needs
// transition_fd_stack(m) doubles of stack beyond what step needs (a RuntimeError otherwise).
void transition_fd(const Model& m, Data& d, double eps, bool centered, double* A, double* B,
                   double* C, double* D);

// Doubles of Data stack transition_fd takes for itself (on top of step's own needs).
int transition_fd_stack(const Model& m);

// ---- continuous-time derivatives by finite differences
// -------------------------------------------

// Derivatives of forward and inverse dynamics as MuJoCo's `derivative` sample computes them, each
// nv x nv row-major with rows the output and columns the input:
//   forward: dqacc/dqpos, dqacc/dqvel, dqacc/dqfrc (qfrc = qfrc_applied), at fixed ctrl, act;
//   inverse: dqfrc_inverse/dqpos, dqfrc_inverse/dqvel, dqfrc_inverse/dqacc, at fixed qacc.
// One-sided differences with step eps; qpos columns perturb along one dof as transition_fd.
struct ContinuousOptions {
  double eps = 1e-6;
  int nwarmup = 3;      // forward: solver runs at the centre point to converge its warmstart
  bool forward = true;  // compute the forward-dynamics derivatives
  bool inverse = true;  // compute the inverse-dynamics derivatives (needs inverse dynamics)
};

// Columns [begin, end) of the forward-dynamics derivatives at d's state (qpos, qvel, act, ctrl,
// qfrc_applied, xfrc_applied, qacc_warmstart): forward at the centre, nwarmup - 1 more constraint
// solves from the velocity stage to converge the warmstart, then one evaluation per column, each
// from the centre's warmstart, skipping the stages its input does not reach (qfrc: acceleration
// stage; qvel: from the velocity stage; qpos: all), sensors off. The solver runs with m's options:
// mujoco-derivative sets iterations = 30 and tolerance = 0 (a fixed iteration count), see
// prepare_model_for_continuous_fd. d is restored to its inputs on return. No heap allocation.
void forward_dynamics_fd(const Model& m, Data& d, const ContinuousOptions& options, int begin,
                         int end, double* dqacc_dqpos, double* dqacc_dqvel, double* dqacc_dqfrc);

// Columns [begin, end) of the inverse-dynamics derivatives at d's state (qpos, qvel, qacc, ...):
// inverse dynamics at the centre and at each perturbed input.
void inverse_dynamics_fd(const Model& m, Data& d, const ContinuousOptions& options, int begin,
                         int end, double* dqfrc_dqpos, double* dqfrc_dqvel, double* dqfrc_dqacc);

// The solver settings of mujoco-derivative's differencing: `iterations` iterations exactly
// (tolerance 0), so every evaluation does the same work and the differences are smooth.
void prepare_model_for_continuous_fd(Model& m, int iterations = 30);

// The six matrices (empty when not computed).
struct ContinuousDerivatives {
  int nv = 0;
  std::vector<double> dqacc_dqpos, dqacc_dqvel, dqacc_dqfrc;  // forward: F0, F1, F2
  std::vector<double> dqfrc_dqpos, dqfrc_dqvel, dqfrc_dqacc;  // inverse: G0, G1, G2
};

// Both sets of derivatives at `state`'s inputs, in parallel over columns: worker t (one thread
// each, workers.size() threads) copies the inputs into its own Data and computes its share of
// the columns. Each worker Data must be made for m.
ContinuousDerivatives continuous_derivatives(const Model& m, const Data& state,
                                             std::span<Data> workers,
                                             const ContinuousOptions& options);
// The same into `out`, for a loop over states: the matrices of the sets computed are made nv x nv
// where they are not (so only the first state allocates), those of a set not computed are left as
// they are.
void continuous_derivatives(const Model& m, const Data& state, std::span<Data> workers,
                            const ContinuousOptions& options, ContinuousDerivatives& out);

// The accuracy check of mujoco-derivative: log10 of the relative L1 norm of residuals that vanish
// for exact derivatives, in this order (G inverse, F forward, 0 pos, 1 vel, 2 acc/force):
//   G2*F2 - I, G2 - G2', G1 - G1', F2 - F2', G1 + G2*F1, G0 + G2*F0, F1 + F2*G1, F0 + F2*G0.
// Needs both sets.
inline constexpr int kNAccuracy = 8;
extern const char* const kAccuracyNames[kNAccuracy];
std::array<double, kNAccuracy> continuous_derivative_accuracy(const ContinuousDerivatives& deriv);

// ---- analytic smooth derivatives, dense
// -------------------------------------------------------------

// d (qfrc_passive + qfrc_actuator - qfrc_bias) / d qvel as a dense nv x nv row-major matrix at d's
// state (smooth_velocity_derivative, entries outside the tree pattern zero): runs the position and
// velocity stages first. No heap allocation.
void smooth_velocity_derivative_dense(const Model& m, Data& d, bool with_bias, double* dense);

}  // namespace joco
