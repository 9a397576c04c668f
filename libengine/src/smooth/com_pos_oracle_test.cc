// com_pos against MuJoCo 2.2.2's mj_comPos, on MuJoCo's kinematics.
#include <gtest/gtest.h>

#include "joco/smooth.h"
#include "oracle/random_state.h"

namespace joco {
namespace {

class ComPosOracle : public ::testing::TestWithParam<const char*> {};

TEST_P(ComPosOracle, MatchesMuJoCo) {
  oracle::StageCheck check;
  check.fields = {"subtree_com", "cinert", "cdof"};
  check.mujoco = mj_comPos;
  check.joco = com_pos;
  oracle::check_stage(GetParam(), check);
}

// Every joint type, several joints per body, massless bodies and subtrees (capsule_inertia and
// scene have no dofs), and many trees.
INSTANTIATE_TEST_SUITE_P(Models, ComPosOracle,
                         ::testing::Values("smooth/joint_zoo.xml",
                                           "mujoco-tests/test__user__testdata__capsule_inertia.xml",
                                           "mujoco-tests/test__testdata__model.xml",
                                           "mujoco/model/composite/scene.xml",
                                           "mujoco/model/humanoid100/humanoid100.xml",
                                           "real/shadow_hand/scene_right.xml"));

}  // namespace
}  // namespace joco
