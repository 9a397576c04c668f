#include "compiler/geom_inertia.h"

#include <gtest/gtest.h>

#include <random>

#include "math/vec.h"

namespace joco::compiler {
namespace {

TEST(PrincipalAxes, ReconstructsRandomSymmetricMatrices) {
  std::mt19937 rng(3);
  std::uniform_real_distribution<double> u(-1, 1);
  for (int trial = 0; trial < 200; ++trial) {
    double a[9];
    for (int i = 0; i < 3; ++i) {
      for (int j = i; j < 3; ++j) a[3 * i + j] = a[3 * j + i] = u(rng);
    }
    double eig[3], q[4];
    principal_axes(a, eig, q);
    EXPECT_GE(eig[0], eig[1]);
    EXPECT_GE(eig[1], eig[2]);
    double r[9], tmp[9], back[9];
    math::quat_to_mat(r, q);
    const double d[9] = {eig[0], 0, 0, 0, eig[1], 0, 0, 0, eig[2]};
    math::mat_mat3(tmp, r, d);
    math::mat_mat_t3(back, tmp, r);
    // The iteration stops once the rotation angle is below ~1e-6 (as MuJoCo's does), so the
    // reconstruction is exact to that order, not to rounding.
    for (int i = 0; i < 9; ++i) EXPECT_NEAR(back[i], a[i], 1e-6) << "trial " << trial;
    EXPECT_NEAR(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3], 1, 1e-14);
  }
}

TEST(PrimitiveInertia, CapsuleIsCylinderPlusHemispheres) {
  // r = 0.1, half length 0.3: volume pi r^2 L + 4/3 pi r^3 and the parallel-axis composition.
  const GeomMassProperties p = primitive_mass_properties(kGeomCapsule, {0.1, 0.3, 0}, false);
  EXPECT_NEAR(p.volume * 1000, 23.038346126325152, 1e-12);
  EXPECT_NEAR(p.inertia[0] * 1000, 1.1006046263076243, 1e-12);
  EXPECT_NEAR(p.inertia[2] * 1000, 0.11100294042683936, 1e-12);
}

TEST(PrimitiveInertia, BoxAndEllipsoidAndCylinder) {
  const GeomMassProperties box = primitive_mass_properties(kGeomBox, {0.1, 0.2, 0.3}, false);
  EXPECT_NEAR(box.volume, 0.048, 1e-15);
  EXPECT_NEAR(box.inertia[0], 0.048 * (0.04 + 0.09) / 3, 1e-15);
  const GeomMassProperties ell = primitive_mass_properties(kGeomEllipsoid, {0.1, 0.2, 0.3}, false);
  EXPECT_NEAR(ell.volume, 4.0 / 3.0 * kPi * 0.006, 1e-15);
  const GeomMassProperties cyl = primitive_mass_properties(kGeomCylinder, {0.1, 0.3, 0}, false);
  EXPECT_NEAR(cyl.inertia[2], cyl.volume * 0.01 / 2, 1e-15);
}

}  // namespace
}  // namespace joco::compiler
