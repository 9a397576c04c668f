// Projected Gauss-Seidel on the dual problem (computation chapter, "Algorithms"): one sweep sets
// each scalar force to its optimum given the others, projected on its bounds. An elliptic contact
// is updated as a block along axes adapted to its cone: first along the ray from the cone's tip
// through the current force, then its friction forces within the ellipse that the plane of the
// current normal force cuts from the cone.
#include <algorithm>
#include <cmath>
#include <cstring>

#include "joco/solver.h"
#include "solver/dual_problem.h"
#include "solver/stopping.h"

namespace joco {

namespace {

// One elliptic contact at rows adr..adr+dim with its block `a` of AR (dim x dim): updates f in
// place; returns the cost decrease.
double elliptic_block(const dual::Rows& ar, const Data& d, const Contact& con, int adr,
                      const double* a, double* f) {
  const int dim = con.dim;
  double res[6], old[6];
  for (int r = 0; r < dim; ++r) {
    res[r] = d.efc_b[adr + r] + ar.dot(adr + r, f);
    old[r] = f[adr + r];
  }
  double* x = f + adr;
  // cost of the block as a function of x, the other forces fixed: 0.5 x'Ax + x'(res - A old)
  double g[6];
  for (int r = 0; r < dim; ++r) {
    double s = res[r];
    for (int q = 0; q < dim; ++q) s -= a[r * dim + q] * old[q];
    g[r] = s;
  }

  if (x[0] > 0) {
    // along the ray t * old, t >= 0
    double vav = 0, vg = 0;
    for (int r = 0; r < dim; ++r) {
      double s = 0;
      for (int q = 0; q < dim; ++q) s += a[r * dim + q] * old[q];
      vav += old[r] * s;
      vg += old[r] * g[r];
    }
    const double t = vav > kMinVal ? std::max(0.0, -vg / vav) : 1;
    for (int r = 0; r < dim; ++r) x[r] = t * old[r];
  } else {
    // no normal force: the normal alone, friction zero
    for (int r = 0; r < dim; ++r) x[r] = 0;
    x[0] = std::max(0.0, -g[0] / a[0]);
  }

  // friction within the ellipse of the current normal force
  double at[25], bt[5];
  const int n = dim - 1;
  for (int r = 0; r < n; ++r) {
    bt[r] = g[1 + r] + a[(1 + r) * dim] * x[0];
    for (int q = 0; q < n; ++q) at[r * n + q] = a[(1 + r) * dim + 1 + q];
  }
  dual::ellipse_qp(x + 1, at, bt, con.friction, x[0], n);

  // (an update that raises the cost is undone, see dual_problem.h)
  const double change = dual::block_cost_change(a, res, old, x, dim);
  if (change > dual::kCostRise) {
    for (int r = 0; r < dim; ++r) x[r] = old[r];
    return 0;
  }
  return -change;
}

}  // namespace

void solve_pgs(const Model& m, Data& d, int max_iterations) {
  const int nefc = d.nefc, ne = d.ne, nf = d.nf;
  const dual::Rows ar(m, d);
  const double scale = 1 / (m.stat.meaninertia * std::max(1, m.nv));
  double* f = d.efc_force;
  StackFrame frame(d);
  double* diag_inv = frame.doubles(nefc);
  for (int i = 0; i < nefc; ++i) diag_inv[i] = 1 / ar.at(i, i);
  int* old_state = frame.ints(nefc);  // (the states of the warmstart, to count changes)
  // the diagonal blocks of the elliptic contacts, by contact
  double* blocks = frame.doubles(36 * static_cast<int64_t>(d.ncon));
  for (int c = 0; c < d.ncon; ++c) {
    const Contact& con = d.contact[c];
    const int adr = con.efc_address;
    if (adr < 0 || d.efc_type[adr] != kCnstrContactElliptic) continue;
    for (int r = 0; r < con.dim; ++r) {
      for (int q = 0; q < con.dim; ++q) blocks[36 * c + r * con.dim + q] = ar.at(adr + r, adr + q);
    }
  }

  int iter = 0;
  while (iter < max_iterations) {
    std::memcpy(old_state, d.efc_state, sizeof(int) * static_cast<size_t>(nefc));
    double improvement = 0;
    for (int i = 0; i < nefc; ++i) {
      if (d.efc_type[i] == kCnstrContactElliptic) {
        const int c = d.efc_id[i];
        const Contact& con = d.contact[c];
        improvement += elliptic_block(ar, d, con, i, blocks + 36 * c, f);
        i += con.dim - 1;
        continue;
      }
      const double res = d.efc_b[i] + ar.dot(i, f);
      const double old = f[i];
      double x = old - res * diag_inv[i];
      if (i >= ne && i < ne + nf) {
        const double bound = d.efc_frictionloss[i];
        x = std::clamp(x, -bound, bound);
      } else if (i >= ne + nf) {
        x = std::max(0.0, x);
      }
      f[i] = x;
      const double delta = x - old;
      improvement -= delta * res + 0.5 * delta * delta / diag_inv[i];
    }
    improvement *= scale;
    dual::set_states(m, d);
    if (iter < kNSOLVER) {
      SolverStat& s = d.solver[iter];
      s = SolverStat{};
      s.improvement = improvement;
      for (int i = 0; i < nefc; ++i) {
        s.nactive += d.efc_state[i] != kCnstrStateSatisfied;
        s.nchange += d.efc_state[i] != old_state[i];
      }
    }
    ++iter;
    if (improvement_ends_iterations(improvement, m.opt.tolerance)) break;
  }
  d.solver_iter = iter;
  dual::finish(m, d);
}

}  // namespace joco
