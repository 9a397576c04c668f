// Per-rollout inputs of joco-simulate (inputs.h): --init and --ctrl take batch files, one group per
// rollout as joco writes them (/rollout_00000, ...) or as a script writes them with h5py
// (testdata/foreign/controls_batch.h5: rollout_0, rollout_1, rollout_2); rollout b takes group b, a
// file of one trajectory applies to every rollout, and a count that is not the batch's is a usage
// error naming both.
#include <gtest/gtest.h>
#include <hdf5.h>

#include <filesystem>
#include <string>

#include "common/trajectory.h"
#include "tools/tool_test_support.h"

namespace joco::tools {
namespace {

const std::string kTestdata = JOCO_TESTDATA_DIR;
const std::string kChain = kTestdata + "/inverse/chain.xml";
const std::string kControlsBatch = kTestdata + "/foreign/controls_batch.h5";

Trajectory group(const std::string& file, int b) {
  return TrajectoryInput::open(file).trajectory(rollout_group(b));
}

TEST(SimulateInputs, EachRolloutTakesItsGroupOfAControlsBatch) {
  const test::TempDir temp;
  const std::string& dir = temp.path();
  // Refused before: "holds 3 rollouts; name one" (exit 3).
  for (const char* threads : {"1", "2"}) {
    auto r = test::run("joco-simulate " + kChain + " --batch 3 --ctrl " + kControlsBatch +
                       " --threads " + threads + " -o " + dir + "/batch" + threads + ".h5");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    // rollout_1's qpos (41 rows beside 35 of ctrl) is not read from a controls file.
    EXPECT_NE(r.err.find("rollout_1/qpos: has 41 rows, ctrl has 35; ignored"), std::string::npos)
        << r.err;
  }
  const size_t rows[] = {40, 35, 30};
  for (int b = 0; b < 3; ++b) {
    SCOPED_TRACE("rollout " + std::to_string(b));
    const std::string source = kControlsBatch + ":/rollout_" + std::to_string(b);
    const Trajectory given = TrajectoryInput::open(source, TrajectoryUse::kControls).single();
    Trajectory run = group(dir + "/batch1.h5", b);
    // Its own controls, for its own number of steps (the group's rows - 1).
    EXPECT_EQ(run.rows(), rows[b]);
    EXPECT_EQ(run.read(Field::kCtrl).data, given.read(Field::kCtrl).data);
    EXPECT_EQ(run.string_attribute("controls").value_or(""), source);
    // The same rollout as the group given alone, on one thread or two.
    auto r = test::run("joco-simulate " + kChain + " --ctrl " + source + " -o " + dir + "/alone" +
                       std::to_string(b) + ".h5");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    Trajectory alone = TrajectoryInput::open(dir + "/alone" + std::to_string(b) + ".h5").single();
    Trajectory two = group(dir + "/batch2.h5", b);
    for (Field f : {Field::kQpos, Field::kQvel, Field::kQacc, Field::kQfrcApplied}) {
      EXPECT_EQ(run.read(f).data, alone.read(f).data) << field_info(f).name;
      EXPECT_EQ(run.read(f).data, two.read(f).data) << field_info(f).name;
    }
  }
  // The applied forces of rollout_2, zero elsewhere.
  EXPECT_EQ(group(dir + "/batch1.h5", 2).read(Field::kQfrcApplied)(7, 3), 0.01);
  EXPECT_EQ(group(dir + "/batch1.h5", 0).read(Field::kQfrcApplied)(7, 3), 0.0);
}

TEST(SimulateInputs, OneTrajectoryAppliesToEveryRollout) {
  const test::TempDir temp;
  const std::string& dir = temp.path();
  const std::string controls = kTestdata + "/foreign/controls_only.h5";
  auto r = test::run("joco-simulate " + kChain + " --batch 2 --ctrl " + controls + " --init " +
                     kTestdata + "/foreign/mocap_float32.h5 --init-row 5 -o " + dir + "/b.h5");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const Trajectory mocap = TrajectoryInput::open(kTestdata + "/foreign/mocap_float32.h5").single();
  for (int b = 0; b < 2; ++b) {
    Trajectory run = group(dir + "/b.h5", b);
    EXPECT_EQ(run.rows(), 40u);
    EXPECT_EQ(run.read(Field::kQpos, 0, 1).data, mocap.read(Field::kQpos, 5, 1).data);
    EXPECT_EQ(run.read(Field::kQpos).data, group(dir + "/b.h5", 0).read(Field::kQpos).data);
  }
}

TEST(SimulateInputs, EachRolloutStartsFromItsGroupOfAStatesBatch) {
  const test::TempDir temp;
  const std::string& dir = temp.path();
  // A batch as joco writes it: each rollout goes on from the last row of its own group.
  auto r = test::run("joco-simulate " + kChain + " --batch 3 --steps 20 --ctrl-noise 0.5 -o " +
                     dir + "/first.h5");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  // Refused before: "first.h5: holds 3 rollouts; name one" (exit 3).
  r = test::run("joco-simulate " + kChain + " --init " + dir +
                "/first.h5 --init-row -1 --batch 3 --steps 10 -o " + dir + "/next.h5");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  for (int b = 0; b < 3; ++b) {
    SCOPED_TRACE("rollout " + std::to_string(b));
    Trajectory first = group(dir + "/first.h5", b), next = group(dir + "/next.h5", b);
    for (Field f : {Field::kTime, Field::kQpos, Field::kQvel}) {
      EXPECT_EQ(next.read(f, 0, 1).data, first.read(f, 20, 1).data) << field_info(f).name;
    }
    EXPECT_EQ(next.string_attribute("init").value_or(""), dir + "/first.h5:" + rollout_group(b));
  }
  // As h5py writes one (foreign/batch_strings.h5: two groups of 40 and 30 rows, string checksums),
  // with controls from a batch of another numbering.
  const std::string states = kTestdata + "/foreign/batch_strings.h5";
  r = test::run("joco-simulate " + kChain + " --init " + states +
                " --init-row -1 --batch 2 --steps 4 -o " + dir + "/h5py.h5");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  for (int b = 0; b < 2; ++b) {
    Trajectory given = group(states, b), run = group(dir + "/h5py.h5", b);
    EXPECT_EQ(run.read(Field::kQpos, 0, 1).data,
              given.read(Field::kQpos, given.rows() - 1, 1).data);
  }
  EXPECT_NE(group(dir + "/h5py.h5", 0).read(Field::kQpos, 0, 1).data,
            group(dir + "/h5py.h5", 1).read(Field::kQpos, 0, 1).data);
}

TEST(SimulateInputs, CountsThatDifferAreUsageErrorsNamingBoth) {
  const test::TempDir temp;
  const std::string& dir = temp.path();
  auto r = test::run("joco-simulate " + kChain + " --batch 4 --ctrl " + kControlsBatch + " -o " +
                     dir + "/x.h5");
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("--ctrl " + kControlsBatch + ": holds 3 rollouts, --batch is 4"),
            std::string::npos)
      << r.err;
  const std::string states = kTestdata + "/foreign/batch_strings.h5";
  r = test::run("joco-simulate " + kChain + " --init " + states + " --batch 3 -o " + dir + "/x.h5");
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("--init " + states + ": holds 2 rollouts, --batch is 3"), std::string::npos)
      << r.err;
  // A single rollout (no --batch) from a batch file: give --batch, or name a group.
  r = test::run("joco-simulate " + kChain + " --ctrl " + kControlsBatch + " -o " + dir + "/x.h5");
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("holds 3 rollouts, for 1 rollout (no --batch); give --batch 3"),
            std::string::npos)
      << r.err;
  EXPECT_FALSE(std::filesystem::exists(dir + "/x.h5"));

  // Groups that are not numbered 0 to B - 1: the missing one is named (bad input, exit 3).
  r = test::run("joco-simulate " + kChain + " --batch 3 --steps 2 -o " + dir + "/gap.h5");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const hid_t file = H5Fopen((dir + "/gap.h5").c_str(), H5F_ACC_RDWR, H5P_DEFAULT);
  ASSERT_GE(file, 0);
  ASSERT_GE(H5Ldelete(file, "rollout_00001", H5P_DEFAULT), 0);
  H5Fclose(file);
  r = test::run("joco-simulate " + kChain + " --init " + dir + "/gap.h5 --batch 2 -o " + dir +
                "/x.h5");
  EXPECT_EQ(r.exit_code, 3) << r.err;
  EXPECT_NE(r.err.find("no group for rollout 1 (/rollout_00001)"), std::string::npos) << r.err;
}

// A batch stacked as numpy holds it, written with h5py (foreign/controls_stacked.h5: ctrl (3, 40,
// 3), qfrc_applied (3, 40, 4) as float32, xfrc_applied (3, 40, 5, 6) in the root): rollout b takes
// entry b of each. Refused before: "ctrl: has rank 3, shape (3, 40, 3); expected (T, nu)".
TEST(SimulateInputs, EachRolloutTakesItsEntryOfStackedControls) {
  const test::TempDir temp;
  const std::string& dir = temp.path();
  const std::string stacked = kTestdata + "/foreign/controls_stacked.h5";
  for (const char* threads : {"1", "2"}) {
    auto r = test::run("joco-simulate " + kChain + " --batch 3 --ctrl " + stacked + " --threads " +
                       threads + " -o " + dir + "/batch" + threads + ".h5");
    ASSERT_EQ(r.exit_code, 0) << r.err;
  }
  const TrajectoryInput given = TrajectoryInput::open(stacked, TrajectoryUse::kControls);
  for (int b = 0; b < 3; ++b) {
    SCOPED_TRACE("rollout " + std::to_string(b));
    Trajectory run = group(dir + "/batch1.h5", b), two = group(dir + "/batch2.h5", b);
    EXPECT_EQ(run.rows(), 40u);  // the stacked rows - 1 steps
    const size_t e = static_cast<size_t>(b);
    EXPECT_EQ(run.read(Field::kCtrl).data, given.read_dataset("ctrl", e, 1));
    EXPECT_EQ(run.read(Field::kQfrcApplied).data, given.read_dataset("qfrc_applied", e, 1));
    EXPECT_EQ(run.read(Field::kXfrcApplied).data, given.read_dataset("xfrc_applied", e, 1));
    EXPECT_EQ(run.string_attribute("controls").value_or(""),
              stacked + ":/[" + std::to_string(b) + "]");
    for (Field f : {Field::kQpos, Field::kQvel, Field::kQacc}) {
      EXPECT_EQ(run.read(f).data, two.read(f).data) << field_info(f).name;
    }
  }
  EXPECT_NE(group(dir + "/batch1.h5", 0).read(Field::kQpos).data,
            group(dir + "/batch1.h5", 1).read(Field::kQpos).data);

  // Counts as for groups: a usage error naming both.
  auto r = test::run("joco-simulate " + kChain + " --batch 4 --ctrl " + stacked + " -o " + dir +
                     "/x.h5");
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("--ctrl " + stacked + ": holds 3 rollouts, --batch is 4"), std::string::npos)
      << r.err;
  r = test::run("joco-simulate " + kChain + " --ctrl " + stacked + " -o " + dir + "/x.h5");
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("holds 3 rollouts, for 1 rollout (no --batch); give --batch 3"),
            std::string::npos)
      << r.err;
  // Datasets stacked unlike ctrl: bad input naming the dataset.
  r = test::run("joco-simulate " + kChain + " --batch 3 --ctrl " + kTestdata +
                "/foreign/controls_stacked_bad.h5 -o " + dir + "/x.h5");
  EXPECT_EQ(r.exit_code, 3) << r.err;
  EXPECT_NE(r.err.find("controls_stacked_bad.h5:/qfrc_applied: has shape (3, 39, 4); expected "
                       "(3, 40, 4)"),
            std::string::npos)
      << r.err;
  EXPECT_FALSE(std::filesystem::exists(dir + "/x.h5"));
}

// Initial states stacked the same way (foreign/states_stacked.h5: qpos (2, 5, 4), qvel (2, 5, 4)
// as float32, time (2, 5)): rollout b starts from row --init-row of entry b.
TEST(SimulateInputs, EachRolloutStartsFromItsEntryOfStackedStates) {
  const test::TempDir temp;
  const std::string& dir = temp.path();
  const std::string stacked = kTestdata + "/foreign/states_stacked.h5";
  auto r = test::run("joco-simulate " + kChain + " --init " + stacked +
                     " --init-row -1 --batch 2 --steps 3 -o " + dir + "/b.h5");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const TrajectoryInput given = TrajectoryInput::open(stacked);
  for (int b = 0; b < 2; ++b) {
    SCOPED_TRACE("rollout " + std::to_string(b));
    Trajectory run = group(dir + "/b.h5", b);
    const size_t e = static_cast<size_t>(b);
    const std::vector<double> qpos = given.read_dataset("qpos", e, 1);
    const std::vector<double> qvel = given.read_dataset("qvel", e, 1);
    EXPECT_EQ(run.read(Field::kQpos, 0, 1).data, std::vector<double>(qpos.end() - 4, qpos.end()));
    EXPECT_EQ(run.read(Field::kQvel, 0, 1).data, std::vector<double>(qvel.end() - 4, qvel.end()));
    EXPECT_EQ(run.read(Field::kTime, 0, 1).data, std::vector<double>{b + 0.004});
    EXPECT_EQ(run.string_attribute("init").value_or(""), stacked + ":/[" + std::to_string(b) + "]");
  }
  r = test::run("joco-simulate " + kChain + " --init " + stacked + " --batch 3 -o " + dir +
                "/x.h5");
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("--init " + stacked + ": holds 2 rollouts, --batch is 3"), std::string::npos)
      << r.err;
}

}  // namespace
}  // namespace joco::tools
