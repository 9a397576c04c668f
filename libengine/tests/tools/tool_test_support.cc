// Compiled into tool_tests only (see tools/CMakeLists.txt).
#include "tools/tool_test_support.h"

#include <sys/wait.h>

#include <cstdlib>

namespace joco::tools::test {

RunResult run(const std::string& command, const std::string& stdin_path) {
  const TempDir dir;
  const std::string out = dir / "out", err = dir / "err";
  std::string full = "export PATH='" JOCO_TOOL_DIR "':\"$PATH\"; ( " + command + " ) >'" + out +
                     "' 2>'" + err + "'";
  full += " <'" + (stdin_path.empty() ? std::string("/dev/null") : stdin_path) + "'";
  const int status = std::system(full.c_str());
  RunResult r;
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  r.out = joco::test::read_text(out);
  r.err = joco::test::read_text(err);
  return r;
}

}  // namespace joco::tools::test
