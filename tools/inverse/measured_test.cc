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

// Runs the trial as the issue asks: OpenSim's IK angles (reference/subject01_walk1_ik.mot, the
// file OpenSim's ID setup names as its coordinates_file), the 6 Hz filter, the force plates
// (OpenSim's ExternalLoads XML, its data file named with --loads-data as testdata keeps it in
// data/), the conversion's joint damping removed; `model` the MJCF, `extra` more flags. Returns
// |joco - OpenSim| over the 73 rows relative to OpenSim's peak (reference/inverse_dynamics.sto)
// per coordinate, on qfrc_reduced (the knee translations' forces folded into the knee angle, as
// OpenSim's knee coordinate carries them).
std::map<std::string, double> trial_errors(const std::string& model, const std::string& extra,
                                           const test::TempDir& temp) {
  const std::string out = temp / "id.h5";
  const auto r = run_inverse(model + " " + kTrial +
                             "reference/subject01_walk1_ik.mot --lowpass 6 --external-loads " +
                             kTrial + "opensim/subject01_walk1_grf.xml --loads-data " + kTrial +
                             "data/subject01_walk1_grf.mot --no-damping " + extra + " -o " + out);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  const Model m = compile_mjcf_file(model);
  Trajectory t = TrajectoryInput::open(out).single();
  const Matrix reduced = t.read_extra("qfrc_reduced");
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

// With OpenSim's coordinate processing (--lowpass-style opensim: its third-order filter per pass
// and half-the-rows padding; --smooth spline: derivatives of the natural quintic spline), joco
// reproduces OpenSim's ID. Measured, % of OpenSim's peak: lumbar 0.02 / 0.1 / 0.1 (the torso
// sees only the filtered pelvis and lumbar coordinates, so this is the processing matching),
// ankles 0.6 / 0.7, subtalar 0.3 / 0.2, hip flexion 6.1 / 6.7, knees 9.97 / 9.1, pelvis list,
// rotation, ty, tz 3.5, 4.9, 1.6, 1.8; pelvis tilt 13.2 and tx 15.9 (see ConversionKneeFit). With
// joco's own filter and central differences the same trial gives hips 16 / 14, knees 11 / 10,
// lumbar 15 / 16 / 61, pelvis 16-57.
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
  // Not within 10%, for a reason outside joco: the conversion replaced OpenSim's knee translation
  // splines with quartics (ConversionKneeFit), and the sagittal residuals carry the difference
  // (measured 13.2% and 15.9%); these bounds guard the agreement reached.
  EXPECT_LT(e.at("pelvis_tilt"), 0.14);
  EXPECT_LT(e.at("pelvis_tx"), 0.17);
}

// The remaining sagittal differences come from the MJCF conversion, not joco: OpenSim's knee
// translations are 1.14724 x natural cubic splines of the knee angle (subject01_simbody.osim,
// knee_r/knee_l translation1/2), the MJCF's joint equalities quartics fitted to them whose slope
// is off by up to 5 mm/rad (translation1 at -20 degrees: -13.5 mm/rad in OpenSim, -8.7 in the
// MJCF). The same trial on the MJCF with quartics least-squares fitted to the splines over -80 to
// 10 degrees (written here into a copy of the model) brings every sagittal column closer:
// pelvis tilt 13.2 -> 9.9%, tx 15.9 -> 12.5%, knees 9.97 / 9.1 -> 8.1 / 6.4%, hips 6.1 / 6.7 ->
// 5.1 / 5.7%, ankles 0.6 / 0.7 -> 0.1 / 0.1%. The rest of pelvis tx is what a quartic cannot
// follow of the spline (its second derivative changes sign near -10 degrees).
TEST(MeasuredMotion, ConversionKneeFit) {
  const test::TempDir temp;
  std::ifstream in(kTrial + "model/subject01_simbody_cvt1_npp.xml");
  std::string xml((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const auto replace_all = [&](const std::string& from, const std::string& to) {
    int count = 0;
    for (size_t at = xml.find(from); at != std::string::npos; at = xml.find(from, at + to.size()))
      xml.replace(at, from.size(), to), ++count;
    return count;
  };
  ASSERT_EQ(replace_all("polycoef=\"-0.004175 -0.007189 0.00322 0.001538 -0.0007774\"",
                        "polycoef=\"-0.005131243 -0.007849875 0.01432704 0.01748232 0.004925319\""),
            2);
  ASSERT_EQ(replace_all("polycoef=\"-0.454 0.003916 -0.006409 0.0007683 0.000651\"",
                        "polycoef=\"-0.4541048 0.004306484 -0.00276134 0.00601784 0.002752\""),
            2);
  ASSERT_GT(replace_all("file=\"Geometry/", "file=\"" + kTrial + "model/Geometry/"), 0);
  write_text(temp / "refit.xml", xml);
  const auto refit =
      trial_errors(temp / "refit.xml", "--lowpass-style opensim --smooth spline", temp);
  ASSERT_EQ(refit.size(), 23u);
  EXPECT_LT(refit.at("pelvis_tilt"), 0.10);
  EXPECT_LT(refit.at("pelvis_tx"), 0.13);
  for (const char* c : {"knee_angle_r", "knee_angle_l"}) EXPECT_LT(refit.at(c), 0.085) << c;
  for (const char* c : {"ankle_angle_r", "ankle_angle_l"}) EXPECT_LT(refit.at(c), 0.002) << c;
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
