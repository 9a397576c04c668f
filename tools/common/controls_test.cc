// The Halton control noise: testspeed's radical inverses, by 32-bit division where the index fits
// and 64-bit beyond.
#include "common/controls.h"

#include <gtest/gtest.h>

#include <cstdint>

namespace joco::tools {
namespace {

// The radical inverse by its definition: the base-b digits of index, mirrored about the point.
double radical_inverse(int64_t index, int base) {
  double result = 0, fraction = 1.0 / base;
  for (; index > 0; index /= base, fraction /= base) {
    result += fraction * static_cast<double>(index % base);
  }
  return result;
}

TEST(Halton, KnownValues) {
  EXPECT_EQ(halton(0, 2), 0);
  EXPECT_EQ(halton(1, 2), 0.5);
  EXPECT_EQ(halton(3, 2), 0.75);
  EXPECT_EQ(halton(6, 2), 0.375);                     // 110 -> 0.011
  EXPECT_DOUBLE_EQ(halton(5, 3), 2.0 / 3 + 1.0 / 9);  // 12 -> 0.21
}

TEST(Halton, SameBitsOnBothSidesOfThe32BitRange) {
  for (int base : {2, 3, 5, 7, 23}) {
    for (int64_t index : {int64_t{1}, int64_t{12345}, int64_t{UINT32_MAX} - 1, int64_t{UINT32_MAX},
                          int64_t{UINT32_MAX} + 1, int64_t{1} << 40}) {
      EXPECT_EQ(halton(index, base), radical_inverse(index, base)) << index << " base " << base;
    }
  }
}

}  // namespace
}  // namespace joco::tools
