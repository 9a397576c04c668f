// factor_m against MuJoCo 2.2.2's mj_factorM, including singular inertia (auto_limits has chains
// of massless bodies, whose pivots MuJoCo raises to mjMINVAL with a warning).
#include <gtest/gtest.h>

#include "joco/smooth.h"
#include "oracle/random_state.h"
#include "support/test_models.h"

namespace joco {
namespace {

class FactorMOracle : public ::testing::TestWithParam<std::string> {};

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

// The stage's own models and the small quick ones; every other model in the long sweep.
JOCO_INSTANTIATE_STAGE_SWEEP(FactorMOracle, "smooth/");

}  // namespace
}  // namespace joco
