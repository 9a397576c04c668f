// joco-inverse on measured motion: OpenSim coordinates (.mot) as input, the low-pass filter,
// external loads (OpenSim's ExternalLoads XML, a joco mapping, a ground-reaction .mot; .mot and
// HDF5 data), residuals and reliability flags; against OpenSim's own inverse dynamics of the
// gait2354 trial, and synthetic round trips with known loads.
#include <gtest/gtest.h>
#include <hdf5.h>

#include <cmath>
#include <cstring>
#include <fstream>
#include <iterator>
#include <map>
#include <numbers>
#include <string>
#include <vector>

#include "common/opensim_functions.h"
#include "common/opensim_storage.h"
#include "common/trajectory.h"
#include "joco/mjcf.h"
#include "joco/smooth.h"
#include "support/test_support.h"
#include "tools/tool_test_support.h"

namespace joco::tools {
namespace {

const std::string kTrial = std::string(JOCO_TESTDATA_DIR) + "/mocap/gait2354_subject01/";
const std::string kInverse = std::string(JOCO_TOOL_DIR) + "/joco-inverse";

test::RunResult run_inverse(const std::string& args) {
  return test::run(kInverse + " " + args + " -q");
}

void write_text(const std::string& path, const std::string& text) { std::ofstream(path) << text; }

std::string load_flags() {
  return " --external-loads " + kTrial + "opensim/subject01_walk1_grf.xml --loads-data " + kTrial +
         "data/subject01_walk1_grf.mot --no-damping";
}

// |joco - OpenSim| over the 73 rows relative to OpenSim's peak (reference/inverse_dynamics.sto)
// per coordinate of `model`, for generalised forces `reduced` on the model's dofs.
std::map<std::string, double> errors_against_opensim(const Model& m, const Matrix& reduced) {
  const Storage id = read_storage(kTrial + "reference/inverse_dynamics.sto");
  EXPECT_EQ(reduced.rows, id.rows());
  EXPECT_EQ(reduced.rows, 73u);
  std::map<std::string, double> errors;
  for (size_t c = 0; c < id.columns.size(); ++c) {
    std::string coordinate = id.columns[c];
    for (const char* suffix : {"_moment", "_force"}) {
      const size_t at = coordinate.rfind(suffix);
      if (at != std::string::npos && at + std::strlen(suffix) == coordinate.size())
        coordinate.resize(at);
    }
    const int joint = m.name_to_id(kObjJoint, coordinate);
    if (joint < 0) continue;
    const int dof = m.jnt_dofadr[joint];
    const int column = static_cast<int>(c);
    double peak = 0, error = 0;
    for (size_t row = 0; row < id.rows() && row < reduced.rows; ++row) {
      peak = std::max(peak, std::abs(id.row(row)[column]));
      error = std::max(error, std::abs(reduced(row, dof) - id.row(row)[column]));
    }
    errors[coordinate] = error / peak;
  }
  return errors;
}

// Runs the trial as the issue asks: OpenSim's IK angles (reference/subject01_walk1_ik.mot, the
// file OpenSim's ID setup names as its coordinates_file), the 6 Hz filter, the force plates
// (OpenSim's ExternalLoads XML, its data file named with --loads-data as testdata keeps it in
// data/), the conversion's joint damping removed; `model` the MJCF, `extra` more flags. Returns
// the errors on qfrc_reduced (the knee translations' forces folded into the knee angle, as
// OpenSim's knee coordinate carries them).
std::map<std::string, double> trial_errors(const std::string& model, const std::string& extra,
                                           const test::TempDir& temp) {
  const std::string out = temp / "id.h5";
  const auto r = run_inverse(model + " " + kTrial + "reference/subject01_walk1_ik.mot --lowpass 6" +
                             load_flags() + " " + extra + " -o " + out);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  const Model m = compile_mjcf_file(model);
  Trajectory t = TrajectoryInput::open(out).single();
  return errors_against_opensim(m, t.read_extra("qfrc_reduced"));
}

// The function of `axis` (translation1, translation2) of the CustomJoint `joint` in the .osim.
OsimFunction osim_knee_function(const std::string& osim, const std::string& joint,
                                const std::string& axis) {
  for (const OsimCoupling& c : read_osim_couplings(osim))
    if (c.joint == joint && c.axis == axis) return c.function;
  ADD_FAILURE() << osim << ": no function for " << joint << " " << axis;
  return OsimFunction::constant(0);
}

// With OpenSim's coordinate processing (--lowpass-style opensim: its third-order filter per pass
// and half-the-rows padding; --smooth spline: derivatives of the natural quintic spline), joco
// reproduces OpenSim's ID up to the conversion's model. On the conversion as it came, measured,
// % of OpenSim's peak: lumbar 0.02 / 0.1 / 0.1 (the torso sees only the filtered pelvis and lumbar
// coordinates, so this is the processing matching), ankles 0.6 / 0.7, subtalar 0.3 / 0.2, hip
// flexion 6.1 / 6.7, knees 2.4 / 2.2 (9.97 / 9.1 before qfrc_reduced left the knee equalities'
// force out), pelvis list, rotation, ty, tz 3.5, 4.9, 1.6, 1.8; pelvis tilt 13.2 and tx 15.9: the
// conversion's quartics in place of OpenSim's knee splines (OpenSimKneeSplines). With joco's own
// filter and central differences the same trial gives hips 16 / 14, lumbar 15 / 16 / 61, pelvis
// 16-57.
TEST(MeasuredMotion, OpenSimTrialAgainstOpenSimInverseDynamics) {
  const test::TempDir temp;
  const auto e = trial_errors(kTrial + "model/subject01_simbody_cvt1_npp.xml",
                              "--lowpass-style opensim --smooth spline", temp);
  ASSERT_EQ(e.size(), 23u);
  for (const auto& [coordinate, error] : e) RecordProperty(coordinate, std::to_string(error));
  // The 10% of the peak.
  for (const char* c :
       {"hip_flexion_r", "hip_flexion_l", "knee_angle_r", "knee_angle_l", "ankle_angle_r",
        "ankle_angle_l", "pelvis_list", "pelvis_rotation", "pelvis_ty", "pelvis_tz"})
    EXPECT_LT(e.at(c), 0.10) << c;
  // The processing itself: the torso's moments within 0.5%, ankles and subtalar within 1%.
  for (const char* c : {"lumbar_extension", "lumbar_bending", "lumbar_rotation", "ankle_angle_r",
                        "ankle_angle_l", "subtalar_angle_r", "subtalar_angle_l"})
    EXPECT_LT(e.at(c), c[0] == 'l' ? 0.005 : 0.01) << c;
  // The knees once the equality's force is out of qfrc_reduced.
  for (const char* c : {"knee_angle_r", "knee_angle_l"}) EXPECT_LT(e.at(c), 0.03) << c;
  // Not within 10% on this MJCF: its quartic knee translations (OpenSimKneeSplines shows they are
  // the whole difference); these bounds guard the agreement reached.
  EXPECT_LT(e.at("pelvis_tilt"), 0.14);
  EXPECT_LT(e.at("pelvis_tx"), 0.17);
}

// The goals, met: the trial as above on the faithful conversion
// (model/subject01_simbody_cvt1_npp_faithful.xml: OpenSim's gravity, the .osim's foot inertias,
// the knee quartics fitted to OpenSim's splines), with the knee translations moving as OpenSim
// moves them: their positions, velocities and accelerations from the .osim's SimmSplines of the
// filtered knee angle (value, f' qdot, f' qddot + f'' qdot^2), written beside joco-inverse's own
// processed coordinates and given back to it; the knee moments projected with the splines'
// slopes. No MJCF joint equality can carry the splines (MuJoCo's are quartics, and no quartic
// brings pelvis tx under 13.8%: ConversionKneeFit), so this is how the model OpenSim used is
// reached. Measured, % of OpenSim's peak: pelvis tilt 0.05, tx 0.04, ty 0.01, tz 0.08, list 0.61,
// rotation 0.41; hips, knees, ankles 0.00-0.03. Of what was left on the conversion's quartics
// with the same kinematics: gravity 9.81 put ty at 0.15, the inertia bounds tilt at 0.31, knees
// and hips at 0.2.
TEST(MeasuredMotion, OpenSimKneeSplines) {
  const test::TempDir temp;
  const std::string model = kTrial + "model/subject01_simbody_cvt1_npp_faithful.xml";
  const Model m = compile_mjcf_file(model);
  // joco-inverse's processing of OpenSim's IK angles: qpos, qvel, qacc.
  const std::string processed = temp / "processed.h5";
  auto r = run_inverse(model + " " + kTrial +
                       "reference/subject01_walk1_ik.mot --lowpass 6 --lowpass-style opensim "
                       "--smooth spline -o " +
                       processed);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  Trajectory p = TrajectoryInput::open(processed).single();
  const Matrix time = p.read(Field::kTime);
  Matrix qpos = p.read(Field::kQpos), qvel = p.read(Field::kQvel), qacc = p.read(Field::kQacc);
  ASSERT_EQ(qpos.rows, 73u);
  struct Follower {
    int dof, leader;
    OsimFunction f;
  };
  std::vector<Follower> followers;
  for (const char* side : {"r", "l"}) {
    const std::string knee = std::string("knee_") + side;
    for (const char* axis : {"translation1", "translation2"}) {
      const int j = m.name_to_id(kObjJoint, knee + "_" + axis);
      const int leader = m.name_to_id(kObjJoint, std::string("knee_angle_") + side);
      ASSERT_GE(j, 0);
      ASSERT_GE(leader, 0);
      followers.push_back(
          {m.jnt_dofadr[j], m.jnt_dofadr[leader],
           osim_knee_function(kTrial + "opensim/subject01_simbody.osim", knee, axis)});
    }
  }
  const std::string motion = temp / "splines.h5";
  {
    TrajectoryFileWriter file(motion, m, {});
    TrajectoryWriter& w = file.trajectory();
    for (size_t row = 0; row < qpos.rows; ++row) {
      std::vector<double> q(qpos.row(row), qpos.row(row) + m.nq);
      std::vector<double> v(qvel.row(row), qvel.row(row) + m.nv);
      std::vector<double> a(qacc.row(row), qacc.row(row) + m.nv);
      for (const Follower& f : followers) {  // hinges and slides: qpos and dof addresses agree
        const auto [value, slope, curvature] = f.f(q[f.leader]);
        q[f.dof] = value;
        v[f.dof] = slope * v[f.leader];
        a[f.dof] = slope * a[f.leader] + curvature * v[f.leader] * v[f.leader];
      }
      w.append(Field::kTime, time(row, 0));
      w.append(Field::kQpos, q);
      w.append(Field::kQvel, v);
      w.append(Field::kQacc, a);
    }
    w.close();
    file.commit();
  }
  const std::string out = temp / "id.h5";
  r = run_inverse(model + " " + motion + load_flags() + " -o " + out);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  Trajectory t = TrajectoryInput::open(out).single();
  // The generalised forces of OpenSim's model, which has no constraint: the joints' share plus
  // the constraint's, which is the knee equalities' (their quartics disagree with the splines'
  // positions by up to 0.35 mm, and the soft constraint answers that) and, in the most flexed rows,
  // knee_*_translation1's upper limit (the MJCF's range ends at 4.715 mm, the spline reaches
  // 4.72 mm); no contacts.
  Matrix reduced = t.read_extra("qfrc_joint");
  const Matrix constraint = t.read(Field::kQfrcConstraint), ncon = t.read(Field::kNcon);
  ASSERT_EQ(reduced.rows, 73u);
  for (size_t row = 0; row < reduced.rows; ++row) {
    EXPECT_EQ(ncon(row, 0), 0) << "row " << row;
    for (size_t i = 0; i < reduced.cols; ++i)
      reduced.data[row * reduced.cols + i] += constraint(row, i);
    for (const Follower& f : followers) {
      double* g = reduced.data.data() + row * reduced.cols;
      g[f.leader] += f.f(qpos(row, f.leader))[1] * g[f.dof];
      g[f.dof] = 0;
    }
  }
  const auto e = errors_against_opensim(m, reduced);
  ASSERT_EQ(e.size(), 23u);
  for (const auto& [coordinate, error] : e) RecordProperty(coordinate, std::to_string(error));
  // The 10% of the peak, every goal column; and the measured agreement, within 1%.
  for (const char* c : {"hip_flexion_r", "hip_flexion_l", "knee_angle_r", "knee_angle_l",
                        "ankle_angle_r", "ankle_angle_l", "pelvis_tilt", "pelvis_list",
                        "pelvis_rotation", "pelvis_tx", "pelvis_ty", "pelvis_tz"}) {
    EXPECT_LT(e.at(c), 0.10) << c;
    EXPECT_LT(e.at(c), 0.01) << c;
  }
  for (const char* c : {"pelvis_tilt", "pelvis_tx", "knee_angle_r", "knee_angle_l"})
    EXPECT_LT(e.at(c), 0.002) << c;
}

// The goal columns of issue 17: hip, knee and ankle flexion moments and the pelvis residuals.
const char* const kGoalColumns[] = {"hip_flexion_r", "hip_flexion_l", "knee_angle_r",
                                    "knee_angle_l",  "ankle_angle_r", "ankle_angle_l",
                                    "pelvis_tilt",   "pelvis_list",   "pelvis_rotation",
                                    "pelvis_tx",     "pelvis_ty",     "pelvis_tz"};

const std::string kOsimFlags =
    " --lowpass-style opensim --smooth spline --osim " + kTrial + "opensim/subject01_simbody.osim";

// What OpenSimKneeSplines does by hand, from the shell: joco-inverse --osim moves the knee
// translations by the .osim's SimmSplines of the processed knee angle and projects the knee
// moments with their slopes. On OpenSim's IK angles every goal column is within 1%, on the
// faithful conversion and on the conversion as it came (which had pelvis tilt 13.2%, tx 15.9%
// with its quartics). Measured, % of OpenSim's peak (conversion / faithful): hip flexion r 0.18 /
// 0.02, l 0.22 / 0.03; knees r 0.18 / 0.01, l 0.16 / 0.01; ankles r 0.08 / 0.005, l 0.09 / 0.02;
// pelvis tilt 0.34 / 0.05, list 0.63 / 0.61, rotation 0.56 / 0.41, tx 0.04 / 0.04, ty 0.15 /
// 0.01, tz 0.08 / 0.08; the faithful figures are OpenSimKneeSplines' to the last digit. What is
// left on the conversion is its gravity (9.81) and foot inertias (mtp 74 / 77%).
TEST(MeasuredMotion, OsimCouplersMeetTheGoals) {
  const test::TempDir temp;
  for (const char* name : {"subject01_simbody_cvt1_npp", "subject01_simbody_cvt1_npp_faithful"}) {
    const bool faithful = std::string(name).find("faithful") != std::string::npos;
    const auto e = trial_errors(kTrial + "model/" + name + ".xml", kOsimFlags, temp);
    ASSERT_EQ(e.size(), 23u);
    for (const auto& [coordinate, error] : e)
      RecordProperty(std::string(faithful ? "faithful_" : "conversion_") + coordinate,
                     std::to_string(error));
    for (const char* c : kGoalColumns) {
      EXPECT_LT(e.at(c), 0.10) << name << " " << c;
      EXPECT_LT(e.at(c), 0.01) << name << " " << c;
    }
    if (faithful) {
      for (const char* c : {"pelvis_tilt", "pelvis_tx", "knee_angle_r", "knee_angle_l"})
        EXPECT_LT(e.at(c), 0.002) << c;
    }
  }
  // The knee translations' own columns are folded into the knee angles, and the splines replaced
  // the equalities and the translations' ranges: no constraint force is left in any row.
  const std::string out = temp / "id.h5";
  const auto r = run_inverse(kTrial + "model/subject01_simbody_cvt1_npp_faithful.xml " + kTrial +
                             "reference/subject01_walk1_ik.mot --lowpass 6" + load_flags() +
                             kOsimFlags + " -o " + out);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  Trajectory t = TrajectoryInput::open(out).single();
  const Matrix constraint = t.read(Field::kQfrcConstraint), nefc = t.read(Field::kNefc);
  ASSERT_EQ(nefc.rows, 73u);
  for (size_t row = 0; row < nefc.rows; ++row) EXPECT_EQ(nefc(row, 0), 0) << row;
  EXPECT_EQ(t.string_attribute("osim_couplers").value_or(""),
            "knee_r_translation1:knee_angle_r knee_r_translation2:knee_angle_r "
            "knee_l_translation1:knee_angle_l knee_l_translation2:knee_angle_l");
}

// The same from joco-ik's own angles (joco-ik with OpenSim's IK setup on the conversion, then
// joco-inverse --osim): measured and recorded, not a goal of the issue. Measured, % of OpenSim's
// peak (without --osim in parentheses, bench/RESULTS.md): hip flexion r 2.3 (5.2), l 3.0 (6.1);
// knees 0.8 (2.0), 0.8 (2.5); ankles 0.6 (0.1), 0.8 (0.1); pelvis tilt 5.8 (9.9), list 1.8
// (2.8), rotation 5.1 (4.4), tx 11.4 (10.4), ty 1.4 (1.5), tz 1.8 (1.8). joco-ik fitted the
// markers with the MJCF's quartic knees, so its pelvis path is the quartics' and the splines'
// knee moves it (joco-ik has no --osim yet); OpenSim's IK fitted with the splines.
TEST(MeasuredMotion, OsimCouplersFromJocoIkAngles) {
  const test::TempDir temp;
  const std::string model = kTrial + "model/subject01_simbody_cvt1_npp.xml";
  const std::string angles = temp / "ik.h5";
  auto r = test::run(std::string(JOCO_TOOL_DIR) + "/joco-ik " + model + " " + kTrial +
                     "data/subject01_walk1.trc --setup " + kTrial +
                     "opensim/subject01_Setup_IK.xml -q -o " + angles);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string out = temp / "id.h5";
  r = run_inverse(model + " " + angles + " --lowpass 6" + load_flags() + kOsimFlags + " -o " + out);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const Model m = compile_mjcf_file(model);
  Trajectory t = TrajectoryInput::open(out).single();
  const auto e = errors_against_opensim(m, t.read_extra("qfrc_reduced"));
  ASSERT_EQ(e.size(), 23u);
  for (const auto& [coordinate, error] : e) RecordProperty(coordinate, std::to_string(error));
  // Bounds that guard what was measured (the marker fit is not OpenSim's: its angles differ).
  for (const char* c : kGoalColumns) EXPECT_LT(e.at(c), 0.20) << c;
}

// --osim's messages: an axis whose function is not read is refused when a joint equality needs it;
// a .osim with no matching axis changes nothing (a warning); not an OpenSim model: exit 3.
TEST(MeasuredMotion, OsimErrors) {
  const test::TempDir temp;
  const std::string model = kTrial + "model/subject01_simbody_cvt1_npp.xml";
  const std::string motion = kTrial + "reference/std_subject01_walk1_ik.mot";
  const auto osim = [&](const std::string& name, const std::string& function) {
    write_text(temp / name,
               "<OpenSimDocument><Model name='m'><CustomJoint name='knee_r'><SpatialTransform>\n"
               "<TransformAxis name='translation1'><coordinates>knee_angle_r</coordinates>\n" +
                   function +
                   "</TransformAxis></SpatialTransform></CustomJoint></Model>"
                   "</OpenSimDocument>");
    return temp / name;
  };
  auto r = test::run(kInverse + " " + model + " " + motion + " --osim " +
                     osim("gcv.osim", "<GCVSpline name='function'/>") + " -o " + temp / "o.h5");
  EXPECT_EQ(r.exit_code, 3) << r.err;
  EXPECT_NE(r.err.find("gcv.osim:2: knee_r translation1 (joint 'knee_r_translation1'): "
                       "<GCVSpline> at line 3 is not read"),
            std::string::npos)
      << r.err;
  r = test::run(kInverse + " " + model + " " + motion + " --osim " + temp / "none.osim" + " -o " +
                temp / "o.h5");
  EXPECT_EQ(r.exit_code, 3) << r.err;
  EXPECT_NE(r.err.find("none.osim"), std::string::npos) << r.err;
  // Depends on another coordinate than the MJCF's equality: kept, with a warning.
  write_text(temp / "hip.osim",
             "<OpenSimDocument><Model name='m'><CustomJoint name='knee_r'><SpatialTransform>"
             "<TransformAxis name='translation1'><coordinates>hip_flexion_r</coordinates>"
             "<Constant name='function'><value>0</value></Constant></TransformAxis>"
             "</SpatialTransform></CustomJoint></Model></OpenSimDocument>");
  r = test::run(kInverse + " " + model + " " + motion + " --osim " + temp / "hip.osim" + " -o " +
                temp / "o.h5");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("depends on 'hip_flexion_r', the MJCF's joint 'knee_r_translation1' "
                       "(slide) follows 'knee_angle_r': its joint equality is kept"),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("no joint equality of the model matches"), std::string::npos) << r.err;
  write_text(temp / "not.osim", "<mujoco/>");
  r = test::run(kInverse + " " + model + " " + motion + " --osim " + temp / "not.osim" + " -o " +
                temp / "o.h5");
  EXPECT_EQ(r.exit_code, 3) << r.err;
  EXPECT_NE(r.err.find("no <Model> element"), std::string::npos) << r.err;
}

// The faithful conversion as an MJCF on its own (its knee quartics least-squares fitted to the
// splines over the knee's range, -120 to 10 degrees): every sagittal column closer than the
// conversion as it came, pelvis tilt 13.2 -> 11.1%, tx 15.9 -> 13.9%, knees 2.4 / 2.2 -> 1.8 /
// 1.5%, hips 6.1 / 6.7 -> 5.1 / 6.3%, ankles 0.6 / 0.7 -> 0.2%, mtp 76.9 / 73.7 -> 1.8 / 0.9%. A
// quartic cannot follow the spline (translation1's second derivative changes sign near -10 degrees;
// fitted over -80 to 10 degrees: tilt 9.9%, tx 12.5%; over the trial's own -70 to 5: 8.5%, 10.8%;
// with slopes and curvatures in the fit, worse), so pelvis tx stays over 10% on any MJCF of this
// model.
TEST(MeasuredMotion, ConversionKneeFit) {
  const test::TempDir temp;
  const auto e = trial_errors(kTrial + "model/subject01_simbody_cvt1_npp_faithful.xml",
                              "--lowpass-style opensim --smooth spline", temp);
  ASSERT_EQ(e.size(), 23u);
  EXPECT_LT(e.at("pelvis_tilt"), 0.115);
  EXPECT_LT(e.at("pelvis_tx"), 0.14);
  for (const char* c : {"knee_angle_r", "knee_angle_l"}) EXPECT_LT(e.at(c), 0.02) << c;
  for (const char* c : {"ankle_angle_r", "ankle_angle_l"}) EXPECT_LT(e.at(c), 0.003) << c;
  // The toes with the .osim's inertias (the conversion's boundinertia raised them tenfold): the
  // mtp moments, 73.7 / 76.9% off on the conversion as it came, agree (0.9 / 1.8%).
  for (const char* c : {"mtp_angle_r", "mtp_angle_l"}) EXPECT_LT(e.at(c), 0.03) << c;
}

// qfrc_reduced is the joints' forces projected on the motion a joint equality allows (leader q,
// follower t = f(q), direction (f'(q), 1)): the equality's force, whose Jacobian row (1, -f'(q))
// is orthogonal to that motion, must not enter it. In the inverse that force is not small: the
// soft constraint answers the f''(q) qdot^2 the polynomial's acceleration row leaves out, so it
// changes with the equality's solimp (its impedance). Before the fix the follower's share of it
// was added: here the leader was off by up to 0.05 N m and moved with the impedance; on the gait
// trial the knee moments were off by up to 8% of their peak.
TEST(MeasuredMotion, ReducedForceLeavesOutTheEqualityForce) {
  const test::TempDir temp;
  const auto model = [&](const std::string& name, const char* solimp) {
    const std::string path = temp / (name + ".xml");
    write_text(path, std::string("<mujoco><worldbody><body name='b'>"
                                 "<joint name='t' type='slide' axis='1 0 0'/>"
                                 "<joint name='q' axis='0 1 0'/>"
                                 "<geom type='capsule' fromto='0 0 0 0.3 0 0.1' size='0.05'/>"
                                 "</body></worldbody><equality><joint joint1='t' joint2='q' "
                                 "polycoef='0.01 0.02 0.05 -0.03 0' solimp='") +
                         solimp + "'/></equality></mujoco>");
    return path;
  };
  const std::string soft = model("soft", "0.5 0.6 0.001"),
                    stiff = model("stiff", "0.95 0.99 0.001");
  // q = 0.8 sin(4 s), t on the polynomial with its exact velocity and acceleration.
  const Model m = compile_mjcf_file(soft);
  const double c[4] = {0.01, 0.02, 0.05, -0.03};
  {
    TrajectoryFileWriter file(temp / "motion.h5", m, {});
    TrajectoryWriter& w = file.trajectory();
    for (int r = 0; r < 20; ++r) {
      const double s = 0.05 * r, q = 0.8 * std::sin(4 * s), qd = 3.2 * std::cos(4 * s),
                   qdd = -12.8 * std::sin(4 * s);
      const double f = c[0] + q * (c[1] + q * (c[2] + q * c[3]));
      const double f1 = c[1] + q * (2 * c[2] + q * 3 * c[3]), f2 = 2 * c[2] + 6 * q * c[3];
      w.append(Field::kTime, s);
      w.append(Field::kQpos, std::vector<double>{f, q});
      w.append(Field::kQvel, std::vector<double>{f1 * qd, qd});
      w.append(Field::kQacc, std::vector<double>{f1 * qdd + f2 * qd * qd, qdd});
    }
    w.close();
    file.commit();
  }
  Matrix reduced[2], constraint[2], joint[2], qpos;
  for (int k = 0; k < 2; ++k) {
    const std::string out = temp / ("out" + std::to_string(k) + ".h5");
    const auto r =
        run_inverse((k == 0 ? soft : stiff) + " " + temp / "motion.h5" + " --residuals -o " + out);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    Trajectory t = TrajectoryInput::open(out).single();
    reduced[k] = t.read_extra("qfrc_reduced");
    joint[k] = t.read_extra("qfrc_joint");
    constraint[k] = t.read(Field::kQfrcConstraint);
    qpos = t.read(Field::kQpos);
  }
  ASSERT_EQ(reduced[0].rows, 20u);
  double lambda_apart = 0, peak = 0;
  for (size_t row = 0; row < 20; ++row) {
    lambda_apart = std::max(lambda_apart, std::abs(constraint[0](row, 0) - constraint[1](row, 0)));
    peak = std::max(peak, std::abs(reduced[0](row, 1)));
    EXPECT_EQ(reduced[0](row, 0), 0);
    // The same projection whatever the equality's impedance, and it is the joints' forces on
    // (f'(q), 1).
    EXPECT_NEAR(reduced[0](row, 1), reduced[1](row, 1), 1e-9) << "row " << row;
    const double q = qpos(row, 1), f1 = c[1] + q * (2 * c[2] + q * 3 * c[3]);
    EXPECT_NEAR(reduced[1](row, 1), joint[1](row, 1) + f1 * joint[1](row, 0), 1e-12) << row;
  }
  // The equality's force is there and depends on solimp: the test looks at what it claims to.
  EXPECT_GT(lambda_apart, 0.1);
  EXPECT_GT(peak, 0.1);
}

// The residuals are the pelvis dofs of qfrc_reduced, named; the flags a row each.
TEST(MeasuredMotion, ResidualsAreThePelvisDofs) {
  const test::TempDir temp;
  const std::string out = temp / "id.h5";
  const auto r = run_inverse(kTrial + "model/subject01_simbody_cvt1_npp.xml " + kTrial +
                             "reference/subject01_walk1_ik.mot --lowpass 6 --external-loads " +
                             kTrial + "opensim/subject01_walk1_grf.xml --loads-data " + kTrial +
                             "data/subject01_walk1_grf.mot --no-damping -o " + out);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const Model m = compile_mjcf_file(kTrial + "model/subject01_simbody_cvt1_npp.xml");
  Trajectory t = TrajectoryInput::open(out).single();
  const Matrix reduced = t.read_extra("qfrc_reduced");
  std::vector<size_t> dims;
  const Matrix force = t.read_extra("residual_force", &dims);
  ASSERT_EQ(force.cols, 3u);
  ASSERT_EQ(force.rows, 73u);
  const int ty = m.jnt_dofadr[m.name_to_id(kObjJoint, "pelvis_ty")];
  for (size_t row = 0; row < t.rows(); ++row) EXPECT_EQ(force(row, 1), reduced(row, ty));
  EXPECT_EQ(t.read_extra("residual_moment").cols, 3u);
  EXPECT_EQ(t.read(Field::kInverseFlags).rows, 73u);
}

// The .mot as the trajectory: angles in radians, pelvis translations in metres, the knee
// translations on their joint equalities' polynomials (missing from the file); times put back on
// the even 60 Hz grid (the file rounds them to milliseconds).
TEST(MeasuredMotion, StorageInputFollowsEqualities) {
  const test::TempDir temp;
  const std::string out = temp / "q.h5";
  const auto r = run_inverse(kTrial + "model/subject01_simbody_cvt1_npp.xml " + kTrial +
                             "reference/std_subject01_walk1_ik.mot -o " + out);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const Model m = compile_mjcf_file(kTrial + "model/subject01_simbody_cvt1_npp.xml");
  Trajectory t = TrajectoryInput::open(out).single();
  const Matrix qpos = t.read(Field::kQpos), time = t.read(Field::kTime);
  const Storage s = read_storage(kTrial + "reference/std_subject01_walk1_ik.mot");
  const auto adr = [&](const char* joint) { return m.jnt_qposadr[m.name_to_id(kObjJoint, joint)]; };
  for (size_t row = 0; row < t.rows(); ++row) {
    EXPECT_NEAR(time(row, 0), 0.4 + row * 1.2 / 72, 1e-12);
    EXPECT_NEAR(qpos(row, adr("knee_angle_l")),
                s.row(row)[s.column("knee_angle_l")] * std::numbers::pi / 180, 1e-15);
    EXPECT_EQ(qpos(row, adr("pelvis_ty")), s.row(row)[s.column("pelvis_ty")]);
    const double x = qpos(row, adr("knee_angle_l"));
    const double translation2 =
        -0.454 + x * (0.003916 + x * (-0.006409 + x * (0.0007683 + x * 0.000651)));
    EXPECT_NEAR(qpos(row, adr("knee_l_translation2")), translation2, 1e-15);
  }
}

// A two-link arm held still (no gravity, zero velocity and acceleration) under a known load: a
// force at a point of the outer link and a free moment, varying linearly in time. The joints must
// hold tau_i = -axis_i . ((p - anchor_i) x F + M), whichever way the load comes in: OpenSim's XML
// with a .mot in OpenSim's Y-up frame, a mapping over HDF5 columns in the model's frame, or a
// ground-reaction .mot with --load-bodies.
TEST(MeasuredMotion, KnownLoadsGiveKnownTorques) {
  const test::TempDir temp;
  const std::string xml =
      "<mujoco><option gravity='0 0 0'/><worldbody>"
      "<body name='upper'><joint name='j1' axis='0 1 0'/>"
      "<geom type='capsule' fromto='0 0 0 0.5 0 0' size='0.05'/>"
      "<body name='lower' pos='0.5 0 0'><joint name='j2' axis='0 0 1'/>"
      "<geom type='capsule' fromto='0 0 0 0.4 0 0' size='0.04'/></body></body>"
      "</worldbody></mujoco>";
  write_text(temp / "arm.xml", xml);
  const Model m = compile_mjcf(xml, "arm.xml", ".");
  const int rows = 6;
  const double q[2] = {0.3, -0.5};
  {
    TrajectoryFileWriter file(temp / "still.h5", m, {});
    TrajectoryWriter& w = file.trajectory();
    for (int r = 0; r < rows; ++r) {
      w.append(Field::kTime, 0.1 * r);
      w.append(Field::kQpos, std::vector<double>{q[0], q[1]});
      w.append(Field::kQvel, std::vector<double>{0, 0});
      w.append(Field::kQacc, std::vector<double>{0, 0});
    }
    w.close();
    file.commit();
  }
  Data d(m);
  std::copy_n(q, 2, d.qpos);
  kinematics(m, d);
  // The load in the world frame at time t: a point on the lower link, a force and a moment.
  const auto load = [&](double t, double* f, double* p, double* mom) {
    const double local[3] = {0.3, 0.02, 0.01};
    const double* R = d.xmat + 9 * 2;
    for (int k = 0; k < 3; ++k)
      p[k] =
          d.xpos[6 + k] + R[3 * k] * local[0] + R[3 * k + 1] * local[1] + R[3 * k + 2] * local[2];
    f[0] = 3 + 10 * t, f[1] = -2 + 4 * t, f[2] = 5 - 6 * t;
    mom[0] = 0.2, mom[1] = -0.1 + t, mom[2] = 0.3 * t;
  };
  const auto torque = [&](int j, double t) {
    double f[3], p[3], mom[3];
    load(t, f, p, mom);
    const double* a = d.xanchor + 3 * j;
    const double* axis = d.xaxis + 3 * j;
    const double r[3] = {p[0] - a[0], p[1] - a[1], p[2] - a[2]};
    const double c[3] = {r[1] * f[2] - r[2] * f[1] + mom[0], r[2] * f[0] - r[0] * f[2] + mom[1],
                         r[0] * f[1] - r[1] * f[0] + mom[2]};
    return -(axis[0] * c[0] + axis[1] * c[1] + axis[2] * c[2]);
  };
  // Load samples every 0.05 s over 0-0.5 s; y_up writes OpenSim's axes: (X, Y, Z) -> (X, Z, -Y).
  const auto number = [](double x) {
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.17g", x);
    return std::string(buffer);
  };
  const auto mot = [&](bool y_up, const std::vector<std::string>& names) {
    std::string text = "loads\nnRows=11\nnColumns=10\ninDegrees=no\nendheader\ntime";
    for (const std::string& n : names) text += "\t" + n;
    text += "\n";
    for (int i = 0; i <= 10; ++i) {
      double v[3][3];
      load(0.05 * i, v[0], v[1], v[2]);
      text += number(0.05 * i);
      for (auto& x : v) {
        const double out[3] = {x[0], y_up ? x[2] : x[1], y_up ? -x[1] : x[2]};
        for (double o : out) text += "\t" + number(o);
      }
      text += "\n";
    }
    return text;
  };
  const auto check = [&](const std::string& args, const std::string& label) {
    const std::string out = temp / (label + ".h5");
    const auto r =
        run_inverse(temp / "arm.xml" + " " + temp / "still.h5" + " " + args + " -o " + out);
    ASSERT_EQ(r.exit_code, 0) << label << "\n" << r.err;
    Trajectory t = TrajectoryInput::open(out).single();
    const Matrix joint = t.read_extra("qfrc_joint"), xfrc = t.read(Field::kXfrcApplied);
    ASSERT_EQ(joint.rows, static_cast<size_t>(rows));
    for (int row = 0; row < rows; ++row) {
      double f[3], p[3], mom[3];
      load(0.1 * row, f, p, mom);
      for (int j = 0; j < 2; ++j)
        EXPECT_NEAR(joint(row, j), torque(j, 0.1 * row), 1e-9) << label << " row " << row;
      for (int k = 0; k < 3; ++k) EXPECT_NEAR(xfrc(row, 2 * 6 + k), f[k], 1e-12) << label;
    }
  };
  std::vector<std::string> xyz;
  for (const char* n : {"F", "P", "M"})
    for (const char* k : {"x", "y", "z"}) xyz.push_back(std::string(n) + k);

  // OpenSim's ExternalLoads XML over a .mot in OpenSim's frame.
  write_text(temp / "plate.mot", mot(true, xyz));
  write_text(temp / "loads.xml",
             "<?xml version='1.0'?><OpenSimDocument><ExternalLoads name='x'><objects>"
             "<ExternalForce name='tip'><applied_to_body>lower</applied_to_body>"
             "<force_expressed_in_body>ground</force_expressed_in_body>"
             "<force_identifier>F</force_identifier><point_identifier>P</point_identifier>"
             "<torque_identifier>M</torque_identifier></ExternalForce></objects>"
             "<datafile>plate.mot</datafile></ExternalLoads></OpenSimDocument>");
  check("--external-loads " + temp / "loads.xml", "xml");

  // A mapping over HDF5 columns ((T, 3) datasets F, P, M) in the model's frame.
  {
    const hid_t f = H5Fcreate((temp / "loads.h5").c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    std::vector<double> time(11), v[3];
    for (auto& x : v) x.resize(33);
    for (int i = 0; i <= 10; ++i) {
      time[i] = 0.05 * i;
      load(time[i], &v[0][3 * i], &v[1][3 * i], &v[2][3 * i]);
    }
    const auto put = [&](const char* name, const std::vector<double>& values, int rank) {
      const hsize_t dims[2] = {11, 3};
      const hid_t space = H5Screate_simple(rank, dims, nullptr);
      const hid_t set =
          H5Dcreate2(f, name, H5T_IEEE_F64LE, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
      H5Dwrite(set, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, values.data());
      H5Dclose(set);
      H5Sclose(space);
    };
    put("time", time, 1);
    put("F", v[0], 2);
    put("P", v[1], 2);
    put("M", v[2], 2);
    H5Fclose(f);
  }
  write_text(temp / "loads.map",
             "joco external loads\ndata loads.h5\nframe z-up  # as the model\n"
             "load tip lower Fx Fy Fz Px Py Pz Mx My Mz\n");
  check("--external-loads " + temp / "loads.map", "mapping");

  // A ground-reaction .mot (OpenSim's column names), its plate's body named on the command line.
  write_text(temp / "grf.mot",
             mot(true, {"ground_force_vx", "ground_force_vy", "ground_force_vz", "ground_force_px",
                        "ground_force_py", "ground_force_pz", "ground_torque_x", "ground_torque_y",
                        "ground_torque_z"}));
  check("--external-loads " + temp / "grf.mot" + " --load-bodies lower", "grf");
  // The same file read as Z-up is another load: the torques differ.
  const auto r = run_inverse(temp / "arm.xml" + " " + temp / "still.h5" + " --external-loads " +
                             temp / "grf.mot" + " --load-bodies lower --loads-frame z-up -o " +
                             temp / "zup.h5");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const Matrix zup = TrajectoryInput::open(temp / "zup.h5").single().read_extra("qfrc_joint");
  EXPECT_GT(std::abs(zup(0, 0) - torque(0, 0)), 1e-3);
}

// Bad load files and flag combinations: exit codes and messages naming the file.
TEST(MeasuredMotion, LoadErrors) {
  const test::TempDir temp;
  const std::string model = kTrial + "model/subject01_simbody_cvt1_npp.xml";
  const std::string motion = kTrial + "reference/std_subject01_walk1_ik.mot";
  write_text(temp / "bad.map",
             "joco external loads\ndata " + kTrial +
                 "data/subject01_walk1_grf.mot\nload x no_such_body ground_force_vx "
                 "ground_force_vy ground_force_vz - - - - - -\n");
  auto r = run_inverse(model + " " + motion + " --external-loads " + temp / "bad.map" + " -o " +
                       temp / "o.h5");
  EXPECT_EQ(r.exit_code, 3);
  EXPECT_NE(r.err.find("bad.map:3"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("no_such_body"), std::string::npos) << r.err;
  r = run_inverse(model + " " + motion + " --lowpass-loads -o " + temp / "o.h5");
  EXPECT_EQ(r.exit_code, 2) << r.err;
  r = run_inverse(model + " " + motion + " --external-loads " + kTrial +
                  "data/subject01_walk1_grf.mot -o " + temp / "o.h5");
  EXPECT_EQ(r.exit_code, 3);
  EXPECT_NE(r.err.find("--load-bodies"), std::string::npos) << r.err;
  r = run_inverse(model + " " + motion + " --lowpass-style opensim -o " + temp / "o.h5");
  EXPECT_EQ(r.exit_code, 2) << r.err;
  r = run_inverse(model + " " + motion + " --lowpass 40 -o " + temp / "o.h5");
  EXPECT_EQ(r.exit_code, 3);
  EXPECT_NE(r.err.find("Nyquist"), std::string::npos) << r.err;
  EXPECT_FALSE(std::ifstream(temp / "o.h5").good());
}

// Reliability flags: a ball resting into the floor with no load is flagged (contact, bit 1) in
// every row; with a load on the ball's body, the contact is explained and the row is not.
TEST(MeasuredMotion, ContactWithoutLoadIsFlagged) {
  const test::TempDir temp;
  write_text(temp / "ball.xml",
             "<mujoco><worldbody><geom type='plane' size='5 5 0.1'/>"
             "<body name='ball' pos='0 0 0.09'><freejoint/><geom size='0.1'/></body>"
             "</worldbody></mujoco>");
  const Model m = compile_mjcf_file(temp / "ball.xml");
  {
    TrajectoryFileWriter file(temp / "rest.h5", m, {});
    TrajectoryWriter& w = file.trajectory();
    for (int r = 0; r < 5; ++r) {
      w.append(Field::kTime, 0.01 * r);
      w.append(Field::kQpos, std::vector<double>{0, 0, 0.09, 1, 0, 0, 0});
    }
    w.close();
    file.commit();
  }
  // Not quiet: the summary's warning is part of the result.
  auto r = test::run(kInverse + " " + temp / "ball.xml" + " " + temp / "rest.h5" +
                     " --residuals -o " + temp / "a.h5");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("contacts with no external load"), std::string::npos) << r.err;
  Trajectory t = TrajectoryInput::open(temp / "a.h5").single();
  const Matrix flags = t.read(Field::kInverseFlags);
  for (size_t row = 0; row < 5; ++row) EXPECT_EQ(static_cast<int>(flags(row, 0)) & 1, 1);
  std::vector<size_t> dims;
  EXPECT_EQ(t.read_extra("residual_force", &dims).cols, 3u);
  EXPECT_EQ(t.read_extra("residual_moment").cols, 3u);

  write_text(temp / "up.mot",
             "up\nendheader\ntime\tground_force_vx\tground_force_vy\tground_force_vz\n"
             "0\t0\t0\t9.81\n1\t0\t0\t9.81\n");
  r = run_inverse(temp / "ball.xml" + " " + temp / "rest.h5" + " --external-loads " +
                  temp / "up.mot" + " --load-bodies ball --loads-frame z-up -o " + temp / "b.h5");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const Matrix explained = TrajectoryInput::open(temp / "b.h5").single().read(Field::kInverseFlags);
  for (size_t row = 0; row < 5; ++row) EXPECT_EQ(static_cast<int>(explained(row, 0)) & 1, 0);
}

}  // namespace
}  // namespace joco::tools
