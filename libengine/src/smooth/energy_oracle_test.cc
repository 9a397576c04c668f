// energy_pos and energy_vel against MuJoCo 2.2.2's mj_energyPos and mj_energyVel: springs of every
// joint type and of tendons, gravity and passive forces disabled, and the energy flag off.
#include <gtest/gtest.h>

#include "joco/smooth.h"
#include "oracle/random_state.h"

namespace joco {
namespace {

struct EnergyParam {
  const char* model;
  int disable;  // MuJoCo's disable flags added to the model's (same bits in joco)
  bool enabled;
};

class EnergyOracle : public ::testing::TestWithParam<EnergyParam> {};

TEST_P(EnergyOracle, MatchesMuJoCo) {
  const EnergyParam p = GetParam();
  oracle::StageCheck check;
  check.mujoco = [](const mjModel* m, mjData* d) {
    d->energy[0] = d->energy[1] = 7;
    mj_energyPos(m, d);
    mj_energyVel(m, d);
  };
  check.joco = [](const Model& m, Data& d) {
    d.energy[0] = d.energy[1] = 7;
    energy_pos(m, d);
    energy_vel(m, d);
  };
  check.extra = [](oracle::OracleCase& c, oracle::Comparison& cmp) {
    cmp.fields.push_back(oracle::compare_arrays("energy", c.d.energy, c.md->energy, 2));
  };
  oracle::check_stage(p.model, check, [&](oracle::OracleCase& c) {
    c.mj->opt.disableflags |= p.disable;
    c.m.opt.disableflags |= p.disable;
    if (p.enabled) {
      c.mj->opt.enableflags |= mjENBL_ENERGY;
      c.m.opt.enableflags |= kEnableEnergy;
    }
  });
}

INSTANTIATE_TEST_SUITE_P(
    Models, EnergyOracle,
    ::testing::Values(EnergyParam{"smooth/joint_zoo.xml", 0, true},
                      EnergyParam{"smooth/joint_zoo.xml", mjDSBL_PASSIVE, true},
                      EnergyParam{"smooth/joint_zoo.xml", mjDSBL_GRAVITY, true},
                      EnergyParam{"smooth/joint_zoo.xml", 0, false},
                      EnergyParam{"mujoco-tests/test__engine__testdata__refsite.xml", 0, true},
                      EnergyParam{"mujoco/model/tendon_arm/arm26.xml", 0, true},
                      EnergyParam{"real/shadow_hand/scene_right.xml", 0, true},
                      EnergyParam{"mujoco/model/hammock/hammock.xml", 0, true}));

}  // namespace
}  // namespace joco
