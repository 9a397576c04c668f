// Noslip (modeling chapter, "Algorithms and related settings"): after the main solver, PGS sweeps
// over the friction forces alone, friction loss and the friction of contacts, on the dual without
// the regulariser (A instead of A + R), the normal forces held, so that friction removes the slip
// that soft contacts allow. Pyramid edges come in pairs whose sum (the normal force) is kept.
#include <algorithm>
#include <cmath>

#include "joco/constraint.h"
#include "joco/solver.h"
#include "solver/dual_problem.h"
#include "solver/stopping.h"

namespace joco {

namespace {

// A(i, j) = AR(i, j) without the regulariser.
inline double a_at(const dual::Rows& ar, const Data& d, int i, int j) {
  return ar.at(i, j) - (i == j ? d.efc_R[i] : 0);
}

// Residual of row i under A: (A f + b)_i.
inline double residual(const dual::Rows& ar, const Data& d, int i, const double* f) {
  return ar.dot(i, f) - d.efc_R[i] * f[i] + d.efc_b[i];
}

}  // namespace

void solve_noslip(const Model& m, Data& d, int max_iterations) {
  const int nefc = d.nefc, ne = d.ne, nf = d.nf;
  const dual::Rows ar(m, d);
  const double scale = 1 / (m.stat.meaninertia * std::max(1, m.nv));
  const bool pyramidal = is_pyramidal(m);
  double* f = d.efc_force;

  int iter = 0;
  while (iter < max_iterations) {
    double improvement = 0;
    if (iter == 0) {
      // as MuJoCo 2.2.2 counts it, the first sweep improves on the main solver's cost, which has
      // the regulariser: 0.5 f' R f more than noslip's
      for (int i = 0; i < nefc; ++i) improvement += 0.5 * d.efc_R[i] * f[i] * f[i];
    }
    // friction loss: box-constrained scalar updates
    for (int i = ne; i < ne + nf; ++i) {
      const double aii = a_at(ar, d, i, i);
      if (aii < kMinVal) continue;
      const double res = residual(ar, d, i, f);
      const double old = f[i];
      const double bound = d.efc_frictionloss[i];
      const double x = std::clamp(old - res / aii, -bound, bound);
      f[i] = x;
      const double delta = x - old;
      improvement -= delta * res + 0.5 * delta * delta * aii;
    }
    // contacts' friction
    for (int c = 0; c < d.ncon; ++c) {
      const Contact& con = d.contact[c];
      const int adr = con.efc_address;
      if (adr < 0 || con.dim == 1) continue;
      const int dim = con.dim;
      if (pyramidal) {
        // each pair (n + mu t, n - mu t): move force between the two, keeping their sum
        for (int k = 0; k < dim - 1; ++k) {
          const int i = adr + 2 * k, j = i + 1;
          const double sum = f[i] + f[j];
          const double curv = a_at(ar, d, i, i) + a_at(ar, d, j, j) - 2 * a_at(ar, d, i, j);
          if (curv < kMinVal) continue;
          const double slope = residual(ar, d, i, f) - residual(ar, d, j, f);
          // f_i = sum/2 + y, f_j = sum/2 - y with y in [-sum/2, sum/2]
          const double y_old = 0.5 * (f[i] - f[j]);
          const double y = std::clamp(y_old - slope / curv, -0.5 * sum, 0.5 * sum);
          const double delta = y - y_old;
          f[i] = 0.5 * sum + y;
          f[j] = 0.5 * sum - y;
          improvement -= delta * slope + 0.5 * delta * delta * curv;
        }
      } else {
        // friction rows within the ellipse of the normal force
        const int n = dim - 1;
        double at[25], res[5], g[5], old[5];
        for (int r = 0; r < n; ++r) {
          old[r] = f[adr + 1 + r];
          for (int q = 0; q < n; ++q) at[r * n + q] = a_at(ar, d, adr + 1 + r, adr + 1 + q);
        }
        for (int r = 0; r < n; ++r) {
          res[r] = residual(ar, d, adr + 1 + r, f);
          g[r] = res[r];
          for (int q = 0; q < n; ++q) g[r] -= at[r * n + q] * old[q];
        }
        double x[5];
        dual::ellipse_qp(x, at, g, con.friction, f[adr], n);
        const double change = dual::block_cost_change(at, res, old, x, n);
        // an update that raises the cost is undone, as MuJoCo 2.2.2 does: the ellipse QP stops
        // short of the optimum of a badly scaled ellipse (torsion and rolling friction far below
        // sliding), and a saturated contact is often optimal already (its regulariser is normal
        // to the ellipse)
        if (change > dual::kCostRise) continue;
        for (int r = 0; r < n; ++r) f[adr + 1 + r] = x[r];
        improvement -= change;
      }
    }
    improvement *= scale;
    const int slot = d.solver_iter + iter;
    if (slot < kNSOLVER) {
      d.solver[slot] = SolverStat{};
      d.solver[slot].improvement = improvement;
      d.solver[slot].nactive = nefc;
    }
    ++iter;
    if (improvement_ends_iterations(improvement, m.opt.noslip_tolerance)) break;
  }
  d.solver_iter += iter;  // (MuJoCo 2.2.2 counts noslip iterations with the solver's)
  dual::set_states(m, d);
  dual::finish(m, d);
}

}  // namespace joco
