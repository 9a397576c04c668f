// passive against MuJoCo 2.2.2's mj_passive at seeded random states: joint and tendon springs and
// dampers, both fluid models, the passive flag.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "joco/passive.h"
#include "joco/tendon.h"
#include "oracle/random_state.h"
#include "support/test_models.h"

namespace joco {
namespace {

class PassiveOracle : public ::testing::TestWithParam<std::string> {};

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

// Every model with passive forces: springs, dampers or a fluid.
bool has_passive_forces(const test::ModelFeatures& f) {
  return f.stiffness || f.damping || f.fluid;
}
uint64_t passive_kinds(const test::ModelFeatures& f) { return f.passive_kinds(); }

JOCO_INSTANTIATE_SWEEP(PassiveOracle, has_passive_forces, passive_kinds, "actuation/");

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
