// sensor_vel against MuJoCo 2.2.2's mj_sensorVel on every test model with velocity sensors.
#include "oracle/sensor_oracle_support.h"

namespace joco {
namespace {

class SensorVelOracle : public ::testing::TestWithParam<std::string> {};

TEST_P(SensorVelOracle, MatchesMuJoCo) {
  sensor_oracle::SensorCheck check;
  check.stage = kStageVel;
  check.seeds = 6;
  const sensor_oracle::SensorErrors errors = sensor_oracle::check_sensors(GetParam(), check);
  EXPECT_LE(errors.worst(), 1e-10);
}

JOCO_INSTANTIATE_SWEEP(SensorVelOracle, sensor_oracle::has_stage_sensors<kStageVel>,
                       sensor_oracle::sensor_kinds, "sensor/");

}  // namespace
}  // namespace joco
