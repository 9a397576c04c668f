// rne against MuJoCo 2.2.2's mj_rne, with and without the acceleration term, with gravity on and
// disabled.
#include <gtest/gtest.h>

#include <vector>

#include "joco/smooth.h"
#include "oracle/random_state.h"

namespace joco {
namespace {

struct RneParam {
  const char* model;
  bool gravity_disabled;
};

class RneOracle : public ::testing::TestWithParam<RneParam> {};

TEST_P(RneOracle, MatchesMuJoCo) {
  oracle::StageCheck check;
  check.fields = {"qfrc_bias"};
  check.mujoco = [](const mjModel* m, mjData* d) { mj_rne(m, d, 0, d->qfrc_bias); };
  check.joco = [](const Model& m, Data& d) { rne(m, d, false, d.qfrc_bias); };
  check.extra = [](oracle::OracleCase& c, oracle::Comparison& cmp) {
    const int nv = c.m.nv;
    std::vector<double> a(nv), b(nv);
    mj_rne(c.mj.get(), c.md.get(), 1, b.data());
    rne(c.m, c.d, true, a.data());
    cmp.fields.push_back(oracle::compare_arrays("rne with qacc", a.data(), b.data(), nv));
  };
  oracle::check_stage(GetParam().model, check, [&](oracle::OracleCase& c) {
    if (GetParam().gravity_disabled) {
      c.mj->opt.disableflags |= mjDSBL_GRAVITY;
      c.m.opt.disableflags |= kDisableGravity;
    }
  });
}

INSTANTIATE_TEST_SUITE_P(
    Models, RneOracle,
    ::testing::Values(RneParam{"smooth/joint_zoo.xml", false},
                      RneParam{"smooth/joint_zoo.xml", true},
                      RneParam{"mujoco-tests/test__engine__testdata__rotations.xml", false},
                      RneParam{"mujoco/model/humanoid/humanoid.xml", false},
                      RneParam{"mujoco/model/humanoid/humanoid.xml", true},
                      RneParam{"real/wonik_allegro/scene_right.xml", false},
                      RneParam{"mujoco/model/hammock/hammock.xml", false}));

}  // namespace
}  // namespace joco
