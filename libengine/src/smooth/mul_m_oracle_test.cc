// mul_m and full_m against MuJoCo 2.2.2's mj_mulM and mj_fullM.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "joco/smooth.h"
#include "oracle/random_state.h"
#include "support/test_models.h"

namespace joco {
namespace {

class MulMOracle : public ::testing::TestWithParam<std::string> {};

TEST_P(MulMOracle, MatchesMuJoCo) {
  oracle::StageCheck check;
  check.mujoco = [](const mjModel*, mjData*) {};
  check.joco = [](const Model&, Data&) {};
  check.extra = [](oracle::OracleCase& c, oracle::Comparison& cmp) {
    const int nv = c.m.nv;
    std::vector<double> v(nv), r(nv), rm(nv), dense(nv * nv), dense_mj(nv * nv);
    for (int i = 0; i < nv; ++i) v[i] = std::sin(0.7 * i + 0.2);
    mj_mulM(c.mj.get(), c.md.get(), rm.data(), v.data());
    mul_m(c.m, c.d, r.data(), v.data());
    cmp.fields.push_back(oracle::compare_arrays("mul_m", r.data(), rm.data(), nv));
    mj_fullM(c.mj.get(), dense_mj.data(), c.md->qM);
    full_m(c.m, dense.data(), c.d.qM);
    cmp.fields.push_back(oracle::compare_arrays("full_m", dense.data(), dense_mj.data(), nv * nv));
  };
  oracle::check_stage(GetParam(), check);
}

// The stage's own models and the small quick ones; every other model in the long sweep.
JOCO_INSTANTIATE_STAGE_SWEEP(MulMOracle, "smooth/");

}  // namespace
}  // namespace joco
