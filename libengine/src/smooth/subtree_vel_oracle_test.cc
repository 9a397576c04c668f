// subtree_vel against MuJoCo 2.2.2's mj_subtreeVel.
#include <gtest/gtest.h>

#include "joco/smooth.h"
#include "oracle/random_state.h"
#include "support/test_models.h"

namespace joco {
namespace {

class SubtreeVelOracle : public ::testing::TestWithParam<std::string> {};

TEST_P(SubtreeVelOracle, MatchesMuJoCo) {
  oracle::StageCheck check;
  check.fields = {"subtree_linvel", "subtree_angmom"};
  check.mujoco = mj_subtreeVel;
  check.joco = subtree_vel;
  oracle::check_stage(GetParam(), check);
}

// The stage's own models and the small quick ones; every other model in the long sweep.
JOCO_INSTANTIATE_STAGE_SWEEP(SubtreeVelOracle, "smooth/");

}  // namespace
}  // namespace joco
