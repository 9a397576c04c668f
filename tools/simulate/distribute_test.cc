// Batches divided among processes: --shard K/N, --join, and mpirun. Rollout b is the same bits
// whichever process, thread count, shard split or rank count ran it, and a joined file reads as
// the batch file every reader knows.
#include <gtest/gtest.h>
#include <hdf5.h>

#include <cstring>
#include <filesystem>

#include "common/shard.h"
#include "common/trajectory.h"
#include "tools/tool_test_support.h"

namespace joco::tools {
namespace {

namespace fs = std::filesystem;

const std::string kHumanoid =
    std::string(JOCO_TESTDATA_DIR) + "/mujoco/model/humanoid/humanoid.xml";
const std::string kArm = std::string(JOCO_TESTDATA_DIR) + "/mujoco/model/tendon_arm/arm26.xml";
constexpr int kBatch = 7;

// The batch every test divides: humanoid rollouts with contacts (the feet land at about step 45),
// from seeds 5 + b.
std::string batch_command(const std::string& extra) {
  return "joco-simulate " + kHumanoid + " --batch " + std::to_string(kBatch) +
         " --steps 50 --ctrl-noise 0.3 --seed 5 --contacts " + extra;
}

// Every rollout of `expected` has the same bits in `actual`: every dataset, the contacts, the seed;
// `actual` holds exactly the rollouts of `expected`. Returns the datasets compared.
size_t expect_same_rollouts(const std::string& expected, const std::string& actual) {
  TrajectoryInput a = TrajectoryInput::open(expected), b = TrajectoryInput::open(actual);
  EXPECT_EQ(a.rollout_groups(), b.rollout_groups()) << actual;
  size_t compared = 0;
  for (const std::string& g : a.rollout_groups()) {
    SCOPED_TRACE(actual + ":" + g);
    Trajectory x = a.trajectory(g), y = b.trajectory(g);
    EXPECT_EQ(x.fields(), y.fields());
    for (Field f : x.fields()) {
      EXPECT_EQ(x.read(f, 0, SIZE_MAX, false).data, y.read(f, 0, SIZE_MAX, false).data)
          << field_info(f).name;
      ++compared;
    }
    const std::vector<ContactRecord> cx = x.read_contacts(), cy = y.read_contacts();
    EXPECT_GT(cx.size(), 0u);
    EXPECT_EQ(cx.size(), cy.size());
    for (size_t i = 0; i < std::min(cx.size(), cy.size()); ++i)
      EXPECT_EQ(0, std::memcmp(&cx[i], &cy[i], sizeof(ContactRecord))) << "contact " << i;
    EXPECT_EQ(x.int_attribute("seed"), y.int_attribute("seed"));
  }
  return compared;
}

// The kind of link of /rollout_NNNNN in a file (H5L_TYPE_HARD for a group in the file).
H5L_type_t link_type(const std::string& file, int rollout) {
  const hid_t f = H5Fopen(file.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  EXPECT_GE(f, 0) << file;
  H5L_info_t info{};
  EXPECT_GE(H5Lget_info(f, rollout_group(rollout).c_str(), &info, H5P_DEFAULT), 0);
  H5Fclose(f);
  return info.type;
}

// Every fragment appears in `text` (a message on standard error).
void expect_contains(const std::string& text, const std::vector<std::string>& fragments) {
  for (const std::string& f : fragments)
    EXPECT_NE(text.find(f), std::string::npos) << "\"" << f << "\" not in: " << text;
}

std::vector<std::string> groups_of(const std::string& file) {
  return TrajectoryInput::open(file).rollout_groups();
}

// A whole batch on one thread, in the temporary directory `dir`, as the reference.
std::string reference(const std::string& dir) {
  const auto r = test::run(batch_command("--threads 1 -o " + dir + "/ref.h5"));
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return dir + "/ref.h5";
}

// Sensor noise: rollout b's generator starts from its own seed, not from where its thread's
// previous rollout left the generator, so 1 thread, 2 threads and a shard give the same bits, and
// rollouts differ from each other.
TEST(Distribute, SensorNoiseDoesNotDependOnTheThreadsOrShards) {
  const test::TempDir temp;
  const std::string dir = temp.path();
  const std::string noise = std::string(JOCO_TESTDATA_DIR) + "/sensor/noise.xml";
  const auto run = [&](const std::string& extra, const std::string& out) {
    const auto r = test::run("joco-simulate " + noise + " --batch 4 --steps 20 --seed 3 " + extra +
                             " -o " + dir + "/" + out);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    return dir + "/" + out;
  };
  const std::string one = run("--threads 1", "one.h5"), two = run("--threads 2", "two.h5"),
                    shard = run("--threads 2 --shard 1/2", "shard.h5");
  const auto sensors = [](const std::string& file, int b) {
    return TrajectoryInput::open(file)
        .trajectory(rollout_group(b))
        .read(Field::kSensordata, 0, SIZE_MAX, false)
        .data;
  };
  for (int b = 0; b < 4; ++b) {
    SCOPED_TRACE(b);
    EXPECT_FALSE(sensors(one, b).empty());
    EXPECT_EQ(sensors(one, b), sensors(two, b));
    if (b >= 2) {
      EXPECT_EQ(sensors(one, b), sensors(shard, b));
    }
  }
  EXPECT_NE(sensors(one, 0), sensors(one, 1));
}

// Shards of 3 on 2 threads, joined by links and by copies: the reference's bits. The shards hold
// the global names (part_of's ranges); the links resolve beside the joined file from any directory;
// the copy stands alone once the shards are gone, and a link whose shard is gone is an error.
TEST(Distribute, ShardsJoinedGiveTheBatchBitForBit) {
  const test::TempDir temp;
  const std::string dir = temp.path();
  const std::string ref = reference(dir);
  std::string shards;
  for (int k = 0; k < 3; ++k) {
    const std::string shard = dir + "/shard-" + std::to_string(k) + ".h5";
    const auto r =
        test::run(batch_command("--threads 2 --shard " + std::to_string(k) + "/3 -o " + shard));
    ASSERT_EQ(r.exit_code, 0) << r.err;
    std::vector<std::string> expected;
    const RolloutRange part = part_of({0, kBatch}, {k, 3});
    for (int b = part.first; b < part.end(); ++b) expected.push_back(rollout_group(b));
    EXPECT_EQ(groups_of(shard), expected);
    shards += " " + shard;
  }
  EXPECT_EQ(groups_of(dir + "/shard-1.h5"),
            (std::vector<std::string>{"/rollout_00002", "/rollout_00003"}));
  // Shards given in any order.
  auto r = test::run("joco-simulate --join " + dir + "/shard-2.h5 " + dir + "/shard-0.h5 " + dir +
                     "/shard-1.h5 -o " + dir + "/joined.h5");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  r = test::run("joco-simulate -o " + dir + "/copy.h5 --self-contained --join" + shards);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_GT(expect_same_rollouts(ref, dir + "/joined.h5"), 50u);
  EXPECT_GT(expect_same_rollouts(ref, dir + "/copy.h5"), 50u);
  EXPECT_EQ(link_type(dir + "/joined.h5", 4), H5L_TYPE_EXTERNAL);
  EXPECT_EQ(link_type(dir + "/copy.h5", 4), H5L_TYPE_HARD);
  EXPECT_EQ(TrajectoryInput::open(dir + "/joined.h5").model_info().joint_names,
            TrajectoryInput::open(ref).model_info().joint_names);
  // Joining joined files links to the shards.
  fs::create_directory(dir + "/sub");
  r = test::run("joco-simulate --join " + dir + "/joined.h5 -o " + dir + "/sub/again.h5");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  // Read from another directory, and the files moved together to another place.
  fs::create_directory(dir + "/moved");
  for (const char* f : {"joined.h5", "shard-0.h5", "shard-1.h5", "shard-2.h5"})
    fs::copy_file(dir + "/" + f, dir + "/moved/" + f);
  r = test::run("cd / && joco-simulate " + kHumanoid + " --evaluate " + dir +
                "/moved/joined.h5 -o " + dir + "/moved-evaluated.h5");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(groups_of(dir + "/moved-evaluated.h5").size(), size_t{kBatch});
  EXPECT_GT(expect_same_rollouts(ref, dir + "/sub/again.h5"), 50u);

  for (int k = 0; k < 3; ++k) fs::remove(dir + "/shard-" + std::to_string(k) + ".h5");
  EXPECT_GT(expect_same_rollouts(ref, dir + "/copy.h5"), 50u);
  r = test::run("joco-simulate " + kHumanoid + " --evaluate " + dir + "/joined.h5 -o " + dir +
                "/e.h5");
  EXPECT_EQ(r.exit_code, 3) << r.err;
  expect_contains(r.err, {"joined.h5:/rollout_00000", "shard-0.h5", "cannot be opened"});
}

// Runs arm26's batch of `batch` x `steps` as shards 0/2 and 1/2 (DIR/s0.h5, DIR/s1.h5) and joins
// them into DIR/j.h5.
::testing::AssertionResult write_two_shards_joined(const std::string& dir, int batch, int steps) {
  for (int k = 0; k < 2; ++k) {
    const auto r = test::run("joco-simulate " + kArm + " --batch " + std::to_string(batch) +
                             " --steps " + std::to_string(steps) + " --ctrl-noise 0.4 --shard " +
                             std::to_string(k) + "/2 -o " + dir + "/s" + std::to_string(k) + ".h5");
    if (r.exit_code != 0) return ::testing::AssertionFailure() << "shard " << k << ": " << r.err;
  }
  const auto r =
      test::run("joco-simulate --join " + dir + "/s0.h5 " + dir + "/s1.h5 -o " + dir + "/j.h5");
  if (r.exit_code != 0) return ::testing::AssertionFailure() << "join: " << r.err;
  return ::testing::AssertionSuccess();
}

// A joined file is read as a batch file by every reader of the tools: joco-inverse,
// joco-derivatives --states, simulate --evaluate, --init and --ctrl FILE:/group.
TEST(Distribute, JoinedFilesAreReadByEveryReader) {
  const test::TempDir temp;
  const std::string dir = temp.path();
  ASSERT_TRUE(write_two_shards_joined(dir, 4, 20));
  const std::string j = dir + "/j.h5";
  for (const std::string& command :
       {"joco-inverse " + kArm + " " + j + ":/rollout_00002 -o " + dir + "/inv.h5",
        "joco-derivatives " + kArm + " --states " + j + ":/rollout_00003 --rows 0-2 -o " + dir +
            "/d.h5",
        "joco-simulate " + kArm + " --evaluate " + j + " -o " + dir + "/ev.h5",
        "joco-simulate " + kArm + " --init " + j + ":/rollout_00003 --init-row -1 --steps 5 -o " +
            dir + "/init.h5",
        "joco-simulate " + kArm + " --ctrl " + j + ":/rollout_00001 -o " + dir + "/ctrl.h5"}) {
    SCOPED_TRACE(command);
    const auto r = test::run(command);
    EXPECT_EQ(r.exit_code, 0) << r.err;
  }
  TrajectoryInput joined = TrajectoryInput::open(j);
  // Evaluating the rollouts reproduces their qacc (each row's warmstart is in the file).
  TrajectoryInput evaluated = TrajectoryInput::open(dir + "/ev.h5");
  ASSERT_EQ(evaluated.rollout_groups(), joined.rollout_groups());
  for (const std::string& g : joined.rollout_groups()) {
    EXPECT_EQ(evaluated.trajectory(g).read(Field::kQacc).data,
              joined.trajectory(g).read(Field::kQacc).data)
        << g;
  }
  // --ctrl replays rollout 1's controls, --init starts from rollout 3's last row.
  const Matrix replayed = TrajectoryInput::open(dir + "/ctrl.h5").single().read(Field::kCtrl);
  EXPECT_EQ(replayed.data, joined.trajectory("/rollout_00001").read(Field::kCtrl).data);
  const Matrix last = joined.trajectory("/rollout_00003").read(Field::kQvel);
  const Matrix start = TrajectoryInput::open(dir + "/init.h5").single().read(Field::kQvel, 0, 1);
  EXPECT_EQ(start.data, std::vector<double>(last.data.end() - last.cols, last.data.end()));
}

// h5py, as a user's script opens the file: the rollouts through their links, the same values.
TEST(Distribute, JoinedFilesOpenInH5py) {
  if (test::run("/usr/bin/python3 -c 'import h5py'").exit_code != 0)
    GTEST_SKIP()
        << "Debian's python3-h5py is not installed (/usr/bin/python3; scripts/setup installs it)";
  const test::TempDir temp;
  const std::string dir = temp.path();
  ASSERT_TRUE(write_two_shards_joined(dir, 3, 10));
  const auto r = test::run("cd / && /usr/bin/python3 -c \"import h5py; f = h5py.File('" + dir +
                           "/j.h5', 'r'); print(sorted(k for k in f if k.startswith('rollout_'))); "
                           "print(repr(float(f['rollout_00002/qpos'][-1, 0])))\"");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const Matrix qpos =
      TrajectoryInput::open(dir + "/j.h5:/rollout_00002").single().read(Field::kQpos);
  const size_t newline = r.out.find('\n');
  ASSERT_NE(newline, std::string::npos) << r.out;
  EXPECT_EQ(r.out.substr(0, newline), "['rollout_00000', 'rollout_00001', 'rollout_00002']");
  // Python's repr of a float reads back as the same double.
  EXPECT_EQ(std::strtod(r.out.c_str() + newline + 1, nullptr), qpos(qpos.rows - 1, 0));
}

TEST(Distribute, BadShardsAndJoinsAreRefused) {
  const test::TempDir temp;
  const std::string dir = temp.path();
  const std::string arm = "joco-simulate " + kArm + " --steps 5 ";
  struct Case {
    std::string command;
    int exit_code;
    std::vector<std::string> fragments;
  };
  auto r = test::run(arm + "--batch 4 --shard 0/2 -o " + dir + "/a.h5");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  r = test::run(arm + "-o " + dir + "/single.h5");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  r = test::run("joco-simulate " + kHumanoid + " --steps 5 --batch 2 -o " + dir + "/humanoid.h5");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::vector<Case> cases = {
      {arm + "--batch 4 --shard 2/2", 2, {"--shard 2/2", "0..N-1"}},
      {arm + "--batch 4 --shard 1", 2, {"--shard 1", "K/N"}},
      {arm + "--batch 4 --shard a/b", 2, {"--shard a/b"}},
      {arm + "--shard 0/2", 2, {"--shard 0/2", "--batch"}},
      {arm + "--batch 2 --shard 0/3", 2, {"--shard 0/3", "more parts than the 2 rollouts"}},
      {"joco-simulate " + kArm + " --evaluate " + dir + "/a.h5 --shard 0/2",
       2,
       {"--evaluate", "--shard"}},
      {"joco-simulate --steps 5", 2, {"MODEL is required"}},
      {"joco-simulate --join " + dir + "/a.h5 -o -", 2, {"-o -", "--self-contained"}},
      {"joco-simulate " + kArm + " --join " + dir + "/a.h5 -o " + dir + "/j.h5", 2, {"--join"}},
      {"joco-simulate --join " + dir + "/single.h5 -o " + dir + "/j.h5",
       3,
       {"single.h5", "no /rollout_NNNNN group"}},
      {"joco-simulate --join " + dir + "/a.h5 " + dir + "/humanoid.h5 -o " + dir + "/j.h5",
       3,
       {"humanoid.h5", "another model", "a.h5"}},
      {"joco-simulate --join " + dir + "/a.h5 " + dir + "/a.h5 -o " + dir + "/j.h5",
       3,
       {"a.h5:/rollout_00000", "joined once"}},
      {"joco-simulate --join " + dir + "/missing.h5 -o " + dir + "/j.h5", 3, {"missing.h5"}},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.command);
    r = test::run(c.command);
    EXPECT_EQ(r.exit_code, c.exit_code) << r.err;
    expect_contains(r.err, c.fragments);
  }
  EXPECT_FALSE(fs::exists(dir + "/j.h5"));
  // A join with a gap warns and joins what it has.
  r = test::run("joco-simulate --join " + dir + "/a.h5 -o " + dir + "/j.h5");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err, "");  // rollouts 0 and 1 of 4: no gap below the largest index
  r = test::run(arm + "--batch 4 --shard 1/2 -o " + dir + "/b.h5");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  r = test::run(arm + "--batch 6 --shard 2/2 -o " + dir + "/c.h5");
  ASSERT_EQ(r.exit_code, 2) << r.err;
  r = test::run(arm + "--batch 6 --shard 2/3 -o " + dir + "/c.h5");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  r = test::run("joco-simulate --join " + dir + "/a.h5 " + dir + "/c.h5 -o " + dir + "/j.h5");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  expect_contains(r.err, {"rollouts 2-3 are in none of the joined files"});
}

// mpirun -np 2 and 3 (3 ranks on a shard of 2): the reference's bits; with --self-contained the
// ranks' files go. Skips, saying why, without mpirun or in a build without MPI.
TEST(Distribute, MpiRanksGiveTheBatchBitForBit) {
#ifndef JOCO_WITH_MPI
  GTEST_SKIP() << "joco-simulate was built without MPI (JOCO_MPI off or MPI not found)";
#endif
  if (test::run("command -v mpirun").exit_code != 0)
    GTEST_SKIP() << "mpirun is not on PATH (Debian: openmpi-bin)";
  // As CI runs it: as root, with more ranks than cores.
  const std::string mpirun = "mpirun --allow-run-as-root --oversubscribe -np ";
  const test::TempDir temp;
  const std::string dir = temp.path();
  const std::string ref = reference(dir);
  auto r = test::run(mpirun + "2 " + batch_command("--threads 2 -o " + dir + "/mpi.h5"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_GT(expect_same_rollouts(ref, dir + "/mpi.h5"), 50u);
  EXPECT_EQ(link_type(dir + "/mpi.h5", 0), H5L_TYPE_EXTERNAL);
  EXPECT_EQ(groups_of(dir + "/mpi.rank1of2.h5"),
            (std::vector<std::string>{"/rollout_00003", "/rollout_00004", "/rollout_00005",
                                      "/rollout_00006"}));
  // Rank files of a shard: part 1/2 of the batch (rollouts 3-6) over 3 ranks.
  r = test::run(mpirun + "3 " + batch_command("--shard 1/2 -o " + dir + "/part.h5"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  r = test::run(batch_command("--shard 0/2 -o " + dir + "/part0.h5"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  r = test::run("joco-simulate --join " + dir + "/part0.h5 " + dir + "/part.h5 -o " + dir +
                "/parts.h5");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_GT(expect_same_rollouts(ref, dir + "/parts.h5"), 50u);
  r = test::run(mpirun + "2 " + batch_command("--self-contained -o " + dir + "/alone.h5"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_GT(expect_same_rollouts(ref, dir + "/alone.h5"), 50u);
  EXPECT_EQ(link_type(dir + "/alone.h5", 0), H5L_TYPE_HARD);
  EXPECT_FALSE(fs::exists(dir + "/alone.rank0of2.h5"));
  EXPECT_FALSE(fs::exists(dir + "/alone.rank1of2.h5"));

  // Usage errors, on every rank, and nothing written.
  for (const auto& [extra, fragment] : std::vector<std::pair<std::string, std::string>>{
           {" --steps 5 --batch 4 -o -", "-o must name a file"},
           {" --steps 5 -o " + dir + "/x.h5 --batch 1", "more ranks than the 1 rollouts"}}) {
    r = test::run(mpirun + "2 joco-simulate " + kArm + extra);
    EXPECT_NE(r.exit_code, 0) << extra;
    expect_contains(r.err, {fragment});
  }
  r = test::run(mpirun + "2 joco-simulate " + kArm + " --steps 5 -o " + dir + "/x.h5");
  EXPECT_NE(r.exit_code, 0);
  expect_contains(r.err, {"--batch B"});
  EXPECT_FALSE(fs::exists(dir + "/x.h5"));

  // Rank 1 cannot write its part (a directory has its name): the run fails with rank 1's exit
  // code 4, rank 0 removes its part, and no output appears.
  fs::create_directory(dir + "/fail.rank1of2.h5");
  r = test::run(mpirun + "2 " + batch_command("-o " + dir + "/fail.h5"));
  EXPECT_EQ(r.exit_code, 4) << r.err;
  expect_contains(r.err, {"fail.rank1of2.h5"});
  EXPECT_FALSE(fs::exists(dir + "/fail.h5"));
  EXPECT_FALSE(fs::exists(dir + "/fail.rank0of2.h5"));
}

}  // namespace
}  // namespace joco::tools
