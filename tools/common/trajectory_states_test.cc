#include "common/trajectory_states.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "common/trajectory.h"
#include "joco/derivative.h"
#include "joco/forward.h"
#include "joco/inverse.h"
#include "joco/mjcf.h"
#include "support/test_support.h"
#include "tools/tool_test_support.h"

namespace joco::tools {
namespace {

// The per-row loops of the tools (--evaluate, joco-fwdinv-check, joco-inverse, joco-derivatives)
// put a row into a Data (TrajectoryStates::load: reset_state and the row's state) and call the
// engine: none of it touches the heap, whatever the row.
TEST(TrajectoryStates, PerRowLoopsDoNotAllocate) {
  const test::TempDir temp;
  const std::string path = temp.path() + "/run.h5";
  Model m =
      compile_mjcf_file(std::string(JOCO_TESTDATA_DIR) + "/mujoco/model/humanoid/humanoid.xml");
  m.nstack += transition_fd_stack(m);
  {
    Data d = make_data(m);
    TrajectoryFileWriter file(path, m, WriterOptions{});
    TrajectoryWriter& w = file.trajectory();
    for (int t = 0; t < 30; ++t) {
      for (int u = 0; u < m.nu; ++u) d.ctrl[u] = 0.4 * std::sin(0.3 * t + u);
      const std::vector<double> warmstart(d.qacc_warmstart, d.qacc_warmstart + m.nv);
      step1(m, d);
      w.append_row(d, {Field::kTime, Field::kQpos, Field::kQvel, Field::kCtrl, Field::kQacc});
      w.append(Field::kQaccWarmstart, warmstart);
      step2(m, d);
    }
    w.close();
    file.commit();
  }
  Trajectory t = TrajectoryInput::open(path).single();
  const TrajectoryStates states(m, t);
  ASSERT_EQ(states.rows(), 30u);
  Data d = make_data(m);
  const int nx = 2 * m.nv + m.na;
  std::vector<double> a(static_cast<size_t>(nx * nx)), b(static_cast<size_t>(nx * m.nu));
  InverseOptions discrete;
  discrete.discrete = true;
  states.load(m, d, 0);
  forward(m, d);  // a first warning may log
  int constrained = 0;
  const joco::test::AllocationCounter counter;
  for (size_t r = 0; r < states.rows(); ++r) {
    states.load(m, d, r);
    forward(m, d);
    compare_fwd_inv(m, d);
    constrained += d.nefc > 0;
    inverse(m, d);
    inverse(m, d, discrete);
    if (r % 10 == 0) {
      states.load(m, d, r);
      transition_fd(m, d, 1e-6, false, a.data(), b.data(), nullptr, nullptr);
    }
  }
  EXPECT_EQ(counter.count(), 0);
  EXPECT_GT(constrained, 5);
}

}  // namespace
}  // namespace joco::tools
