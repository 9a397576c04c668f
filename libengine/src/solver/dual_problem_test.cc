// The small elliptic sub-problem of PGS and noslip: min 0.5 x'Ax + x'b over the ellipse
// sum (x_k / s_k)^2 <= r^2. Inside, the unconstrained minimum; on the boundary, the optimum
// (checked against a dense sweep of the ellipse for two unknowns); far outside, a point on the
// ellipse no worse than the scaled unconstrained minimum.
#include "solver/dual_problem.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>

namespace joco {
namespace {

double quadratic(const double* A, const double* b, const double* x, int n) {
  double c = 0;
  for (int i = 0; i < n; ++i) {
    double s = 0;
    for (int j = 0; j < n; ++j) s += A[i * n + j] * x[j];
    c += x[i] * (0.5 * s + b[i]);
  }
  return c;
}

// A random symmetric positive definite 2 x 2 problem.
void random_problem(std::mt19937_64& rng, double* A, double* b, double* s) {
  std::uniform_real_distribution<double> u(-1, 1);
  const double p = u(rng), q = u(rng), r = u(rng);
  A[0] = p * p + 0.2;
  A[1] = A[2] = p * q;
  A[3] = q * q + r * r + 0.2;
  const double scale = std::exp(2 * u(rng));
  b[0] = scale * u(rng);
  b[1] = scale * u(rng);
  s[0] = 0.5 + std::abs(u(rng));
  s[1] = 0.5 + std::abs(u(rng));
}

TEST(EllipseQP, InteriorAndBoundaryOptima) {
  std::mt19937_64 rng(6);
  int inside = 0, boundary = 0;
  for (int trial = 0; trial < 400; ++trial) {
    double A[4], b[2], s[2], x[2];
    random_problem(rng, A, b, s);
    const double r = 0.5 + 2 * std::abs(std::uniform_real_distribution<double>(-1, 1)(rng));
    dual::ellipse_qp(x, A, b, s, r, 2);
    const double e = std::hypot(x[0] / s[0], x[1] / s[1]);
    EXPECT_LE(e, r * (1 + 1e-12));
    // the optimum over a fine sweep of the ellipse and the unconstrained minimum
    const double det = A[0] * A[3] - A[1] * A[2];
    const double free[2] = {-(A[3] * b[0] - A[1] * b[1]) / det, -(A[0] * b[1] - A[2] * b[0]) / det};
    if (std::hypot(free[0] / s[0], free[1] / s[1]) <= r) {
      ++inside;
      EXPECT_NEAR(x[0], free[0], 1e-9);
      EXPECT_NEAR(x[1], free[1], 1e-9);
      continue;
    }
    ++boundary;
    EXPECT_NEAR(e, r, 1e-9 * r);
    double best = INFINITY;
    for (int k = 0; k < 20000; ++k) {
      const double a = 2 * 3.14159265358979 * k / 20000;
      const double y[2] = {s[0] * r * std::cos(a), s[1] * r * std::sin(a)};
      best = std::min(best, quadratic(A, b, y, 2));
    }
    EXPECT_LE(quadratic(A, b, x, 2), best + 1e-6 * std::max(1.0, std::abs(best)))
        << "trial " << trial;
  }
  EXPECT_GT(inside, 50);
  EXPECT_GT(boundary, 50);
}

// With the unconstrained minimum thousands of radii away the 20 Newton steps stop short; the
// result is still on the ellipse and no worse than the unconstrained minimum scaled onto it.
TEST(EllipseQP, FarOutsideStaysOnTheEllipse) {
  std::mt19937_64 rng(7);
  for (int trial = 0; trial < 100; ++trial) {
    double A[4], b[2], s[2], x[2];
    random_problem(rng, A, b, s);
    b[0] *= 1e5;
    b[1] *= 1e5;
    const double r = 0.01;
    dual::ellipse_qp(x, A, b, s, r, 2);
    EXPECT_NEAR(std::hypot(x[0] / s[0], x[1] / s[1]), r, 1e-12);
    const double det = A[0] * A[3] - A[1] * A[2];
    double free[2] = {-(A[3] * b[0] - A[1] * b[1]) / det, -(A[0] * b[1] - A[2] * b[0]) / det};
    const double scale = r / std::hypot(free[0] / s[0], free[1] / s[1]);
    free[0] *= scale;
    free[1] *= scale;
    EXPECT_LE(quadratic(A, b, x, 2), quadratic(A, b, free, 2) + 1e-12 * std::abs(b[0]));
  }
}

}  // namespace
}  // namespace joco
