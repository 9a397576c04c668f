// Test support for the tendon, transmission, actuation, passive and derivative stages (unit tests,
// no MuJoCo): a model compiled by joco from testdata, seeded random states, and the stages that
// lead to each one's inputs.
#pragma once

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "joco/actuation.h"
#include "joco/mjcf.h"
#include "joco/passive.h"
#include "joco/smooth.h"
#include "joco/tendon.h"
#include "support/test_support.h"

namespace joco::test {

inline Model compile_testdata(const std::string& relative) {
  return compile_mjcf_file(testdata(relative));
}

// A random configuration near qpos0 (qpos0 moved along a random velocity for one second, so
// quaternions stay unit), random velocities, controls inside their ranges and activations.
inline void random_state(const Model& m, Data& d, uint64_t seed, double spread = 0.8) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(-1, 1);
  std::vector<double> v(static_cast<size_t>(m.nv));
  for (double& x : v) x = spread * u(rng);
  for (int i = 0; i < m.nq; ++i) d.qpos[i] = m.qpos0[i];
  integrate_pos(m, d.qpos, v.data(), 1);
  for (int i = 0; i < m.nv; ++i) d.qvel[i] = u(rng);
  for (int i = 0; i < m.nu; ++i) {
    const double lo = m.actuator_ctrlrange[2 * i], hi = m.actuator_ctrlrange[2 * i + 1];
    d.ctrl[i] = hi > lo ? lo + (hi - lo) * (0.5 + 0.45 * u(rng)) : u(rng);
  }
  for (int i = 0; i < m.na; ++i) d.act[i] = 0.5 + 0.45 * u(rng);
}

// The position stages up to the actuator moment arms.
inline void position_stages(const Model& m, Data& d) {
  kinematics(m, d);
  com_pos(m, d);
  tendon(m, d);
  transmission(m, d);
}

// The velocity stages up to the smooth forces: qfrc_passive, qfrc_actuator, qfrc_bias.
inline void velocity_stages(const Model& m, Data& d) {
  com_vel(m, d);
  tendon_velocity(m, d);
  actuator_velocity(m, d);
  passive(m, d);
  actuation(m, d);
  rne(m, d, false, d.qfrc_bias);
}

}  // namespace joco::test
