// Running the built tools from tests: exit code, standard output and standard error.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <vector>

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

// A fresh empty directory for one test's files, removed when it goes out of scope.
using joco::test::TempDir;

// The models tools tests sweep, and names for them: support/test_models.h.
using joco::test::all_testdata_models;
using joco::test::param_name;

}  // namespace joco::tools::test
