#include <gtest/gtest.h>

#include <cmath>
#include <iostream>
#include <regex>
#include <string>

#include "common/tool_test_support.h"
#include "common/trajectory.h"

namespace joco::tools {
namespace {

const std::string kModels = JOCO_TESTDATA_DIR;

std::string model(const std::string& relative) { return kModels + "/" + relative; }

// The number after `label` in a tool's output (NaN when absent).
double number_after(const std::string& text, const std::string& label) {
  const std::regex re(label + R"([^0-9-]*(-?[0-9.]+(e[-+]?[0-9]+)?))");
  std::smatch m;
  if (!std::regex_search(text, m, re)) return std::nan("");
  return std::stod(m[1]);
}

TEST(JocoProfile, PrintsTheTableOfEveryStage) {
  const auto r =
      test::run("joco-profile " + model("mujoco/model/humanoid/humanoid.xml") + " --steps 300");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  for (const char* label :
       {"Steps per second", "Realtime factor", "Contacts per step", "Constraints per step",
        "Degrees of freedom", "Solver iterations", "step :", "forward :", "position :",
        "velocity :", "actuation :", "acceleration :", "constraint :", "pos_kinematics :",
        "pos_inertia :", "pos_collision :", "pos_make :", "pos_project :"}) {
    EXPECT_NE(r.out.find(label), std::string::npos) << label << "\n" << r.out;
  }
  EXPECT_EQ(number_after(r.out, "Degrees of freedom"), 27);
  EXPECT_GT(number_after(r.out, "Steps per second"), 0);
}

// Contacts and constraint rows per step are those of the same rollout by joco-simulate (the same
// initial state and testspeed's control noise): the profile runs the same simulation.
TEST(JocoProfile, CountsWhatTheSameRolloutHas) {
  const std::string dir = test::temp_dir();
  const std::string humanoid = model("mujoco/model/humanoid/humanoid.xml");
  auto r = test::run("joco-profile " + humanoid + " --steps 200 --ctrl-noise 0.3 --json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const double contacts = number_after(r.out, "\"contacts_per_step\"");
  const double constraints = number_after(r.out, "\"constraints_per_step\"");
  r = test::run("joco-simulate " + humanoid + " --steps 200 --ctrl-noise 0.3 -o " + dir +
                "/run.h5");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  Trajectory t = TrajectoryInput::open(dir + "/run.h5").single();
  const Matrix ncon = t.read(Field::kNcon), nefc = t.read(Field::kNefc);
  double sum_con = 0, sum_efc = 0;
  for (size_t i = 0; i < 200; ++i) {
    sum_con += ncon.data[i];
    sum_efc += nefc.data[i];
  }
  EXPECT_GT(sum_con, 0);
  EXPECT_NEAR(contacts, sum_con / 200, 1e-3);
  EXPECT_NEAR(constraints, sum_efc / 200, 1e-3);
}

TEST(JocoProfile, ThreadsAndJson) {
  const auto r = test::run("joco-profile " + model("mujoco/model/tendon_arm/arm26.xml") +
                           " --steps 2000 --threads 2 --timer-overhead --json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  for (const char* key : {"\"per_thread\"", "\"total\"", "\"stages_ms_per_step\"", "\"solver\"",
                          "\"timer_overhead\"", "\"pos_collision\""}) {
    EXPECT_NE(r.out.find(key), std::string::npos) << key << "\n" << r.out;
  }
  EXPECT_EQ(r.out.front(), '{');
  EXPECT_EQ(r.out.substr(r.out.size() - 2), "}\n");
}

// joco-profile's steps per second against a plain timed joco-simulate run of the same length (its
// -v summary times the rollout alone). Timings on a shared machine vary: the bound is generous and
// the numbers are printed; bench/RESULTS.md has the careful comparison.
TEST(JocoProfile, StepsPerSecondAgreeWithASimulateRun) {
  const std::string dir = test::temp_dir();
  const std::string humanoid = model("mujoco/model/humanoid/humanoid.xml");
  double best_profile = 0, best_simulate = 0;
  for (int k = 0; k < 3; ++k) {
    auto r = test::run("joco-profile " + humanoid + " --steps 4000");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    best_profile = std::max(best_profile, number_after(r.out, "Steps per second"));
    r = test::run("joco-simulate " + humanoid + " --steps 4000 --ctrl-noise 0.01 -v -o " + dir +
                  "/run.h5");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    best_simulate = std::max(best_simulate, number_after(r.err, R"(wall \()"));
  }
  std::cout << "humanoid, 4000 steps, best of 3: joco-profile " << best_profile
            << " steps/s, joco-simulate " << best_simulate << " steps/s (ratio "
            << best_profile / best_simulate << ")\n";
  EXPECT_GT(best_profile / best_simulate, 0.5);
  EXPECT_LT(best_profile / best_simulate, 2.0);
}

}  // namespace
}  // namespace joco::tools
