// The constraint stage of forward dynamics: the linear term of the dual, the warmstart, the solver
// selected by opt.solver and noslip (computation chapter, "Constraint solver"; simulation pipeline,
// forward dynamics step 20).
#include <cstring>

#include "joco/constraint.h"
#include "joco/smooth.h"
#include "joco/solver.h"
#include "solver/dual.h"

namespace joco {

namespace {

bool disabled(const Model& m, int flag) { return (m.opt.disableflags & flag) != 0; }

// The primal cost 0.5 (x - qacc_smooth)' M (x - qacc_smooth) + s(J x - aref) at x = d.qacc,
// leaving efc_force, efc_state and qfrc_constraint as the constraint update sets them.
// (jar: nefc, work: 2 nv)
double primal_cost(const Model& m, Data& d, double* jar, double* work) {
  mul_jac_vec(m, d, jar, d.qacc);
  for (int i = 0; i < d.nefc; ++i) jar[i] -= d.efc_aref[i];
  double s = 0;
  constraint_update(m, d, jar, &s, false);
  double* dx = work;
  double* mdx = work + m.nv;
  for (int i = 0; i < m.nv; ++i) dx[i] = d.qacc[i] - d.qacc_smooth[i];
  mul_m(m, d, mdx, dx);
  double gauss = 0;
  for (int i = 0; i < m.nv; ++i) gauss += dx[i] * mdx[i];
  return 0.5 * gauss + s;
}

void warmstart(const Model& m, Data& d) {
  const int nv = m.nv;
  const size_t bytes = sizeof(double) * static_cast<size_t>(nv);
  if (disabled(m, kDisableWarmstart)) {
    std::memcpy(d.qacc, d.qacc_smooth, bytes);
    std::memset(d.efc_force, 0, sizeof(double) * static_cast<size_t>(d.nefc));
    return;
  }
  StackFrame frame(d);
  double* jar = frame.doubles(d.nefc);
  double* work = frame.doubles(2 * nv);
  std::memcpy(d.qacc, d.qacc_warmstart, bytes);
  const double cost_warm = primal_cost(m, d, jar, work);
  if (m.opt.solver == kSolverPGS) {
    // the forces of the warmstart acceleration, unless zero forces are better for the dual
    const dual::Rows ar(m, d);
    if (dual::cost(ar, d.efc_b, d.efc_force) > 0) {
      std::memset(d.efc_force, 0, sizeof(double) * static_cast<size_t>(d.nefc));
    }
    return;
  }
  std::memcpy(d.qacc, d.qacc_smooth, bytes);
  const double cost_smooth = primal_cost(m, d, jar, work);
  if (cost_warm < cost_smooth) std::memcpy(d.qacc, d.qacc_warmstart, bytes);
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
  warmstart(m, d);
  switch (m.opt.solver) {
    case kSolverPGS: solve_pgs(m, d, m.opt.iterations); break;
    case kSolverCG: solve_cg(m, d, m.opt.iterations); break;
    default: solve_newton(m, d, m.opt.iterations); break;
  }
  if (m.opt.noslip_iterations > 0) solve_noslip(m, d, m.opt.noslip_iterations);
  // the next step starts from this solution (MuJoCo 2.2.2 saves it in every forward)
  std::memcpy(d.qacc_warmstart, d.qacc, bytes);
}

}  // namespace joco
