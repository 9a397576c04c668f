// solve_m and solve_m2 against MuJoCo 2.2.2's mj_solveM and mj_solveM2, for several right-hand
// sides at once and in place, on MuJoCo's factorisation.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "joco/smooth.h"
#include "oracle/random_state.h"
#include "support/test_models.h"

namespace joco {
namespace {

class SolveMOracle : public ::testing::TestWithParam<std::string> {};

TEST_P(SolveMOracle, MatchesMuJoCo) {
  oracle::StageCheck check;
  check.mujoco = [](const mjModel*, mjData*) {};
  check.joco = [](const Model&, Data&) {};
  check.extra = [](oracle::OracleCase& c, oracle::Comparison& cmp) {
    const int nv = c.m.nv, n = 3;
    std::vector<double> y(n * nv), x(n * nv), xm(n * nv);
    for (int i = 0; i < n * nv; ++i) y[i] = std::cos(0.3 * i) * (1 + i % 7);
    mj_solveM(c.mj.get(), c.md.get(), xm.data(), y.data(), n);
    solve_m(c.m, c.d, x.data(), y.data(), n);
    cmp.fields.push_back(oracle::compare_arrays("solve_m", x.data(), xm.data(), n * nv));
    x = y;
    solve_m(c.m, c.d, x.data(), x.data(), n);
    cmp.fields.push_back(oracle::compare_arrays("solve_m in place", x.data(), xm.data(), n * nv));
    mj_solveM2(c.mj.get(), c.md.get(), xm.data(), y.data(), n);
    solve_m2(c.m, c.d, x.data(), y.data(), n);
    cmp.fields.push_back(oracle::compare_arrays("solve_m2", x.data(), xm.data(), n * nv));
  };
  oracle::check_stage(GetParam(), check);
}

// The stage's own models and the small quick ones; every other model in the long sweep.
JOCO_INSTANTIATE_STAGE_SWEEP(SolveMOracle, "smooth/");

}  // namespace
}  // namespace joco
