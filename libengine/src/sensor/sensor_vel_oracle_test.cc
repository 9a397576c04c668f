// sensor_vel against MuJoCo 2.2.2's mj_sensorVel on every test model with velocity sensors.
#include "oracle/sensor_oracle_support.h"

namespace joco {
namespace {

class SensorVelOracle : public ::testing::TestWithParam<const char*> {};

TEST_P(SensorVelOracle, MatchesMuJoCo) {
  sensor_oracle::SensorCheck check;
  check.stage = kStageVel;
  check.seeds = 6;
  const sensor_oracle::SensorErrors errors = sensor_oracle::check_sensors(GetParam(), check);
  EXPECT_LE(errors.worst(), 1e-10);
}

INSTANTIATE_TEST_SUITE_P(Models, SensorVelOracle,
                         ::testing::Values("sensor/all_sensors.xml", "sensor/limits_touch.xml",
                                           "mujoco-tests/test__testdata__model.xml",
                                           "real/franka_sim/franka_panda.xml",
                                           "real/franka_sim/bi-franka_panda.xml"));

}  // namespace
}  // namespace joco
