#include "common/nonfinite_rows.h"

#include <spdlog/spdlog.h>

#include <cmath>
#include <cstdint>
#include <cstring>

#include "joco/error.h"

namespace joco::tools {

namespace {
constexpr size_t kListed = 10;  // rows listed in a warning

// Whether every value is finite, in one pass that vectorises: a value is Inf or NaN when its
// exponent bits are all ones, and then adding one to the exponent carries into the sign bit.
bool all_finite(std::span<const double> values) {
  constexpr uint64_t kExponent = 0x7ff0000000000000, kExponentOne = 0x0010000000000000;
  uint64_t carries = 0;
  for (const double v : values) {
    uint64_t bits;
    std::memcpy(&bits, &v, sizeof bits);
    carries |= (bits & kExponent) + kExponentOne;
  }
  return (carries >> 63) == 0;
}

}  // namespace

void NonFiniteRows::scan(const std::string& where, const std::string& dataset, size_t first_row,
                         std::span<const double> values, size_t row_size) {
  if (row_size == 0 || all_finite(values)) return;
  for (size_t r = 0; r * row_size < values.size(); ++r) {
    bool finite = true;
    for (size_t k = r * row_size; k < (r + 1) * row_size; ++k) finite &= std::isfinite(values[k]);
    if (finite) continue;
    if (strict_) {
      throw RuntimeError(where + "/" + dataset + ": row " + std::to_string(first_row + r) +
                         " is not finite (Inf or NaN); --strict stops here");
    }
    Found& f = found_[dataset];
    ++f.rows;
    if (f.first.size() < kListed) f.first.push_back(first_row + r);
  }
}

void NonFiniteRows::report(const std::string& where) const {
  for (const auto& [dataset, f] : found_) {
    std::string list;
    for (size_t r : f.first) list += (list.empty() ? "" : ", ") + std::to_string(r);
    if (f.rows > f.first.size()) list += ", ...";
    spdlog::warn("{}/{}: {} row(s) not finite (Inf or NaN), written as computed: rows {}", where,
                 dataset, f.rows, list);
  }
}

size_t NonFiniteRows::rows(const std::string& dataset) const {
  const auto it = found_.find(dataset);
  return it == found_.end() ? 0 : it->second.rows;
}

}  // namespace joco::tools
