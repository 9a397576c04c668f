// subtree_vel against MuJoCo 2.2.2's mj_subtreeVel.
#include <gtest/gtest.h>

#include "joco/smooth.h"
#include "oracle/random_state.h"

namespace joco {
namespace {

class SubtreeVelOracle : public ::testing::TestWithParam<const char*> {};

TEST_P(SubtreeVelOracle, MatchesMuJoCo) {
  oracle::StageCheck check;
  check.fields = {"subtree_linvel", "subtree_angmom"};
  check.mujoco = mj_subtreeVel;
  check.joco = subtree_vel;
  oracle::check_stage(GetParam(), check);
}

INSTANTIATE_TEST_SUITE_P(Models, SubtreeVelOracle,
                         ::testing::Values("smooth/joint_zoo.xml",
                                           "mujoco-tests/test__user__testdata__capsule_inertia.xml",
                                           "mujoco/model/humanoid/humanoid.xml",
                                           "mujoco/model/humanoid100/humanoid100.xml",
                                           "real/franka_sim/franka_panda.xml"));

}  // namespace
}  // namespace joco
