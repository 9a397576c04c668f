// com_vel against MuJoCo 2.2.2's mj_comVel: body velocities and dof axis rates.
#include <gtest/gtest.h>

#include "joco/smooth.h"
#include "oracle/random_state.h"

namespace joco {
namespace {

class ComVelOracle : public ::testing::TestWithParam<const char*> {};

TEST_P(ComVelOracle, MatchesMuJoCo) {
  oracle::StageCheck check;
  check.fields = {"cvel", "cdof_dot"};
  check.mujoco = mj_comVel;
  check.joco = com_vel;
  oracle::check_stage(GetParam(), check);
}

INSTANTIATE_TEST_SUITE_P(Models, ComVelOracle,
                         ::testing::Values("smooth/joint_zoo.xml",
                                           "mujoco-tests/test__engine__testdata__refsite.xml",
                                           "mujoco-tests/test__testdata__model.xml",
                                           "mujoco/model/humanoid/humanoid.xml",
                                           "real/anybotics_anymal_c/anymal_c.xml"));

}  // namespace
}  // namespace joco
