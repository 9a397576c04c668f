// --version names joco's version and the commit the tools were built from; --help ends with the
// exit codes (the contract's table, in words).
#include <gtest/gtest.h>

#include <string>

#include "tools/tool_test_support.h"

namespace joco::tools::test {
namespace {

const char* const kTools[] = {
    "joco-compile",      "joco-urdf2mjcf",   "joco-simulate", "joco-inverse",
    "joco-fwdinv-check", "joco-derivatives", "joco-profile",  "joco-ik"};

// What the build asked git for (cmake/JocoCommit.cmake), or "unknown" where the source is no
// repository.
std::string expected_commit() {
  const std::string source = std::string(JOCO_TESTDATA_DIR) + "/..";
  RunResult r = run("git -C '" + source + "' describe --always --dirty --abbrev=12 2>/dev/null");
  while (!r.out.empty() && (r.out.back() == '\n' || r.out.back() == '\r')) r.out.pop_back();
  return r.exit_code == 0 && !r.out.empty() ? r.out : "unknown";
}

// The commit without git's "-dirty" (the tree may be edited between the build and the test).
std::string without_dirty(std::string commit) {
  static const std::string kDirty = "-dirty";
  if (commit.size() > kDirty.size() && commit.ends_with(kDirty))
    commit.resize(commit.size() - kDirty.size());
  return commit;
}

TEST(Version, NamesTheVersionAndTheCommit) {
  const std::string commit = without_dirty(expected_commit());
  for (const char* tool : kTools) {
    const RunResult r = run(std::string(tool) + " --version");
    ASSERT_EQ(r.exit_code, 0) << tool << ": " << r.err;
    const std::string prefix = std::string(tool) + " (joco) " JOCO_VERSION ", commit ";
    ASSERT_EQ(r.out.rfind(prefix, 0), 0u) << r.out;
    std::string named = r.out.substr(prefix.size());
    if (!named.empty() && named.back() == '\n') named.pop_back();
    EXPECT_EQ(without_dirty(named), commit) << r.out;
  }
}

TEST(Version, HelpListsTheExitCodes) {
  for (const char* tool : kTools) {
    const RunResult r = run(std::string(tool) + " --help");
    ASSERT_EQ(r.exit_code, 0) << tool << ": " << r.err;
    for (const char* code : {"0 success", "1 a check failed", "2 usage error", "3 bad input",
                             "4 runtime failure", "man "})
      EXPECT_NE(r.out.find(code), std::string::npos) << tool << " --help lacks '" << code << "'";
  }
}

}  // namespace
}  // namespace joco::tools::test
