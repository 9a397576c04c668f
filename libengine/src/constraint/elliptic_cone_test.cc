// The soft elliptic cone of the reduced primal problem: its force is the negative gradient of its
// cost (finite differences) and lies in the friction cone, its Hessian is the derivative of the
// gradient, and cost and force are continuous across the three zones.
#include "constraint/elliptic_cone.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>

namespace joco {
namespace {

struct Cone {
  Contact con;
  double D[6];
};

// A contact of dimension dim with R scaled as the constraint model scales it (R_k f_k^2 equal for
// the friction rows, R_1 = R_0 / impratio), so that the zones join smoothly.
Cone random_cone(int dim, std::mt19937_64& rng) {
  std::uniform_real_distribution<double> u(0, 1);
  Cone c;
  c.con.dim = dim;
  c.con.friction[0] = c.con.friction[1] = 0.3 + u(rng);
  c.con.friction[2] = 0.02 + 0.05 * u(rng);
  c.con.friction[3] = c.con.friction[4] = 0.01 + 0.02 * u(rng);
  const double r0 = 0.1 + u(rng), impratio = 1 + 3 * u(rng);
  const double r1 = r0 / impratio, f0 = c.con.friction[0];
  c.D[0] = 1 / r0;
  for (int k = 1; k < dim; ++k) {
    const double fk = c.con.friction[k - 1];
    c.D[k] = 1 / (r1 * f0 * f0 / (fk * fk));
  }
  c.con.mu = f0 * std::sqrt(r1 / r0);
  return c;
}

double cost_at(const Cone& c, const double* jar) {
  double cost = 0, force[6];
  cone::elliptic(c.con, jar, c.D, force, &cost, nullptr);
  return cost;
}

TEST(EllipticCone, ForceIsTheNegativeGradientAndInTheCone) {
  std::mt19937_64 rng(3);
  std::normal_distribution<double> n;
  int zones[5] = {};
  for (int dim : {3, 4, 6}) {
    for (int trial = 0; trial < 300; ++trial) {
      const Cone c = random_cone(dim, rng);
      double jar[6] = {}, force[6], hessian[36], cost = 0;
      // tangential parts from much smaller to larger than the normal: every zone
      const double tangential = std::exp(std::uniform_real_distribution<double>(-4, 1.5)(rng));
      for (int k = 0; k < dim; ++k) jar[k] = n(rng) * (k == 0 ? 1 : tangential);
      const int state = cone::elliptic(c.con, jar, c.D, force, &cost, hessian);
      ++zones[state];
      // in the cone: f_0 >= |f_t / friction|
      double t2 = 0;
      for (int k = 1; k < dim; ++k) t2 += std::pow(force[k] / c.con.friction[k - 1], 2);
      EXPECT_GE(force[0], -1e-12);
      EXPECT_LE(std::sqrt(t2), force[0] * (1 + 1e-9) + 1e-12);
      // gradient by central differences
      for (int k = 0; k < dim; ++k) {
        const double h = 1e-6 * std::max(1.0, std::abs(jar[k]));
        double p[6], m[6];
        std::copy(jar, jar + dim, p);
        std::copy(jar, jar + dim, m);
        p[k] += h;
        m[k] -= h;
        const double grad = (cost_at(c, p) - cost_at(c, m)) / (2 * h);
        EXPECT_NEAR(-force[k], grad, 1e-6 * std::max(1.0, std::abs(grad)))
            << "dim " << dim << " trial " << trial << " zone " << state << " row " << k;
      }
      // Hessian by differences of the force, in the cone zone
      if (state != kCnstrStateCone) continue;
      for (int k = 0; k < dim; ++k) {
        const double h = 1e-6 * std::max(1.0, std::abs(jar[k]));
        double p[6], m[6], fp[6], fm[6];
        std::copy(jar, jar + dim, p);
        std::copy(jar, jar + dim, m);
        p[k] += h;
        m[k] -= h;
        cone::elliptic(c.con, p, c.D, fp, nullptr, nullptr);
        cone::elliptic(c.con, m, c.D, fm, nullptr, nullptr);
        for (int r = 0; r < dim; ++r) {
          const double dd = -(fp[r] - fm[r]) / (2 * h);
          EXPECT_NEAR(hessian[r * dim + k], dd, 1e-5 * std::max(1.0, std::abs(dd)))
              << "dim " << dim << " trial " << trial << " H(" << r << "," << k << ")";
        }
      }
    }
  }
  // every zone was seen
  EXPECT_GT(zones[kCnstrStateSatisfied], 50);
  EXPECT_GT(zones[kCnstrStateQuadratic], 50);
  EXPECT_GT(zones[kCnstrStateCone], 50);
}

// Across the zone boundaries the cost and the force are continuous: along rays crossing from the
// top through the middle into the bottom zone.
TEST(EllipticCone, ContinuousAcrossZones) {
  std::mt19937_64 rng(4);
  std::normal_distribution<double> n;
  for (int trial = 0; trial < 50; ++trial) {
    const Cone c = random_cone(4, rng);
    double dir[4];
    for (double& x : dir) x = n(rng);
    int last_state = -1;
    double last_cost = 0, last_force[4] = {};
    for (int s = -4000; s <= 4000; ++s) {
      double jar[4], force[4], cost = 0;
      std::copy(dir, dir + 4, jar);
      jar[0] = dir[0] + s * 0.001;  // the normal sweeps from deep penetration to separation
      const int state = cone::elliptic(c.con, jar, c.D, force, &cost, nullptr);
      if (last_state >= 0 && state != last_state) {
        // (a step of 0.001 changes a continuous force by at most D0 0.001)
        EXPECT_NEAR(cost, last_cost, 0.01 * std::max(1.0, std::abs(cost)));
        for (int k = 0; k < 4; ++k) {
          EXPECT_NEAR(force[k], last_force[k], 0.002 * c.D[0] * (1 + c.D[k] / c.D[0]));
        }
      }
      last_state = state;
      last_cost = cost;
      std::copy(force, force + 4, last_force);
    }
  }
}

}  // namespace
}  // namespace joco
