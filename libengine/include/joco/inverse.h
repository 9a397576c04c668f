// Inverse dynamics (computation chapter, "Inverse dynamics and optimization", "Reduced primal
// problem" and "Simulation pipeline / Inverse dynamics"): the applied forces that produce a given
// acceleration at a given state, with the constraint forces from the analytic formula of the
// reduced primal problem (no numerical solver); the comparison of forward and inverse dynamics that
// the fwdinv flag enables; the discrete-time inverse of the one-step integrators.
//
//   inverse = inv_position, inv_velocity,
//             inv_acceleration = [discrete_to_continuous], inverse_constraint, qfrc_inverse,
//                                sensor_acc
//
// None of these allocate: temporaries come from the Data's stack.
#pragma once

#include <memory>

#include "joco/constants.h"
#include "joco/data.h"
#include "joco/model.h"

namespace joco {

struct InverseOptions {
  // Interpret d.qacc as the discrete-time acceleration (qvel_next - qvel) / h of the model's
  // one-step integrator (what MuJoCo 3 calls invdiscrete): euler, whose velocity update is
  // implicit in joint damping, (M + h diag(damping)) a = M qacc, and implicit / implicitfast,
  // (M - h D) a = M qacc with D the velocity derivative of the smooth forces (full, or without
  // the Coriolis terms and symmetrised). The inverse then recovers exactly the forces that the
  // step applied. Ignored for RK4, whose steps are not of this form.
  bool discrete = false;
  // h of the discrete relation; 0: the model's opt.timestep.
  double timestep = 0;
};

// Inverse dynamics at the current qpos, qvel, act and qacc (mj_inverse): the position and velocity
// stages of forward dynamics with their sensors (and energy, when enabled), the constraint forces
// efc_force and qfrc_constraint from the analytic formula (inverse_constraint, every constraint
// type and cone), then
//   qfrc_inverse = M qacc + qfrc_bias - qfrc_passive - qfrc_constraint
// (M with armature), which equals qfrc_applied + J' xfrc_applied + qfrc_actuator when qacc is the
// result of forward dynamics with a converged solver; then the acceleration sensors. Actuation is
// not computed (actuator_force, qfrc_actuator and act_dot are left as they are, as in MuJoCo).
// With options.discrete, d.qacc is read as the discrete-time acceleration, the whole inverse runs
// with the continuous-time acceleration it corresponds to, and d.qacc is given back unchanged.
void inverse(const Model& m, Data& d);
void inverse(const Model& m, Data& d, const InverseOptions& options);

// inverse keeping what the stages before `skip` computed at the previous call (mj_inverseSkip):
// kStagePos keeps the position stage's results, kStageVel those of the position and velocity
// stages, kStageNone recomputes all; skip_sensors leaves sensordata as it is.
// For finite differences: after a change of qacc alone, skip = kStageVel gives the inverse at the
// same state without recomputing kinematics, collisions and constraint rows.
void inverse_skip(const Model& m, Data& d, Stage skip, bool skip_sensors,
                  const InverseOptions& options = {});

// The stages of inverse: fwd_position with sensor_pos and energy_pos (mj_invPosition), fwd_velocity
// with sensor_vel and energy_vel (mj_invVelocity), and the rest: the discrete-time conversion
// when asked for, inverse_constraint, qfrc_inverse and sensor_acc. Each needs the stages before
// it; running inv_acceleration alone after a change of qacc is the inverse at the same state.
void inv_position(const Model& m, Data& d);
void inv_velocity(const Model& m, Data& d);
void inv_acceleration(const Model& m, Data& d, const InverseOptions& options = {});

// The continuous-time acceleration of a discrete-time one (in place, nv values), for the model's
// integrator and step h: euler qacc = a + h inv(M) B a (B the joint damping, when any is positive),
// implicit qacc = a - h inv(M) D a, implicitfast the same with (D + D')/2 and without the Coriolis
// terms; RK4 leaves it alone. Needs the position and velocity stages (the factorisation of M; for
// the implicit integrators the actuator velocities and d.ctrl, which enter D).
void discrete_to_continuous(const Model& m, Data& d, double h, double* qacc);

// The forward/inverse comparison of the fwdinv flag (mj_compareFwdInv), after forward dynamics at
// the current state: runs the analytic inverse at the forward qacc and records, as MuJoCo 2.2.2
// does,
//   solver_fwdinv[0] = | qfrc_constraint(inverse) - qfrc_constraint(forward) |
//   solver_fwdinv[1] = | qfrc_inverse - (qfrc_applied + J' xfrc_applied + qfrc_actuator) |
// (Euclidean norms, in joint space; both zero without constraint rows, and then nothing else is
// done). The first is the disagreement of the constraint forces, the second that of the applied
// forces. Leaves qfrc_inverse set and restores efc_force, efc_state and qfrc_constraint to the
// forward solution; sensors are not recomputed. step() calls it after forward when the fwdinv
// flag is enabled (forward() alone does not, as in 2.2.2).
void compare_fwd_inv(const Model& m, Data& d);

// ---- controls that would produce the inverse forces
// ------------------------------------------------

// Whether every actuator force is affine in its control, actuator_force = gain ctrl + bias with
// gain and bias functions of the state: no activation dynamics (dyntype none), built-in gain and
// bias (not user), and actuation not disabled. (ctrlrange and forcerange clamping are not part of
// the affine model; estimate_controls ignores them.)
bool actuation_affine_in_control(const Model& m);

// The least-squares controls for a joint force: ctrl = argmin | qfrc_actuator(ctrl) - target |
// with qfrc_actuator(ctrl) = moment' (gain ctrl + bias), the minimum-norm solution when the
// actuators' joint forces are dependent; residual = target - qfrc_actuator(ctrl) (nv values; may
// be null). Returns the rank of moment' diag(gain). Needs actuation_affine_in_control(m) and the
// transmission and actuator velocities at the state (inv_velocity). Not a pipeline stage: it may
// allocate.
int estimate_controls(const Model& m, const Data& d, const double* target, double* ctrl,
                      double* residual);

// estimate_controls for many states of one model (a trajectory's rows), giving the same bits: the
// matrices are made once, and the decomposition of moment' diag(gain) is kept while that matrix is
// the same bit for bit (joint and fixed-tendon transmissions with fixed gains: at every state),
// so that a state costs its solve, not a new decomposition (on the humanoid the decomposition was
// as costly as the inverse itself). One estimator per thread.
class ControlEstimator {
 public:
  explicit ControlEstimator(const Model& m);
  ~ControlEstimator();
  ControlEstimator(ControlEstimator&&) noexcept;
  ControlEstimator& operator=(ControlEstimator&&) noexcept;
  int estimate(const Model& m, const Data& d, const double* target, double* ctrl, double* residual);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace joco
