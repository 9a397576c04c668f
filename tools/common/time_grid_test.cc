#include "common/time_grid.h"

#include <gtest/gtest.h>

namespace joco::tools {
namespace {

// OpenSim's 60 Hz rows printed to milliseconds: 0, 0.017, 0.033, 0.05.
TEST(TimeGrid, RoundedTimesGoBackOnTheirGrid) {
  std::vector<double> time = {0.4, 0.417, 0.433, 0.45};
  const double spacing = 1.0 / 60;
  EXPECT_NEAR(distance_from_even_grid(time, spacing), 0.417 - (0.4 + spacing), 1e-15);
  EXPECT_LT(distance_from_even_grid(time, spacing), 0.0005);
  put_on_even_grid(time, spacing);
  for (size_t k = 0; k < time.size(); ++k)
    EXPECT_EQ(time[k], 0.4 + static_cast<double>(k) * spacing);
  EXPECT_EQ(distance_from_even_grid(time, spacing), 0);
}

TEST(TimeGrid, UnevenTimesAreFarFromAnyGrid) {
  const std::vector<double> time = {0, 0.01, 0.03, 0.04};
  EXPECT_NEAR(distance_from_even_grid(time, 0.04 / 3), 0.03 - 0.08 / 3, 1e-15);
  EXPECT_EQ(distance_from_even_grid({}, 0.1), 0);
}

}  // namespace
}  // namespace joco::tools
