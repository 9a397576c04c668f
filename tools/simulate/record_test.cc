// What joco-simulate records (record.h): --record takes any Data array by its MuJoCo name (the
// trajectory fields as the table says, other arrays as extra datasets, read back by h5py and
// ignored by the tools' reader), --every N keeps every Nth row, and -v summarises a batch.
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "common/model_input.h"
#include "common/trajectory.h"
#include "joco/forward.h"
#include "tools/tool_test_support.h"

namespace joco::tools {
namespace {

const std::string kTestdata = JOCO_TESTDATA_DIR;
// A platform, a ball and boxes dropped on the floor: contacts, 18 sensors, 14 sites (nu = 0).
const std::string kTouch = kTestdata + "/sensor/touch.xml";
// Tendons and muscles.
const std::string kArm = kTestdata + "/mujoco/model/tendon_arm/arm26.xml";

TEST(SimulateRecord, RecordsChosenArraysByTheirMuJoCoNames) {
  const test::TempDir temp;
  const std::string& dir = temp.path();
  const std::string list = "xpos,xquat,site_xpos,cfrc_ext,sensordata,qacc,ncon,energy,efc_type";
  auto r = test::run("joco-simulate " + kTouch + " --steps 60 --record " + list + " -o " + dir +
                     "/touch.h5");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  r = test::run("joco-simulate " + kArm +
                " --steps 30 --ctrl-noise 0.4 --record ten_length,actuator_force,qvel,act -o " +
                dir + "/arm.h5");
  ASSERT_EQ(r.exit_code, 0) << r.err;

  // The reader takes the file, fields as fields, the others as extra datasets of their shape.
  const Model touch = load_model(kTouch);
  Trajectory t = TrajectoryInput::open(dir + "/touch.h5").single();
  t.validate(touch);
  EXPECT_EQ(t.fields(), (std::vector<Field>{Field::kTime, Field::kQpos, Field::kQacc,
                                            Field::kSensordata, Field::kNcon}));
  std::vector<size_t> dims;
  const Matrix xpos = t.read_extra("xpos", &dims);
  EXPECT_EQ(dims, (std::vector<size_t>{61, 6, 3}));
  t.read_extra("xquat", &dims);
  EXPECT_EQ(dims, (std::vector<size_t>{61, 6, 4}));
  t.read_extra("site_xpos", &dims);
  EXPECT_EQ(dims, (std::vector<size_t>{61, 14, 3}));
  const Matrix cfrc_ext = t.read_extra("cfrc_ext", &dims);
  EXPECT_EQ(dims, (std::vector<size_t>{61, 6, 6}));
  t.read_extra("energy", &dims);
  EXPECT_EQ(dims, (std::vector<size_t>{61, 2}));
  t.read_extra("efc_type", &dims);
  EXPECT_EQ(dims, (std::vector<size_t>{61, static_cast<size_t>(touch.njmax)}));
  EXPECT_FALSE(t.has(Field::kQvel));
  EXPECT_FALSE(t.has_extra("qacc_warmstart"));

  // Row 0: the arrays forward computes at the initial state.
  Data d(touch);
  forward(touch, d);
  EXPECT_EQ(std::vector<double>(xpos.row(0), xpos.row(0) + 18),
            std::vector<double>(d.xpos, d.xpos + 18));
  // Later rows: the same as --evaluate of the rollout computes them (it reproduces each row).
  r = test::run("joco-simulate " + kTouch + " --steps 60 --record default -o " + dir + "/run.h5");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  r = test::run("joco-simulate " + kTouch + " --evaluate " + dir + "/run.h5 --record " + list +
                " -o " + dir + "/eval.h5");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  Trajectory e = TrajectoryInput::open(dir + "/eval.h5").single();
  size_t compared = 0, touching = 0;
  for (const char* name : {"xpos", "xquat", "site_xpos", "cfrc_ext", "efc_type"}) {
    EXPECT_EQ(e.read_extra(name).data, t.read_extra(name).data) << name;
    ++compared;
  }
  for (Field f : {Field::kSensordata, Field::kQacc, Field::kNcon}) {
    EXPECT_EQ(e.read(f).data, t.read(f).data) << field_info(f).name;
    ++compared;
  }
  for (double f : cfrc_ext.data) touching += f != 0;
  EXPECT_EQ(compared, 8u);
  EXPECT_GT(touching, 0u);  // contact forces on the bodies at some rows

  // Another model: tendon lengths, actuator forces, activations.
  Trajectory arm = TrajectoryInput::open(dir + "/arm.h5").single();
  const Model m = load_model(kArm);
  arm.read_extra("ten_length", &dims);
  EXPECT_EQ(dims, (std::vector<size_t>{31, static_cast<size_t>(m.ntendon)}));
  const Matrix force = arm.read_extra("actuator_force", &dims);
  EXPECT_EQ(dims, (std::vector<size_t>{31, static_cast<size_t>(m.nu)}));
  EXPECT_NE(force(30, 0), 0.0);
  EXPECT_TRUE(arm.has(Field::kAct));
  EXPECT_FALSE(arm.has(Field::kCtrl));

  // Every tool that reads states takes a file with datasets it does not know.
  r = test::run("joco-inverse " + kTouch + " " + dir + "/touch.h5 -o " + dir + "/inv.h5");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  r = test::run("joco-derivatives " + kArm + " --states " + dir + "/arm.h5 --rows 3 -o " + dir +
                "/ab.h5");
  EXPECT_EQ(r.exit_code, 0) << r.err;
}

TEST(SimulateRecord, DefaultAddsToTheDefaultSetUnchanged) {
  const test::TempDir temp;
  const std::string& dir = temp.path();
  auto r = test::run("joco-simulate " + kArm + " --steps 40 --ctrl-noise 0.3 -o " + dir + "/a.h5");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  r = test::run("joco-simulate " + kArm + " --steps 40 --ctrl-noise 0.3 --record 'default, xpos' " +
                "-o " + dir + "/b.h5");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  Trajectory a = TrajectoryInput::open(dir + "/a.h5").single();
  Trajectory b = TrajectoryInput::open(dir + "/b.h5").single();
  ASSERT_EQ(a.fields(), b.fields());
  EXPECT_GT(a.fields().size(), 10u);
  for (Field f : a.fields()) EXPECT_EQ(a.read(f).data, b.read(f).data) << field_info(f).name;
  EXPECT_FALSE(a.has_extra("xpos"));
  EXPECT_TRUE(b.has_extra("xpos"));
}

TEST(SimulateRecord, UnknownNamesAreUsageErrorsListingTheValidOnes) {
  for (const std::string list : {"qpos,xpos,nosuch", "ctrl_estimate", "qpos,,qvel"}) {
    const auto r = test::run("joco-simulate " + kArm + " --steps 2 --record '" + list + "'");
    EXPECT_EQ(r.exit_code, 2) << list << r.err;
    if (list != "qpos,,qvel") {
      EXPECT_NE(r.err.find("no Data array of that name; valid names: default, time, qpos, qvel"),
                std::string::npos)
          << r.err;
      EXPECT_NE(r.err.find("site_xpos"), std::string::npos) << r.err;
      EXPECT_NE(r.err.find("cfrc_ext, energy"), std::string::npos) << r.err;
    }
  }
}

// --every N writes rows 0, N, 2N, ... of the rollout, with their contacts renumbered, bit for bit
// the rows of the full rollout.
TEST(SimulateRecord, EveryKeepsEveryNthRow) {
  const test::TempDir temp;
  const std::string& dir = temp.path();
  auto r = test::run("joco-simulate " + kTouch + " --steps 95 --contacts --batch 2 -o " + dir +
                     "/all.h5");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  r = test::run("joco-simulate " + kTouch + " --steps 95 --contacts --batch 2 --every 10 " +
                "--record default,xpos -o " + dir + "/every.h5");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  TrajectoryInput all_file = TrajectoryInput::open(dir + "/all.h5");
  TrajectoryInput every_file = TrajectoryInput::open(dir + "/every.h5");
  size_t contacts = 0;
  for (const std::string& g : all_file.rollout_groups()) {
    SCOPED_TRACE(g);
    Trajectory all = all_file.trajectory(g), every = every_file.trajectory(g);
    ASSERT_EQ(every.rows(), 10u);
    EXPECT_EQ(every.int_attribute("every"), 10);
    EXPECT_FALSE(all.int_attribute("every").has_value());
    EXPECT_EQ(every.read_extra("xpos").rows, 10u);
    for (Field f : all.fields()) {
      const Matrix a = all.read(f, 0, SIZE_MAX, false), e = every.read(f, 0, SIZE_MAX, false);
      for (size_t k = 0; k < 10; ++k) {
        ASSERT_EQ(0, std::memcmp(e.row(k), a.row(10 * k), sizeof(double) * a.cols))
            << field_info(f).name << " row " << k;
      }
    }
    const std::vector<ContactRecord> ca = all.read_contacts(), ce = every.read_contacts();
    std::vector<ContactRecord> kept;
    for (ContactRecord c : ca) {
      if (c.row % 10 != 0) continue;
      c.row /= 10;
      kept.push_back(c);
    }
    ASSERT_EQ(kept.size(), ce.size());
    for (size_t i = 0; i < ce.size(); ++i)
      EXPECT_EQ(0, std::memcmp(&kept[i], &ce[i], sizeof(ContactRecord))) << "contact " << i;
    contacts += ce.size();
  }
  EXPECT_GT(contacts, 0u);
  r = test::run("joco-simulate " + kTouch + " --steps 5 --every 0 -o " + dir + "/x.h5");
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("--every"), std::string::npos) << r.err;
}

TEST(SimulateRecord, VerboseSummarisesABatch) {
  const test::TempDir temp;
  const auto r = test::run("joco-simulate " + kArm + " --steps 50 --batch 3 --threads 2 -v -o " +
                           temp.path() + "/b.h5");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("3 rollouts, 150 steps in all, on 2 thread(s) in "), std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find(" steps/s in total, "), std::string::npos) << r.err;
  EXPECT_NE(r.err.find(" per thread; "), std::string::npos) << r.err;
}

}  // namespace
}  // namespace joco::tools
