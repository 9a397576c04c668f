// Run-time faults every tool meets the same way (issue 19): worker threads the system refuses,
// non-finite rows from finite but huge states, claimed sizes checked before the work.
#include <gtest/gtest.h>
#include <hdf5.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <vector>

#include "common/parallel.h"
#include "common/trajectory.h"
#include "joco/data.h"
#include "joco/error.h"
#include "joco/forward.h"
#include "joco/mjcf.h"
#include "tools/tool_test_support.h"

namespace joco::tools {
namespace {

const std::string kModels = JOCO_TESTDATA_DIR;
std::string model(const std::string& relative) { return kModels + "/" + relative; }
const std::string kArm = model("mujoco/model/tendon_arm/arm26.xml");

// ---- threads that cannot be started

struct NoThreadStarts {
  explicit NoThreadStarts(int started) { fail_thread_starts_for_testing(started); }
  ~NoThreadStarts() { fail_thread_starts_for_testing(-1); }
};

TEST(ThreadStarts, ParallelForGoesOnWithTheThreadsItHas) {
  for (int started : {0, 1, 2}) {
    const NoThreadStarts refuse(started);
    std::vector<std::atomic<int>> calls(100);
    std::atomic<int> highest{0};
    parallel_for(calls.size(), 4, [&](int th, size_t i) {
      ++calls[i];
      int h = highest.load();
      while (th > h && !highest.compare_exchange_weak(h, th)) {
      }
    });
    for (size_t i = 0; i < calls.size(); ++i) EXPECT_EQ(calls[i], 1) << "index " << i;
    EXPECT_LE(highest.load(), started) << "thread numbers beyond those started";
  }
}

TEST(ThreadStarts, RunThreadsRunsNothingAndSaysWhy) {
  const NoThreadStarts refuse(2);
  std::atomic<int> ran{0};
  try {
    run_threads(4, [&](int) { ++ran; });
    FAIL() << "no error";
  } catch (const RuntimeError& e) {
    EXPECT_NE(std::string(e.what()).find("cannot start thread 3 of 4"), std::string::npos)
        << e.what();
  }
  EXPECT_EQ(ran.load(), 0);
}

// The tools under an address-space limit that leaves room for the process and one thread stack of
// 1 GB (ulimit -s sets the default thread stack), not for more: each thread pool goes on with the
// threads it has, where it ended in std::terminate (SIGABRT) when the second thread failed to
// start.
TEST(ThreadStarts, ToolsGoOnUnderAnAddressSpaceLimit) {
  const test::TempDir temp;
  const std::string& dir = temp.path();
  const std::string humanoid = model("mujoco/model/humanoid/humanoid.xml");
  auto r =
      test::run("joco-simulate " + kArm + " --steps 20 --ctrl-noise 0.2 -o " + dir + "/run.h5");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  r = test::run("joco-simulate " + humanoid + " --steps 2 -o " + dir + "/hum.h5");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string limit = "ulimit -s 1000000 && ulimit -v 1600000 && ";
  struct Case {
    std::string command;
    bool warns;  // the tools' thread pool (parallel_for) says it goes on with fewer threads
  };
  const std::vector<Case> cases = {
      {"joco-simulate " + kArm + " --steps 20 --batch 6 --threads 4 -o " + dir + "/b.h5", true},
      {"joco-simulate " + kArm + " --evaluate " + dir + "/run.h5 --threads 4 -o " + dir + "/e.h5",
       true},
      {"joco-inverse " + kArm + " " + dir + "/run.h5 --threads 4 -o " + dir + "/i.h5", true},
      {"joco-fwdinv-check " + kArm + " --states " + dir + "/run.h5 --threads 4", true},
      {"joco-derivatives " + kArm + " --states " + dir + "/run.h5 --threads 4 -o " + dir + "/d.h5",
       true},
      // The engine's continuous derivatives spread each state's columns over their own threads.
      {"joco-derivatives " + humanoid + " --states " + dir +
           "/hum.h5 --continuous --threads 4 -o " + dir + "/c.h5",
       false},
  };
  for (const Case& c : cases) {
    r = test::run("(" + limit + c.command + ")");
    EXPECT_EQ(r.exit_code, 0) << c.command << "\n" << r.err;
    if (c.warns) {
      EXPECT_NE(r.err.find("cannot start thread"), std::string::npos) << c.command << "\n" << r.err;
    }
  }
}

// ---- non-finite rows

// A states file of arm26 whose row 2 has qvel = 1e200: finite, but forward and inverse dynamics
// there overflow to Inf and NaN.
std::string huge_states(const std::string& dir) {
  const Model m = compile_mjcf_file(kArm);
  Data d(m);
  const std::string path = dir + "/huge.h5";
  TrajectoryFileWriter file(path, m, WriterOptions{});
  TrajectoryWriter& w = file.trajectory();
  for (int t = 0; t < 5; ++t) {
    for (int i = 0; i < m.nv; ++i) d.qvel[i] = t == 2 ? 1e200 : 0.1 * t;
    d.time = 0.01 * t;
    w.append_row(d, {Field::kTime, Field::kQpos, Field::kQvel});
  }
  w.close();
  file.commit();
  return path;
}

TEST(NonFiniteRows, ReportedByDatasetAndRowAndRefusedUnderStrict) {
  const test::TempDir temp;
  const std::string& dir = temp.path();
  const std::string states = huge_states(dir);
  struct Case {
    std::string command;
    std::string dataset;
  };
  const std::vector<Case> cases = {
      {"joco-simulate " + kArm + " --evaluate " + states, "/qacc"},
      {"joco-inverse " + kArm + " " + states, "/qfrc_inverse"},
  };
  for (const Case& c : cases) {
    auto r = test::run(c.command + " -o " + dir + "/out.h5");
    EXPECT_EQ(r.exit_code, 0) << c.command << "\n" << r.err;
    EXPECT_NE(r.err.find(c.dataset + ": 1 row(s) not finite"), std::string::npos)
        << c.command << "\n"
        << r.err;
    EXPECT_NE(r.err.find("rows 2"), std::string::npos) << c.command << "\n" << r.err;
    std::filesystem::remove(dir + "/out.h5");
    r = test::run(c.command + " --strict -o " + dir + "/out.h5");
    EXPECT_EQ(r.exit_code, 4) << c.command << "\n" << r.err;
    EXPECT_NE(r.err.find("row 2 is not finite"), std::string::npos) << c.command << "\n" << r.err;
    EXPECT_FALSE(std::filesystem::exists(dir + "/out.h5")) << c.command;
  }
}

// ---- claimed sizes

// --steps near 2^63 ran until memory or the disk was gone (or forever); a run that cannot fit in
// the output's file system (or, for joco-fwdinv-check, which holds its states, in memory) is a
// usage error at once. `timeout` keeps a failure of this test from hanging the suite.
TEST(ClaimedSizes, StepsBeyondWhatTheOutputCanHoldAreRefusedAtOnce) {
  const test::TempDir temp;
  const std::string& dir = temp.path();
  const std::string huge = "9223372036854775807";
  const std::vector<std::string> commands = {
      "joco-simulate " + kArm + " --steps " + huge + " -o " + dir + "/a.h5",
      "joco-simulate " + kArm + " --steps " + huge + " -o - > /dev/null",
      "joco-simulate " + kArm + " --steps " + huge + " --compress -o " + dir + "/a.h5",
      "joco-simulate " + kArm + " --steps 1000000000 --batch 100000 -o " + dir + "/a.h5",
      // Refused before the inputs of 2e9 rollouts are made (that alone ran past a minute).
      "joco-simulate " + kArm + " --steps 1000 --batch 2000000000 --ctrl-noise 0.1 -o " + dir +
          "/a.h5",
      "joco-fwdinv-check " + kArm + " --steps " + huge,
  };
  for (const std::string& c : commands) {
    const auto r = test::run("timeout 60 " + c);
    EXPECT_EQ(r.exit_code, 2) << c << "\n" << r.err;
    EXPECT_NE(r.err.find("lower --steps"), std::string::npos) << c << "\n" << r.err;
  }
  EXPECT_FALSE(std::filesystem::exists(dir + "/a.h5"));
}

// ---- the Data's default size

// n free bodies in a row: MuJoCo's default stack grows with the square of the rows (njmax + nv).
std::string free_bodies(const std::string& dir, int n) {
  const std::string path = dir + "/free" + std::to_string(n) + ".xml";
  std::string xml = "<mujoco><worldbody>\n";
  for (int i = 0; i < n; ++i) {
    xml += "<body pos='" + std::to_string(i % 100) + " " + std::to_string(i / 100) +
           " 1'><freejoint/><geom size='.1'/></body>\n";
  }
  std::ofstream(path) << xml << "</worldbody></mujoco>\n";
  return path;
}

// The default stack of 10,000 free bodies (18.3e9 doubles) once wrapped negative in an int and
// ended as "out of memory"; it is computed in 64 bits and refused naming its size and the <size>
// attributes to set. A default Data that fits an int but not the address space (2,000 bodies: 6 GiB
// under ulimit -v 4 GB) is exit code 4 naming its size and parts.
TEST(DataSize, TheDefaultArenaOfLargeModelsIsNamed) {
  const test::TempDir temp;
  auto r = test::run("joco-simulate " + free_bodies(temp.path(), 10000) + " --steps 1 -o " +
                     temp.path() + "/a.h5");
  EXPECT_EQ(r.exit_code, 3) << r.err;
  EXPECT_NE(r.err.find("asks for a default stack of 18304450020 doubles"), std::string::npos)
      << r.err;
  r = test::run("(ulimit -v 4000000 && joco-simulate " + free_bodies(temp.path(), 2000) +
                " --steps 1 -o " + temp.path() + "/a.h5)");
  EXPECT_EQ(r.exit_code, 4) << r.err;
  EXPECT_NE(r.err.find("cannot allocate a Data of 6.0 GiB"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("nstack = 781890020: 5.8 GiB of stack"), std::string::npos) << r.err;
}

// ---- resets of a diverging rollout

// The attribute `resets` of a group (nullopt when absent), read with HDF5's own API.
std::optional<std::vector<double>> resets_of(const std::string& file, const std::string& group) {
  const hid_t f = H5Fopen(file.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  EXPECT_GE(f, 0) << file;
  std::optional<std::vector<double>> out;
  if (H5Aexists_by_name(f, group.c_str(), "resets", H5P_DEFAULT) > 0) {
    const hid_t a = H5Aopen_by_name(f, group.c_str(), "resets", H5P_DEFAULT, H5P_DEFAULT);
    const hid_t space = H5Aget_space(a);
    out.emplace(static_cast<size_t>(H5Sget_simple_extent_npoints(space)));
    EXPECT_GE(H5Aread(a, H5T_NATIVE_DOUBLE, out->data()), 0);
    H5Sclose(space);
    H5Aclose(a);
  }
  H5Fclose(f);
  return out;
}

// A rollout that diverges and is reset wrote time 0 .. 4.46, 0, ... with nothing marking the reset;
// the attribute resets names the rows that start again (schemas/trajectory.md).
TEST(DivergingRollouts, ResetsAreMarkedInTheFile) {
  const test::TempDir temp;
  const std::string& dir = temp.path();
  const std::string diverging = model("forward/diverging.xml");
  auto r = test::run("joco-simulate " + diverging + " --steps 1000 -o " + dir + "/a.h5");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const Matrix time = TrajectoryInput::open(dir + "/a.h5").single().read(Field::kTime);
  const auto resets = resets_of(dir + "/a.h5", "/");
  ASSERT_TRUE(resets.has_value());
  ASSERT_GE(resets->size(), 2u);  // reset at step 447, and again 447 steps later
  EXPECT_EQ((*resets)[0], 447);
  for (double row : *resets) {
    EXPECT_EQ(time(static_cast<size_t>(row), 0), 0.0) << "row " << row;
    EXPECT_GT(time(static_cast<size_t>(row) - 1, 0), 4.0) << "row " << row;
  }
  // Every 10th row written: the reset at step 447 shows at row 45 (step 450), the first after it.
  r = test::run("joco-simulate " + diverging + " --steps 600 --every 10 --batch 2 -o " + dir +
                "/b.h5");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  for (const char* group : {"/rollout_00000", "/rollout_00001"}) {
    const auto every = resets_of(dir + "/b.h5", group);
    ASSERT_TRUE(every.has_value()) << group;
    EXPECT_EQ(*every, std::vector<double>{45}) << group;
  }
  // A rollout never reset has no such attribute.
  r = test::run("joco-simulate " + kArm + " --steps 20 -o " + dir + "/c.h5");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_FALSE(resets_of(dir + "/c.h5", "/").has_value());
}

}  // namespace
}  // namespace joco::tools
