#include <gtest/gtest.h>
#include <hdf5.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "common/io.h"
#include "common/model_input.h"
#include "common/trajectory.h"
#include "joco/mjcf.h"
#include "tools/tool_test_support.h"

namespace joco::tools {
namespace {

const std::string kModels = JOCO_TESTDATA_DIR;

std::string model(const std::string& relative) { return kModels + "/" + relative; }

Matrix read(const std::string& file, Field f) {
  return TrajectoryInput::open(file).single().read(f);
}

TEST(JocoSimulate, WritesNPlusOneRows) {
  const test::TempDir temp;
  const std::string& dir = temp.path();
  const auto r = test::run("joco-simulate " + model("mujoco/model/tendon_arm/arm26.xml") +
                           " --steps 50 --ctrl-noise 0.2 -o " + dir + "/a.h5");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  Trajectory t = TrajectoryInput::open(dir + "/a.h5").single();
  EXPECT_EQ(t.rows(), 51u);
  const Matrix time = t.read(Field::kTime);
  EXPECT_NEAR(time(50, 0), 50 * 0.005, 1e-12);
  EXPECT_TRUE(t.has(Field::kCtrl));
  EXPECT_EQ(t.string_attribute("format").value_or(""), "joco.trajectory");
}

TEST(JocoSimulate, EvaluateReproducesTheRolloutsQacc) {
  const test::TempDir temp;
  const std::string& dir = temp.path();
  auto r = test::run("joco-simulate " + model("mujoco/model/tendon_arm/arm26.xml") +
                     " --steps 40 --ctrl-noise 0.3 --seed 2 -o " + dir + "/run.h5");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  r = test::run("joco-simulate " + model("mujoco/model/tendon_arm/arm26.xml") + " --evaluate " +
                dir + "/run.h5 --threads 2 -o " + dir + "/eval.h5");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const Matrix a = read(dir + "/run.h5", Field::kQacc), b = read(dir + "/eval.h5", Field::kQacc);
  ASSERT_EQ(a.data.size(), b.data.size());
  for (size_t i = 0; i < a.data.size(); ++i) ASSERT_EQ(a.data[i], b.data[i]) << "element " << i;
}

// A rollout records the qacc_warmstart each row's constraint solve started from; --evaluate (and
// every tool that evaluates rows) starts from it, so it reproduces the rollout bit for bit even
// where the warmstart is not the previous row's qacc: under RK4 it is the last stage's.
TEST(JocoSimulate, EvaluateStartsFromTheRecordedWarmstart) {
  const test::TempDir temp;
  const std::string& dir = temp.path();
  const std::string rk4 = model("forward/rk4_contacts.xml");
  auto r =
      test::run("joco-simulate " + rk4 + " --steps 150 --ctrl-noise 0.5 -o " + dir + "/run.h5");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  Trajectory run = TrajectoryInput::open(dir + "/run.h5").single();
  ASSERT_TRUE(run.has(Field::kQaccWarmstart));
  EXPECT_EQ(run.dims(Field::kQaccWarmstart), (std::vector<size_t>{151, 13}));
  const Matrix nefc = run.read(Field::kNefc);
  size_t constrained = 0;
  for (double n : nefc.data) constrained += n > 0;
  ASSERT_GT(constrained, 100u);

  r = test::run("joco-simulate " + rk4 + " --evaluate " + dir + "/run.h5 --threads 2 -o " + dir +
                "/eval.h5");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  for (Field f : {Field::kQacc, Field::kQaccWarmstart, Field::kQpos, Field::kQfrcConstraint}) {
    const Matrix a = run.read(f), b = read(dir + "/eval.h5", f);
    ASSERT_EQ(a.data.size(), b.data.size());
    for (size_t i = 0; i < a.data.size(); ++i)
      ASSERT_EQ(a.data[i], b.data[i]) << field_info(f).name << " element " << i;
  }

  // Without it the previous row's qacc is the warmstart: other last bits wherever there are
  // constraints.
  const std::string without = dir + "/without.h5";
  std::filesystem::copy_file(dir + "/run.h5", without);
  const hid_t file = H5Fopen(without.c_str(), H5F_ACC_RDWR, H5P_DEFAULT);
  ASSERT_GE(file, 0);
  ASSERT_GE(H5Ldelete(file, "qacc_warmstart", H5P_DEFAULT), 0);
  H5Fclose(file);
  r = test::run("joco-simulate " + rk4 + " --evaluate " + without + " -o " + dir + "/eval2.h5");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const Matrix a = run.read(Field::kQacc), b = read(dir + "/eval2.h5", Field::kQacc);
  size_t differ = 0;
  for (size_t row = 0; row < a.rows; ++row) {
    bool same = true;
    for (size_t c = 0; c < a.cols; ++c) same = same && a(row, c) == b(row, c);
    differ += !same;
    if (nefc(row, 0) == 0) {
      EXPECT_TRUE(same) << "row " << row;  // no constraints: no solver
    }
  }
  EXPECT_GT(differ, 100u);

  // fwdinv-check on the file sees the rollout's own solver runs: the same report as its rollout.
  r = test::run("joco-fwdinv-check " + rk4 + " --states " + dir + "/run.h5 --report json -o " +
                dir + "/states.json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  r = test::run("joco-fwdinv-check " + rk4 + " --steps 150 --ctrl-noise 0.5 --report json -o " +
                dir + "/rollout.json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::ifstream s(dir + "/states.json"), o(dir + "/rollout.json");
  std::string states((std::istreambuf_iterator<char>(s)), {}),
      rollout((std::istreambuf_iterator<char>(o)), {});
  const auto body = [](const std::string& json) {
    return json.substr(json.find("\"force_error\""));
  };
  EXPECT_EQ(body(states), body(rollout));
}

// --evaluate computes each row from the row alone: the rows in reverse order (each Data then
// holding, from the row before, what the row after computed) give the same results bit for bit,
// and so do three threads taking the rows as they come.
TEST(JocoSimulate, EvaluateRowsDoNotDependOnTheRowsBefore) {
  const test::TempDir temp;
  const std::string& dir = temp.path();
  for (const char* path :
       {"mujoco/model/humanoid/humanoid.xml", "mujoco/model/tendon_arm/arm26.xml"}) {
    const std::string xml = model(path);
    // Seed 8: its noise drives arm26 into its joint limits within 80 steps (7 constrained rows).
    auto r = test::run("joco-simulate " + xml + " --steps 80 --ctrl-noise 0.4 --seed 8 -o " + dir +
                       "/run.h5");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    test::write_rows(xml, dir + "/run.h5", dir + "/reversed.h5", true);
    r = test::run("joco-simulate " + xml + " --evaluate " + dir + "/run.h5 -o " + dir + "/a.h5");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    r = test::run("joco-simulate " + xml + " --evaluate " + dir + "/reversed.h5 -o " + dir +
                  "/b.h5");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    r = test::run("joco-simulate " + xml + " --evaluate " + dir + "/run.h5 --threads 3 -o " + dir +
                  "/c.h5");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const Matrix nefc = read(dir + "/a.h5", Field::kNefc);
    double constrained = 0;
    for (double n : nefc.data) constrained += n > 0;
    EXPECT_GT(constrained, 5) << path;
    for (Field f : {Field::kQacc, Field::kQfrcConstraint, Field::kSensordata, Field::kNefc,
                    Field::kSolverNiter, Field::kQfrcBias}) {
      if (field_row_size(f, load_model(xml)) == 0) continue;
      EXPECT_TRUE(test::same_rows(dir + "/a.h5", dir + "/b.h5", f, true)) << path;
      EXPECT_TRUE(test::same_rows(dir + "/a.h5", dir + "/c.h5", f, false)) << path;
    }
  }
}

TEST(JocoSimulate, StreamsThroughPipes) {
  const test::TempDir temp;
  const std::string& dir = temp.path();
  const auto r = test::run("joco-compile " + model("mujoco/model/slider_crank/slider_crank.xml") +
                           " -o - | joco-simulate - --steps 20 -o - > " + dir + "/piped.h5");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(TrajectoryInput::open(dir + "/piped.h5").single().rows(), 21u);
}

TEST(JocoSimulate, ControlsFromAFileAreApplied) {
  const test::TempDir temp;
  const std::string& dir = temp.path();
  auto r = test::run("joco-simulate " + model("mujoco/model/tendon_arm/arm26.xml") +
                     " --steps 30 --ctrl-noise 0.5 -o " + dir + "/source.h5");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  r = test::run("joco-simulate " + model("mujoco/model/tendon_arm/arm26.xml") + " --ctrl " + dir +
                "/source.h5 -o " + dir + "/replay.h5");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const Matrix a = read(dir + "/source.h5", Field::kQpos),
               b = read(dir + "/replay.h5", Field::kQpos);
  ASSERT_EQ(a.data, b.data);
}

TEST(JocoSimulate, BatchesWriteOneGroupPerRollout) {
  const test::TempDir temp;
  const std::string& dir = temp.path();
  const auto r =
      test::run("joco-simulate " + model("mujoco/model/tendon_arm/arm26.xml") +
                " --steps 10 --ctrl-noise 0.5 --batch 3 --threads 2 -o " + dir + "/batch.h5");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  TrajectoryInput in = TrajectoryInput::open(dir + "/batch.h5");
  ASSERT_EQ(in.rollout_groups().size(), 3u);
  // Different seeds give independent controls: with noise 0.5 on arm26's ranges [0, 1] the
  // controls are uniform on [0.25, 0.75], and two independent ones differ by 1/6 on average.
  // (Seeds once shifted the Halton index by seed * 2^32, which moved each control by ~1e-10.)
  const Matrix c0 = in.trajectory(in.rollout_groups()[0]).read(Field::kCtrl);
  for (int b = 1; b < 3; ++b) {
    const Matrix cb = in.trajectory(in.rollout_groups()[b]).read(Field::kCtrl);
    ASSERT_EQ(cb.data.size(), c0.data.size());
    double mean_difference = 0;
    for (size_t k = 0; k < c0.data.size(); ++k)
      mean_difference += std::fabs(cb.data[k] - c0.data[k]);
    mean_difference /= static_cast<double>(c0.data.size());
    EXPECT_GT(mean_difference, 0.08) << "rollout " << b;
  }
  // Rollout 0 (seed 0) keeps mujoco-testspeed's sequence: a single run's controls.
  const auto single = test::run("joco-simulate " + model("mujoco/model/tendon_arm/arm26.xml") +
                                " --steps 10 --ctrl-noise 0.5 -o " + dir + "/single.h5");
  ASSERT_EQ(single.exit_code, 0) << single.err;
  EXPECT_EQ(read(dir + "/single.h5", Field::kCtrl).data, c0.data);
}

// A batch gives the same rollouts, bit for bit, on one thread or several: every dataset, the
// contact table and the attributes but the command line. The rollouts start from a row of a
// trajectory file (read once, before the threads start: HDF5 is not thread-safe).
TEST(JocoSimulate, BatchResultsDoNotDependOnThreads) {
  const test::TempDir temp;
  const std::string& dir = temp.path();
  const std::string humanoid = model("mujoco/model/humanoid/humanoid.xml");
  auto r = test::run("joco-simulate " + humanoid + " --steps 30 -o " + dir + "/start.h5");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  for (const char* threads : {"1", "2", "3"}) {
    r = test::run("joco-simulate " + humanoid + " --init " + dir +
                  "/start.h5 --init-row -1 --steps 100 --ctrl-noise 0.3 --batch 5 --contacts " +
                  "--threads " + threads + " -o " + dir + "/t" + threads + ".h5");
    ASSERT_EQ(r.exit_code, 0) << r.err;
  }
  const Matrix start = read(dir + "/start.h5", Field::kQpos);
  TrajectoryInput one = TrajectoryInput::open(dir + "/t1.h5");
  ASSERT_EQ(one.rollout_groups().size(), 5u);
  size_t compared = 0, contacts = 0;
  for (const char* threads : {"2", "3"}) {
    TrajectoryInput other = TrajectoryInput::open(dir + "/t" + threads + ".h5");
    ASSERT_EQ(one.rollout_groups(), other.rollout_groups());
    for (const std::string& g : one.rollout_groups()) {
      SCOPED_TRACE(g + " on " + threads + " threads");
      Trajectory a = one.trajectory(g), b = other.trajectory(g);
      // Started from the file's last row.
      const Matrix qpos = a.read(Field::kQpos);
      EXPECT_EQ(std::vector<double>(qpos.data.begin(), qpos.data.begin() + qpos.cols),
                std::vector<double>(start.data.end() - start.cols, start.data.end()));
      ASSERT_EQ(a.fields(), b.fields());
      for (Field f : a.fields()) {
        EXPECT_EQ(a.read(f, 0, SIZE_MAX, false).data, b.read(f, 0, SIZE_MAX, false).data)
            << field_info(f).name;
        ++compared;
      }
      const std::vector<ContactRecord> ca = a.read_contacts(), cb = b.read_contacts();
      ASSERT_EQ(ca.size(), cb.size());
      for (size_t i = 0; i < ca.size(); ++i) {
        EXPECT_EQ(0, std::memcmp(&ca[i], &cb[i], sizeof(ContactRecord))) << "contact " << i;
      }
      contacts += ca.size();
      EXPECT_EQ(a.int_attribute("seed"), b.int_attribute("seed"));
      EXPECT_EQ(a.double_attribute("ctrl_noise"), b.double_attribute("ctrl_noise"));
      EXPECT_EQ(a.string_attribute("init"), b.string_attribute("init"));
    }
  }
  EXPECT_GT(compared, 100u);
  EXPECT_GT(contacts, 0u);
}

// Rollouts that diverge (a ball under an absurd gravity, testdata/forward/diverging.xml): without
// --strict the divergence check resets them and the batch is written whole; with --strict the tool
// stops with exit code 4 naming the step, leaving no file, not even a temporary one, on one
// thread or several.
TEST(JocoSimulate, DivergingRolloutsOfABatchAreReported) {
  const test::TempDir temp;
  const std::string& dir = temp.path();
  const std::string diverging = model("forward/diverging.xml");
  for (const char* threads : {"1", "2"}) {
    SCOPED_TRACE(std::string(threads) + " threads");
    auto r = test::run("joco-simulate " + diverging +
                       " --steps 600 --ctrl-noise 0.1 --batch 3 --strict --threads " + threads +
                       " -o " + dir + "/strict.h5");
    EXPECT_EQ(r.exit_code, 4) << r.err;
    // The time the diverging step started at (the reset sets d.time back to 0).
    EXPECT_NE(r.err.find("the simulation diverged at step 447 (time 4.47 s)"), std::string::npos)
        << r.err;
    EXPECT_TRUE(std::filesystem::is_empty(dir));
    r = test::run("joco-simulate " + diverging + " --steps 600 --ctrl-noise 0.1 --batch 3 " +
                  "--threads " + threads + " -o " + dir + "/reset.h5");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.err.find("bad qpos"), std::string::npos) << r.err;
    TrajectoryInput in = TrajectoryInput::open(dir + "/reset.h5");
    ASSERT_EQ(in.rollout_groups().size(), 3u);
    for (const std::string& g : in.rollout_groups()) {
      const Matrix qpos = in.trajectory(g).read(Field::kQpos);
      EXPECT_EQ(qpos.rows, 601u);
      EXPECT_EQ(qpos(447, 0), 0.0);  // the row forward ran from after the reset
      EXPECT_LT(qpos(446, 0), -1e9);
    }
    std::filesystem::remove(dir + "/reset.h5");
  }
}

// --evaluate FILE:/rollout_00002 writes its result as /rollout_00002, the rollout it evaluated.
TEST(JocoSimulate, EvaluateKeepsTheRolloutsName) {
  const test::TempDir temp;
  const std::string& dir = temp.path();
  const std::string arm = model("mujoco/model/tendon_arm/arm26.xml");
  auto r = test::run("joco-simulate " + arm + " --steps 5 --ctrl-noise 0.3 --batch 3 -o " + dir +
                     "/batch.h5");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  r = test::run("joco-simulate " + arm + " --evaluate " + dir + "/batch.h5:/rollout_00002 -o " +
                dir + "/one.h5");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(TrajectoryInput::open(dir + "/one.h5").rollout_groups(),
            std::vector<std::string>{"/rollout_00002"});
  r = test::run("joco-simulate " + arm + " --evaluate " + dir + "/batch.h5 -o " + dir + "/all.h5");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(TrajectoryInput::open(dir + "/all.h5").rollout_groups(),
            (std::vector<std::string>{"/rollout_00000", "/rollout_00001", "/rollout_00002"}));
}

TEST(JocoSimulate, StartsFromAKeyframe) {
  const test::TempDir temp;
  const std::string& dir = temp.path();
  const auto r =
      test::run("joco-simulate " + model("mujoco-tests/test__user__testdata__keyframe.xml") +
                " --init 1 --steps 0 -o " + dir + "/key.h5");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(read(dir + "/key.h5", Field::kQpos)(0, 0), 0.2);
}

TEST(JocoSimulate, BadTrajectoryFilesExitThree) {
  const test::TempDir temp;
  const std::string& dir = temp.path();
  // A trajectory for another model: wrong widths.
  auto r = test::run("joco-simulate " + model("mujoco/model/slider_crank/slider_crank.xml") +
                     " --steps 5 -o " + dir + "/slider.h5");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  r = test::run("joco-simulate " + model("mujoco/model/tendon_arm/arm26.xml") + " --ctrl " + dir +
                "/slider.h5 -o " + dir + "/out.h5");
  EXPECT_EQ(r.exit_code, 3) << r.err;
  EXPECT_NE(r.err.find("slider.h5"), std::string::npos) << r.err;
  EXPECT_FALSE(std::filesystem::exists(dir + "/out.h5"));
  // Not HDF5 at all.
  std::ofstream(dir + "/junk.h5") << "not hdf5";
  r = test::run("joco-simulate " + model("mujoco/model/tendon_arm/arm26.xml") + " --evaluate " +
                dir + "/junk.h5");
  EXPECT_EQ(r.exit_code, 3) << r.err;
}

// A box resting on the floor: the contact table's normal forces carry its weight, in both cone
// types (the pyramidal rows' efc_force is decoded, not copied).
TEST(JocoSimulate, ContactForcesAreDecodedForBothCones) {
  const test::TempDir temp;
  const std::string& dir = temp.path();
  for (const std::string cone : {"pyramidal", "elliptic"}) {
    const std::string xml = dir + "/box_" + cone + ".xml";
    std::ofstream(xml) << "<mujoco><option cone='" << cone << "' timestep='0.002'/><worldbody>"
                       << "<geom type='plane' size='1 1 0.1'/><body pos='0 0 0.1'><freejoint/>"
                       << "<geom type='box' size='0.1 0.1 0.1' mass='2'/></body></worldbody>"
                       << "</mujoco>";
    const auto r = test::run("joco-simulate " + xml + " --steps 500 --contacts -o " + dir + "/" +
                             cone + ".h5");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    Trajectory t = TrajectoryInput::open(dir + "/" + cone + ".h5").single();
    const std::vector<ContactRecord> contacts = t.read_contacts();
    double normal = 0, tangent = 0;
    int count = 0;
    for (const ContactRecord& c : contacts) {
      if (c.row != 499) continue;  // the forces acting on the last integrated state
      ++count;
      normal += c.force[0];
      tangent += std::abs(c.force[1]) + std::abs(c.force[2]);
    }
    ASSERT_EQ(count, 4) << cone;
    EXPECT_NEAR(normal, 2 * 9.81, 1e-3) << cone;
    EXPECT_LT(tangent, 1e-6) << cone;
  }
}

TEST(JocoSimulate, UsageErrorsExitTwo) {
  EXPECT_EQ(test::run("joco-simulate").exit_code, 2);
  EXPECT_EQ(test::run("joco-simulate m.xml --ctrl-noise 2").exit_code, 2);
  EXPECT_EQ(test::run("joco-simulate m.xml --ctrl a.h5 --ctrl-noise 0.1").exit_code, 2);
  const auto r = test::run("joco-simulate " + model("mujoco/model/slider_crank/slider_crank.xml") +
                           " --init nosuchkey --steps 1");
  EXPECT_EQ(r.exit_code, 2) << r.err;
}

}  // namespace
}  // namespace joco::tools
