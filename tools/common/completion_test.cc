// The bash completion shipped with the tools (completions/joco.bash) offers each tool's options,
// an option's choices, and file names, from the tool's own --help.
#include <gtest/gtest.h>

#include <string>

#include "tools/tool_test_support.h"

namespace joco::tools::test {
namespace {

// What completing the words `line` (the last word being completed) offers, space-separated and
// sorted.
std::string complete(const std::string& line, const std::string& dir = ".") {
  const std::string script = std::string(JOCO_TESTDATA_DIR) + "/../completions/joco.bash";
  const RunResult r = run("cd '" + dir + "' && bash -c '. \"" + script + "\"; COMP_WORDS=(" + line +
                          "); COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); _joco_complete; "
                          "printf \"%s\\n\" \"${COMPREPLY[@]}\" | sort | paste -sd\" \"'");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  std::string out = r.out;
  while (!out.empty() && out.back() == '\n') out.pop_back();
  return out;
}

TEST(Completion, OffersTheToolsOptions) {
  EXPECT_EQ(complete("joco-compile --pr"), "--print");
  const std::string all = complete("joco-simulate --"),
                    wanted[] = {"--steps", "--batch", "--record"};
  for (const std::string& option : wanted)
    EXPECT_NE((" " + all + " ").find(" " + option + " "), std::string::npos) << all;
}

TEST(Completion, OffersAnOptionsChoices) {
  EXPECT_EQ(complete("joco-compile model.xml --print \"\""), "json text");
}

// joco-fwdinv-check's report options: the format's choices, and how many rows it lists.
TEST(Completion, OffersTheFwdinvReportOptions) {
  EXPECT_EQ(complete("joco-fwdinv-check model.xml --report \"\""), "json junit");
  EXPECT_EQ(complete("joco-fwdinv-check model.xml --wor"), "--worst");
  EXPECT_EQ(complete("joco-fwdinv-check model.xml --all"), "--all-rows");
}

TEST(Completion, OffersFileNamesOtherwise) {
  TempDir dir;
  run("touch '" + dir.path() + "/walker.xml' '" + dir.path() + "/walk.h5'");
  EXPECT_EQ(complete("joco-simulate wal", dir.path()), "walk.h5 walker.xml");
}

}  // namespace
}  // namespace joco::tools::test
