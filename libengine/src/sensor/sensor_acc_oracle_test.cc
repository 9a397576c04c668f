// sensor_acc against MuJoCo 2.2.2's mj_sensorAcc: every test model with acceleration or force
// sensors at random states (contacts included), and the touch scene along MuJoCo rollouts with
// pyramidal and elliptic cones.
#include "oracle/sensor_oracle_support.h"

namespace joco {
namespace {

class SensorAccOracle : public ::testing::TestWithParam<std::string> {};

TEST_P(SensorAccOracle, MatchesMuJoCo) {
  sensor_oracle::SensorCheck check;
  check.stage = kStageAcc;
  check.seeds = 6;
  const sensor_oracle::SensorErrors errors = sensor_oracle::check_sensors(GetParam(), check);
  EXPECT_LE(errors.worst(), 1e-10);
}

JOCO_INSTANTIATE_SWEEP(SensorAccOracle, sensor_oracle::has_stage_sensors<kStageAcc>,
                       sensor_oracle::sensor_kinds, "sensor/");

// The touch scene settling under gravity: resting and sliding contacts inside and outside the
// touch zones, with both friction cones.
class TouchRolloutOracle : public ::testing::TestWithParam<int> {};

TEST_P(TouchRolloutOracle, MatchesMuJoCo) {
  sensor_oracle::SensorCheck check;
  check.stage = kStageAcc;
  check.seeds = 12;
  check.rollout_steps = 240;
  const int cone = GetParam();
  check.setup = [cone](oracle::OracleCase& c) {
    c.mj->opt.cone = cone;
    c.m.opt.cone = cone;
  };
  // how often each touch sensor reads a force, to show which zones the contacts reach
  std::vector<int> touched;
  check.after = [&touched](oracle::OracleCase& c) {
    touched.resize(c.m.nsensor);
    for (int i = 0; i < c.m.nsensor; ++i) {
      if (c.m.sensor_type[i] == kSensTouch && c.md->sensordata[c.m.sensor_adr[i]] > 0) ++touched[i];
    }
  };
  const sensor_oracle::SensorErrors errors =
      sensor_oracle::check_sensors("sensor/touch.xml", check);
  EXPECT_LE(errors.worst(), 1e-10);
  oracle::OracleCase c;
  if (!oracle::load_case("sensor/touch.xml", c)) return;
  std::cout << "  states with a force on each touch sensor:";
  int reached = 0;
  for (int i = 0; i < c.m.nsensor; ++i) {
    if (c.m.sensor_type[i] != kSensTouch) continue;
    const int site = c.m.sensor_objid[i];
    std::cout << " " << c.m.name(kObjSite, site) << " " << touched[i];
    if (touched[i] > 0) ++reached;
  }
  std::cout << "\n";
  EXPECT_GE(reached, 7);  // most zones see contacts, so the test covers them
}

INSTANTIATE_TEST_SUITE_P(Cones, TouchRolloutOracle,
                         ::testing::Values(int{mjCONE_PYRAMIDAL}, int{mjCONE_ELLIPTIC}));

}  // namespace
}  // namespace joco
