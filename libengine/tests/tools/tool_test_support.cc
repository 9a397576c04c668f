// Compiled into tool_tests only (see tools/CMakeLists.txt).
#include "tools/tool_test_support.h"

#include <sys/wait.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "common/model_input.h"

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

std::vector<std::string> testdata_models() {
  const fs::path root = JOCO_TESTDATA_DIR;
  std::vector<std::string> models;
  for (const auto& entry : fs::recursive_directory_iterator(root)) {
    const std::string ext = entry.path().extension().string();
    if (!entry.is_regular_file() || (ext != ".xml" && ext != ".urdf")) continue;
    std::ifstream in(entry.path());
    std::string start(4096, '\0');
    in.read(start.data(), static_cast<std::streamsize>(start.size()));
    start.resize(static_cast<size_t>(in.gcount()));
    const ModelFormat format = detect_model_format(start);
    if (format != ModelFormat::kMjcf && format != ModelFormat::kUrdf) continue;
    models.push_back(fs::relative(entry.path(), root).string());
  }
  std::sort(models.begin(), models.end());
  return models;
}

std::string param_name(const ::testing::TestParamInfo<std::string>& param) {
  std::string name = param.param;
  for (char& c : name) {
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  }
  return name;
}

}  // namespace joco::tools::test
