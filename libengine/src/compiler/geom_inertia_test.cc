#include "compiler/geom_inertia.h"

#include <gtest/gtest.h>

namespace joco::compiler {
namespace {

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
