// Constrained rollouts end to end against MuJoCo 2.2.2 (joco's compiler, collision, constraint
// rows and solver): the humanoid falling onto the floor, and arm26 against its joint limits.
#include <gtest/gtest.h>

#include <cmath>
#include <iostream>

#include "joco/forward.h"
#include "oracle/control_noise.h"
#include "oracle/random_state.h"

namespace joco {
namespace {

// The humanoid dropped from its initial pose: 2 s onto the floor and lying there, with no NaN and
// no warning, and the same number of contacts as MuJoCo at each of the first 200 steps.
TEST(RolloutOracle, HumanoidFallsOntoTheFloor) {
  oracle::OracleCase c;
  ASSERT_TRUE(oracle::load_compiled_case("mujoco/model/humanoid/humanoid.xml", c));
  auto& [path, mj, md, m, d] = c;
  const int steps = static_cast<int>(std::round(2.0 / m.opt.timestep));
  int first_contact = -1;
  for (int t = 0; t < steps; ++t) {
    mj_step(mj.get(), md.get());
    step(m, d);
    if (t < 200) {
      ASSERT_EQ(d.ncon, md->ncon) << "contact count differs at step " << t;
      oracle::count_compared();
    }
    if (first_contact < 0 && d.ncon > 0) first_contact = t;
    for (int i = 0; i < m.nq; ++i) ASSERT_TRUE(std::isfinite(d.qpos[i])) << "step " << t;
  }
  for (int w = 0; w < kNWarning; ++w) EXPECT_EQ(d.warning[w].number, 0) << "warning " << w;
  EXPECT_GE(first_contact, 0);
  // Lying on the floor: the torso is above the floor, nothing has sunk through it, and it has come
  // (nearly) to rest.
  const int torso = m.name_to_id(kObjBody, "torso");
  EXPECT_GT(d.xpos[3 * torso + 2], 0.05);
  for (int b = 1; b < m.nbody; ++b) EXPECT_GT(d.xipos[3 * b + 2], -0.05) << m.name(kObjBody, b);
  double speed = 0;
  for (int i = 0; i < m.nv; ++i) speed = std::max(speed, std::abs(d.qvel[i]));
  std::cout << "humanoid after 2 s: torso height " << d.xpos[3 * torso + 2] << " (MuJoCo "
            << md->xpos[3 * torso + 2] << "), contacts " << d.ncon << " (MuJoCo " << md->ncon
            << "), largest |qvel| " << speed << ", first contact at step " << first_contact << "\n";
}

// arm26 with its joint limits, driven by the same controls: within 1e-6 of MuJoCo's trajectory
// over 1000 steps.
TEST(RolloutOracle, Arm26WithJointLimitsFollowsMuJoCo) {
  oracle::OracleCase c;
  ASSERT_TRUE(oracle::load_compiled_case("mujoco/model/tendon_arm/arm26.xml", c));
  auto& [path, mj, md, m, d] = c;
  double worst = 0;
  int limit_steps = 0;
  for (int t = 0; t < 1000; ++t) {
    for (int j = 0; j < m.nu; ++j) d.ctrl[j] = md->ctrl[j] = oracle::halton(t, j + 2);
    mj_step(mj.get(), md.get());
    step(m, d);
    limit_steps += d.nefc > 0;
    oracle::count_compared(m.nq + m.na);
    for (int i = 0; i < m.nq; ++i) worst = std::max(worst, std::abs(d.qpos[i] - md->qpos[i]));
    for (int i = 0; i < m.na; ++i) worst = std::max(worst, std::abs(d.act[i] - md->act[i]));
  }
  std::cout << "arm26: worst |qpos, act| difference " << worst << " over 1000 steps, "
            << limit_steps << " steps with limit rows\n";
  EXPECT_GT(limit_steps, 0);
  EXPECT_LT(worst, 1e-6);
}

}  // namespace
}  // namespace joco
