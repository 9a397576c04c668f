// camlight against MuJoCo 2.2.2's mj_camlight: cameras and lights in every mode.
#include <gtest/gtest.h>

#include "joco/smooth.h"
#include "oracle/random_state.h"

namespace joco {
namespace {

class CamlightOracle : public ::testing::TestWithParam<const char*> {};

TEST_P(CamlightOracle, MatchesMuJoCo) {
  oracle::StageCheck check;
  check.fields = {"cam_xpos", "cam_xmat", "light_xpos", "light_xdir"};
  check.mujoco = mj_camlight;
  check.joco = camlight;
  check.seeds = 6;
  oracle::check_stage(GetParam(), check);
}

// cameras_lights has every mode for both; humanoid and anymal_c target lights at subtree coms.
INSTANTIATE_TEST_SUITE_P(Models, CamlightOracle,
                         ::testing::Values("smooth/cameras_lights.xml",
                                           "mujoco/model/humanoid/humanoid.xml",
                                           "mujoco/model/humanoid100/humanoid100.xml",
                                           "real/anybotics_anymal_c/scene.xml"));

}  // namespace
}  // namespace joco
