// Actuation: forces against the gain/bias formulas evaluated independently, the muscle curves at
// their defining points, the disable flags, and no heap use.
#include "joco/actuation.h"

#include <gtest/gtest.h>

#include <cmath>

#include "joco/muscle.h"
#include "support/stage_test_support.h"

namespace joco {
namespace {

TEST(Actuation, AffineGainAndBias) {
  const Model m = test::compile_testdata("actuation/actuators.xml");
  Data d(m);
  test::random_state(m, d, 5);
  test::position_stages(m, d);
  com_vel(m, d);
  actuator_velocity(m, d);
  actuation(m, d);
  const int u = m.name_to_id(kObjActuator, "filter_affine");
  const double* g = m.actuator_gainprm + kNGAIN * u;
  const double* b = m.actuator_biasprm + kNBIAS * u;
  const double L = d.actuator_length[u], V = d.actuator_velocity[u];
  const double act = d.act[u - (m.nu - m.na)];
  EXPECT_NEAR(d.actuator_force[u], (g[0] + g[1] * L + g[2] * V) * act + b[0] + b[1] * L + b[2] * V,
              1e-12);
  // Filter dynamics: (ctrl - act) / tau.
  EXPECT_NEAR(d.act_dot[u - (m.nu - m.na)], (d.ctrl[u] - act) / m.actuator_dynprm[kNDYN * u],
              1e-12);
  // qfrc_actuator = moment' force.
  for (int i = 0; i < m.nv; ++i) {
    double f = 0;
    for (int k = 0; k < m.nu; ++k) f += d.actuator_moment[k * m.nv + i] * d.actuator_force[k];
    EXPECT_NEAR(d.qfrc_actuator[i], f, 1e-10 * (1 + std::fabs(f)));
  }
}

TEST(Actuation, ControlAndForceLimits) {
  const Model m = test::compile_testdata("actuation/actuators.xml");
  Data d(m);
  test::random_state(m, d, 6);
  test::position_stages(m, d);
  com_vel(m, d);
  actuator_velocity(m, d);
  const int motor = m.name_to_id(kObjActuator, "motor");  // ctrlrange -1 1, gain 1
  d.ctrl[motor] = 5;
  actuation(m, d);
  EXPECT_EQ(d.actuator_force[motor], 1);
  EXPECT_EQ(d.ctrl[motor], 5);  // left as given
  Model unclamped = m;
  unclamped.opt.disableflags |= kDisableClampctrl;
  actuation(unclamped, d);
  EXPECT_EQ(d.actuator_force[motor], 5);
  const int position = m.name_to_id(kObjActuator, "position");  // forcerange -4 3
  d.ctrl[position] = 100;
  actuation(m, d);
  EXPECT_EQ(d.actuator_force[position], 3);
  Model disabled = m;
  disabled.opt.disableflags |= kDisableActuation;
  actuation(disabled, d);
  for (int u = 0; u < m.nu; ++u) EXPECT_EQ(d.actuator_force[u], 0);
  for (int i = 0; i < m.nv; ++i) EXPECT_EQ(d.qfrc_actuator[i], 0);
}

TEST(Muscle, CurvesAtTheirDefiningPoints) {
  const double lmin = 0.5, lmax = 1.6, fvmax = 1.2, fpmax = 1.3;
  EXPECT_EQ(muscle_force_length(1, lmin, lmax), 1);
  EXPECT_EQ(muscle_force_length(lmax, lmin, lmax), 0);
  EXPECT_DOUBLE_EQ(muscle_force_length(0.5 * (lmin + 1), lmin, lmax), 0.5);
  EXPECT_DOUBLE_EQ(muscle_force_length(0.5 * (1 + lmax), lmin, lmax), 0.5);
  EXPECT_EQ(muscle_force_velocity(0, fvmax), 1);
  EXPECT_EQ(muscle_force_velocity(-1, fvmax), 0);
  EXPECT_EQ(muscle_force_velocity(10, fvmax), fvmax);
  EXPECT_EQ(muscle_passive_force(1, lmax, fpmax), 0);
  EXPECT_DOUBLE_EQ(muscle_passive_force(0.5 * (1 + lmax), lmax, fpmax), 0.5 * fpmax);
  // Continuity of every piece at its ends.
  for (double L : {0.75, 1.0, 1.3}) {
    EXPECT_NEAR(muscle_force_length(L - 1e-9, lmin, lmax),
                muscle_force_length(L + 1e-9, lmin, lmax), 1e-8);
    EXPECT_NEAR(muscle_passive_force(L - 1e-9, lmax, fpmax),
                muscle_passive_force(L + 1e-9, lmax, fpmax), 1e-8);
  }
  for (double V : {-1.0, 0.0, fvmax - 1}) {
    EXPECT_NEAR(muscle_force_velocity(V - 1e-9, fvmax), muscle_force_velocity(V + 1e-9, fvmax),
                1e-8);
  }
  // At rest and optimal length, a fully active muscle pulls with its peak force.
  const double prm[9] = {0.75, 1.05, 50, 200, lmin, lmax, 1.5, fpmax, fvmax};
  const double lengthrange[2] = {0.4, 0.7};
  const double L0 = (0.7 - 0.4) / (1.05 - 0.75);
  const double optimal = 0.4 + (1 - 0.75) * L0;
  EXPECT_NEAR(muscle_gain(optimal, 0, lengthrange, 1, prm), -50, 1e-12);
  // Activation dynamics: faster rise than fall.
  const double tau[2] = {0.01, 0.04};
  EXPECT_NEAR(muscle_dynamics(1, 0, tau), 1 / (0.01 * 0.5), 1e-9);
  EXPECT_NEAR(muscle_dynamics(0, 1, tau), -1 / (0.04 / 2), 1e-9);
}

TEST(Actuation, NoHeapAllocation) {
  const Model m = test::compile_testdata("actuation/actuators.xml");
  Data d(m);
  test::random_state(m, d, 1);
  test::position_stages(m, d);
  com_vel(m, d);
  actuator_velocity(m, d);
  test::AllocationCounter counter;
  actuation(m, d);
  EXPECT_EQ(counter.count(), 0);
}

}  // namespace
}  // namespace joco
