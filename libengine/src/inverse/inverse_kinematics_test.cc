#include "joco/inverse_kinematics.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "joco/constants.h"
#include "joco/mjcf.h"
#include "joco/smooth.h"
#include "support/test_support.h"

namespace joco {
namespace {

// A free root, a ball joint, a limited hinge and a slide tied to the hinge by a joint equality;
// three or four sites on each body.
constexpr const char* kChain = R"(
<mujoco>
  <compiler angle="radian"/>
  <worldbody>
    <body name="root" pos="0 0 1">
      <freejoint name="root"/>
      <geom size="0.1"/>
      <site name="r1" pos="0.1 0 0"/><site name="r2" pos="0 0.1 0"/>
      <site name="r3" pos="0 0 0.1"/><site name="r4" pos="-0.1 -0.05 0.02"/>
      <body name="a" pos="0 0 -0.2">
        <joint name="hip" type="ball"/>
        <geom size="0.05"/>
        <site name="a1" pos="0.1 0 -0.1"/><site name="a2" pos="-0.08 0.1 -0.2"/>
        <site name="a3" pos="0 -0.1 -0.3"/>
        <body name="b" pos="0 0 -0.4">
          <joint name="knee" type="hinge" axis="0 1 0" range="-2 0.1" limited="true"/>
          <joint name="slide" type="slide" axis="0 0 1" range="-1 1" limited="true"/>
          <geom size="0.05"/>
          <site name="b1" pos="0.1 0 -0.1"/><site name="b2" pos="0 0.1 -0.3"/>
          <site name="b3" pos="-0.08 -0.06 -0.2"/>
        </body>
      </body>
    </body>
  </worldbody>
  <equality><joint joint1="slide" joint2="knee" polycoef="0.01 0.02 -0.01 0 0"/></equality>
</mujoco>)";

std::vector<IkMarker> all_sites(const Model& m) {
  std::vector<IkMarker> markers;
  for (int s = 0; s < m.nsite; ++s) markers.push_back({s, 1.0});
  return markers;
}

double slide_of(double knee) { return 0.01 + 0.02 * knee - 0.01 * knee * knee; }

// The known motion at frame t: the free joint translating and turning, the ball joint turning,
// the knee bending; the slide from the equality.
void known_qpos(const Model& m, int t, double* qpos) {
  const double s = 0.05 * t;
  const double root_angle = 0.3 * std::sin(s), hip_angle = 0.5 * std::sin(1.3 * s);
  double* free = qpos + m.jnt_qposadr[0];
  free[0] = 0.2 * s;
  free[1] = 0.05 * std::sin(s);
  free[2] = 1 + 0.02 * std::cos(2 * s);
  free[3] = std::cos(root_angle / 2);  // about z
  free[4] = 0;
  free[5] = 0;
  free[6] = std::sin(root_angle / 2);
  double* ball = qpos + m.jnt_qposadr[1];
  const double n = std::sqrt(0.36 + 0.64);  // axis (0.6, 0.8, 0)
  ball[0] = std::cos(hip_angle / 2);
  ball[1] = 0.6 / n * std::sin(hip_angle / 2);
  ball[2] = 0.8 / n * std::sin(hip_angle / 2);
  ball[3] = 0;
  const double knee = -1 + 0.8 * std::sin(0.7 * s);
  qpos[m.jnt_qposadr[2]] = knee;
  qpos[m.jnt_qposadr[3]] = slide_of(knee);
}

std::vector<double> site_positions(const Model& m, Data& d, const double* qpos) {
  std::copy_n(qpos, m.nq, d.qpos);
  kinematics(m, d);
  return std::vector<double>(d.site_xpos, d.site_xpos + 3 * m.nsite);
}

// Angle between two unit quaternions.
double quat_angle(const double* a, const double* b) {
  const double dot = std::abs(a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3]);
  return 2 * std::acos(std::min(1.0, dot));
}

TEST(InverseKinematics, NoisyMarkersOfAKnownMotionGiveTheMotionBackWithinTheNoise) {
  const Model m = compile_mjcf(kChain, "chain", "");
  Data d(m);
  InverseKinematics ik(m, all_sites(m));
  EXPECT_EQ(ik.nvariable(), 6 + 3 + 1);  // the slide is eliminated
  std::mt19937 rng(17);
  std::normal_distribution<double> noise(0, 0.001);  // 1 mm
  std::vector<double> truth(m.nq), fit(m.qpos0, m.qpos0 + m.nq), error(m.nsite);
  double worst_knee = 0, worst_ball = 0, worst_root = 0, worst_pos = 0, residual2 = 0, true2 = 0;
  int count = 0;
  for (int t = 0; t < 60; ++t) {
    known_qpos(m, t, truth.data());
    const std::vector<double> exact = site_positions(m, d, truth.data());
    std::vector<double> markers = exact;
    for (double& x : markers) x += noise(rng);
    const IkResult r = ik.solve(d, markers.data(), fit.data(), error.data());
    EXPECT_TRUE(r.converged) << "frame " << t;
    EXPECT_EQ(r.markers_used, m.nsite);
    worst_knee = std::max(worst_knee, std::abs(fit[m.jnt_qposadr[2]] - truth[m.jnt_qposadr[2]]));
    worst_ball = std::max(worst_ball, quat_angle(&fit[m.jnt_qposadr[1]], &truth[m.jnt_qposadr[1]]));
    worst_root =
        std::max(worst_root, quat_angle(&fit[m.jnt_qposadr[0] + 3], &truth[m.jnt_qposadr[0] + 3]));
    for (int c = 0; c < 3; ++c) worst_pos = std::max(worst_pos, std::abs(fit[c] - truth[c]));
    // The dependent slide follows the knee exactly; the quaternions stay unit.
    EXPECT_NEAR(fit[m.jnt_qposadr[3]], slide_of(fit[m.jnt_qposadr[2]]), 1e-14);
    for (int j : {0, 1}) {
      const double* q = &fit[m.jnt_qposadr[j] + (j == 0 ? 3 : 0)];
      EXPECT_NEAR(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3], 1, 1e-12);
    }
    // Sites of the fit against the noisy markers (the residual) and against the exact ones.
    const std::vector<double> fitted = site_positions(m, d, fit.data());
    for (int s = 0; s < m.nsite; ++s) {
      residual2 += error[s] * error[s];
      for (int c = 0; c < 3; ++c) {
        true2 += (fitted[3 * s + c] - exact[3 * s + c]) * (fitted[3 * s + c] - exact[3 * s + c]);
      }
      ++count;
    }
  }
  const double residual_rms = std::sqrt(residual2 / count), true_rms = std::sqrt(true2 / count);
  std::printf(
      "worst errors: knee %g ball %g root %g position %g; site RMS to markers %g, to truth %g\n",
      worst_knee, worst_ball, worst_root, worst_pos, residual_rms, true_rms);
  // With sigma = 1 mm per coordinate the noise is sqrt(3) sigma = 1.73 mm RMS per marker. A
  // least-squares fit of p = 10 variables to N = 13 sites puts the fitted sites sigma sqrt(p / N)
  // = 0.88 mm RMS from the truth and sigma sqrt(3 - p / N) = 1.49 mm from the noisy markers.
  EXPECT_LT(true_rms, 0.0011);
  EXPECT_NEAR(residual_rms, 0.00149, 0.0002);
  // In angles: a few milliradians RMS, the worst of 60 frames a few times that.
  EXPECT_LT(worst_knee, 0.04);
  EXPECT_LT(worst_ball, 0.04);
  EXPECT_LT(worst_root, 0.04);
  EXPECT_LT(worst_pos, 0.003);
}

TEST(InverseKinematics, ExactMarkersGiveTheMotionBackExactly) {
  const Model m = compile_mjcf(kChain, "chain", "");
  Data d(m);
  InverseKinematics ik(m, all_sites(m));
  std::vector<double> truth(m.nq), fit(m.qpos0, m.qpos0 + m.nq);
  for (int t = 0; t < 30; t += 3) {
    known_qpos(m, t, truth.data());
    const std::vector<double> markers = site_positions(m, d, truth.data());
    const IkResult r = ik.solve(d, markers.data(), fit.data());
    EXPECT_TRUE(r.converged);
    EXPECT_LT(r.cost, 1e-16);
    EXPECT_NEAR(fit[m.jnt_qposadr[2]], truth[m.jnt_qposadr[2]], 1e-7) << "frame " << t;
    EXPECT_LT(quat_angle(&fit[m.jnt_qposadr[1]], &truth[m.jnt_qposadr[1]]), 1e-7);
  }
}

TEST(InverseKinematics, MissingMarkersAreSkipped) {
  const Model m = compile_mjcf(kChain, "chain", "");
  Data d(m);
  InverseKinematics ik(m, all_sites(m));
  std::vector<double> truth(m.nq), fit(m.qpos0, m.qpos0 + m.nq), error(m.nsite);
  known_qpos(m, 10, truth.data());
  std::vector<double> markers = site_positions(m, d, truth.data());
  markers[3 * 3 + 1] = std::nan("");  // r4 and b2 missing
  markers[3 * 8 + 0] = std::nan("");
  const IkResult r = ik.solve(d, markers.data(), fit.data(), error.data());
  EXPECT_EQ(r.markers_used, m.nsite - 2);
  EXPECT_TRUE(std::isnan(error[3]));
  EXPECT_TRUE(std::isnan(error[8]));
  EXPECT_NEAR(fit[m.jnt_qposadr[2]], truth[m.jnt_qposadr[2]], 1e-7);
  EXPECT_LT(error[0], 1e-7);
}

TEST(InverseKinematics, LimitsLocksAndCoordinateTasks) {
  const Model m = compile_mjcf(kChain, "chain", "");
  Data d(m);
  std::vector<double> truth(m.nq), fit(m.nq);
  known_qpos(m, 0, truth.data());
  truth[m.jnt_qposadr[2]] = 0.4;  // beyond the knee's upper limit, 0.1
  truth[m.jnt_qposadr[3]] = slide_of(0.4);
  const std::vector<double> markers = site_positions(m, d, truth.data());
  IkOptions no_limits;
  no_limits.limits = false;
  {
    InverseKinematics ik(m, all_sites(m));
    std::copy_n(m.qpos0, m.nq, fit.data());
    ik.solve(d, markers.data(), fit.data());
    EXPECT_EQ(fit[m.jnt_qposadr[2]], 0.1);
    EXPECT_NEAR(fit[m.jnt_qposadr[3]], slide_of(0.1), 1e-14);
  }
  {
    InverseKinematics ik(m, all_sites(m), {}, {}, no_limits);
    std::copy_n(m.qpos0, m.nq, fit.data());
    ik.solve(d, markers.data(), fit.data());
    EXPECT_NEAR(fit[m.jnt_qposadr[2]], 0.4, 1e-7);
  }
  {
    InverseKinematics ik(m, all_sites(m), {}, {IkLock{2, -0.5}});
    EXPECT_EQ(ik.nvariable(), 9);
    std::copy_n(m.qpos0, m.nq, fit.data());
    ik.solve(d, markers.data(), fit.data());
    EXPECT_EQ(fit[m.jnt_qposadr[2]], -0.5);
    EXPECT_NEAR(fit[m.jnt_qposadr[3]], slide_of(-0.5), 1e-14);
  }
  {
    // A heavy coordinate task wins over the markers; a light one barely moves the fit.
    InverseKinematics heavy(m, all_sites(m), {IkCoordinate{2, -0.5, 1e8}});
    std::copy_n(m.qpos0, m.nq, fit.data());
    heavy.solve(d, markers.data(), fit.data());
    EXPECT_NEAR(fit[m.jnt_qposadr[2]], -0.5, 1e-5);
    InverseKinematics light(m, all_sites(m), {IkCoordinate{2, -0.5, 1e-8}}, {}, no_limits);
    std::copy_n(m.qpos0, m.nq, fit.data());
    light.solve(d, markers.data(), fit.data());
    EXPECT_NEAR(fit[m.jnt_qposadr[2]], 0.4, 1e-5);
  }
}

// A limited hinge whose markers lie beyond its limit: held there, and the solver stops at once
// instead of shrinking steps that cannot move it.
TEST(InverseKinematics, EveryVariableAtALimit) {
  const Model m = compile_mjcf(R"(
<mujoco>
  <compiler angle="radian"/>
  <worldbody>
    <body>
      <joint name="hinge" type="hinge" axis="0 1 0" range="-0.5 0.5" limited="true"/>
      <geom size="0.1"/>
      <site name="s1" pos="0.3 0 0"/><site name="s2" pos="0 0.1 -0.3"/>
    </body>
  </worldbody>
</mujoco>)",
                               "hinge", "");
  Data d(m);
  std::vector<double> q = {1.0};
  const std::vector<double> markers = site_positions(m, d, q.data());
  InverseKinematics ik(m, all_sites(m));
  q[0] = 0.5;
  const IkResult r = ik.solve(d, markers.data(), q.data());
  EXPECT_EQ(q[0], 0.5);
  EXPECT_TRUE(r.converged);
  EXPECT_EQ(r.iterations, 1);
}

TEST(InverseKinematics, RefusesWhatItCannotDo) {
  const Model m = compile_mjcf(kChain, "chain", "");
  EXPECT_THROW(InverseKinematics(m, {IkMarker{m.nsite, 1}}), std::invalid_argument);
  EXPECT_THROW(InverseKinematics(m, {IkMarker{0, -1}}), std::invalid_argument);
  EXPECT_THROW(InverseKinematics(m, {}, {IkCoordinate{1, 0, 1}}), std::invalid_argument);  // ball
  EXPECT_THROW(InverseKinematics(m, {}, {}, {IkLock{3, 0}}), std::invalid_argument);  // dependent
  EXPECT_THROW(InverseKinematics(m, {}, {}, {IkLock{9, 0}}), std::invalid_argument);
}

TEST(InverseKinematics, SolveAllocatesNothing) {
  const Model m = compile_mjcf(kChain, "chain", "");
  Data d(m);
  InverseKinematics ik(m, all_sites(m), {IkCoordinate{2, -0.5, 1}});
  std::vector<double> truth(m.nq), fit(m.qpos0, m.qpos0 + m.nq), error(m.nsite);
  std::vector<std::vector<double>> frames;
  for (int t = 0; t < 20; ++t) {
    known_qpos(m, t, truth.data());
    frames.push_back(site_positions(m, d, truth.data()));
  }
  test::AllocationCounter counter;
  for (const auto& markers : frames) ik.solve(d, markers.data(), fit.data(), error.data());
  EXPECT_EQ(counter.count(), 0);
}

// The gait model: its 39 marker sites at a known pose give the pose back (the knee translations
// following the knee angle through the model's quartic joint equalities).
TEST(InverseKinematics, GaitModelKnownPose) {
  const Model m = compile_mjcf_file(
      test::testdata("mocap/gait2354_subject01/model/subject01_simbody_cvt1_npp.xml"));
  Data d(m);
  std::vector<IkMarker> markers;
  for (int s = 0; s < m.nsite; ++s) {
    const std::string_view name = m.name(kObjSite, s);
    if (name.size() > 7 && name.substr(name.size() - 7) == "_marker") markers.push_back({s, 1});
  }
  ASSERT_EQ(markers.size(), 39u);  // 31 with data in the trial
  const auto joint = [&](const char* name) {
    for (int j = 0; j < m.njnt; ++j) {
      if (m.name(kObjJoint, j) == name) return j;
    }
    ADD_FAILURE() << name;
    return 0;
  };
  std::vector<double> truth(m.qpos0, m.qpos0 + m.nq);
  const std::vector<std::pair<const char*, double>> pose = {
      {"pelvis_tx", 0.6},        {"pelvis_ty", 1.05},        {"pelvis_tz", -0.02},
      {"pelvis_tilt", 0.08},     {"pelvis_list", -0.03},     {"pelvis_rotation", -0.01},
      {"hip_flexion_r", 0.35},   {"hip_adduction_r", -0.05}, {"hip_rotation_r", -0.12},
      {"knee_angle_r", -0.95},   {"ankle_angle_r", 0.05},    {"hip_flexion_l", -0.2},
      {"hip_adduction_l", 0.04}, {"hip_rotation_l", 0.1},    {"knee_angle_l", -0.2},
      {"ankle_angle_l", -0.15},  {"lumbar_extension", -0.1}, {"lumbar_bending", 0.03},
      {"lumbar_rotation", 0.05},
  };
  for (const auto& [name, value] : pose) truth[m.jnt_qposadr[joint(name)]] = value;
  // Subtalar and mtp held at 0 as in OpenSim's set-up (coordinate tasks of weight 1000).
  std::vector<IkCoordinate> tasks;
  for (const char* name : {"subtalar_angle_r", "mtp_angle_r", "subtalar_angle_l", "mtp_angle_l"}) {
    tasks.push_back({joint(name), 0, 1000});
  }
  InverseKinematics ik(m, markers, tasks);
  // The knee translations from the equalities (the solver's own rule, checked below).
  std::vector<double> fit(m.qpos0, m.qpos0 + m.nq);
  std::vector<double> targets(3 * markers.size());
  {
    InverseKinematics place(m, {}, {}, {});
    place.solve(d, targets.data(), truth.data());
  }
  const int t1 = m.jnt_qposadr[joint("knee_r_translation1")];
  EXPECT_NEAR(truth[t1],
              -0.004175 - 0.007189 * -0.95 + 0.00322 * 0.9025 + 0.001538 * -0.857375 -
                  0.0007774 * 0.81450625,
              1e-12);
  std::copy_n(truth.data(), m.nq, d.qpos);
  kinematics(m, d);
  for (size_t i = 0; i < markers.size(); ++i) {
    std::copy_n(d.site_xpos + 3 * markers[i].site, 3, targets.data() + 3 * i);
  }
  const IkResult r = ik.solve(d, targets.data(), fit.data());
  EXPECT_TRUE(r.converged);
  EXPECT_LT(r.iterations, 40);
  for (int i = 0; i < m.nq; ++i) EXPECT_NEAR(fit[i], truth[i], 1e-6) << "qpos " << i;
}

}  // namespace
}  // namespace joco
