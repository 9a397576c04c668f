// passive against MuJoCo 2.2.2's mj_passive at seeded random states: joint and tendon springs and
// dampers, both fluid models, the passive flag.
#include <gtest/gtest.h>

#include <cctype>
#include <cmath>
#include <string>

#include "joco/passive.h"
#include "joco/tendon.h"
#include "oracle/random_state.h"

namespace joco {
namespace {

class PassiveOracle : public ::testing::TestWithParam<const char*> {};

std::string Name(const ::testing::TestParamInfo<const char*>& info) {
  std::string name = info.param;
  for (char& c : name) {
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  }
  return name;
}

oracle::StageCheck passive_check() {
  oracle::StageCheck check;
  check.fields = {"qfrc_passive"};
  check.mujoco = [](const mjModel* m, mjData* d) { mj_passive(m, d); };
  check.joco = [](const Model& m, Data& d) {
    // Tendon moment arms in joco's layout (MuJoCo packs them in sparse mode).
    tendon(m, d);
    tendon_velocity(m, d);
    passive(m, d);
  };
  check.seeds = 6;
  return check;
}

TEST_P(PassiveOracle, MatchesMuJoCo) { oracle::check_stage(GetParam(), passive_check()); }

TEST_P(PassiveOracle, DisabledIsZero) {
  oracle::StageCheck check = passive_check();
  check.seeds = 1;
  oracle::check_stage(GetParam(), check, [](oracle::OracleCase& c) {
    c.mj->opt.disableflags |= mjDSBL_PASSIVE;
    c.m.opt.disableflags |= kDisablePassive;
  });
}

const char* const kModels[] = {
    "actuation/springs.xml",
    "actuation/fluid.xml",
    "actuation/tendons.xml",
    "mujoco/model/tendon_arm/arm26.xml",
    "mujoco/model/humanoid/humanoid.xml",
    "mujoco/model/humanoid100/humanoid100.xml",
    "mujoco/model/flag/flag.xml",
    "mujoco/model/hammock/hammock.xml",
    "mujoco/model/adhesion/active_adhesion.xml",
    "mujoco-tests/test__engine__testdata__damper.xml",
    "mujoco-tests/test__engine__testdata__activation.xml",
    "mujoco-tests/test__engine__testdata__refsite.xml",
    "mujoco-tests/test__engine__testdata__rotations.xml",
    "mujoco-tests/test__engine__testdata__sites.xml",
    "mujoco-tests/test__engine__testdata__derivative__damped_pendulum.xml",
    "mujoco-tests/test__engine__testdata__derivative__tumbling_thin_object.xml",
    "mujoco-tests/test__engine__testdata__derivative__tumbling_thin_object_ellipsoid.xml",
    "mujoco-tests/test__engine__testdata__core_smooth__rne_post__connect__force_free.xml",
    "mujoco-tests/test__testdata__model.xml",
    "real/shadow_hand/right_hand.xml",
    "real/wonik_allegro/right_hand.xml",
    "real/franka_sim/franka_panda.xml",
};

INSTANTIATE_TEST_SUITE_P(Models, PassiveOracle, ::testing::ValuesIn(kModels), Name);

// Thin and slender bodies in the ellipsoid model at speeds over nine decades, where MuJoCo's guards
// on small denominators (projected area, Kutta lift) change the forces.
TEST(PassiveOracle, ThinBodiesAtAllSpeeds) {
  oracle::OracleCase c;
  ASSERT_TRUE(oracle::load_case("actuation/fluid_thin.xml", c));
  oracle::WorstErrors worst;
  for (int decade = -6; decade <= 2; ++decade) {
    for (int seed = 0; seed < 3; ++seed) {
      oracle::randomize_state(c.mj.get(), c.md.get(), 300 + 10 * seed - decade);
      for (int i = 0; i < c.mj->nv; ++i) c.md->qvel[i] *= std::pow(10.0, decade);
      mj_forward(c.mj.get(), c.md.get());
      oracle::copy_data(c.mj.get(), c.md.get(), c.d);
      oracle::poison(c.d, {"qfrc_passive"});
      mj_passive(c.mj.get(), c.md.get());
      passive(c.m, c.d);
      const oracle::Comparison cmp =
          oracle::compare_data(c.d, c.md.get(), c.mj.get(), {"qfrc_passive"}, {});
      const std::string where =
          "speed 1e" + std::to_string(decade) + " seed " + std::to_string(seed);
      oracle::expect_match(cmp, where);
      worst.add(where, cmp);
    }
  }
  std::cout << "fluid_thin.xml:\n" << worst.table();
}

}  // namespace
}  // namespace joco
