// The spatial algebra's shortcuts against the definitions they stand for, bit for bit.
#include "math/spatial.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <random>

namespace joco::math {
namespace {

bool same_bits(double x, double y) { return std::memcmp(&x, &y, sizeof x) == 0; }

// dot6 is dot(a, b, 6) to the bit: random values, signed zeros, infinities and NaN among them.
TEST(Spatial, Dot6IsMuJoCosDotOfSix) {
  std::mt19937_64 rng(11);
  std::uniform_real_distribution<double> u(-2, 2);
  const double specials[] = {0.0, -0.0, 1e-310, -1e300, std::numeric_limits<double>::infinity(),
                             std::numeric_limits<double>::quiet_NaN()};
  for (int trial = 0; trial < 20000; ++trial) {
    double a[6], b[6];
    for (int k = 0; k < 6; ++k) {
      a[k] = u(rng);
      b[k] = u(rng);
      if (trial % 3 == 0 && rng() % 3 == 0) a[k] = specials[rng() % 4];
      if (trial % 5 == 0 && rng() % 4 == 0) b[k] = specials[rng() % 6];
    }
    const double expected = dot(a, b, 6), got = dot6(a, b);
    if (std::isnan(expected)) {
      EXPECT_TRUE(std::isnan(got));
    } else {
      EXPECT_TRUE(same_bits(expected, got)) << expected << " " << got;
    }
  }
  // all-zero products of either sign: the sums from 0 give +0
  const double neg[6] = {-0.0, 1, -1, 2, -0.0, 3}, pos[6] = {1, 0.0, 0.0, -0.0, 1, 0.0};
  EXPECT_TRUE(same_bits(dot6(neg, pos), dot(neg, pos, 6)));
}

}  // namespace
}  // namespace joco::math
