// joco-simulate's flags that only mean something with another flag (or in another mode) are usage
// errors (exit 2) naming what they need, never silently ignored: --self-contained without --join
// (or mpirun with several ranks), --init-row without a trajectory file to take the row of, the
// rollout flags with --evaluate, the simulation flags with --join.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "tools/tool_test_support.h"

namespace joco::tools {
namespace {

const std::string kTestdata = JOCO_TESTDATA_DIR;
const std::string kChain = kTestdata + "/inverse/chain.xml";
const std::string kKeyframes = kTestdata + "/smooth/joint_zoo.xml";  // one unnamed keyframe

TEST(SimulateFlags, FlagsThatNeedAnotherAreRefusedWithoutIt) {
  const test::TempDir temp;
  const std::string dir = temp.path();
  const std::string chain = "joco-simulate " + kChain + " ";
  auto r = test::run(chain + "--batch 2 --steps 3 -o " + dir + "/runs.h5");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string runs = dir + "/runs.h5";
  struct Case {
    std::string args;
    std::vector<std::string> fragments;
  };
  const std::vector<Case> cases = {
      // Ignored before (exit 0, nothing copied, nothing said).
      {chain + "--steps 3 --self-contained", {"--self-contained needs --join"}},
      {chain + "--batch 2 --steps 3 --self-contained", {"--self-contained needs --join"}},
      {chain + "--evaluate " + runs + " --self-contained", {"--self-contained needs --join"}},
      {chain + "--steps 3 --init-row 2", {"--init-row requires --init"}},
      {"joco-simulate " + kKeyframes + " --steps 3 --init 0 --init-row 2",
       {"--init-row 2", "--init 0 is a keyframe"}},
      {chain + "--evaluate " + runs + " --steps 3", {"--steps", "--evaluate"}},
      {chain + "--evaluate " + runs + " --init " + runs, {"--init", "--evaluate"}},
      {chain + "--evaluate " + runs + " --seed 4", {"--seed", "--evaluate"}},
      // Not --strict: with --evaluate it refuses non-finite rows (runtime_limits_test).
      {"joco-simulate --join " + runs + " --batch 2", {"--batch", "--join"}},
      {"joco-simulate --join " + runs + " --threads 2", {"--threads", "--join"}},
      {"joco-simulate --join " + runs + " --contacts", {"--contacts", "--join"}},
      {"joco-simulate --join " + runs + " --steps 3", {"--steps", "--join"}},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.args);
    r = test::run(c.args + " -o " + dir + "/out.h5");
    EXPECT_EQ(r.exit_code, 2) << r.err;
    for (const std::string& f : c.fragments) EXPECT_NE(r.err.find(f), std::string::npos) << r.err;
  }
  EXPECT_FALSE(std::filesystem::exists(dir + "/out.h5"));
  // With what they need, they work: --self-contained with --join, a keyframe without --init-row.
  r = test::run("joco-simulate --join " + runs + " --self-contained -o " + dir + "/joined.h5");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  r = test::run("joco-simulate " + kKeyframes + " --steps 3 --init 0 -o " + dir + "/key.h5");
  EXPECT_EQ(r.exit_code, 0) << r.err;
}

}  // namespace
}  // namespace joco::tools
