// The constraint stage of forward dynamics: the linear term of the dual, the warmstart, the solver
// selected by opt.solver and noslip (computation chapter, "Constraint solver"; simulation pipeline,
// forward dynamics step 20).
#include <cstring>

#include "joco/constraint.h"
#include "joco/smooth.h"
#include "joco/solver.h"
#include "solver/dual_problem.h"
#include "solver/primal_problem.h"

namespace joco {

namespace {

bool disabled(const Model& m, int flag) { return (m.opt.disableflags & flag) != 0; }

// The primal cost 0.5 (x - qacc_smooth)' M (x - qacc_smooth) + s(J x - aref) at x = d.qacc,
// leaving jar = J x - aref (nefc), ma = M x (nv), and efc_force, efc_state and (with
// joint_forces) qfrc_constraint as the constraint update sets them. The Gauss term is taken as the
// solvers take it, from M x and M qacc_smooth = qfrc_smooth, so that they can start from jar and
// ma.
double primal_cost(const Model& m, Data& d, double* jar, double* ma, bool joint_forces = true,
                   double* constraint_cost = nullptr) {
  mul_jac_vec(m, d, jar, d.qacc);
  for (int i = 0; i < d.nefc; ++i) jar[i] -= d.efc_aref[i];
  double s = 0;
  if (joint_forces) {
    constraint_update(m, d, jar, &s, false);
  } else {
    constraint_forces(m, d, jar, &s, false);
  }
  if (constraint_cost) *constraint_cost = s;
  mul_m(m, d, ma, d.qacc);
  double gauss = 0;
  for (int i = 0; i < m.nv; ++i) {
    gauss += (ma[i] - d.qfrc_smooth[i]) * (d.qacc[i] - d.qacc_smooth[i]);
  }
  return 0.5 * gauss + s;
}

// The initial point of the solver. For the primal solvers, also what their setup would otherwise
// compute again: jar = J qacc - aref at the chosen qacc (nefc), and M qacc in ma (nv) when the
// warmstart was chosen (the returned start's ma is nullptr otherwise).
primal::Start warmstart(const Model& m, Data& d, double* jar, double* ma) {
  const int nv = m.nv;
  const size_t bytes = sizeof(double) * static_cast<size_t>(nv);
  const size_t efc_bytes = sizeof(double) * static_cast<size_t>(d.nefc);
  if (disabled(m, kDisableWarmstart)) {
    std::memcpy(d.qacc, d.qacc_smooth, bytes);
    std::memset(d.efc_force, 0, efc_bytes);
    std::memcpy(jar, d.efc_b, efc_bytes);
    return {jar, nullptr};
  }
  std::memcpy(d.qacc, d.qacc_warmstart, bytes);
  if (m.opt.solver == kSolverPGS) {
    // the forces of the warmstart acceleration, unless zero forces are better for the dual
    primal_cost(m, d, jar, ma);
    const dual::Rows ar(m, d);
    if (dual::cost(ar, d.efc_b, d.efc_force) > 0) std::memset(d.efc_force, 0, efc_bytes);
    return {};
  }
  // Only the costs are needed here, without J' f. At qacc_smooth, jar is efc_b and the Gauss term
  // is 0. The warmstart's forces come last, so that they are in place when it is chosen.
  double cost_smooth = 0;
  constraint_forces(m, d, d.efc_b, &cost_smooth, false);
  double constraint_cost_warm = 0;
  const double cost_warm = primal_cost(m, d, jar, ma, false, &constraint_cost_warm);
  if (!(cost_warm < cost_smooth)) {
    std::memcpy(d.qacc, d.qacc_smooth, bytes);
    std::memcpy(jar, d.efc_b, efc_bytes);
    return {jar, nullptr};
  }
  return {jar, ma, true, constraint_cost_warm};
}

}  // namespace

void solve_constraint(const Model& m, Data& d) {
  const int nv = m.nv;
  d.solver_iter = 0;
  const size_t bytes = sizeof(double) * static_cast<size_t>(nv);
  if (d.nefc == 0) {
    std::memcpy(d.qacc, d.qacc_smooth, bytes);
    std::memset(d.qfrc_constraint, 0, bytes);
    std::memcpy(d.qacc_warmstart, d.qacc, bytes);
    return;
  }
  mul_jac_vec(m, d, d.efc_b, d.qacc_smooth);
  for (int i = 0; i < d.nefc; ++i) d.efc_b[i] -= d.efc_aref[i];
  StackFrame frame(d);
  double* jar = frame.doubles(d.nefc);
  double* ma = frame.doubles(nv);
  const primal::Start start = warmstart(m, d, jar, ma);
  switch (m.opt.solver) {
    case kSolverPGS: solve_pgs(m, d, m.opt.iterations); break;
    case kSolverCG: solve_cg(m, d, m.opt.iterations, start); break;
    default: solve_newton(m, d, m.opt.iterations, start); break;
  }
  if (m.opt.noslip_iterations > 0) solve_noslip(m, d, m.opt.noslip_iterations);
  // the next step starts from this solution (MuJoCo 2.2.2 saves it in every forward)
  std::memcpy(d.qacc_warmstart, d.qacc, bytes);
}

}  // namespace joco
