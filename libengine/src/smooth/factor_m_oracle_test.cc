// factor_m against MuJoCo 2.2.2's mj_factorM, including singular inertia (auto_limits has chains
// of massless bodies, whose pivots MuJoCo raises to mjMINVAL with a warning).
#include <gtest/gtest.h>

#include "joco/smooth.h"
#include "oracle/random_state.h"

namespace joco {
namespace {

class FactorMOracle : public ::testing::TestWithParam<const char*> {};

TEST_P(FactorMOracle, MatchesMuJoCo) {
  oracle::StageCheck check;
  check.fields = {"qLD", "qLDiagInv", "qLDiagSqrtInv"};
  check.mujoco = [](const mjModel* m, mjData* d) {
    d->warning[mjWARN_INERTIA].number = 0;
    mj_factorM(m, d);
  };
  check.joco = [](const Model& m, Data& d) {
    d.warning[kWarnInertia].number = 0;
    factor_m(m, d);
  };
  check.extra = [](oracle::OracleCase& c, oracle::Comparison& cmp) {
    const double counts[2] = {double(c.d.warning[kWarnInertia].number),
                              double(c.md->warning[mjWARN_INERTIA].number)};
    cmp.fields.push_back(oracle::compare_arrays("inertia warnings", counts, counts + 1, 1));
  };
  oracle::check_stage(GetParam(), check);
}

INSTANTIATE_TEST_SUITE_P(Models, FactorMOracle,
                         ::testing::Values("smooth/joint_zoo.xml",
                                           "mujoco-tests/test__user__testdata__auto_limits.xml",
                                           "mujoco/model/humanoid/humanoid.xml",
                                           "real/franka_sim/bi-franka_panda.xml",
                                           "mujoco/model/composite/cloth.xml"));

}  // namespace
}  // namespace joco
