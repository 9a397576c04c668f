// Compiled into tool_tests only (see tools/CMakeLists.txt).
#include "tools/tool_test_support.h"

#include <sys/wait.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>

#include "common/model_input.h"
#include "common/trajectory.h"

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

void write_rows(const std::string& model_path, const std::string& in, const std::string& out,
                bool reverse, const std::vector<Field>& drop) {
  const Model m = load_model(model_path);
  Trajectory t = TrajectoryInput::open(in).single();
  TrajectoryFileWriter file(out, m, WriterOptions{});
  TrajectoryWriter& w = file.trajectory();
  for (Field f : t.fields()) {
    if (std::find(drop.begin(), drop.end(), f) != drop.end()) continue;
    Matrix x = t.read(f);
    if (reverse) {
      std::vector<double> rows(x.data.size());
      for (size_t r = 0; r < x.rows; ++r)
        std::copy_n(x.row(r), x.cols, rows.data() + (x.rows - 1 - r) * x.cols);
      x.data = std::move(rows);
    }
    w.append(f, x.data, x.rows);
  }
  w.close();
  file.commit();
}

::testing::AssertionResult same_rows(const std::string& a, const std::string& b, Field f,
                                     bool reversed) {
  const Matrix x = TrajectoryInput::open(a).single().read(f);
  const Matrix y = TrajectoryInput::open(b).single().read(f);
  if (x.rows != y.rows || x.cols != y.cols) return ::testing::AssertionFailure() << "shapes differ";
  for (size_t r = 0; r < x.rows; ++r) {
    const double* yr = y.row(reversed ? y.rows - 1 - r : r);
    if (std::memcmp(x.row(r), yr, x.cols * sizeof(double)) != 0)
      return ::testing::AssertionFailure() << field_info(f).name << " differs at row " << r;
  }
  return ::testing::AssertionSuccess() << x.rows << " rows";
}

}  // namespace joco::tools::test
