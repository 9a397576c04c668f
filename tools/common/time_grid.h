// Times that files print rounded (OpenSim writes 0.417 for 5/12 s, TRC writers 0.017 for 1/60 s),
// put back on the even grid they stand for, so that differences and filters see exact spacings.
#pragma once

#include <vector>

namespace joco::tools {

// The largest distance of a time from the grid time[0] + k * spacing.
double distance_from_even_grid(const std::vector<double>& time, double spacing);

// Every time set to time[0] + k * spacing.
void put_on_even_grid(std::vector<double>& time, double spacing);

}  // namespace joco::tools
