// The sensor stages against independent references: velocity sensors against finite differences
// of position sensors along the motion, acceleration sensors against finite differences of
// velocity sensors, force and torque against Newton-Euler on a welded body, touch on contacts made
// by hand, noise statistics, cutoffs, the forward pipeline's use of the stages, and no heap use.
#include "joco/sensor.h"

#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <limits>
#include <random>
#include <vector>

#include "joco/forward.h"
#include "joco/mjcf.h"
#include "joco/smooth.h"
#include "math/vec.h"
#include "support/test_support.h"

namespace joco {
namespace {

// Positions and velocities of the pipeline (no contacts, constraints or actuators needed here).
void smooth_state(const Model& m, Data& d) {
  fwd_position(m, d);
  fwd_velocity(m, d);
}

// A random state: positions around qpos0, velocities and accelerations.
void random_state(const Model& m, Data& d, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(-1, 1);
  std::vector<double> v(m.nv);
  for (double& x : v) x = u(rng);
  std::copy(m.qpos0, m.qpos0 + m.nq, d.qpos);
  integrate_pos(m, d.qpos, v.data(), 1.0);
  for (int i = 0; i < m.nv; ++i) d.qvel[i] = 2 * u(rng);
  for (int i = 0; i < m.nv; ++i) d.qacc[i] = 3 * u(rng);
  d.time = 0.5;
}

// The sensor with the given type and object (and reference), without cutoff; -1 if none.
int find_sensor(const Model& m, int type, int objtype, int objid, int reftype, int refid) {
  for (int i = 0; i < m.nsensor; ++i) {
    if (m.sensor_type[i] == type && m.sensor_objtype[i] == objtype && m.sensor_objid[i] == objid &&
        m.sensor_reftype[i] == reftype && m.sensor_refid[i] == refid && m.sensor_cutoff[i] == 0) {
      return i;
    }
  }
  return -1;
}

// Angular velocity from quaternions a step apart: global (w = R(q) w_local) or local.
void angular_rate(const double* q_minus, const double* q_plus, double dt, bool local,
                  const double* q0, double* w) {
  double local_w[3];
  math::quat_difference(local_w, q_plus, q_minus);
  math::scale3(local_w, local_w, 1 / dt);
  if (local) {
    math::copy3(w, local_w);
  } else {
    math::quat_rotate(w, q0, local_w);
  }
}

void expect_close(const double* actual, const double* expected, int n, double tol,
                  const std::string& what) {
  double scale = 1;
  for (int k = 0; k < n; ++k) scale = std::max(scale, std::abs(expected[k]));
  for (int k = 0; k < n; ++k) {
    EXPECT_NEAR(actual[k], expected[k], tol * scale) << what << " element " << k;
  }
}

class SensorFiniteDifference : public ::testing::Test {
 protected:
  void SetUp() override {
    m = compile_mjcf_file(test::testdata("sensor/all_sensors.xml"));
    d = Data(m);
  }
  // sensordata of sensor_pos at the state qpos (+) dt * vel
  std::vector<double> positions_at(const std::vector<double>& q0, const double* vel, double dt) {
    Data e = d;
    std::copy(q0.begin(), q0.end(), e.qpos);
    integrate_pos(m, e.qpos, vel, dt);
    smooth_state(m, e);
    sensor_pos(m, e);
    return std::vector<double>(e.sensordata, e.sensordata + m.nsensordata);
  }
  Model m;
  Data d;
};

// Velocity sensors are the rates of change of the matching position sensors (or positions).
TEST_F(SensorFiniteDifference, VelocitySensorsAreRatesOfPositions) {
  const double h = 1e-6;
  int checked = 0;
  for (uint64_t seed = 1; seed <= 4; ++seed) {
    random_state(m, d, seed);
    smooth_state(m, d);
    sensor_pos(m, d);
    sensor_vel(m, d);
    const std::vector<double> q0(d.qpos, d.qpos + m.nq);
    const std::vector<double> plus = positions_at(q0, d.qvel, h);
    const std::vector<double> minus = positions_at(q0, d.qvel, -h);
    // site positions and orientations along the motion, for velocimeter and gyro
    Data dp = d, dm = d;
    integrate_pos(m, dp.qpos, d.qvel, h);
    integrate_pos(m, dm.qpos, d.qvel, -h);
    smooth_state(m, dp);
    smooth_state(m, dm);
    for (int i = 0; i < m.nsensor; ++i) {
      if (m.sensor_cutoff[i] > 0) continue;
      const int type = m.sensor_type[i], objtype = m.sensor_objtype[i], objid = m.sensor_objid[i];
      // A tracking camera moves with what it tracks, but MuJoCo's frame velocities treat cameras
      // as fixed in their body, so framelinvel does not follow its framepos; joco does the same.
      if ((objtype == kObjCamera && m.cam_mode[objid] != kCamLightFixed) ||
          (m.sensor_reftype[i] == kObjCamera && m.cam_mode[m.sensor_refid[i]] != kCamLightFixed)) {
        continue;
      }
      const double* value = d.sensordata + m.sensor_adr[i];
      const std::string what = "sensor " + std::to_string(i) + " seed " + std::to_string(seed);
      double expected[3];
      if (type == kSensFrameLinVel || type == kSensJointVel) {
        const int pos_type = type == kSensJointVel ? kSensJointPos : kSensFramePos;
        const int j =
            find_sensor(m, pos_type, objtype, objid, m.sensor_reftype[i], m.sensor_refid[i]);
        ASSERT_GE(j, 0) << what;
        const int adr = m.sensor_adr[j];
        for (int k = 0; k < m.sensor_dim[i]; ++k) {
          expected[k] = (plus[adr + k] - minus[adr + k]) / (2 * h);
        }
      } else if (type == kSensFrameAngVel || type == kSensBallAngVel) {
        const int quat_type = type == kSensBallAngVel ? kSensBallQuat : kSensFrameQuat;
        const int j =
            find_sensor(m, quat_type, objtype, objid, m.sensor_reftype[i], m.sensor_refid[i]);
        ASSERT_GE(j, 0) << what;
        const int adr = m.sensor_adr[j];
        // ball joints turn in their child's frame; frame sensors report the global (or the
        // reference frame's) angular velocity
        angular_rate(minus.data() + adr, plus.data() + adr, 2 * h, type == kSensBallAngVel,
                     d.sensordata + adr, expected);
      } else if (type == kSensVelocimeter) {
        double dpos[3];
        math::sub3(dpos, dp.site_xpos + 3 * objid, dm.site_xpos + 3 * objid);
        math::scale3(dpos, dpos, 1 / (2 * h));
        math::mat_t_vec3(expected, d.site_xmat + 9 * objid, dpos);
      } else if (type == kSensGyro) {
        double qp[4], qm[4];
        math::mat_to_quat(qp, dp.site_xmat + 9 * objid);
        math::mat_to_quat(qm, dm.site_xmat + 9 * objid);
        angular_rate(qm, qp, 2 * h, true, nullptr, expected);
      } else if (type == kSensSubtreeLinVel) {
        math::sub3(expected, dp.subtree_com + 3 * objid, dm.subtree_com + 3 * objid);
        math::scale3(expected, expected, 1 / (2 * h));
      } else {
        continue;
      }
      expect_close(value, expected, m.sensor_dim[i], 1e-6, what);
      ++checked;
    }
  }
  EXPECT_EQ(checked, 4 * 67);  // every velocity sensor with a position counterpart
}

// Acceleration sensors are the rates of change of velocity sensors along the motion with the
// state's qacc (MuJoCo's accelerations include -gravity, as an accelerometer at rest reads).
TEST_F(SensorFiniteDifference, AccelerationSensorsAreRatesOfVelocities) {
  const double h = 1e-5;
  const double* g = m.opt.gravity;
  int checked = 0;
  for (uint64_t seed = 1; seed <= 4; ++seed) {
    random_state(m, d, seed);
    smooth_state(m, d);
    sensor_acc(m, d);
    // the states a step before and after along q(t), v(t) with constant qacc
    auto state_at = [&](double dt) {
      Data e = d;
      std::vector<double> vel(m.nv);
      for (int i = 0; i < m.nv; ++i) vel[i] = d.qvel[i] + 0.5 * dt * d.qacc[i];
      integrate_pos(m, e.qpos, vel.data(), dt);
      for (int i = 0; i < m.nv; ++i) e.qvel[i] = d.qvel[i] + dt * d.qacc[i];
      smooth_state(m, e);
      return e;
    };
    const Data dp = state_at(h), dm = state_at(-h);
    for (int i = 0; i < m.nsensor; ++i) {
      if (m.sensor_cutoff[i] > 0) continue;
      const int type = m.sensor_type[i], objtype = m.sensor_objtype[i], objid = m.sensor_objid[i];
      if (type != kSensFrameLinAcc && type != kSensFrameAngAcc && type != kSensAccelerometer) {
        continue;
      }
      const std::string what = "sensor " + std::to_string(i) + " seed " + std::to_string(seed);
      const int vel_objtype = type == kSensAccelerometer ? int{kObjSite} : objtype;
      double vp[6], vm[6], rate[6];
      object_velocity(m, dp, vel_objtype, objid, vp, false);
      object_velocity(m, dm, vel_objtype, objid, vm, false);
      for (int k = 0; k < 6; ++k) rate[k] = (vp[k] - vm[k]) / (2 * h);
      double expected[3];
      if (type == kSensFrameAngAcc) {
        math::copy3(expected, rate);
      } else {
        math::sub3(expected, rate + 3, g);
        if (type == kSensAccelerometer) {
          math::mat_t_vec3(expected, d.site_xmat + 9 * objid, expected);
        }
      }
      expect_close(d.sensordata + m.sensor_adr[i], expected, 3, 1e-6, what);
      ++checked;
    }
  }
  EXPECT_EQ(checked, 4 * 14);
}

// Force and torque on a welded body with no children are Newton-Euler's: what its parent exerts
// on it is m (a - g) at its centre of mass, plus the rate of its angular momentum, measured at the
// site and expressed in the site's frame.
TEST(SensorForceTorque, NewtonEulerOnAWeldedBody) {
  Model m = compile_mjcf(R"(
    <mujoco>
      <worldbody>
        <body name="arm" pos="0 0 1">
          <joint type="ball"/>
          <geom type="capsule" fromto="0 0 0 0.5 0 0" size="0.05"/>
          <body name="tool" pos="0.5 0 0" euler="0 30 0">
            <geom type="box" size="0.1 0.05 0.02" pos="0.1 0.02 0" euler="10 20 30" mass="2"/>
            <site name="ft" pos="0.02 0.01 0" euler="10 0 20"/>
          </body>
        </body>
      </worldbody>
      <sensor><force site="ft"/><torque site="ft"/></sensor>
    </mujoco>)",
                         "ft.xml", ".");
  Data d(m);
  const int tool = m.name_to_id(kObjBody, "tool"), site = m.name_to_id(kObjSite, "ft");
  const double h = 1e-5;
  for (uint64_t seed = 1; seed <= 5; ++seed) {
    random_state(m, d, seed);
    if (seed == 1) {  // at rest: the parent holds the weight
      std::fill(d.qvel, d.qvel + m.nv, 0.0);
      std::fill(d.qacc, d.qacc + m.nv, 0.0);
    }
    smooth_state(m, d);
    sensor_acc(m, d);
    auto velocity_at = [&](double dt, double* vel) {
      Data e = d;
      std::vector<double> v(m.nv);
      for (int i = 0; i < m.nv; ++i) v[i] = d.qvel[i] + 0.5 * dt * d.qacc[i];
      integrate_pos(m, e.qpos, v.data(), dt);
      for (int i = 0; i < m.nv; ++i) e.qvel[i] = d.qvel[i] + dt * d.qacc[i];
      smooth_state(m, e);
      object_velocity(m, e, kObjBody, tool, vel, false);  // at the centre of mass
    };
    double vp[6], vm[6], v0[6], acc[6];
    velocity_at(h, vp);
    velocity_at(-h, vm);
    object_velocity(m, d, kObjBody, tool, v0, false);
    for (int k = 0; k < 6; ++k) acc[k] = (vp[k] - vm[k]) / (2 * h);
    // force = m (a - g)
    const double mass = m.body_mass[tool];
    double force[3];
    math::sub3(force, acc + 3, m.opt.gravity);
    math::scale3(force, force, mass);
    // torque about the centre of mass = I alpha + w x I w, with I in the global frame
    const double* R = d.ximat + 9 * tool;
    const double* diag = m.body_inertia + 3 * tool;
    auto inertia_times = [&](const double* w, double* out) {
      double local[3];
      math::mat_t_vec3(local, R, w);
      for (int k = 0; k < 3; ++k) local[k] *= diag[k];
      math::mat_vec3(out, R, local);
    };
    double Ia[3], Iw[3], wIw[3], torque[3], arm[3], arm_force[3];
    inertia_times(acc, Ia);
    inertia_times(v0, Iw);
    math::cross3(wIw, v0, Iw);
    math::add3(torque, Ia, wIw);
    // ... moved to the site
    math::sub3(arm, d.xipos + 3 * tool, d.site_xpos + 3 * site);
    math::cross3(arm_force, arm, force);
    math::add3(torque, torque, arm_force);
    double expected_force[3], expected_torque[3];
    math::mat_t_vec3(expected_force, d.site_xmat + 9 * site, force);
    math::mat_t_vec3(expected_torque, d.site_xmat + 9 * site, torque);
    expect_close(d.sensordata, expected_force, 3, 1e-6, "force seed " + std::to_string(seed));
    expect_close(d.sensordata + 3, expected_torque, 3, 1e-6, "torque seed " + std::to_string(seed));
    if (seed == 1) {
      double up[3];
      math::mat_t_vec3(up, d.site_xmat + 9 * site, m.opt.gravity);
      for (int k = 0; k < 3; ++k) EXPECT_NEAR(d.sensordata[k], -mass * up[k], 1e-9);
    }
  }
}

// Touch sums the normal forces of contacts whose normal ray, from the contact point away from the
// site's body, meets the site; contacts made by hand.
TEST(SensorTouch, ContactsInsideAndThroughTheZone) {
  Model m = compile_mjcf(R"(
    <mujoco>
      <worldbody>
        <body name="hand" pos="0 0 1">
          <freejoint/>
          <geom name="palm" type="box" size="0.2 0.2 0.05"/>
          <site name="zone" type="sphere" pos="0 0 0.05" size="0.1"/>
        </body>
        <body name="ball" pos="0 0 1.2">
          <freejoint/>
          <geom name="ball" type="sphere" size="0.1"/>
        </body>
        <body name="other" pos="1 0 1">
          <freejoint/>
          <geom name="other" type="sphere" size="0.1"/>
        </body>
      </worldbody>
      <sensor><touch site="zone"/></sensor>
    </mujoco>)",
                         "touch.xml", ".");
  Data d(m);
  smooth_state(m, d);
  const int palm = m.name_to_id(kObjGeom, "palm"), ball = m.name_to_id(kObjGeom, "ball");
  const int other = m.name_to_id(kObjGeom, "other");
  // contact c: geoms, point, normal (first row of the frame), normal force in efc row c
  auto set_contact = [&](int c, int g1, int g2, const double* pos, const double* normal,
                         double force) {
    Contact& con = d.contact[c];
    con = Contact{};
    con.geom1 = g1;
    con.geom2 = g2;
    math::copy3(con.pos, pos);
    math::copy3(con.frame, normal);
    con.dim = 1;
    con.efc_address = c;
    d.efc_force[c] = force;
  };
  const double up[3] = {0, 0, 1}, down[3] = {0, 0, -1};
  const double inside[3] = {0.05, 0, 1.06}, below[3] = {0.05, 0, 0.9}, beside[3] = {0.3, 0, 1.05};
  struct Case {
    int g1, g2;
    const double* pos;
    const double* normal;
    double force;
    double expected;
  };
  const Case cases[] = {
      {palm, ball, inside, up, 2, 2},    // inside the zone
      {ball, palm, inside, down, 2, 2},  // same, geoms the other way round
      {palm, ball, below, up, 3, 3},     // below the zone, the ray goes up through it
      {ball, palm, below, down, 3, 3},   // same: the ray leaves the palm's side
      {palm, ball, below, down, 3, 0},   // the ray points down, away from the zone
      {palm, ball, beside, up, 3, 0},    // the ray passes beside the zone
      {ball, other, inside, up, 5, 0},   // not the zone's body
      {palm, ball, inside, up, -1, 0},   // no pushing force
  };
  double total = 0;
  for (const Case& c : cases) {
    d.ncon = 1;
    d.nefc = 1;
    set_contact(0, c.g1, c.g2, c.pos, c.normal, c.force);
    sensor_acc(m, d);
    EXPECT_DOUBLE_EQ(d.sensordata[0], c.expected) << "force " << c.force;
    total += c.expected;
  }
  // all at once: the sum
  d.ncon = d.nefc = 0;
  for (const Case& c : cases) {
    set_contact(d.ncon, c.g1, c.g2, c.pos, c.normal, c.force);
    ++d.ncon;
    ++d.nefc;
  }
  sensor_acc(m, d);
  EXPECT_DOUBLE_EQ(d.sensordata[0], total);
  // a pyramidal contact's normal force is the sum of its edge forces
  d.ncon = 1;
  d.nefc = 4;
  set_contact(0, palm, ball, inside, up, 0);
  d.contact[0].dim = 3;
  d.contact[0].friction[0] = d.contact[0].friction[1] = 0.5;
  const double edges[4] = {0.5, 1.5, 0.25, 0.75};
  std::copy(edges, edges + 4, d.efc_force);
  m.opt.cone = kConePyramidal;
  sensor_acc(m, d);
  EXPECT_DOUBLE_EQ(d.sensordata[0], 3.0);
}

// Noise has the documented statistics; positive data stays non-negative, axes and quaternions
// stay unit length; cutoffs clamp.
TEST(SensorNoise, StatisticsAndConstraints) {
  Model m = compile_mjcf_file(test::testdata("sensor/noise.xml"));
  Data d(m);
  random_state(m, d, 3);
  smooth_state(m, d);
  sensor_pos(m, d);
  m.opt.enableflags &= ~kEnableSensornoise;
  Data clean = d;
  sensor_pos(m, clean);
  m.opt.enableflags |= kEnableSensornoise;
  const int jointpos = 0;  // the first sensor: jointpos with noise 0.1
  ASSERT_EQ(m.sensor_type[jointpos], kSensJointPos);
  const double sigma = m.sensor_noise[jointpos];
  const int n = 20000;
  double sum = 0, sum2 = 0;
  for (int k = 0; k < n; ++k) {
    sensor_pos(m, d);
    const double e =
        d.sensordata[m.sensor_adr[jointpos]] - clean.sensordata[m.sensor_adr[jointpos]];
    sum += e;
    sum2 += e * e;
    for (int i = 0; i < m.nsensor; ++i) {
      if (m.sensor_needstage[i] != kStagePos || m.sensor_type[i] == kSensUser) continue;
      const double* v = d.sensordata + m.sensor_adr[i];
      const double* c = clean.sensordata + m.sensor_adr[i];
      switch (m.sensor_datatype[i]) {
        case kDataPositive:
          if (c[0] > 0) {
            ASSERT_GE(v[0], 0);
          } else {
            ASSERT_EQ(v[0], c[0]);  // zero or -1: no noise
          }
          break;
        case kDataAxis: ASSERT_NEAR(math::norm3(v), 1, 1e-12); break;
        case kDataQuaternion:
          ASSERT_NEAR(std::sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2] + v[3] * v[3]), 1, 1e-12);
          break;
        default:
          if (m.sensor_cutoff[i] > 0) {
            for (int j = 0; j < m.sensor_dim[i]; ++j) {
              ASSERT_LE(std::abs(v[j]), m.sensor_cutoff[i]);
            }
          }
      }
    }
  }
  const double mean = sum / n, sd = std::sqrt(sum2 / n - mean * mean);
  EXPECT_NEAR(mean, 0, 4 * sigma / std::sqrt(n));
  EXPECT_NEAR(sd, sigma, 4 * sigma / std::sqrt(2.0 * n));
}

TEST(SensorCutoff, ClampsRealAndPositiveData) {
  Model m = compile_mjcf(R"(
    <mujoco>
      <worldbody>
        <body>
          <joint name="j" type="slide"/>
          <geom size="0.1"/>
          <site name="up"/>
          <site name="down" euler="180 0 0"/>
        </body>
        <geom type="plane" size="0 0 1" pos="0 0 -1"/>
      </worldbody>
      <sensor>
        <jointpos joint="j" cutoff="0.3"/>
        <jointpos joint="j"/>
        <framepos objtype="site" objname="up" cutoff="0.25"/>
        <rangefinder site="up" cutoff="0.2"/>
        <rangefinder site="down" cutoff="0.2"/>
        <rangefinder site="down"/>
      </sensor>
    </mujoco>)",
                         "cutoff.xml", ".");
  Data d(m);
  for (const double q : {-0.7, -0.1, 0.2, 0.9}) {
    d.qpos[0] = q;
    smooth_state(m, d);
    sensor_pos(m, d);
    EXPECT_DOUBLE_EQ(d.sensordata[0], std::clamp(q, -0.3, 0.3));
    EXPECT_DOUBLE_EQ(d.sensordata[1], q);
    EXPECT_DOUBLE_EQ(d.sensordata[2], 0);
    EXPECT_DOUBLE_EQ(d.sensordata[3], 0);
    EXPECT_DOUBLE_EQ(d.sensordata[4], std::clamp(q, -0.25, 0.25));
    // up: nothing there, -1 stays (positive data is clamped from above only); down: the plane
    EXPECT_EQ(d.sensordata[5], -1);
    EXPECT_DOUBLE_EQ(d.sensordata[7], 1 + q);
    EXPECT_DOUBLE_EQ(d.sensordata[6], std::min(1 + q, 0.2));
  }
}

// forward runs the three stages (and skips them when the sensor flag is off); RK4's intermediate
// evaluations do not, so that the sensors describe the step's start.
TEST(SensorPipeline, ForwardRunsTheStages) {
  Model m = compile_mjcf_file(test::testdata("sensor/all_sensors.xml"));
  Data d(m);
  random_state(m, d, 9);
  forward(m, d);
  Data direct = d;
  std::fill(direct.sensordata, direct.sensordata + m.nsensordata, 0.0);
  sensor_pos(m, direct);
  sensor_vel(m, direct);
  sensor_acc(m, direct);
  for (int i = 0; i < m.nsensordata; ++i) EXPECT_EQ(d.sensordata[i], direct.sensordata[i]) << i;

  m.opt.disableflags |= kDisableSensor;
  const double nan = std::numeric_limits<double>::quiet_NaN();
  std::fill(d.sensordata, d.sensordata + m.nsensordata, nan);
  forward(m, d);
  for (int i = 0; i < m.nsensordata; ++i) EXPECT_TRUE(std::isnan(d.sensordata[i])) << i;
}

// The sensor stages leave the energies (computed between them) as they are.
TEST(SensorPipeline, EnergyIsUndisturbed) {
  Model m = compile_mjcf_file(test::testdata("sensor/all_sensors.xml"));
  m.opt.enableflags |= kEnableEnergy;
  Data with(m), without(m);
  random_state(m, with, 4);
  random_state(m, without, 4);
  forward(m, with);
  m.opt.disableflags |= kDisableSensor;
  forward(m, without);
  EXPECT_NE(with.energy[0], 0);
  EXPECT_NE(with.energy[1], 0);
  EXPECT_EQ(with.energy[0], without.energy[0]);
  EXPECT_EQ(with.energy[1], without.energy[1]);
}

TEST(SensorPipeline, RungeKuttaKeepsTheStepStartReadings) {
  Model m = compile_mjcf(
      "<mujoco><option integrator='RK4' timestep='0.1'/><worldbody><body><freejoint/>"
      "<geom size='0.1'/></body></worldbody><sensor><clock/></sensor></mujoco>",
      "rk4.xml", ".");
  Data d(m);
  d.time = 1;
  step(m, d);
  EXPECT_DOUBLE_EQ(d.time, 1.1);
  EXPECT_DOUBLE_EQ(d.sensordata[0], 1.0);
}

// The stages use the Data's stack only.
TEST(SensorPipeline, DoesNotAllocate) {
  for (const char* path :
       {"sensor/all_sensors.xml", "sensor/rangefinders.xml", "sensor/noise.xml", "sensor/touch.xml",
        "sensor/quadruped_hfield.xml", "sensor/quadruped_mesh.xml"}) {
    Model m = compile_mjcf_file(test::testdata(path));
    Data d(m);
    random_state(m, d, 2);
    smooth_state(m, d);
    const test::AllocationCounter counter;
    for (int k = 0; k < 3; ++k) {
      sensor_pos(m, d);
      sensor_vel(m, d);
      sensor_acc(m, d);
    }
    EXPECT_EQ(counter.count(), 0) << path;
    EXPECT_EQ(d.pstack, 0) << path;
  }
}

}  // namespace
}  // namespace joco
