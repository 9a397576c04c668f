// rne_post_constraint against MuJoCo 2.2.2's mj_rnePostConstraint: applied Cartesian forces,
// contact forces (pyramidal and elliptic cones) and connect and weld constraint wrenches, from
// MuJoCo's constraint forces.
#include <gtest/gtest.h>

#include "joco/smooth.h"
#include "oracle/random_state.h"

namespace joco {
namespace {

struct RnePostParam {
  const char* model;
  int cone;
};

class RnePostOracle : public ::testing::TestWithParam<RnePostParam> {};

TEST_P(RnePostOracle, MatchesMuJoCo) {
  oracle::StageCheck check;
  check.fields = {"cacc", "cfrc_int", "cfrc_ext"};
  check.mujoco = mj_rnePostConstraint;
  check.joco = rne_post_constraint;
  check.contacts = true;
  check.extra = [](oracle::OracleCase& c, oracle::Comparison& cmp) {
    // The contact forces themselves, and that there were some to test.
    double worst = 0;
    for (int i = 0; i < c.md->ncon; ++i) {
      double a[6], b[6];
      mj_contactForce(c.mj.get(), c.md.get(), i, b);
      contact_force(c.m, c.d, i, a);
      const oracle::FieldResult f = oracle::compare_arrays("contact_force", a, b, 6);
      if (f.error > worst || i == 0) {
        worst = f.error;
        cmp.fields.push_back(f);
      }
    }
    const double n[2] = {double(c.md->ncon), double(c.md->nefc)};
    std::cout << "  (ncon " << n[0] << ", nefc " << n[1] << ")\n";
  };
  oracle::check_stage(GetParam().model, check, [&](oracle::OracleCase& c) {
    c.mj->opt.cone = GetParam().cone;
    c.m.opt.cone = GetParam().cone;
  });
}

INSTANTIATE_TEST_SUITE_P(
    Models, RnePostOracle,
    ::testing::Values(
        RnePostParam{"smooth/joint_zoo.xml", mjCONE_PYRAMIDAL},
        RnePostParam{"mujoco/model/humanoid/humanoid.xml", mjCONE_PYRAMIDAL},
        RnePostParam{"mujoco/model/humanoid/humanoid.xml", mjCONE_ELLIPTIC},
        RnePostParam{"real/anybotics_anymal_c/scene.xml", mjCONE_ELLIPTIC},
        RnePostParam{"mujoco-tests/test__testdata__model.xml", mjCONE_PYRAMIDAL},
        RnePostParam{"mujoco-tests/test__testdata__model.xml", mjCONE_ELLIPTIC},
        RnePostParam{
            "mujoco-tests/test__engine__testdata__core_smooth__rne_post__connect__force_free.xml",
            mjCONE_PYRAMIDAL},
        RnePostParam{
            "mujoco-tests/"
            "test__engine__testdata__core_smooth__rne_post__weld__force_torque_free_rotated.xml",
            mjCONE_PYRAMIDAL},
        RnePostParam{"mujoco-tests/"
                     "test__engine__testdata__core_smooth__rne_post__weld__tfratio0_multiple_"
                     "constraints.xml",
                     mjCONE_PYRAMIDAL},
        RnePostParam{"mujoco-tests/test__engine__testdata__weld.xml", mjCONE_PYRAMIDAL},
        RnePostParam{"mujoco-tests/test__engine__testdata__collision_convex__stacked_boxes.xml",
                     mjCONE_ELLIPTIC}));

}  // namespace
}  // namespace joco
