// geom_fluid against MuJoCo 2.2.2 over random ellipsoids with axis ratios up to 1e3: the added
// masses and moments of inertia within 1e-10 relative, as every other compiled field.
#include <gtest/gtest.h>

#include <fstream>
#include <random>
#include <sstream>

#include "joco/constants.h"
#include "joco/mjcf.h"
#include "oracle/oracle.h"
#include "support/test_support.h"

namespace joco {
namespace {

TEST(FluidCoefficientsOracle, RandomEllipsoidsMatchMuJoCo) {
  std::mt19937_64 rng(11);
  std::uniform_real_distribution<double> log_radius(-1.5, 1.5);
  std::ostringstream xml;
  xml.precision(17);
  xml << "<mujoco><worldbody>\n";
  const int n = 300;
  for (int g = 0; g < n; ++g) {
    xml << "<geom type='ellipsoid' fluidshape='ellipsoid' contype='0' conaffinity='0' size='";
    for (int k = 0; k < 3; ++k) xml << (k ? " " : "") << std::pow(10.0, log_radius(rng));
    xml << "'/>\n";
  }
  xml << "</worldbody></mujoco>\n";
  const test::TempDir dir;
  const std::string path = dir / "ellipsoids.xml";
  std::ofstream(path) << xml.str();

  std::string error;
  auto mj = oracle::load(path, &error);
  ASSERT_TRUE(mj) << error;
  const Model m = compile_mjcf_file(path);
  ASSERT_EQ(m.ngeom, n);
  double worst = 0;
  oracle::count_compared(int64_t{kNFLUID} * n);
  for (int g = 0; g < n; ++g) {
    for (int k = 0; k < kNFLUID; ++k) {
      const double a = m.geom_fluid[kNFLUID * g + k], b = mj->geom_fluid[mjNFLUID * g + k];
      const double error_k = std::fabs(a - b) / std::max(std::fabs(b), 1e-300);
      worst = std::max(worst, a == b ? 0.0 : error_k);
      EXPECT_LE(error_k, 1e-10) << "geom " << g << " geom_fluid[" << k << "]: " << a << " vs " << b;
    }
  }
  std::cout << "worst relative error of geom_fluid over " << n << " ellipsoids: " << worst << "\n";
}

}  // namespace
}  // namespace joco
