// The dual problem shared by PGS and noslip.
#include "solver/dual_problem.h"

#include <cmath>
#include <cstring>

#include "joco/constraint.h"
#include "joco/smooth.h"

namespace joco::dual {

Rows::Rows(const Model& m, const Data& d)
    : ar(d.efc_AR),
      rownnz(d.efc_AR_rownnz),
      rowadr(d.efc_AR_rowadr),
      colind(d.efc_AR_colind),
      nefc(d.nefc),
      sparse(is_sparse(m)) {}

double Rows::dot(int i, const double* f) const {
  double s = 0;
  if (sparse) {
    const double* v = ar + rowadr[i];
    const int* c = colind + rowadr[i];
    for (int k = 0; k < rownnz[i]; ++k) s += v[k] * f[c[k]];
  } else {
    const double* v = ar + static_cast<size_t>(i) * nefc;
    for (int k = 0; k < nefc; ++k) s += v[k] * f[k];
  }
  return s;
}

double Rows::at(int i, int j) const {
  if (!sparse) return ar[static_cast<size_t>(i) * nefc + j];
  const int* c = colind + rowadr[i];
  int lo = 0, hi = rownnz[i];
  while (lo < hi) {
    const int mid = (lo + hi) / 2;
    if (c[mid] < j) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  return lo < rownnz[i] && c[lo] == j ? ar[rowadr[i] + lo] : 0;
}

namespace {

// Below this determinant of the scaled 2x2 or 3x3 system MuJoCo 2.2.2's ellipse QP gives up and
// returns zero friction (so a condim 3 contact with friction 0.001 has none; observed with PGS).
constexpr double kMinDet = 1e-10;

// Solves (A + lambda I) y = rhs for a small symmetric positive definite N x N matrix A and sets
// *yhy = y' inv(A + lambda I) y. Two and three unknowns by the closed-form inverse (false when its
// determinant is below kMinDet), more by Cholesky.
template <int N>
bool small_solve(const double* A, double lambda, const double* rhs, double* y, double* yhy) {
  if constexpr (N <= 3) {
    double p[N * N], inv[N * N];
    for (int i = 0; i < N * N; ++i) p[i] = A[i];
    for (int i = 0; i < N; ++i) p[i * N + i] += lambda;
    double det;
    if constexpr (N == 1) {
      det = p[0];
      inv[0] = 1;
    } else if constexpr (N == 2) {
      det = p[0] * p[3] - p[1] * p[2];
      inv[0] = p[3];
      inv[1] = -p[1];
      inv[2] = -p[2];
      inv[3] = p[0];
    } else {
      // cofactors
      inv[0] = p[4] * p[8] - p[5] * p[7];
      inv[1] = p[2] * p[7] - p[1] * p[8];
      inv[2] = p[1] * p[5] - p[2] * p[4];
      inv[3] = p[5] * p[6] - p[3] * p[8];
      inv[4] = p[0] * p[8] - p[2] * p[6];
      inv[5] = p[2] * p[3] - p[0] * p[5];
      inv[6] = p[3] * p[7] - p[4] * p[6];
      inv[7] = p[1] * p[6] - p[0] * p[7];
      inv[8] = p[0] * p[4] - p[1] * p[3];
      det = p[0] * inv[0] + p[1] * inv[3] + p[2] * inv[6];
    }
    if (det < kMinDet) return false;
    const double inv_det = 1 / det;
    for (int i = 0; i < N * N; ++i) inv[i] *= inv_det;
    for (int i = 0; i < N; ++i) {
      y[i] = 0;
      for (int j = 0; j < N; ++j) y[i] += inv[i * N + j] * rhs[j];
    }
    double w = 0;
    for (int i = 0; i < N; ++i) {
      for (int j = 0; j < N; ++j) w += y[i] * inv[i * N + j] * y[j];
    }
    *yhy = w;
    return true;
  } else {
    double l[N * N], inv_diag[N];
    for (int i = 0; i < N; ++i) {
      for (int j = 0; j <= i; ++j) {
        double s = A[i * N + j] + (i == j ? lambda : 0);
        for (int k = 0; k < j; ++k) s -= l[i * N + k] * l[j * N + k];
        if (i == j) {
          l[i * N + i] = std::sqrt(std::max(s, kMinVal));
          inv_diag[i] = 1 / l[i * N + i];
        } else {
          l[i * N + j] = s * inv_diag[j];
        }
      }
    }
    double z[N];
    for (int i = 0; i < N; ++i) {
      double s = rhs[i];
      for (int k = 0; k < i; ++k) s -= l[i * N + k] * z[k];
      z[i] = s * inv_diag[i];
    }
    for (int i = N - 1; i >= 0; --i) {
      double s = z[i];
      for (int k = i + 1; k < N; ++k) s -= l[k * N + i] * y[k];
      y[i] = s * inv_diag[i];
    }
    // y' inv(A + lambda I) y = |inv(L) y|^2
    double w = 0;
    for (int i = 0; i < N; ++i) {
      double s = y[i];
      for (int k = 0; k < i; ++k) s -= l[i * N + k] * z[k];
      z[i] = s * inv_diag[i];
      w += z[i] * z[i];
    }
    *yhy = w;
    return true;
  }
}

template <int N>
bool ellipse_qp_n(double* x, const double* A, const double* b, const double* s, double r) {
  if (r <= 0) {
    for (int k = 0; k < N; ++k) x[k] = 0;
    return false;
  }
  // in y = x / s the ellipse is the ball |y| <= r: min 0.5 y' As y + y' bs
  double as[N * N], bs[N], y[N];
  for (int i = 0; i < N; ++i) {
    bs[i] = -s[i] * b[i];
    for (int j = 0; j < N; ++j) as[i * N + j] = s[i] * A[i * N + j] * s[j];
  }
  // Newton's method on |y(lambda)|^2 - r^2 with (As + lambda I) y = -bs, from lambda = 0 (the
  // unconstrained minimum), for at most 20 iterations as MuJoCo 2.2.2 does: when the minimum is
  // far outside, the last y is not yet optimal and is scaled back onto the ellipse.
  double lambda = 0;
  for (int iter = 0; iter < 20; ++iter) {
    double yhy;
    if (!small_solve<N>(as, lambda, bs, y, &yhy)) {
      for (int k = 0; k < N; ++k) x[k] = 0;
      return false;
    }
    double norm2 = 0;
    for (int k = 0; k < N; ++k) norm2 += y[k] * y[k];
    const double value = norm2 - r * r;
    if (value < 1e-10) break;
    const double delta = value / (2 * yhy);
    if (delta < 1e-10) break;
    lambda += delta;
  }
  double norm2 = 0;
  for (int k = 0; k < N; ++k) norm2 += y[k] * y[k];
  if (norm2 > r * r) {
    const double scale = norm2 > 0 ? r / std::sqrt(norm2) : 0;
    for (int k = 0; k < N; ++k) y[k] *= scale;
  }
  for (int k = 0; k < N; ++k) x[k] = s[k] * y[k];
  return lambda > 0;
}

}  // namespace

bool ellipse_qp(double* x, const double* A, const double* b, const double* s, double r, int n) {
  switch (n) {
    case 1: return ellipse_qp_n<1>(x, A, b, s, r);
    case 2: return ellipse_qp_n<2>(x, A, b, s, r);
    case 3: return ellipse_qp_n<3>(x, A, b, s, r);
    case 4: return ellipse_qp_n<4>(x, A, b, s, r);
    default: return ellipse_qp_n<5>(x, A, b, s, r);
  }
}

double block_cost_change(const double* a, const double* res, const double* old, const double* x,
                         int n) {
  double d[6];
  for (int r = 0; r < n; ++r) d[r] = x[r] - old[r];
  double change = 0;
  for (int r = 0; r < n; ++r) {
    double s = 0;
    for (int q = 0; q < n; ++q) s += a[r * n + q] * d[q];
    change += d[r] * (0.5 * s + res[r]);
  }
  return change;
}

double cost(const Rows& ar, const double* b, const double* f) {
  double c = 0;
  for (int i = 0; i < ar.nefc; ++i) {
    if (f[i] == 0) continue;
    c += f[i] * (0.5 * ar.dot(i, f) + b[i]);
  }
  return c;
}

void finish(const Model& m, Data& d) {
  mul_jac_t_vec(m, d, d.qfrc_constraint, d.efc_force);
  solve_m(m, d, d.qacc, d.qfrc_constraint, 1);
  for (int i = 0; i < m.nv; ++i) d.qacc[i] += d.qacc_smooth[i];
}

void set_states(const Model& m, Data& d) {
  (void)m;
  for (int i = 0; i < d.nefc; ++i) {
    const double f = d.efc_force[i];
    switch (d.efc_type[i]) {
      case kCnstrEquality: d.efc_state[i] = kCnstrStateQuadratic; break;
      case kCnstrFrictionDof:
      case kCnstrFrictionTendon: {
        const double bound = d.efc_frictionloss[i];
        d.efc_state[i] = f >= bound    ? kCnstrStateLinearNeg
                         : f <= -bound ? kCnstrStateLinearPos
                                       : kCnstrStateQuadratic;
        break;
      }
      case kCnstrContactElliptic: d.efc_state[i] = kCnstrStateSatisfied; break;
      default: d.efc_state[i] = f > 0 ? kCnstrStateQuadratic : kCnstrStateSatisfied;
    }
  }
}

}  // namespace joco::dual
