// Numeric option values out of bounds are refused (exit 2) with the bound in words.
#include <gtest/gtest.h>

#include <string>

#include "tools/tool_test_support.h"

namespace joco::tools::test {
namespace {

const std::string kModel = std::string(JOCO_TESTDATA_DIR) + "/mujoco/model/humanoid/humanoid.xml";

void expect_refused(const std::string& arguments, const std::string& message) {
  const RunResult r = run("joco-simulate " + kModel + " -o /dev/null " + arguments);
  EXPECT_EQ(r.exit_code, 2) << arguments;
  EXPECT_NE(r.err.find(message), std::string::npos) << arguments << ": " << r.err;
  EXPECT_LT(r.err.size(), 200u) << arguments << ": " << r.err;
}

TEST(OptionValues, BoundsAreSaidInWords) {
  expect_refused("--steps -1", "--steps: expected a number >= 0, got '-1'");
  expect_refused("--steps abc", "--steps: expected a number >= 0, got 'abc'");
  expect_refused("--batch 0", "--batch: expected a number > 0, got '0'");
  expect_refused("--ctrl-noise 1.5", "--ctrl-noise: expected a number from 0 to 1, got '1.5'");
  expect_refused("--threads 0", "--threads: expected a number from 1 to 1024, got '0'");
}

}  // namespace
}  // namespace joco::tools::test
