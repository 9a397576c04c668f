#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>

#include "common/io.h"
#include "common/tool_test_support.h"
#include "common/trajectory.h"
#include "joco/mjcf.h"

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
  // Different seeds give different controls.
  const Matrix c0 = in.trajectory(in.rollout_groups()[0]).read(Field::kCtrl);
  const Matrix c1 = in.trajectory(in.rollout_groups()[1]).read(Field::kCtrl);
  EXPECT_NE(c0.data, c1.data);
}

// A batch gives the same rollouts, bit for bit, on one thread or several.
TEST(JocoSimulate, BatchResultsDoNotDependOnThreads) {
  const test::TempDir temp;
  const std::string& dir = temp.path();
  for (const char* threads : {"1", "3"}) {
    const auto r = test::run("joco-simulate " + model("mujoco/model/humanoid/humanoid.xml") +
                             " --steps 100 --ctrl-noise 0.3 --batch 4 --threads " + threads +
                             " -o " + dir + "/t" + threads + ".h5");
    ASSERT_EQ(r.exit_code, 0) << r.err;
  }
  TrajectoryInput one = TrajectoryInput::open(dir + "/t1.h5");
  TrajectoryInput three = TrajectoryInput::open(dir + "/t3.h5");
  ASSERT_EQ(one.rollout_groups(), three.rollout_groups());
  for (const std::string& g : one.rollout_groups()) {
    for (Field f : {Field::kQpos, Field::kQvel, Field::kQacc, Field::kCtrl}) {
      EXPECT_EQ(one.trajectory(g).read(f).data, three.trajectory(g).read(f).data) << g;
    }
  }
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
