// integrate_pos and differentiate_pos are inverse to each other; normalize_quat makes unit
// quaternions.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "joco/smooth.h"
#include "support/random_tree.h"

namespace joco {
namespace {

class PositionIntegration : public ::testing::TestWithParam<int> {};

TEST_P(PositionIntegration, DifferentiateInvertsIntegrate) {
  const Model m = test::random_tree_model(GetParam());
  Data d(m);
  test::random_tree_state(m, d, GetParam());
  const double dt = 0.37;
  std::vector<double> q1(d.qpos, d.qpos + m.nq), q2 = q1, v(m.nv);
  integrate_pos(m, q2.data(), d.qvel, dt);
  differentiate_pos(m, v.data(), dt, q1.data(), q2.data());
  for (int i = 0; i < m.nv; ++i) EXPECT_NEAR(v[i], d.qvel[i], 1e-13);
}

TEST_P(PositionIntegration, IntegrateInvertsDifferentiate) {
  const Model m = test::random_tree_model(GetParam());
  Data a(m), b(m);
  test::random_tree_state(m, a, GetParam());
  test::random_tree_state(m, b, GetParam() + 100);
  const double dt = 0.01;
  std::vector<double> v(m.nv), q(a.qpos, a.qpos + m.nq);
  differentiate_pos(m, v.data(), dt, a.qpos, b.qpos);
  integrate_pos(m, q.data(), v.data(), dt);
  for (int j = 0; j < m.njnt; ++j) {
    const int adr = m.jnt_qposadr[j];
    const int type = m.jnt_type[j];
    int k0 = 0;
    if (type == kJointFree) {
      for (int k = 0; k < 3; ++k) EXPECT_NEAR(q[adr + k], b.qpos[adr + k], 1e-13);
      k0 = 3;
    }
    if (type == kJointFree || type == kJointBall) {
      // Equal rotations: q = +-qb.
      double dot = 0;
      for (int k = 0; k < 4; ++k) dot += q[adr + k0 + k] * b.qpos[adr + k0 + k];
      EXPECT_NEAR(std::abs(dot), 1, 1e-13);
    } else {
      EXPECT_NEAR(q[adr], b.qpos[adr], 1e-13);
    }
  }
}

TEST_P(PositionIntegration, NormalizeQuatMakesUnitQuaternions) {
  const Model m = test::random_tree_model(GetParam());
  std::vector<double> q(m.nq);
  for (int i = 0; i < m.nq; ++i) q[i] = 0.3 + std::sin(i);
  const std::vector<double> before = q;
  normalize_quat(m, q.data());
  for (int j = 0; j < m.njnt; ++j) {
    const int type = m.jnt_type[j];
    const int adr = m.jnt_qposadr[j] + (type == kJointFree ? 3 : 0);
    if (type == kJointFree || type == kJointBall) {
      double n = 0;
      for (int k = 0; k < 4; ++k) n += q[adr + k] * q[adr + k];
      EXPECT_NEAR(n, 1, 1e-15);
      EXPECT_NEAR(q[adr] * before[adr + 1], q[adr + 1] * before[adr], 1e-15);  // same direction
    } else {
      EXPECT_EQ(q[adr], before[adr]);
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Seeds, PositionIntegration, ::testing::Range(0, 8));

}  // namespace
}  // namespace joco
