// integrate_pos, differentiate_pos and normalize_quat against MuJoCo 2.2.2's mj_integratePos,
// mj_differentiatePos and mj_normalizeQuat, including quaternions of other than unit length.
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "joco/smooth.h"
#include "oracle/random_state.h"
#include "support/test_models.h"

namespace joco {
namespace {

class PositionIntegrationOracle : public ::testing::TestWithParam<std::string> {};

TEST_P(PositionIntegrationOracle, MatchesMuJoCo) {
  oracle::OracleCase c;
  ASSERT_TRUE(oracle::load_case(GetParam(), c));
  const mjModel* mj = c.mj.get();
  const int nq = c.m.nq, nv = c.m.nv;
  oracle::WorstErrors worst;
  for (int seed = 0; seed < 6; ++seed) {
    oracle::RandomStateOptions options;
    options.unnormalized_quaternions = seed % 2 == 1;
    oracle::randomize_state(mj, c.md.get(), 50 + seed, options);
    std::vector<double> q1(c.md->qpos, c.md->qpos + nq), v(c.md->qvel, c.md->qvel + nv);
    oracle::randomize_state(mj, c.md.get(), 500 + seed, options);
    std::vector<double> q2(c.md->qpos, c.md->qpos + nq);
    // Large steps too: rotations past pi exercise the wrap of the quaternion logarithm.
    const double dt = seed < 3 ? 0.01 : 0.9;
    oracle::Comparison cmp;

    std::vector<double> a = q1, b = q1;
    mj_integratePos(mj, b.data(), v.data(), dt);
    integrate_pos(c.m, a.data(), v.data(), dt);
    cmp.fields.push_back(oracle::compare_arrays("integrate_pos", a.data(), b.data(), nq));

    std::vector<double> va(nv), vb(nv);
    mj_differentiatePos(mj, vb.data(), dt, q1.data(), q2.data());
    differentiate_pos(c.m, va.data(), dt, q1.data(), q2.data());
    cmp.fields.push_back(oracle::compare_arrays("differentiate_pos", va.data(), vb.data(), nv));

    a = q1;
    b = q1;
    mj_normalizeQuat(mj, b.data());
    normalize_quat(c.m, a.data());
    cmp.fields.push_back(oracle::compare_arrays("normalize_quat", a.data(), b.data(), nq));

    oracle::expect_match(cmp, c.path + " seed " + std::to_string(seed));
    worst.add("seed " + std::to_string(seed), cmp);
  }
  std::cout << c.path << ":\n" << worst.table();
}

// The stage's own models and the small quick ones; every other model in the long sweep.
JOCO_INSTANTIATE_STAGE_SWEEP(PositionIntegrationOracle, "smooth/");

}  // namespace
}  // namespace joco
