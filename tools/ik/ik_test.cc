// joco-ik run as users run it: the real walking trial against OpenSim's own IK, synthetic round
// trips through every marker format, set-up files, errors.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <numbers>
#include <random>
#include <string>
#include <vector>

#include "common/markers.h"
#include "common/opensim_storage.h"
#include "common/trajectory.h"
#include "joco/inverse_kinematics.h"
#include "joco/mjcf.h"
#include "joco/smooth.h"
#include "tools/tool_test_support.h"

namespace joco::tools {
namespace {

const std::string kTrial = std::string(JOCO_TESTDATA_DIR) + "/mocap/gait2354_subject01";
const std::string kModel = kTrial + "/model/subject01_simbody_cvt1_npp.xml";
const std::string kTrc = kTrial + "/data/subject01_walk1.trc";
const std::string kSetup = kTrial + "/opensim/subject01_Setup_IK.xml";
const std::string kOpenSimIk = kTrial + "/reference/std_subject01_walk1_ik.mot";

Matrix read(const std::string& file, Field f) {
  return TrajectoryInput::open(file).single().read(f);
}

// RMS over frames and markers, and per marker, of the distances from sites to markers.
struct MarkerErrors {
  double rms = 0;
  std::map<std::string, double> per_marker;
};

// The 31 markers of OpenSim's task set at qpos rows (frames matched by time) from the TRC.
MarkerErrors marker_errors(const Model& m, const std::vector<double>& qpos,
                           const std::vector<double>& time) {
  const MarkerData markers = read_markers(kTrc);
  Data d(m);
  MarkerErrors out;
  std::map<std::string, std::pair<double, int>> sums;
  double all = 0;
  int n = 0;
  for (size_t r = 0; r < time.size(); ++r) {
    size_t f = 0;
    while (f + 1 < markers.frames() && std::abs(markers.time[f] - time[r]) > 1e-3) ++f;
    EXPECT_NEAR(markers.time[f], time[r], 1e-3);
    std::copy_n(qpos.data() + r * m.nq, m.nq, d.qpos);
    kinematics(m, d);
    for (size_t i = 0; i < markers.markers(); ++i) {
      const int site = m.name_to_id(kObjSite, markers.names[i] + "_marker");
      if (site < 0) continue;
      const double* p = markers.frame(f) + 3 * i;
      const double* x = d.site_xpos + 3 * site;
      const double e2 = (x[0] - p[0]) * (x[0] - p[0]) + (x[1] - p[1]) * (x[1] - p[1]) +
                        (x[2] - p[2]) * (x[2] - p[2]);
      sums[markers.names[i]].first += e2;
      sums[markers.names[i]].second += 1;
      all += e2, ++n;
    }
  }
  out.rms = std::sqrt(all / n);
  for (const auto& [name, s] : sums) out.per_marker[name] = std::sqrt(s.first / s.second);
  EXPECT_EQ(out.per_marker.size(), 31u);
  return out;
}

bool upper_body(const std::string& marker) {
  return marker == "R.Acromium" || marker == "L.Acromium" || marker == "Top.Head" ||
         marker == "Sternum";
}

// OpenSim's angles of a storage file as qpos rows of the model, the knee translations following
// from the joint equalities.
std::vector<double> opensim_qpos(const Model& m, const Storage& s, const JointColumns& columns) {
  std::vector<double> qpos(s.rows() * m.nq);
  InverseKinematics equalities(m, {});
  Data d(m);
  for (size_t row = 0; row < s.rows(); ++row) {
    double* q = qpos.data() + row * m.nq;
    std::copy_n(m.qpos0, m.nq, q);
    columns.row_to_qpos(s, row, q);
    equalities.solve(d, nullptr, q);
  }
  return qpos;
}

bool tight_joint(const std::string& name) {
  return name.rfind("pelvis_", 0) == 0 || name.rfind("hip_flexion", 0) == 0 ||
         name.rfind("knee_angle", 0) == 0 || name.rfind("ankle_angle", 0) == 0;
}

// joco-ik on the trial with OpenSim's setup, compared with an OpenSim IK result: the marker RMS of
// both (returned: joco-ik's, OpenSim's) and the largest angle difference per hinge (degrees).
struct Comparison {
  double ours_rms = 0, theirs_rms = 0;
  MarkerErrors ours;
  std::map<std::string, double> angle;
};

Comparison compare_with(const std::string& reference) {
  test::TempDir dir;
  const std::string out = dir / "ik.h5";
  const auto r = test::run("joco-ik " + kModel + " " + kTrc + " --setup " + kSetup + " -o " + out);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  std::printf("%s", r.err.c_str());
  const Model m = compile_mjcf_file(kModel);
  const Matrix qpos = read(out, Field::kQpos), time = read(out, Field::kTime);
  EXPECT_EQ(qpos.rows, 73u);  // 0.4 to 1.6 s at 60 Hz, the setup's time_range
  EXPECT_NEAR(time.data.front(), 0.4, 1e-12);
  EXPECT_NEAR(time.data.back(), 1.6, 1e-12);
  const Storage s = read_storage(reference);
  EXPECT_EQ(s.rows(), qpos.rows);
  const JointColumns columns = match_joint_columns(s, m);
  const std::vector<double> theirs = opensim_qpos(m, s, columns);
  std::vector<double> their_time(s.rows());
  for (size_t row = 0; row < s.rows(); ++row) their_time[row] = s.time(row);
  Comparison c;
  c.ours = marker_errors(m, qpos.data, time.data);
  c.ours_rms = c.ours.rms;
  c.theirs_rms = marker_errors(m, theirs, their_time).rms;
  std::printf("%s\nmarker RMS: joco-ik %.2f mm, OpenSim's angles %.2f mm\n", reference.c_str(),
              1000 * c.ours_rms, 1000 * c.theirs_rms);
  for (const JointColumns::Match& match : columns.matches) {
    if (m.jnt_type[match.joint] != kJointHinge) continue;
    double worst = 0;
    for (size_t row = 0; row < qpos.rows && row < s.rows(); ++row) {
      worst =
          std::max(worst, std::abs(qpos(row, match.qposadr) - theirs[row * m.nq + match.qposadr]));
    }
    const std::string name(m.name(kObjJoint, match.joint));
    c.angle[name] = worst * 180 / std::numbers::pi;
    std::printf("  %-18s %.2f deg\n", name.c_str(), c.angle[name]);
  }
  EXPECT_EQ(c.angle.size(), 20u);
  return c;
}

// The agreement, with OpenSim's weights and locks (its setup XML), against OpenSim's IK
// of this model and set-up (reference/subject01_walk1_ik.mot, opensim-models' Gait2354 pipeline
// output, the file the trial's README names): joco-ik's marker error within 10% of OpenSim's own
// (2.2 cm), lower-body markers under 3 cm, and the angles within 2 degrees for pelvis, hip, knee
// and ankle flexion (5 for the rest). Measured: 21.98 mm against 21.99 mm, angles within 0.15
// degrees.
TEST(JocoIk, AgreesWithOpenSimOnTheWalkingTrial) {
  const Comparison c = compare_with(kTrial + "/reference/subject01_walk1_ik.mot");
  EXPECT_LT(c.ours_rms, 1.1 * c.theirs_rms);
  EXPECT_GT(c.ours_rms, 0.9 * c.theirs_rms);
  for (const auto& [marker, e] : c.ours.per_marker) {
    if (!upper_body(marker)) {
      EXPECT_LT(e, 0.03) << marker;
    }
  }
  for (const auto& [name, worst] : c.angle) EXPECT_LT(worst, tight_joint(name) ? 2.0 : 5.0) << name;
}

// The same against opensim-core's IK test result (reference/std_subject01_walk1_ik.mot). That
// file is an IK of another scaling of subject01 (its angles put into this model leave the markers
// 24.4 mm RMS away, where this model's own optimum is 22.0 mm): joco-ik fits the markers better
// than those angles do, and stays within 5 degrees of them (left knee 4.1, lumbar extension 2.9,
// left ankle 2.3, the rest under 2).
TEST(JocoIk, AgainstOpenSimCoreIkTestResult) {
  const Comparison c = compare_with(kOpenSimIk);
  EXPECT_LT(c.ours_rms, c.theirs_rms);
  EXPECT_LT(c.ours_rms, 1.1 * 0.022);
  for (const auto& [name, worst] : c.angle) EXPECT_LT(worst, 5.0) << name;
}

}  // namespace
}  // namespace joco::tools
