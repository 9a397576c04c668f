// camlight against MuJoCo 2.2.2's mj_camlight: cameras and lights in every mode.
#include <gtest/gtest.h>

#include "joco/smooth.h"
#include "oracle/random_state.h"
#include "support/test_models.h"

namespace joco {
namespace {

class CamlightOracle : public ::testing::TestWithParam<std::string> {};

TEST_P(CamlightOracle, MatchesMuJoCo) {
  oracle::StageCheck check;
  check.fields = {"cam_xpos", "cam_xmat", "light_xpos", "light_xdir"};
  check.mujoco = mj_camlight;
  check.joco = camlight;
  check.seeds = 6;
  oracle::check_stage(GetParam(), check);
}

// Every model with both cameras and lights (cameras_lights has every mode for both; humanoid
// targets lights at subtree coms).
bool has_cameras_and_lights(const test::ModelFeatures& f) { return f.ncam > 0 && f.nlight > 0; }
uint64_t one_kind(const test::ModelFeatures&) { return 1; }

JOCO_INSTANTIATE_SWEEP(CamlightOracle, has_cameras_and_lights, one_kind, "smooth/");

}  // namespace
}  // namespace joco
