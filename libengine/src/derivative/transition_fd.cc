// Transition Jacobians of step by finite differences (computation chapter, "Derivatives"): each
// column steps once (twice when centred) from a perturbed state or control, recomputing only the
// stages the perturbation reaches, and always from the caller's solver warmstart.
#include <algorithm>
#include <cstring>

#include "derivative/fd_support.h"
#include "joco/derivative.h"
#include "joco/forward.h"
#include "joco/smooth.h"
#include "joco/state.h"

namespace joco {

namespace {

bool in_range(double x1, double x2, const double* range) {
  return x1 >= range[0] && x1 <= range[1] && x2 >= range[0] && x2 <= range[1];
}

void set_column(double* matrix, int rows, int cols, int col, const double* values) {
  for (int i = 0; i < rows; ++i) matrix[static_cast<size_t>(i) * cols + col] = values[i];
}

// What each evaluation starts from: the caller's state, restored after every evaluation.
constexpr unsigned kSaved = kStateFullPhysics | kStateWarmstart | kStateCtrl;

// Everything transition_fd keeps on the stack.
struct Workspace {
  int nq, nv, na, nu, ns, nx, nstate, nsaved;
  double* saved;       // the caller's state (kSaved)
  double* next;        // physics state after the unperturbed step (kStatePhysics)
  double* next_plus;   // after the step from the positive nudge
  double* next_minus;  // after the step from the negative nudge
  double* sensor;      // sensordata of the unperturbed step
  double* sensor_plus;
  double* sensor_minus;
  double* dx;  // one column of A or B
  double* dy;  // one column of C or D
  double* dq;  // a unit tangent vector (position nudges)

  Workspace(const Model& m, StackFrame& frame)
      : nq(m.nq),
        nv(m.nv),
        na(m.na),
        nu(m.nu),
        ns(m.nsensordata),
        nx(2 * m.nv + m.na),
        nstate(state_size(m, kStatePhysics)),
        nsaved(state_size(m, kSaved)) {
    saved = frame.doubles(nsaved);
    next = frame.doubles(nstate);
    next_plus = frame.doubles(nstate);
    next_minus = frame.doubles(nstate);
    sensor = frame.doubles(ns);
    sensor_plus = frame.doubles(ns);
    sensor_minus = frame.doubles(ns);
    dx = frame.doubles(nx);
    dy = frame.doubles(ns);
    dq = frame.doubles(nv);
  }

  static int doubles(const Model& m) {
    const int nstate = state_size(m, kStatePhysics);
    return state_size(m, kSaved) + 3 * nstate + 3 * m.nsensordata + (2 * m.nv + m.na) +
           m.nsensordata + m.nv;
  }
};

}  // namespace

int transition_fd_stack(const Model& m) { return Workspace::doubles(m); }

void transition_fd(const Model& m, Data& d, double eps, bool centered, double* A, double* B,
                   double* C, double* D) {
  check_data(m, d);
  StackFrame frame(d);
  Workspace w(m, frame);
  const bool sensors = (C || D) && w.ns > 0;
  // RK4's extra evaluations overwrite the position and velocity stages: nothing can be kept.
  const bool can_skip = m.opt.integrator != kIntRK4;

  // Every evaluation restores the caller's state, so d holds it between evaluations: the nudges
  // below start from d's values.
  get_state(m, d, w.saved, kSaved);
  // One step from the current (perturbed) inputs: the next state and the sensors into x, y.
  auto evaluate = [&](Stage skip, double* x, double* y) {
    step1_skip(m, d, can_skip ? skip : kStageNone, !sensors);
    step2(m, d);
    get_state(m, d, x, kStatePhysics);
    if (sensors) fd::copy(y, d.sensordata, w.ns);
    set_state(m, d, w.saved, kSaved);
  };
  // The column from whichever nudges were made: centred, forward or backward.
  auto difference = [&](bool plus, bool minus) {
    if (plus && minus) {
      fd::state_difference(m, w.dx, w.next_minus, w.next_plus, 2 * eps);
      fd::difference(w.dy, w.sensor_minus, w.sensor_plus, w.ns, 2 * eps);
    } else if (plus) {
      fd::state_difference(m, w.dx, w.next, w.next_plus, eps);
      fd::difference(w.dy, w.sensor, w.sensor_plus, w.ns, eps);
    } else if (minus) {
      fd::state_difference(m, w.dx, w.next_minus, w.next, eps);
      fd::difference(w.dy, w.sensor_minus, w.sensor, w.ns, eps);
    } else {
      std::fill(w.dx, w.dx + w.nx, 0.0);
      std::fill(w.dy, w.dy + w.ns, 0.0);
    }
    if (!sensors) std::fill(w.dy, w.dy + w.ns, 0.0);
  };

  evaluate(kStageNone, w.next, w.sensor);

  // Controls: the position and velocity stages stand. A limited control is nudged only where
  // both it and its nudged value lie in ctrlrange (actuation clamps beyond it: a kink).
  if (B || D) {
    for (int i = 0; i < w.nu; ++i) {
      const bool limited = m.actuator_ctrllimited[i];
      const double* range = m.actuator_ctrlrange + 2 * i;
      const double u = d.ctrl[i];
      const bool plus = !limited || in_range(u, u + eps, range);
      if (plus) {
        d.ctrl[i] = u + eps;
        evaluate(kStageVel, w.next_plus, w.sensor_plus);
      }
      const bool minus = (centered || !plus) && (!limited || in_range(u - eps, u, range));
      if (minus) {
        d.ctrl[i] = u - eps;
        evaluate(kStageVel, w.next_minus, w.sensor_minus);
      }
      difference(plus, minus);
      if (B) set_column(B, w.nx, w.nu, i, w.dx);
      if (D) set_column(D, w.ns, w.nu, i, w.dy);
    }
  }

  if (!A && !C) return;

  // Activations: only actuation and what follows depend on them.
  for (int i = 0; i < w.na; ++i) {
    const double a = d.act[i];
    d.act[i] = a + eps;
    evaluate(kStageVel, w.next_plus, w.sensor_plus);
    if (centered) {
      d.act[i] = a - eps;
      evaluate(kStageVel, w.next_minus, w.sensor_minus);
    }
    difference(true, centered);
    if (A) set_column(A, w.nx, w.nx, 2 * w.nv + i, w.dx);
    if (C) set_column(C, w.ns, w.nx, 2 * w.nv + i, w.dy);
  }

  // Velocities: the position stage stands.
  for (int i = 0; i < w.nv; ++i) {
    const double v = d.qvel[i];
    d.qvel[i] = v + eps;
    evaluate(kStagePos, w.next_plus, w.sensor_plus);
    if (centered) {
      d.qvel[i] = v - eps;
      evaluate(kStagePos, w.next_minus, w.sensor_minus);
    }
    difference(true, centered);
    if (A) set_column(A, w.nx, w.nx, w.nv + i, w.dx);
    if (C) set_column(C, w.ns, w.nx, w.nv + i, w.dy);
  }

  // Positions: along one dof of the tangent space, everything recomputed.
  std::fill(w.dq, w.dq + w.nv, 0.0);
  for (int i = 0; i < w.nv; ++i) {
    w.dq[i] = 1;
    integrate_pos(m, d.qpos, w.dq, eps);
    evaluate(kStageNone, w.next_plus, w.sensor_plus);
    if (centered) {
      integrate_pos(m, d.qpos, w.dq, -eps);
      evaluate(kStageNone, w.next_minus, w.sensor_minus);
    }
    w.dq[i] = 0;
    difference(true, centered);
    if (A) set_column(A, w.nx, w.nx, i, w.dx);
    if (C) set_column(C, w.ns, w.nx, i, w.dy);
  }
}

}  // namespace joco
