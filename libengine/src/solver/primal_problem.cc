// The reduced primal problem shared by CG and Newton: state of the iteration, constraint update
// and gradient.
#include "solver/primal_problem.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "joco/constraint.h"
#include "joco/smooth.h"

namespace joco::primal {

void setup(Context& c, const Model& m, Data& d, StackFrame& frame, const Start& start) {
  c.m = &m;
  c.d = &d;
  c.nv = m.nv;
  c.nefc = d.nefc;
  c.sparse = is_sparse(m);
  c.elliptic = !is_pyramidal(m);
  c.scale = 1 / (m.stat.meaninertia * std::max(1, m.nv));
  c.jaref = frame.doubles(c.nefc);
  c.jv = frame.doubles(c.nefc);
  c.quad = frame.doubles(3 * static_cast<int64_t>(c.nefc));
  c.packed = frame.doubles(5 * static_cast<int64_t>(c.nefc));
  c.cones = frame.ints(c.nefc);
  c.old_state = frame.ints(c.nefc);
  c.ma = frame.doubles(c.nv);
  c.mv = frame.doubles(c.nv);
  c.grad = frame.doubles(c.nv);
  c.mgrad = frame.doubles(c.nv);
  c.search = frame.doubles(c.nv);
  c.scratch = frame.doubles(c.nv);
  if (start.ma) {
    std::memcpy(c.ma, start.ma, sizeof(double) * static_cast<size_t>(c.nv));
  } else {
    mul_m(m, d, c.ma, d.qacc);
  }
  if (start.jaref) {
    std::memcpy(c.jaref, start.jaref, sizeof(double) * static_cast<size_t>(c.nefc));
  } else {
    mul_jac_vec(m, d, c.jaref, d.qacc);
    for (int i = 0; i < c.nefc; ++i) c.jaref[i] -= d.efc_aref[i];
  }
  // no previous states: every row counts as changed in the first update
  for (int i = 0; i < c.nefc; ++i) c.old_state[i] = -1;
  c.updated = false;
  c.start_forces_known = start.forces_known;
  c.start_constraint_cost = start.constraint_cost;
}

void update_constraints(Context& c, bool cone_hessian) {
  const Model& m = *c.m;
  Data& d = *c.d;
  if (c.updated) {
    std::memcpy(c.old_state, d.efc_state, sizeof(int) * static_cast<size_t>(c.nefc));
  }
  double s = 0;
  if (!c.updated && c.start_forces_known && !cone_hessian) {
    // the warmstart left the forces at this qacc: only J' f is missing
    s = c.start_constraint_cost;
    mul_jac_t_vec(m, d, d.qfrc_constraint, d.efc_force);
  } else {
    constraint_update(m, d, c.jaref, &s, cone_hessian);
  }
  c.updated = true;
  double gauss = 0;
  for (int i = 0; i < c.nv; ++i) {
    gauss += (c.ma[i] - d.qfrc_smooth[i]) * (d.qacc[i] - d.qacc_smooth[i]);
  }
  c.gauss = 0.5 * gauss;
  c.cost = c.gauss + s;
  c.nactive = 0;
  c.nchange = 0;
  for (int i = 0; i < c.nefc; ++i) {
    c.nactive += d.efc_state[i] != kCnstrStateSatisfied;
    c.nchange += d.efc_state[i] != c.old_state[i];
  }
}

void update_gradient(Context& c) {
  const Data& d = *c.d;
  for (int i = 0; i < c.nv; ++i) c.grad[i] = c.ma[i] - d.qfrc_smooth[i] - d.qfrc_constraint[i];
}

void move(Context& c, double alpha) {
  Data& d = *c.d;
  for (int i = 0; i < c.nv; ++i) {
    d.qacc[i] += alpha * c.search[i];
    c.ma[i] += alpha * c.mv[i];
  }
  for (int i = 0; i < c.nefc; ++i) c.jaref[i] += alpha * c.jv[i];
}

void record(Context& c, int iter, double improvement, double gradient, int nupdate) {
  if (iter >= kNSOLVER) return;
  SolverStat& s = c.d->solver[iter];
  s.improvement = improvement;
  s.gradient = gradient;
  s.lineslope = c.lineslope;
  s.nactive = c.nactive;
  s.nchange = c.nchange;
  s.neval = c.neval;
  s.nupdate = nupdate;
}

}  // namespace joco::primal
