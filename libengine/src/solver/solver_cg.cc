// The conjugate gradient solver on the reduced primal problem (computation chapter,
// "Algorithms"): non-linear CG with the Polak-Ribiere-Plus formula, preconditioned by M (the
// search direction is built from inv(M) grad), and exact line search.
#include <algorithm>
#include <cmath>
#include <cstring>

#include "joco/smooth.h"
#include "joco/solver.h"
#include "math/vec.h"
#include "solver/primal_problem.h"
#include "solver/stopping.h"

namespace joco {

void solve_cg(const Model& m, Data& d, int max_iterations, const primal::Start& start) {
  const int nv = m.nv;
  StackFrame frame(d);
  primal::Context c;
  primal::setup(c, m, d, frame, start);
  double* old_grad = frame.doubles(nv);
  double* old_mgrad = frame.doubles(nv);

  primal::update_constraints(c, false);
  primal::update_gradient(c);
  solve_m(m, d, c.mgrad, c.grad, 1);
  for (int i = 0; i < nv; ++i) c.search[i] = -c.mgrad[i];

  int iter = 0;
  while (iter < max_iterations) {
    const double old_cost = c.cost;
    // (a zero step still counts as an iteration: its improvement of 0 ends the loop)
    double alpha;
    if (!primal::line_search(c, m.opt.tolerance, &alpha)) break;
    primal::move(c, alpha);
    std::memcpy(old_grad, c.grad, sizeof(double) * static_cast<size_t>(nv));
    std::memcpy(old_mgrad, c.mgrad, sizeof(double) * static_cast<size_t>(nv));
    primal::update_constraints(c, false);
    primal::update_gradient(c);
    const double gnorm2 = math::dot(c.grad, c.grad, nv);
    const double improvement = c.scale * (old_cost - c.cost);
    const double gradient = c.scale * std::sqrt(gnorm2);
    primal::record(c, iter, improvement, gradient, 0);
    ++iter;
    if (improvement_ends_iterations(improvement, m.opt.tolerance) || gradient < m.opt.tolerance ||
        iter >= max_iterations) {
      break;
    }

    // The next search direction (not made after the last iteration, which nothing would read).
    // Polak-Ribiere-Plus: beta = max(0, g' (Mg - Mg_old) / (g_old' Mg_old))
    // (each as mju_dot sums it, the difference of the preconditioned gradients formed first:
    // MuJoCo's rounding)
    solve_m(m, d, c.mgrad, c.grad, 1);
    for (int i = 0; i < nv; ++i) c.scratch[i] = c.mgrad[i] - old_mgrad[i];
    const double num = math::dot(c.grad, c.scratch, nv);
    const double den = math::dot(old_grad, old_mgrad, nv);
    const double beta = den > kMinVal ? std::max(0.0, num / den) : 0;
    for (int i = 0; i < nv; ++i) c.search[i] = -c.mgrad[i] + beta * c.search[i];
  }
  d.solver_iter = iter;
  d.solver_nnz = 0;
}

void solve_cg(const Model& m, Data& d, int max_iterations) {
  solve_cg(m, d, max_iterations, primal::Start{});
}

}  // namespace joco
