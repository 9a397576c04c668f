// Running the built tools from tests: exit code, standard output and standard error.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "common/trajectory_table.h"
#include "support/test_models.h"
#include "support/test_support.h"

namespace joco::tools::test {

struct RunResult {
  int exit_code = -1;
  std::string out;
  std::string err;
};

// Runs `command` through the shell with the tools' build directory first on PATH; `stdin_path`,
// when given, is fed to standard input.
RunResult run(const std::string& command, const std::string& stdin_path = "");

// The trajectory `in` (one group) written to `out` for the model `model_path` with its rows in
// reverse order when `reverse`, without the datasets of `drop`: to show that a per-row tool's
// result for a row does not depend on the rows before it.
void write_rows(const std::string& model_path, const std::string& in, const std::string& out,
                bool reverse, const std::vector<Field>& drop = {});

// Whether row r of `a`'s dataset f equals row rows - 1 - r of `b`'s, bit for bit, for every r
// (`reversed`), or row r of both.
::testing::AssertionResult same_rows(const std::string& a, const std::string& b, Field f,
                                     bool reversed);

// A fresh empty directory for one test's files, removed when it goes out of scope.
using joco::test::TempDir;

// The models tools tests sweep, and names for them: support/test_models.h.
using joco::test::all_testdata_models;
using joco::test::param_name;

}  // namespace joco::tools::test
