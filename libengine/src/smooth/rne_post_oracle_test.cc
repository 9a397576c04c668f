// rne_post_constraint against MuJoCo 2.2.2's mj_rnePostConstraint with applied Cartesian forces
// (contacts disabled: contact forces join cfrc_ext with the constraint stages).
#include <gtest/gtest.h>

#include "joco/smooth.h"
#include "oracle/random_state.h"

namespace joco {
namespace {

class RnePostOracle : public ::testing::TestWithParam<const char*> {};

TEST_P(RnePostOracle, MatchesMuJoCo) {
  oracle::StageCheck check;
  check.fields = {"cacc", "cfrc_int", "cfrc_ext"};
  check.mujoco = mj_rnePostConstraint;
  check.joco = rne_post_constraint;
  oracle::check_stage(GetParam(), check);
}

INSTANTIATE_TEST_SUITE_P(Models, RnePostOracle,
                         ::testing::Values("smooth/joint_zoo.xml",
                                           "mujoco/model/humanoid/humanoid.xml",
                                           "real/anybotics_anymal_c/anymal_c.xml"));

}  // namespace
}  // namespace joco
