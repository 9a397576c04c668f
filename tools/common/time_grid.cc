#include "common/time_grid.h"

#include <algorithm>
#include <cmath>

namespace joco::tools {

double distance_from_even_grid(const std::vector<double>& time, double spacing) {
  double distance = 0;
  for (size_t k = 0; k < time.size(); ++k) {
    distance = std::max(distance, std::abs(time[k] - (time[0] + static_cast<double>(k) * spacing)));
  }
  return distance;
}

void put_on_even_grid(std::vector<double>& time, double spacing) {
  const double t0 = time.empty() ? 0 : time[0];
  for (size_t k = 0; k < time.size(); ++k) time[k] = t0 + static_cast<double>(k) * spacing;
}

}  // namespace joco::tools
