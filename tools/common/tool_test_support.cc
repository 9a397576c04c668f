// Compiled into tool_tests only (see tools/CMakeLists.txt).
#include "common/tool_test_support.h"

#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace joco::tools::test {

namespace fs = std::filesystem;

namespace {
std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}
}  // namespace

RunResult run(const std::string& command, const std::string& stdin_path) {
  const TempDir dir;
  const std::string out = dir / "out", err = dir / "err";
  std::string full = "export PATH='" JOCO_TOOL_DIR "':\"$PATH\"; ( " + command + " ) >'" + out +
                     "' 2>'" + err + "'";
  full += " <'" + (stdin_path.empty() ? std::string("/dev/null") : stdin_path) + "'";
  const int status = std::system(full.c_str());
  RunResult r;
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  r.out = slurp(out);
  r.err = slurp(err);
  return r;
}

}  // namespace joco::tools::test
