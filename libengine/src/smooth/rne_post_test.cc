// rne_post_constraint: with the forward-dynamics accelerations, the force each body receives
// through its joints, projected on a dof, is that dof's own generalised force.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "joco/jacobian.h"
#include "joco/smooth.h"
#include "math/spatial.h"
#include "support/random_tree.h"

namespace joco {
namespace {

using namespace math;

class RnePost : public ::testing::TestWithParam<int> {};

TEST_P(RnePost, JointForcesBalanceTheDynamics) {
  const Model m = test::random_tree_model(GetParam());
  Data d(m);
  test::random_tree_state(m, d, GetParam());
  test::smooth_position_velocity(m, d);
  const int nv = m.nv;
  // qacc = inv(M) (qfrc_applied + J' xfrc_applied - c).
  std::vector<double> force(nv), jacp(3 * nv), jacr(3 * nv);
  rne(m, d, false, force.data());
  for (int i = 0; i < nv; ++i) force[i] = d.qfrc_applied[i] - force[i];
  for (int b = 1; b < m.nbody; ++b) {
    jac_body_com(m, d, jacp.data(), jacr.data(), b);
    for (int i = 0; i < nv; ++i) {
      for (int k = 0; k < 3; ++k) {
        force[i] += jacp[k * nv + i] * d.xfrc_applied[6 * b + k] +
                    jacr[k * nv + i] * d.xfrc_applied[6 * b + 3 + k];
      }
    }
  }
  solve_m(m, d, d.qacc, force.data(), 1);
  rne_post_constraint(m, d);
  for (int i = 0; i < nv; ++i) {
    const double transmitted = dot6(d.cdof + 6 * i, d.cfrc_int + 6 * m.dof_bodyid[i]);
    EXPECT_NEAR(transmitted, d.qfrc_applied[i] - m.dof_armature[i] * d.qacc[i], 1e-11) << i;
  }
  // The world holds up everything the free and mocap-held trees do not: its force is the sum of
  // its children's.
  double sum[6] = {0, 0, 0, 0, 0, 0};
  for (int b = 1; b < m.nbody; ++b) {
    if (m.body_parentid[b] == 0) add_scaled_to6(sum, d.cfrc_int + 6 * b, 1);
  }
  for (int k = 0; k < 6; ++k) EXPECT_NEAR(d.cfrc_int[k], sum[k], 1e-12);
}

// cfrc_ext is xfrc_applied moved from the body's com to the tree's com.
TEST(RnePostExternal, AppliedForcesMoveToTheTreeCom) {
  const Model m = test::random_tree_model(9);
  Data d(m);
  test::random_tree_state(m, d, 9);
  test::smooth_position_velocity(m, d);
  rne_post_constraint(m, d);
  for (int b = 1; b < m.nbody; ++b) {
    const double* f = d.xfrc_applied + 6 * b;
    const double* ext = d.cfrc_ext + 6 * b;
    double arm[3], moment[3];
    sub3(arm, d.xipos + 3 * b, d.subtree_com + 3 * m.body_rootid[b]);
    cross3(moment, arm, f);
    for (int k = 0; k < 3; ++k) {
      EXPECT_NEAR(ext[k], f[3 + k] + moment[k], 1e-14);
      EXPECT_EQ(ext[3 + k], f[k]);
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Seeds, RnePost, ::testing::Range(0, 6));

}  // namespace
}  // namespace joco
