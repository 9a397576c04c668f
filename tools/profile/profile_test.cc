#include <gtest/gtest.h>

#include <cmath>
#include <iostream>
#include <regex>
#include <string>

#include "common/trajectory.h"
#include "tools/tool_test_support.h"

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
  const test::TempDir temp;
  const std::string& dir = temp.path();
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

// --no-timers: the run of testspeed without its profiler, with the same counts and no stage table;
// it excludes --timer-overhead.
TEST(JocoProfile, NoTimersLeavesOutTheStageTable) {
  const std::string arm = model("mujoco/model/tendon_arm/arm26.xml");
  const auto r = test::run("joco-profile " + arm + " --steps 500 --no-timers");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_GT(number_after(r.out, "Steps per second"), 0) << r.out;
  EXPECT_NE(r.out.find("Profiler phase: off"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("pos_collision :"), std::string::npos) << r.out;
  const auto timed = test::run("joco-profile " + arm + " --steps 500");
  ASSERT_EQ(timed.exit_code, 0) << timed.err;
  EXPECT_EQ(number_after(r.out, "Constraints per step"),
            number_after(timed.out, "Constraints per step"));
  const auto json = test::run("joco-profile " + arm + " --steps 500 --no-timers --json");
  ASSERT_EQ(json.exit_code, 0) << json.err;
  EXPECT_NE(json.out.find("\"stages_ms_per_step\": {}"), std::string::npos) << json.out;
  const auto both = test::run("joco-profile " + arm + " --no-timers --timer-overhead");
  EXPECT_EQ(both.exit_code, 2) << both.out << both.err;
}

// The report is self-consistent: the rate, the time per step and the realtime factor are one
// measurement, and the nested stage timers cannot add up to more than the stage around them.
// (Whether the rate is right against a plain timed run is bench/RESULTS.md's business: no test
// asserts a wall-clock time.)
TEST(JocoProfile, ReportIsSelfConsistent) {
  const auto r =
      test::run("joco-profile " + model("mujoco/model/humanoid/humanoid.xml") + " --steps 1000");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const double rate = number_after(r.out, "Steps per second");
  const double ms_per_step = number_after(r.out, "Time per step");
  const double realtime = number_after(r.out, "Realtime factor");
  ASSERT_GT(rate, 0);
  // Printed to 3 or 4 significant digits.
  EXPECT_NEAR(rate * ms_per_step / 1000, 1, 5e-3) << r.out;
  EXPECT_NEAR(realtime / (rate * 0.005), 1, 5e-3) << r.out;
  auto ms = [&](const std::string& stage) { return number_after(r.out, "\\n +" + stage + " :"); };
  const double slack = 1e-5;  // the table's rounding, per entry
  EXPECT_LE(ms("forward"), ms("step") + slack);
  EXPECT_LE(
      ms("position") + ms("velocity") + ms("actuation") + ms("acceleration") + ms("constraint"),
      ms("forward") + 5 * slack)
      << r.out;
  EXPECT_LE(ms("pos_kinematics") + ms("pos_inertia") + ms("pos_collision") + ms("pos_make") +
                ms("pos_project"),
            ms("position") + 5 * slack)
      << r.out;
}

// --states times each engine call a per-row tool makes over a file's rows: one JSON line with the
// rows and the microseconds per call; --call and --states go together.
TEST(JocoProfile, TimesEngineCallsOverTheRowsOfAFile) {
  const test::TempDir temp;
  const std::string& dir = temp.path();
  const std::string humanoid = model("mujoco/model/humanoid/humanoid.xml");
  auto r =
      test::run("joco-simulate " + humanoid + " --steps 19 --ctrl-noise 0.3 -o " + dir + "/run.h5");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  for (const char* call : {"step", "forward", "fwdinv", "inverse", "inverse-discrete",
                           "derivatives", "derivatives-continuous"}) {
    r = test::run("joco-profile " + humanoid + " --states " + dir + "/run.h5 --call " + call +
                  " --repeat 2 --json");
    ASSERT_EQ(r.exit_code, 0) << call << ": " << r.err;
    EXPECT_EQ(number_after(r.out, "\"rows\""), 20) << r.out;
    EXPECT_EQ(number_after(r.out, "\"repeat\""), 2) << r.out;
    EXPECT_GT(number_after(r.out, "\"time_per_call_us\""), 0) << r.out;
    EXPECT_NE(r.out.find(std::string("\"call\": \"") + call + "\""), std::string::npos) << r.out;
  }
  // --from-row: only the rows from K on are timed; K past the last row is an input error.
  r = test::run("joco-profile " + humanoid + " --states " + dir +
                "/run.h5 --call inverse --from-row 15 --json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(number_after(r.out, "\"rows\""), 5) << r.out;
  EXPECT_EQ(number_after(r.out, "\"from_row\""), 15) << r.out;
  EXPECT_EQ(test::run("joco-profile " + humanoid + " --states " + dir +
                      "/run.h5 --call inverse --from-row 20")
                .exit_code,
            3);
  r = test::run("joco-profile " + humanoid + " --states " + dir + "/run.h5 --call forward");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_GT(number_after(r.out, "Time per call"), 0) << r.out;
  EXPECT_EQ(test::run("joco-profile " + humanoid + " --call forward").exit_code, 2);
  EXPECT_EQ(test::run("joco-profile " + humanoid + " --states " + dir + "/run.h5").exit_code, 2);
  EXPECT_EQ(
      test::run("joco-profile " + humanoid + " --states " + dir + "/run.h5 --call jump").exit_code,
      2);
  EXPECT_EQ(
      test::run("joco-profile " + humanoid + " --states " + dir + "/none.h5 --call step").exit_code,
      3);
}

}  // namespace
}  // namespace joco::tools
