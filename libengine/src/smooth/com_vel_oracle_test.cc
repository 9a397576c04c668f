// com_vel against MuJoCo 2.2.2's mj_comVel: body velocities and dof axis rates.
#include <gtest/gtest.h>

#include "joco/smooth.h"
#include "oracle/random_state.h"
#include "support/test_models.h"

namespace joco {
namespace {

class ComVelOracle : public ::testing::TestWithParam<std::string> {};

TEST_P(ComVelOracle, MatchesMuJoCo) {
  oracle::StageCheck check;
  check.fields = {"cvel", "cdof_dot"};
  check.mujoco = mj_comVel;
  check.joco = com_vel;
  oracle::check_stage(GetParam(), check);
}

// The stage's own models and the small quick ones; every other model in the long sweep.
JOCO_INSTANTIATE_STAGE_SWEEP(ComVelOracle, "smooth/");

}  // namespace
}  // namespace joco
