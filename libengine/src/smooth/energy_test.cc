// Energies: kinetic against a sum over bodies, springs against their analytic values, and the
// energy flag.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "joco/jacobian.h"
#include "joco/smooth.h"
#include "math/vec.h"
#include "support/random_tree.h"

namespace joco {
namespace {

using namespace math;

TEST(Energy, KineticIsTheSumOverBodies) {
  for (uint64_t seed = 0; seed < 6; ++seed) {
    Model m = test::random_tree_model(seed);
    m.opt.enableflags |= kEnableEnergy;
    Data d(m);
    test::random_tree_state(m, d, seed);
    test::smooth_position_velocity(m, d);
    energy_vel(m, d);
    const int nv = m.nv;
    std::vector<double> jacp(3 * nv), jacr(3 * nv);
    double expected = 0;
    for (int b = 1; b < m.nbody; ++b) {
      jac_body_com(m, d, jacp.data(), jacr.data(), b);
      double v[3] = {0, 0, 0}, w[3] = {0, 0, 0};
      for (int k = 0; k < 3; ++k) {
        for (int i = 0; i < nv; ++i) {
          v[k] += jacp[k * nv + i] * d.qvel[i];
          w[k] += jacr[k * nv + i] * d.qvel[i];
        }
      }
      double local[3];
      mat_t_vec3(local, d.ximat + 9 * b, w);
      expected += 0.5 * m.body_mass[b] * dot3(v, v);
      for (int k = 0; k < 3; ++k) expected += 0.5 * m.body_inertia[3 * b + k] * local[k] * local[k];
    }
    // Armature adds 0.5 a v^2 per dof.
    for (int i = 0; i < nv; ++i) expected += 0.5 * m.dof_armature[i] * d.qvel[i] * d.qvel[i];
    EXPECT_NEAR(d.energy[1], expected, 1e-13 * expected) << seed;
  }
}

// At the spring positions springs hold no energy; a ball rotated by a from its spring orientation,
// a free joint moved by x and rotated by a, and a hinge or slide moved by x hold k a^2 / 2 and
// k (x^2 + a^2) / 2 and k x^2 / 2.
TEST(Energy, SpringsAreQuadraticInTheirDisplacement) {
  Model m = test::random_tree_model(4);
  m.opt.enableflags |= kEnableEnergy;
  m.opt.disableflags |= kDisableGravity;
  Data d(m);
  std::copy(m.qpos_spring, m.qpos_spring + m.nq, d.qpos);
  energy_pos(m, d);
  EXPECT_NEAR(d.energy[0], 0, 1e-28);
  double expected = 0;
  const double axis[3] = {0.6, 0, 0.8};
  for (int j = 0; j < m.njnt; ++j) {
    double* q = d.qpos + m.jnt_qposadr[j];
    const double k = m.jnt_stiffness[j];
    const double x = 0.1 * (j + 1), a = 0.05 * (j + 2);
    switch (m.jnt_type[j]) {
      case kJointFree:
        q[1] += x;
        q += 3;
        expected += 0.5 * k * x * x;
        [[fallthrough]];
      case kJointBall: {
        double rot[4];
        axis_angle_to_quat(rot, axis, a);
        quat_mul(q, q, rot);
        expected += 0.5 * k * a * a;
        break;
      }
      default: q[0] += x; expected += 0.5 * k * x * x;
    }
  }
  ASSERT_GT(expected, 0);
  energy_pos(m, d);
  EXPECT_NEAR(d.energy[0], expected, 1e-14);
  // Springs are passive forces: disabling those removes them.
  m.opt.disableflags |= kDisablePassive;
  energy_pos(m, d);
  EXPECT_EQ(d.energy[0], 0);
}

TEST(Energy, OnlyComputedWhenEnabled) {
  const Model m = test::random_tree_model(1);
  Data d(m);
  test::random_tree_state(m, d, 1);
  test::smooth_position_velocity(m, d);
  d.energy[0] = d.energy[1] = 3;
  energy_vel(m, d);
  EXPECT_EQ(d.energy[1], 3);  // untouched, as in MuJoCo
  energy_pos(m, d);
  EXPECT_EQ(d.energy[0], 0);
  EXPECT_EQ(d.energy[1], 0);
}

}  // namespace
}  // namespace joco
