// crb against MuJoCo 2.2.2's mj_crb: composite inertias and the sparse joint-space inertia.
#include <gtest/gtest.h>

#include "joco/smooth.h"
#include "oracle/random_state.h"

namespace joco {
namespace {

class CrbOracle : public ::testing::TestWithParam<const char*> {};

TEST_P(CrbOracle, MatchesMuJoCo) {
  oracle::StageCheck check;
  check.fields = {"crb", "qM"};
  check.mujoco = mj_crb;
  check.joco = crb;
  oracle::check_stage(GetParam(), check);
}

// Armature (joint_zoo, shadow hand), long chains (flag), several free bodies.
INSTANTIATE_TEST_SUITE_P(
    Models, CrbOracle,
    ::testing::Values("smooth/joint_zoo.xml", "mujoco/model/flag/flag.xml",
                      "mujoco-tests/test__engine__testdata__collision_convex__multiple_objects.xml",
                      "real/shadow_hand/scene_left.xml",
                      "mujoco/model/humanoid100/humanoid100.xml"));

}  // namespace
}  // namespace joco
