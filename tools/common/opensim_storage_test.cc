#include "common/opensim_storage.h"

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <string>

#include "joco/error.h"
#include "joco/mjcf.h"
#include "support/errors.h"
#include "support/test_support.h"

namespace joco::tools {
namespace {

const std::string kTrial = "mocap/gait2354_subject01/";

// OpenSim's IK result for the trial (a SIMM motion header, no inDegrees: degrees), as fetched from
// opensim-core: 73 rows of time and 23 coordinates, 0.4 to 1.6 s.
TEST(OpenSimStorage, ReadsOpenSimIkResult) {
  const Storage s = read_storage(test::testdata(kTrial + "reference/std_subject01_walk1_ik.mot"));
  EXPECT_EQ(s.name, "first trial");
  EXPECT_EQ(s.angle_units, AngleUnits::kDegrees);
  ASSERT_EQ(s.columns.size(), 24u);
  ASSERT_EQ(s.rows(), 73u);
  EXPECT_EQ(s.columns[0], "time");
  EXPECT_EQ(s.columns[23], "mtp_angle_l");
  EXPECT_DOUBLE_EQ(s.time(0), 0.4);
  EXPECT_DOUBLE_EQ(s.time(72), 1.6);
  EXPECT_DOUBLE_EQ(s.row(0)[s.column("knee_angle_r")], -55.15907196);
  EXPECT_DOUBLE_EQ(s.row(72)[s.column("lumbar_rotation")], -6.18559707);
  EXPECT_EQ(s.lines[0], 13);  // 11 header lines, the labels, then the rows
  for (size_t r = 1; r < s.rows(); ++r) EXPECT_GT(s.time(r), s.time(r - 1));
}

// OpenSim 4's storages: `key=value` headers (inDegrees=no), padded numbers, trailing tabs.
TEST(OpenSimStorage, ReadsInverseDynamicsAndGroundForces) {
  const Storage id = read_storage(test::testdata(kTrial + "reference/inverse_dynamics.sto"));
  EXPECT_EQ(id.name, "Inverse Dynamics Generalized Forces");
  EXPECT_EQ(id.angle_units, AngleUnits::kRadians);
  EXPECT_EQ(id.rows(), 73u);
  EXPECT_EQ(id.columns.size(), 24u);
  EXPECT_NEAR(id.row(0)[id.column("pelvis_tilt_moment")], 12.60993541, 1e-12);

  const Storage grf = read_storage(test::testdata(kTrial + "data/subject01_walk1_grf.mot"));
  EXPECT_EQ(grf.name, "subject01_walk1_grf.mot");
  EXPECT_EQ(grf.rows(), 1501u);
  ASSERT_EQ(grf.columns.size(), 19u);
  EXPECT_EQ(grf.columns[18], "1_ground_torque_z");
  EXPECT_DOUBLE_EQ(grf.row(0)[grf.column("ground_force_vy")], 745.4661142);
  EXPECT_EQ(grf.column("no such column"), -1);
}

TEST(OpenSimStorage, HeaderForms) {
  // Blank-separated labels and values, a leading '+', NaN, and a blank line between rows.
  Storage s = parse_storage(
      "motion\nnRows=2\nnColumns=3\nendheader\ntime a b\n0 +1 2\n\n0.5 nan -3e-1\n", "x.mot");
  EXPECT_EQ(s.angle_units, AngleUnits::kUnstated);
  ASSERT_EQ(s.rows(), 2u);
  EXPECT_DOUBLE_EQ(s.row(0)[1], 1);
  EXPECT_TRUE(std::isnan(s.row(1)[1]));
  EXPECT_DOUBLE_EQ(s.row(1)[2], -0.3);
  EXPECT_EQ(s.where(1), "x.mot:8");
  // Windows line ends; a tab-separated label may hold a blank.
  s = parse_storage("m\r\ninDegrees=yes\r\nendheader\r\ntime\tr knee\r\n0\t1\r\n", "w.mot");
  EXPECT_EQ(s.angle_units, AngleUnits::kDegrees);
  EXPECT_EQ(s.columns[1], "r knee");
  EXPECT_EQ(s.rows(), 1u);
  // A header with no data rows.
  s = parse_storage("m\nendheader\ntime\tq\n", "e.sto");
  EXPECT_EQ(s.rows(), 0u);
}

TEST(OpenSimStorage, MalformedInputNamesFileAndLine) {
  const auto fails = [](const std::string& text, const std::string& fragments) {
    test::expect_fragments(test::input_error([&] { parse_storage(text, "bad.mot"); }), fragments,
                           text);
  };
  fails("name\nnRows=1\ntime\ta\n0\t1\n", "bad.mot|endheader");
  fails("n\nendheader\n\n", "bad.mot:3|no line of column labels");
  fails("n\nendheader\nframe\ta\n0\t1\n", "bad.mot:3|'frame'|not 'time'");
  fails("n\nendheader\ntime\ta\ta\n0\t1\t2\n", "bad.mot:3|'a' repeats");
  fails("n\nendheader\ntime\ta\tb\n0\t1\t2\n0.1\t1\n", "bad.mot:5|2 values|3 column labels");
  fails("n\nendheader\ntime\ta\n0\t1\t2\n", "bad.mot:4|3 values");
  fails("n\nendheader\ntime\ta\n0\t1x\n", "bad.mot:4|'1x'|'a'|not a number");
  fails("n\nnRows=3\nendheader\ntime\ta\n0\t1\n", "bad.mot|1 data rows|says 3");
  fails("n\nnColumns=3\nendheader\ntime\ta\n0\t1\n", "bad.mot:4|2 column labels|3 columns");
  fails("n\ninDegrees=maybe\nendheader\ntime\ta\n", "bad.mot:2|inDegrees|'maybe'");
  fails(std::string("n\nendheader\0", 12), "bad.mot|NUL");
  EXPECT_THROW(read_storage(test::testdata("no/such/file.mot")), InputError);
}

TEST(OpenSimStorage, CoordinateNamesOfStateLabels) {
  EXPECT_EQ(storage_coordinate_name("knee_angle_r"), "knee_angle_r");
  EXPECT_EQ(storage_coordinate_name("/jointset/knee_r/knee_angle_r/value"), "knee_angle_r");
  EXPECT_EQ(storage_coordinate_name("/jointset/knee_r/knee_angle_r/speed"), "");
  EXPECT_EQ(storage_coordinate_name("/jointset/knee_r"), "");
}

// The trial's 23 coordinates match the MJCF's joints by name; hinge angles convert from degrees,
// pelvis_t* stay metres; the knee translations (tied to the knee angles by equalities) and nothing
// else are missing.
TEST(OpenSimStorage, MatchesTrialColumnsToModelJoints) {
  const Model m =
      compile_mjcf_file(test::testdata(kTrial + "model/subject01_simbody_cvt1_npp.xml"));
  const Storage s = read_storage(test::testdata(kTrial + "reference/std_subject01_walk1_ik.mot"));
  const JointColumns jc = match_joint_columns(s, m);
  EXPECT_EQ(jc.angle_units, AngleUnits::kDegrees);
  ASSERT_EQ(jc.matches.size(), 23u);
  EXPECT_TRUE(jc.unmatched_columns.empty());
  std::vector<std::string> missing;
  for (int j : jc.missing_joints) missing.emplace_back(m.name(kObjJoint, j));
  EXPECT_EQ(missing, (std::vector<std::string>{"knee_r_translation1", "knee_r_translation2",
                                               "knee_l_translation1", "knee_l_translation2"}));
  std::vector<double> qpos(m.qpos0, m.qpos0 + m.nq);
  jc.row_to_qpos(s, 0, qpos.data());
  const auto q = [&](const char* joint) {
    return qpos[m.jnt_qposadr[m.name_to_id(kObjJoint, joint)]];
  };
  EXPECT_DOUBLE_EQ(q("pelvis_tilt"), 5.21211788 * std::numbers::pi / 180);
  EXPECT_DOUBLE_EQ(q("pelvis_tx"), 0.60176933);
  EXPECT_DOUBLE_EQ(q("knee_angle_r"), -55.15907196 * std::numbers::pi / 180);
  EXPECT_EQ(q("knee_r_translation1"),
            m.qpos0[m.jnt_qposadr[m.name_to_id(kObjJoint, "knee_r_translation1")]]);

  // Radians when the file says so; an unstated unit takes the caller's choice.
  Storage rad = parse_storage(
      "m\ninDegrees=no\nendheader\ntime\tknee_angle_r\tpelvis_tx\tfoo\n0\t0.5\t1\t2\n", "r.sto");
  JointColumns r = match_joint_columns(rad, m);
  ASSERT_EQ(r.matches.size(), 2u);
  EXPECT_EQ(r.matches[0].scale, 1.0);
  EXPECT_EQ(r.unmatched_columns, std::vector<std::string>{"foo"});
  Storage unstated = parse_storage("m\nendheader\ntime\tknee_angle_r\n0\t90\n", "u.sto");
  EXPECT_EQ(match_joint_columns(unstated, m).matches[0].scale, 1.0);
  EXPECT_DOUBLE_EQ(match_joint_columns(unstated, m, AngleUnits::kDegrees).matches[0].scale,
                   std::numbers::pi / 180);
  // OpenSim 4's state labels.
  Storage states = parse_storage(
      "m\ninDegrees=no\nendheader\ntime\t/jointset/knee_r/knee_angle_r/value\t/jointset/knee_r/"
      "knee_angle_r/speed\n0\t0.5\t3\n",
      "s.sto");
  r = match_joint_columns(states, m);
  ASSERT_EQ(r.matches.size(), 1u);
  EXPECT_EQ(r.matches[0].column, 1);

  // Nothing matching, or two columns for one joint, is bad input naming the file.
  test::expect_fragments(test::input_error([&] {
                           match_joint_columns(
                               parse_storage("m\nendheader\ntime\tfoo\n0\t1\n", "none.mot"), m);
                         }),
                         "none.mot|no column names", "no match");
  test::expect_fragments(
      test::input_error([&] {
        match_joint_columns(
            parse_storage(
                "m\nendheader\ntime\tknee_angle_r\t/jointset/knee_r/knee_angle_r/value\n0\t1\t1\n",
                "two.mot"),
            m);
      }),
      "two.mot|both set joint 'knee_angle_r'", "two columns");
}

}  // namespace
}  // namespace joco::tools
