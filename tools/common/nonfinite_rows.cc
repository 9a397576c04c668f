#include "common/nonfinite_rows.h"

#include <spdlog/spdlog.h>

#include <cmath>

#include "joco/error.h"

namespace joco::tools {

namespace {
constexpr size_t kListed = 10;  // rows listed in a warning
}

void NonFiniteRows::scan(const std::string& where, const std::string& dataset, size_t first_row,
                         std::span<const double> values, size_t row_size) {
  if (row_size == 0) return;
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
