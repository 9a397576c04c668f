// Body velocities against Jacobians, and dof axis rates against finite differences.
#include <gtest/gtest.h>

#include <vector>

#include "joco/jacobian.h"
#include "joco/smooth.h"
#include "math/spatial.h"
#include "support/random_tree.h"

namespace joco {
namespace {

using namespace math;

class ComVel : public ::testing::TestWithParam<int> {};

// cvel = [angular velocity; velocity of the point at the tree's com moving with the body].
TEST_P(ComVel, VelocitiesAreJacobianTimesQvel) {
  const Model m = test::random_tree_model(GetParam());
  Data d(m);
  test::random_tree_state(m, d, GetParam());
  test::smooth_position_velocity(m, d);
  const int nv = m.nv;
  std::vector<double> jacp(3 * nv), jacr(3 * nv);
  for (int b = 1; b < m.nbody; ++b) {
    jac(m, d, jacp.data(), jacr.data(), d.subtree_com + 3 * m.body_rootid[b], b);
    for (int k = 0; k < 3; ++k) {
      double w = 0, v = 0;
      for (int i = 0; i < nv; ++i) {
        w += jacr[k * nv + i] * d.qvel[i];
        v += jacp[k * nv + i] * d.qvel[i];
      }
      EXPECT_NEAR(d.cvel[6 * b + k], w, 1e-13);
      EXPECT_NEAR(d.cvel[6 * b + 3 + k], v, 1e-13);
    }
  }
}

// For hinge and slide joints cdof_dot is the time derivative of the dof's motion axis, taken
// about a fixed point, as the system moves with qvel.
TEST_P(ComVel, HingeAndSlideRatesAreDerivatives) {
  test::RandomTreeOptions options;
  options.free_joints = false;
  options.ball_joints = false;
  const Model m = test::random_tree_model(GetParam(), options);
  Data d(m);
  test::random_tree_state(m, d, GetParam());
  test::smooth_position_velocity(m, d);
  const double h = 1e-6;
  Data plus = d, minus = d;
  integrate_pos(m, plus.qpos, d.qvel, h);
  integrate_pos(m, minus.qpos, d.qvel, -h);
  kinematics(m, plus);
  kinematics(m, minus);
  for (int j = 0; j < m.njnt; ++j) {
    const int dof = m.jnt_dofadr[j];
    const double* origin = d.subtree_com + 3 * m.body_rootid[m.jnt_bodyid[j]];
    auto axis = [&](const Data& s, double* c) {
      zero6(c);
      if (m.jnt_type[j] == kJointSlide) {
        copy3(c + 3, s.xaxis + 3 * j);
      } else {
        double offset[3];
        sub3(offset, origin, s.xanchor + 3 * j);
        copy3(c, s.xaxis + 3 * j);
        cross3(c + 3, c, offset);
      }
    };
    double cp[6], cm[6];
    axis(plus, cp);
    axis(minus, cm);
    for (int k = 0; k < 6; ++k)
      EXPECT_NEAR(d.cdof_dot[6 * dof + k], (cp[k] - cm[k]) / (2 * h), 1e-8);
  }
}

INSTANTIATE_TEST_SUITE_P(Seeds, ComVel, ::testing::Range(0, 6));

}  // namespace
}  // namespace joco
