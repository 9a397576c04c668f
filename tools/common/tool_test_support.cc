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

std::string temp_dir() {
  static int counter = 0;
  const fs::path dir = fs::temp_directory_path() / ("joco-tool-test-" + std::to_string(::getpid()) +
                                                    "-" + std::to_string(counter++));
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir.string();
}

RunResult run(const std::string& command, const std::string& stdin_path) {
  const fs::path dir = temp_dir();
  const std::string out = (dir / "out").string(), err = (dir / "err").string();
  std::string full = "export PATH='" JOCO_TOOL_DIR "':\"$PATH\"; ( " + command + " ) >'" + out +
                     "' 2>'" + err + "'";
  full += " <'" + (stdin_path.empty() ? std::string("/dev/null") : stdin_path) + "'";
  const int status = std::system(full.c_str());
  RunResult r;
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  r.out = slurp(out);
  r.err = slurp(err);
  fs::remove_all(dir);
  return r;
}

}  // namespace joco::tools::test
