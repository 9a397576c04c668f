// The soft elliptic friction cone of one contact in the reduced primal problem: the cost s, its
// negative gradient (the contact force) and its Hessian at jar = J qacc - aref, shared by the
// constraint update and the solvers.
//
// With U_0 = mu jar_0 and U_k = f_k jar_k (mu the regularised cone's friction, f_k the contact's
// friction coefficients), N = U_0 and T = |U_1..|: the top zone N >= mu T is inside the dual cone
// (no force); in the bottom zone mu N + T <= 0 every row is quadratic; in between the cost is
// 0.5 Dm (N - mu T)^2 with Dm = D_0 / (mu^2 (1 + mu^2)), the squared distance to the cone.
#pragma once

#include <cmath>

#include "joco/constants.h"
#include "joco/data.h"
#include "math/vec.h"

namespace joco::cone {

// Zones, as constraint states: satisfied (top), quadratic (bottom), cone (middle).
// Writes the dim forces and returns the state; adds the cost to *cost when not null; writes the
// dim x dim Hessian (row-major) into hessian when not null and the state is the cone.
inline int elliptic(const Contact& con, const double* jar, const double* D, double* force,
                    double* cost, double* hessian) {
  const int dim = con.dim;
  const double mu = con.mu;
  const double* f = con.friction;
  double u[6];
  u[0] = jar[0] * mu;
  for (int k = 1; k < dim; ++k) u[k] = jar[k] * f[k - 1];
  // (summed as mju_dot sums it: MuJoCo's rounding)
  const double t2 = math::dot(u + 1, u + 1, dim - 1);
  const double n = u[0];
  const double t = std::sqrt(t2);

  if (n >= mu * t || (t <= 0 && n >= 0)) {
    for (int k = 0; k < dim; ++k) force[k] = 0;
    return kCnstrStateSatisfied;
  }
  if (mu * n + t <= 0 || (t <= 0 && n < 0)) {
    for (int k = 0; k < dim; ++k) {
      force[k] = -D[k] * jar[k];
      if (cost) *cost += 0.5 * D[k] * jar[k] * jar[k];
    }
    return kCnstrStateQuadratic;
  }
  const double dm = D[0] / (mu * mu * (1 + mu * mu));
  const double nt = n - mu * t;
  if (cost) *cost += 0.5 * dm * nt * nt;
  force[0] = -dm * nt * mu;
  // (multiplied left to right in this order: MuJoCo's rounding)
  for (int k = 1; k < dim; ++k) force[k] = dm * nt * mu / t * u[k] * f[k - 1];

  if (hessian) {
    // in U: Dm (a a' + (N - mu T) B), a = (1, -mu U_t / T), B = -mu / T (I - U_t U_t' / T^2) on the
    // tangential block; then scaled by diag(mu, f_1, ...) on both sides.
    double a[6], s[6];
    a[0] = 1;
    s[0] = mu;
    for (int k = 1; k < dim; ++k) {
      a[k] = -mu * u[k] / t;
      s[k] = f[k - 1];
    }
    for (int i = 0; i < dim; ++i) {
      for (int j = 0; j < dim; ++j) {
        double h = a[i] * a[j];
        if (i > 0 && j > 0) h += nt * (-mu / t) * ((i == j ? 1 : 0) - u[i] * u[j] / t2);
        hessian[i * dim + j] = dm * h * s[i] * s[j];
      }
    }
  }
  return kCnstrStateCone;
}

}  // namespace joco::cone
