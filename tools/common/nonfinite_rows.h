// Non-finite values in the rows a tool writes. A finite but huge state (qvel = 1e200) gives Inf and
// NaN accelerations and forces; they are written as computed, and reported by dataset and row on
// standard error, or, under --strict, refused (RuntimeError, exit code 4) at the first one.
#pragma once

#include <cstddef>
#include <map>
#include <span>
#include <string>
#include <vector>

namespace joco::tools {

class NonFiniteRows {
 public:
  explicit NonFiniteRows(bool strict = false) : strict_(strict) {}

  // Looks at `rows` rows of `row_size` values, the first of them row `first_row` of `dataset`;
  // `where` names the dataset's group for the message of --strict.
  void scan(const std::string& where, const std::string& dataset, size_t first_row,
            std::span<const double> values, size_t row_size);
  // The rows found, by dataset, as a warning each on standard error (the first rows listed).
  void report(const std::string& where) const;
  // Rows of `dataset` with a non-finite value (0 when none).
  size_t rows(const std::string& dataset) const;

 private:
  struct Found {
    size_t rows = 0;
    std::vector<size_t> first;  // the first few rows, in order
  };
  bool strict_;
  std::map<std::string, Found> found_;
};

}  // namespace joco::tools
