// fluid_coefficients, added_mass_kappa and carlson_rd: published values of RD, the identities of
// the added-mass coefficients (sphere, sum of kappas), kappa against direct numerical integration,
// and how far MuJoCo 2.2.2's Gauss-Kronrod rule (which added_mass_kappa is) is from the exact
// values.
#include "compiler/fluid_coefficients.h"

#include <gtest/gtest.h>

#include <cmath>

#include "joco/constants.h"

namespace joco::compiler {
namespace {

TEST(CarlsonRd, PublishedValues) {
  // Carlson (1995), Numerical computation of real or complex elliptic integrals, table 3.
  EXPECT_NEAR(carlson_rd(0, 2, 1), 1.7972103521033883, 1e-15);
  EXPECT_NEAR(carlson_rd(2, 3, 4), 0.16510527294261053, 1e-16);
  EXPECT_NEAR(carlson_rd(1, 1, 1), 1.0, 1e-15);
  // Homogeneity of degree -3/2.
  EXPECT_NEAR(carlson_rd(8, 12, 16), carlson_rd(2, 3, 4) / 8, 1e-16);
}

// kappa_i by Simpson's rule after the substitution l = t^2 / (1 - t)^2 (t in [0, 1)), which makes
// the integrand smooth and the interval finite.
double kappa_by_quadrature(const double r[3], int i) {
  const double ri2 = r[i] * r[i], rj2 = r[(i + 1) % 3] * r[(i + 1) % 3],
               rk2 = r[(i + 2) % 3] * r[(i + 2) % 3];
  auto integrand = [&](double t) {
    if (t >= 1) return 0.0;
    const double u = t / (1 - t), l = u * u, dl = 2 * u / ((1 - t) * (1 - t));
    return r[0] * r[1] * r[2] * dl /
           std::sqrt((ri2 + l) * (ri2 + l) * (ri2 + l) * (rj2 + l) * (rk2 + l));
  };
  const int n = 200000;
  const double h = 1.0 / n;
  double sum = integrand(0) + integrand(1);
  for (int k = 1; k < n; ++k) sum += (k % 2 ? 4 : 2) * integrand(k * h);
  return sum * h / 3;
}

double exact_kappa(const double r[3], int i) {
  const double rj = r[(i + 1) % 3], rk = r[(i + 2) % 3];
  return 2.0 / 3.0 * r[0] * r[1] * r[2] * carlson_rd(rj * rj, rk * rk, r[i] * r[i]);
}

TEST(FluidCoefficients, SphereAddedMassIsAboutHalfTheDisplacedVolume) {
  const double size[3] = {0.3, 0, 0}, coef[5] = {0.5, 0.25, 1.5, 1, 1};
  double fluid[kNFLUID];
  fluid_coefficients(kGeomSphere, size, true, coef, fluid);
  const double volume = 4.0 / 3.0 * kPi * 0.027;
  EXPECT_EQ(fluid[0], 1);
  for (int k = 0; k < 5; ++k) EXPECT_EQ(fluid[1 + k], coef[k]);
  for (int k = 0; k < 3; ++k) {
    // Exactly V/2 (kappa = 2/3); MuJoCo 2.2.2's rule gives kappa 2.6e-7 low.
    EXPECT_NEAR(fluid[6 + k], volume / 2, 1e-6 * volume);
    EXPECT_EQ(fluid[9 + k], 0);
  }
}

TEST(AddedMassKappa, IsMuJoCosGaussKronrodRule) {
  // MuJoCo 2.2.2's value for a sphere, and its values for a 1:2:3 ellipsoid and a disk 1000 times
  // flatter than wide (libmujoco 2.2.2's geom_fluid, converted back to kappa).
  EXPECT_NEAR(added_mass_kappa(1, 1, 1), 0.66666640487749385, 4e-16);
  EXPECT_NEAR(added_mass_kappa(0.3, 0.3, 0.3), 0.66666640487749385, 4e-16);
  const double r[3] = {2, 1, 0.3};
  EXPECT_NEAR(added_mass_kappa(r[0], r[1], r[2]), 0.15247696058043109, 1e-15);
  EXPECT_NEAR(added_mass_kappa(r[1], r[2], r[0]), 0.40098566498480931, 1e-15);
  EXPECT_NEAR(added_mass_kappa(r[2], r[0], r[1]), 1.4465372281231046, 2e-15);
}

TEST(AddedMassKappa, ErrorOfTheRule) {
  // Within 1e-6 of the exact value for round shapes, a few percent for very flat ones.
  const double round[][3] = {{1, 2, 3}, {0.05, 0.05, 0.25}, {0.3, 0.2, 0.1}};
  for (const auto& r : round) {
    for (int i = 0; i < 3; ++i) {
      EXPECT_NEAR(added_mass_kappa(r[i], r[(i + 1) % 3], r[(i + 2) % 3]), exact_kappa(r, i), 1e-6);
    }
  }
  const double disk[3] = {1, 1, 1e-3};
  const double kappa_z = added_mass_kappa(disk[2], disk[0], disk[1]);
  EXPECT_GT(std::fabs(kappa_z - exact_kappa(disk, 2)), 1e-4);
  EXPECT_LT(std::fabs(kappa_z - exact_kappa(disk, 2)), 0.05);
}

TEST(FluidCoefficients, ExactKappasWhereTheRuleExceedsTwo) {
  // For a disk a million times flatter than wide the rule gives kappa_z > 2, which no ellipsoid has
  // (MuJoCo 2.2.2 then stores a virtual mass of 1e15 volumes); joco takes the exact kappas.
  const double size[3] = {1, 1, 1e-6}, coef[5] = {0.5, 0.25, 1.5, 1, 1};
  ASSERT_GT(added_mass_kappa(size[2], size[0], size[1]), 2);
  double fluid[kNFLUID];
  fluid_coefficients(kGeomEllipsoid, size, true, coef, fluid);
  const double volume = 4.0 / 3.0 * kPi * size[0] * size[1] * size[2];
  for (int i = 0; i < 3; ++i) {
    const double kappa = exact_kappa(size, i);
    EXPECT_NEAR(fluid[6 + i], volume * kappa / (2 - kappa), 1e-12 * fluid[6 + i]);
  }
}

TEST(FluidCoefficients, NoneWithoutFluidShape) {
  const double size[3] = {0.1, 0.2, 0.3}, coef[5] = {0.5, 0.25, 1.5, 1, 1};
  double fluid[kNFLUID];
  fluid_coefficients(kGeomBox, size, false, coef, fluid);
  for (double x : fluid) EXPECT_EQ(x, 0);
}

TEST(FluidCoefficients, ExactKappasMatchSimpsonsRuleAndSumToTwo) {
  const double shapes[][3] = {{1, 2, 3}, {0.05, 0.05, 0.25}, {1, 1, 0.01}, {0.3, 0.02, 0.1}};
  for (const auto& r : shapes) {
    double sum = 0;
    for (int i = 0; i < 3; ++i) {
      const double kappa = exact_kappa(r, i);
      EXPECT_NEAR(kappa, kappa_by_quadrature(r, i), 1e-9 * std::max(1.0, kappa));
      sum += kappa;
    }
    EXPECT_NEAR(sum, 2, 1e-14);
  }
}

TEST(FluidCoefficients, SemiAxesOfEachGeomType) {
  // A capsule's ellipsoid reaches its caps; a cylinder's its flat ends: the z added mass is that of
  // the corresponding ellipsoid.
  const double coef[5] = {0.5, 0.25, 1.5, 1, 1};
  const double capsule[3] = {0.05, 0.2, 0}, ellipsoid_of_capsule[3] = {0.05, 0.05, 0.25};
  const double cylinder[3] = {0.05, 0.2, 0}, ellipsoid_of_cylinder[3] = {0.05, 0.05, 0.2};
  double a[kNFLUID], b[kNFLUID];
  fluid_coefficients(kGeomCapsule, capsule, true, coef, a);
  fluid_coefficients(kGeomEllipsoid, ellipsoid_of_capsule, true, coef, b);
  for (int k = 0; k < kNFLUID; ++k) EXPECT_EQ(a[k], b[k]);
  fluid_coefficients(kGeomCylinder, cylinder, true, coef, a);
  fluid_coefficients(kGeomEllipsoid, ellipsoid_of_cylinder, true, coef, b);
  for (int k = 0; k < kNFLUID; ++k) EXPECT_EQ(a[k], b[k]);
}

}  // namespace
}  // namespace joco::compiler
