// Inverse dynamics: the forward pipeline's position and velocity stages, then the analytic
// constraint forces of the reduced primal problem at the given acceleration, and the applied force
// that balances the equations of motion, M qacc + c = tau + J' f.
#include "joco/inverse.h"

#include <cmath>
#include <cstring>

#include "data/timer.h"
#include "joco/constraint.h"
#include "joco/derivative.h"
#include "joco/forward.h"
#include "joco/sensor.h"
#include "joco/smooth.h"

namespace joco {

namespace {

bool enabled(const Model& m, int flag) { return (m.opt.enableflags & flag) != 0; }
bool disabled(const Model& m, int flag) { return (m.opt.disableflags & flag) != 0; }

void copy(double* dst, const double* src, int n) {
  if (n > 0) std::memcpy(dst, src, sizeof(double) * static_cast<size_t>(n));
}

double distance(const double* a, const double* b, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i) s += (a[i] - b[i]) * (a[i] - b[i]);
  return std::sqrt(s);
}

// qfrc_inverse = M qacc + qfrc_bias - qfrc_passive - qfrc_constraint.
void combine_inverse(const Model& m, Data& d) {
  mul_m(m, d, d.qfrc_inverse, d.qacc);
  for (int i = 0; i < m.nv; ++i) {
    d.qfrc_inverse[i] += d.qfrc_bias[i] - d.qfrc_passive[i] - d.qfrc_constraint[i];
  }
}

}  // namespace

namespace {

void position_stage(const Model& m, Data& d, bool sensors) {
  fwd_position(m, d);
  if (sensors) sensor_pos(m, d);
  if (enabled(m, kEnableEnergy)) energy_pos(m, d);
}

void velocity_stage(const Model& m, Data& d, bool sensors) {
  fwd_velocity(m, d);
  if (sensors) sensor_vel(m, d);
  if (enabled(m, kEnableEnergy)) energy_vel(m, d);
}

void acceleration_stage(const Model& m, Data& d, const InverseOptions& options, bool sensors) {
  StackFrame frame(d);
  double* given = nullptr;
  if (options.discrete && m.opt.integrator != kIntRK4) {
    given = frame.doubles(m.nv);
    copy(given, d.qacc, m.nv);
    discrete_to_continuous(m, d, options.timestep > 0 ? options.timestep : m.opt.timestep, d.qacc);
  }
  inverse_constraint(m, d);
  combine_inverse(m, d);
  if (sensors) sensor_acc(m, d);
  if (given) copy(d.qacc, given, m.nv);
}

}  // namespace

void inv_position(const Model& m, Data& d) { position_stage(m, d, !disabled(m, kDisableSensor)); }

void inv_velocity(const Model& m, Data& d) { velocity_stage(m, d, !disabled(m, kDisableSensor)); }

void discrete_to_continuous(const Model& m, Data& d, double h, double* qacc) {
  const int nv = m.nv;
  StackFrame frame(d);
  double* force = frame.doubles(nv);  // the integrator's correction to M qacc, before inv(M)
  switch (m.opt.integrator) {
    case kIntEuler: {
      bool damped = false;
      for (int i = 0; i < nv && !damped; ++i) damped = m.dof_damping[i] > 0;
      if (!damped) return;
      // (M + h B) a = M qacc
      for (int i = 0; i < nv; ++i) force[i] = h * m.dof_damping[i] * qacc[i];
      break;
    }
    case kIntImplicit:
    case kIntImplicitFast: {
      // (M - h D) a = M qacc, D symmetrised for implicitfast as its factorisation uses it.
      const bool full = m.opt.integrator == kIntImplicit;
      smooth_velocity_derivative(m, d, full);
      for (int i = 0; i < nv; ++i) force[i] = 0;
      const double w = full ? 1.0 : 0.5;
      for (int i = 0; i < nv; ++i) {
        const int adr = d.D_rowadr[i];
        for (int k = 0; k < d.D_rownnz[i]; ++k) {
          const int j = d.D_colind[adr + k];
          const double dij = -h * w * d.qDeriv[adr + k];
          force[i] += dij * qacc[j];             // D a
          if (!full) force[j] += dij * qacc[i];  // D' a
        }
      }
      break;
    }
    default: return;  // RK4
  }
  solve_m(m, d, force, force, 1);
  for (int i = 0; i < nv; ++i) qacc[i] += force[i];
}

void inv_acceleration(const Model& m, Data& d, const InverseOptions& options) {
  acceleration_stage(m, d, options, !disabled(m, kDisableSensor));
}

void inverse(const Model& m, Data& d) { inverse_skip(m, d, kStageNone, false); }

void inverse(const Model& m, Data& d, const InverseOptions& options) {
  inverse_skip(m, d, kStageNone, false, options);
}

void inverse_skip(const Model& m, Data& d, Stage skip, bool skip_sensors,
                  const InverseOptions& options) {
  check_data(m, d);
  StageTimer timer(d, kTimerInverse);
  const bool sensors = !skip_sensors && !disabled(m, kDisableSensor);
  if (skip < kStagePos) position_stage(m, d, sensors);
  if (skip < kStageVel) velocity_stage(m, d, sensors);
  acceleration_stage(m, d, options, sensors);
}

void compare_fwd_inv(const Model& m, Data& d) {
  check_data(m, d);
  d.solver_fwdinv[0] = d.solver_fwdinv[1] = 0;
  const int nv = m.nv, nefc = d.nefc;
  if (nefc == 0) return;
  StackFrame frame(d);
  double* applied = frame.doubles(nv);
  double* forward_qfrc = frame.doubles(nv);
  double* forward_force = frame.doubles(nefc);
  int* forward_state = frame.ints(nefc);
  for (int i = 0; i < nv; ++i) applied[i] = d.qfrc_applied[i] + d.qfrc_actuator[i];
  accumulate_xfrc(m, d, applied);
  copy(forward_qfrc, d.qfrc_constraint, nv);
  copy(forward_force, d.efc_force, nefc);
  std::memcpy(forward_state, d.efc_state, sizeof(int) * static_cast<size_t>(nefc));

  inverse_constraint(m, d);
  combine_inverse(m, d);
  d.solver_fwdinv[0] = distance(d.qfrc_constraint, forward_qfrc, nv);
  d.solver_fwdinv[1] = distance(d.qfrc_inverse, applied, nv);

  copy(d.qfrc_constraint, forward_qfrc, nv);
  copy(d.efc_force, forward_force, nefc);
  std::memcpy(d.efc_state, forward_state, sizeof(int) * static_cast<size_t>(nefc));
}

}  // namespace joco
