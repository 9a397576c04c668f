// com_pos against MuJoCo 2.2.2's mj_comPos, on MuJoCo's kinematics.
#include <gtest/gtest.h>

#include "joco/smooth.h"
#include "oracle/random_state.h"
#include "support/test_models.h"

namespace joco {
namespace {

class ComPosOracle : public ::testing::TestWithParam<std::string> {};

TEST_P(ComPosOracle, MatchesMuJoCo) {
  oracle::StageCheck check;
  check.fields = {"subtree_com", "cinert", "cdof"};
  check.mujoco = mj_comPos;
  check.joco = com_pos;
  oracle::check_stage(GetParam(), check);
}

// The stage's models (every joint type, several joints per body, many trees) and the models with
// bodies but no dofs (massless bodies and subtrees); every other model in the long sweep.
bool bodies_without_dofs(const test::ModelFeatures& f) { return f.nv == 0 && f.nbody > 1; }
uint64_t one_kind(const test::ModelFeatures&) { return 1; }

INSTANTIATE_TEST_SUITE_P(Models, ComPosOracle,
                         ::testing::ValuesIn(test::join(test::stage_models("smooth/"),
                                                        test::sweep_models(bodies_without_dofs,
                                                                           one_kind))),
                         test::param_name);
INSTANTIATE_TEST_SUITE_P(LongSweep, ComPosOracle,
                         ::testing::ValuesIn(test::long_stage_models(
                             "smooth/",
                             [](const test::ModelFeatures& f) { return f.mujoco_loads(); })),
                         test::param_name);

}  // namespace
}  // namespace joco
