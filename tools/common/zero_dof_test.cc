// Every tool on a model without degrees of freedom (nq = nv = 0): static geoms, a mocap body,
// sensors and one site actuator whose filter activation is the only state. Trajectories then hold
// zero-wide fields (qpos is (T, 0)) that must still have the right number of rows.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "common/trajectory.h"
#include "tools/tool_test_support.h"

namespace joco::tools {
namespace {

const std::string kScene = std::string(JOCO_TESTDATA_DIR) + "/forward/static_scene.xml";

std::vector<size_t> dims(const std::string& file, Field f) {
  return TrajectoryInput::open(file).single().dims(f);
}

TEST(ZeroDof, CompileAndProfile) {
  const test::TempDir temp;
  const std::string jmb = temp.path() + "/scene.jmb";
  auto r = test::run("joco-compile " + kScene + " -o " + jmb);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  r = test::run("joco-compile " + jmb + " --print json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("\"nq\": 0"), std::string::npos);
  r = test::run("joco-profile " + jmb + " --steps 50 --threads 2 --json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("\"degrees_of_freedom\": 0"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\"steps\": 50"), std::string::npos) << r.out;
}

TEST(ZeroDof, RolloutsAndEvaluationHaveOneRowPerState) {
  const test::TempDir temp;
  const std::string& dir = temp.path();
  // Failed before with "time has 21 rows, qpos has 1": zero-wide fields counted a row per append.
  auto r = test::run("joco-simulate " + kScene + " --steps 20 --ctrl-noise 0.5 --contacts -o " +
                     dir + "/run.h5");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  Trajectory t = TrajectoryInput::open(dir + "/run.h5").single();
  EXPECT_EQ(t.rows(), 21u);
  EXPECT_EQ(t.dims(Field::kQpos), (std::vector<size_t>{21, 0}));
  EXPECT_EQ(t.dims(Field::kAct), (std::vector<size_t>{21, 1}));
  EXPECT_EQ(t.dims(Field::kSensordata), (std::vector<size_t>{21, 12}));
  EXPECT_FALSE(t.has(Field::kQvel));  // zero wide: not stored
  EXPECT_TRUE(t.read_contacts().empty());
  // The activation follows its filter: it moves, so rows are states of their own.
  const Matrix act = t.read(Field::kAct);
  EXPECT_NE(act(20, 0), act(0, 0));

  r = test::run("joco-simulate " + kScene + " --steps 20 --ctrl-noise 0.5 --batch 3 --threads 2 " +
                "-o " + dir + "/batch.h5");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const TrajectoryInput batch = TrajectoryInput::open(dir + "/batch.h5");
  ASSERT_EQ(batch.rollout_groups().size(), 3u);
  for (const std::string& g : batch.rollout_groups()) {
    EXPECT_EQ(batch.trajectory(g).dims(Field::kQpos), (std::vector<size_t>{21, 0})) << g;
  }

  r = test::run("joco-simulate " + kScene + " --evaluate " + dir + "/run.h5 --threads 2 -o " + dir +
                "/eval.h5");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  Trajectory e = TrajectoryInput::open(dir + "/eval.h5").single();
  EXPECT_EQ(e.dims(Field::kQpos), (std::vector<size_t>{21, 0}));
  EXPECT_EQ(e.read(Field::kSensordata).data, t.read(Field::kSensordata).data);
  EXPECT_EQ(e.read(Field::kAct).data, act.data);
  r = test::run("joco-simulate " + kScene + " --evaluate " + dir + "/batch.h5 -o " + dir +
                "/eval_batch.h5");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(TrajectoryInput::open(dir + "/eval_batch.h5").rollout_groups().size(), 3u);

  // Controls replayed from the rollout, and a rollout continued from its last row.
  r = test::run("joco-simulate " + kScene + " --ctrl " + dir + "/run.h5 -o " + dir + "/replay.h5");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(TrajectoryInput::open(dir + "/replay.h5").single().read(Field::kAct).data, act.data);
  r = test::run("joco-simulate " + kScene + " --init " + dir + "/run.h5 --init-row -1 --steps 4 " +
                "-o " + dir + "/more.h5");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(dims(dir + "/more.h5", Field::kQpos), (std::vector<size_t>{5, 0}));
}

TEST(ZeroDof, InverseFwdinvCheckAndDerivatives) {
  const test::TempDir temp;
  const std::string& dir = temp.path();
  const std::string run = dir + "/run.h5";
  auto r = test::run("joco-simulate " + kScene + " --steps 10 --ctrl-noise 0.5 -o " + run);
  ASSERT_EQ(r.exit_code, 0) << r.err;

  r = test::run("joco-inverse " + kScene + " " + run + " -o " + dir + "/inv.h5");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  Trajectory inv = TrajectoryInput::open(dir + "/inv.h5").single();
  EXPECT_EQ(inv.dims(Field::kQpos), (std::vector<size_t>{11, 0}));
  EXPECT_EQ(inv.dims(Field::kSensordata), (std::vector<size_t>{11, 12}));
  // A motion-capture file of such a model is qpos (T, 0) alone: --dt gives the time.
  r = test::run("joco-inverse " + kScene + " " + run + " --dt 0.01 -o " + dir + "/inv_dt.h5");
  ASSERT_EQ(r.exit_code, 0) << r.err;

  for (const std::string& args : {std::string(" --steps 10"), " --states " + run}) {
    r = test::run("joco-fwdinv-check " + kScene + args + " --solver all");
    ASSERT_EQ(r.exit_code, 0) << args << "\n" << r.err;
    EXPECT_NE((r.out + r.err).find("PASS"), std::string::npos) << r.out << r.err;
  }

  // Transition derivatives: nx = 2 nv + na = 1 (the activation), nu = 1, 12 sensor values.
  r = test::run("joco-derivatives " + kScene + " --states " + run + " --rows 0-5 -o " + dir +
                "/ab.h5");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  Trajectory ab = TrajectoryInput::open(dir + "/ab.h5").single();
  EXPECT_EQ(ab.dims(Field::kQpos), (std::vector<size_t>{6, 0}));
  std::vector<size_t> shape;
  const Matrix a = ab.read_extra("A", &shape);
  EXPECT_EQ(shape, (std::vector<size_t>{6, 1, 1}));
  EXPECT_NEAR(a(0, 0), 1 - 0.005 / 0.1, 1e-6);  // the filter: act' = act + h (ctrl - act) / tau
  ab.read_extra("C", &shape);
  EXPECT_EQ(shape, (std::vector<size_t>{6, 12, 1}));
  r = test::run("joco-derivatives " + kScene + " -o " + dir + "/ab0.h5");
  ASSERT_EQ(r.exit_code, 0) << r.err;

  // Continuous derivatives: every matrix is 0 x 0, one per row.
  r = test::run("joco-derivatives " + kScene + " --continuous --states " + run + " -o " + dir +
                "/cont.h5");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  Trajectory cont = TrajectoryInput::open(dir + "/cont.h5").single();
  for (const char* name : {"dqacc_dqpos", "dqfrc_inverse_dqacc", "qDeriv"}) {
    cont.read_extra(name, &shape);
    EXPECT_EQ(shape, (std::vector<size_t>{11, 0, 0})) << name;
  }
}

}  // namespace
}  // namespace joco::tools
