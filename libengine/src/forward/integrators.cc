// The integrators of the computation chapter ("Numerical integration"): semi-implicit Euler with
// implicit joint damping, fourth-order Runge-Kutta, and the implicit-in-velocity Euler methods.
#include <algorithm>
#include <cstring>

#include "forward/unchecked.h"
#include "joco/derivative.h"
#include "joco/forward.h"
#include "joco/smooth.h"

namespace joco {

namespace {

void copy(double* dst, const double* src, int n) {
  if (n > 0) std::memcpy(dst, src, sizeof(double) * static_cast<size_t>(n));
}

// Advances the state by one time step: act with act_dot (clamped to actrange where limited), qvel
// with qacc, qpos with qvel (the new qvel when `qvel` is null: semi-implicit), and time. Keeps qacc
// as the next step's warmstart.
void advance(const Model& m, Data& d, const double* act_dot, const double* qacc,
             const double* qvel) {
  const double h = m.opt.timestep;
  for (int i = 0; i < m.nu; ++i) {
    const int a = i - (m.nu - m.na);
    if (a < 0) continue;
    d.act[a] += h * act_dot[a];
    if (m.actuator_actlimited[i]) {
      d.act[a] = std::clamp(d.act[a], m.actuator_actrange[2 * i], m.actuator_actrange[2 * i + 1]);
    }
  }
  for (int i = 0; i < m.nv; ++i) d.qvel[i] += h * qacc[i];
  integrate_pos(m, d.qpos, qvel ? qvel : d.qvel, h);
  d.time += h;
  copy(d.qacc_warmstart, d.qacc, m.nv);
}

}  // namespace

void euler(const Model& m, Data& d) {
  StackFrame frame(d);
  bool damped = false;
  for (int i = 0; i < m.nv && !damped; ++i) damped = m.dof_damping[i] > 0;
  if (!damped) {
    advance(m, d, d.act_dot, d.qacc, nullptr);
    return;
  }
  // Implicit joint damping: the velocity update uses (M + h B) qacc' = M qacc, B = diag(damping),
  // and M qacc is the total force qfrc_smooth + qfrc_constraint.
  const double h = m.opt.timestep;
  copy(d.qH, d.qM, m.nM);
  for (int i = 0; i < m.nv; ++i) d.qH[m.dof_Madr[i]] += h * m.dof_damping[i];
  factor_ld(m, d, d.qH, d.qH, d.qHDiagInv, nullptr);
  double* qacc = frame.doubles(m.nv);
  for (int i = 0; i < m.nv; ++i) qacc[i] = d.qfrc_smooth[i] + d.qfrc_constraint[i];
  solve_ld(m, qacc, qacc, 1, d.qH, d.qHDiagInv);
  advance(m, d, d.act_dot, qacc, nullptr);
}

void runge_kutta4(const Model& m, Data& d) {
  // Butcher tableau of the classic method.
  static constexpr double kA[3] = {0.5, 0.5,
                                   1.0};  // stage i+1 uses kA[i] times the slope of stage i
  static constexpr double kB[4] = {1.0 / 6, 1.0 / 3, 1.0 / 3, 1.0 / 6};
  const int nq = m.nq, nv = m.nv, na = m.na;
  const double h = m.opt.timestep;
  StackFrame frame(d);
  double* qpos0 = frame.doubles(nq);
  double* qvel0 = frame.doubles(nv);
  double* act0 = frame.doubles(na);
  double* slope_vel = frame.doubles(4 * nv);  // qvel of each stage
  double* slope_acc = frame.doubles(4 * nv);  // qacc of each stage
  double* slope_act = frame.doubles(4 * na);  // act_dot of each stage
  double* sum_vel = frame.doubles(nv);
  double* sum_acc = frame.doubles(nv);
  double* sum_act = frame.doubles(na);
  const double time0 = d.time;
  copy(qpos0, d.qpos, nq);
  copy(qvel0, d.qvel, nv);
  copy(act0, d.act, na);
  copy(slope_vel, d.qvel, nv);
  copy(slope_acc, d.qacc, nv);
  copy(slope_act, d.act_dot, na);
  for (int stage = 1; stage < 4; ++stage) {
    const double a = kA[stage - 1];
    const double* vel = slope_vel + (stage - 1) * nv;
    const double* acc = slope_acc + (stage - 1) * nv;
    const double* act_dot = slope_act + (stage - 1) * na;
    copy(d.qpos, qpos0, nq);
    integrate_pos(m, d.qpos, vel, a * h);
    for (int i = 0; i < nv; ++i) d.qvel[i] = qvel0[i] + a * h * acc[i];
    for (int i = 0; i < na; ++i) d.act[i] = act0[i] + a * h * act_dot[i];
    d.time = time0 + a * h;
    unchecked::forward_skip(m, d, kStageNone, true);  // forward_without_sensors, checked by step
    copy(slope_vel + stage * nv, d.qvel, nv);
    copy(slope_acc + stage * nv, d.qacc, nv);
    copy(slope_act + stage * na, d.act_dot, na);
  }
  std::fill(sum_vel, sum_vel + nv, 0.0);
  std::fill(sum_acc, sum_acc + nv, 0.0);
  std::fill(sum_act, sum_act + na, 0.0);
  for (int stage = 0; stage < 4; ++stage) {
    for (int i = 0; i < nv; ++i) {
      sum_vel[i] += kB[stage] * slope_vel[stage * nv + i];
      sum_acc[i] += kB[stage] * slope_acc[stage * nv + i];
    }
    for (int i = 0; i < na; ++i) sum_act[i] += kB[stage] * slope_act[stage * na + i];
  }
  copy(d.qpos, qpos0, nq);
  copy(d.qvel, qvel0, nv);
  copy(d.act, act0, na);
  d.time = time0;
  advance(m, d, sum_act, sum_acc, sum_vel);
}

namespace {

// Position of entry (row, col) in the row-compressed qDeriv/qLU layout (the column must be in the
// row's pattern: an ancestor, the dof itself or a descendant).
int d_index(const Data& d, int row, int col) {
  const int* begin = d.D_colind + d.D_rowadr[row];
  const int* end = begin + d.D_rownnz[row];
  return static_cast<int>(std::lower_bound(begin, end, col) - d.D_colind);
}

// A = M - h D with D = qDeriv, factorised in place in qLU by Gaussian elimination in reverse dof
// order: eliminating dof k touches only its ancestors, whose rows already hold every entry that
// appears (ancestors of k are ancestors or descendants of each other), so there is no fill-in.
// Afterwards row k holds the multipliers of its descendants and the upper factor on its
// ancestors and diagonal.
void factor_implicit(const Model& m, Data& d, double h) {
  for (int i = 0; i < m.nD; ++i) d.qLU[i] = -h * d.qDeriv[i];
  for (int i = 0; i < m.nv; ++i) {
    int adr = m.dof_Madr[i];
    for (int j = i; j >= 0; j = m.dof_parentid[j], ++adr) {
      d.qLU[d_index(d, i, j)] += d.qM[adr];
      if (j != i) d.qLU[d_index(d, j, i)] += d.qM[adr];
    }
  }
  for (int k = m.nv - 1; k >= 0; --k) {
    const double pivot = d.qLU[d_index(d, k, k)];
    for (int i = m.dof_parentid[k]; i >= 0; i = m.dof_parentid[i]) {
      const int ik = d_index(d, i, k);
      const double l = d.qLU[ik] / pivot;
      d.qLU[ik] = l;
      // row i -= l * row k, over row k's remaining columns: the ancestors of k.
      for (int j = m.dof_parentid[k]; j >= 0; j = m.dof_parentid[j]) {
        d.qLU[d_index(d, i, j)] -= l * d.qLU[d_index(d, k, j)];
      }
    }
  }
}

// x = inv(A) b with the factorisation of factor_implicit (x may alias b).
void solve_implicit(const Model& m, const Data& d, double* x, const double* b) {
  if (x != b) copy(x, b, m.nv);
  for (int k = m.nv - 1; k >= 0; --k) {
    for (int i = m.dof_parentid[k]; i >= 0; i = m.dof_parentid[i])
      x[i] -= d.qLU[d_index(d, i, k)] * x[k];
  }
  for (int k = 0; k < m.nv; ++k) {
    double sum = x[k];
    for (int j = m.dof_parentid[k]; j >= 0; j = m.dof_parentid[j])
      sum -= d.qLU[d_index(d, k, j)] * x[j];
    x[k] = sum / d.qLU[d_index(d, k, k)];
  }
}

// qH = M - h (D + D')/2 on M's lower-triangle layout, factorised as L'DL.
void factor_implicit_fast(const Model& m, Data& d, double h) {
  for (int i = 0; i < m.nv; ++i) {
    int adr = m.dof_Madr[i];
    for (int j = i; j >= 0; j = m.dof_parentid[j], ++adr) {
      const double sym = 0.5 * (d.qDeriv[d_index(d, i, j)] + d.qDeriv[d_index(d, j, i)]);
      d.qH[adr] = d.qM[adr] - h * sym;
    }
  }
  factor_ld(m, d, d.qH, d.qH, d.qHDiagInv, nullptr);
}

}  // namespace

void implicit(const Model& m, Data& d) {
  // (M - h D) qacc' = qfrc_smooth + qfrc_constraint, D = d(smooth forces)/d qvel: with the Coriolis
  // terms and an LU factorisation (implicit), or without them, symmetrised, with L'DL
  // (implicitfast).
  const double h = m.opt.timestep;
  StackFrame frame(d);
  double* qacc = frame.doubles(m.nv);
  for (int i = 0; i < m.nv; ++i) qacc[i] = d.qfrc_smooth[i] + d.qfrc_constraint[i];
  if (m.opt.integrator == kIntImplicit) {
    smooth_velocity_derivative(m, d, true);
    factor_implicit(m, d, h);
    solve_implicit(m, d, qacc, qacc);
  } else {
    smooth_velocity_derivative(m, d, false);
    factor_implicit_fast(m, d, h);
    solve_ld(m, qacc, qacc, 1, d.qH, d.qHDiagInv);
  }
  advance(m, d, d.act_dot, qacc, nullptr);
}

}  // namespace joco
