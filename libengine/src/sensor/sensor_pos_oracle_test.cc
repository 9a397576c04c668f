// sensor_pos against MuJoCo 2.2.2's mj_sensorPos on every test model with position sensors.
#include "oracle/sensor_oracle_support.h"

namespace joco {
namespace {

// Random elevations for the height fields of both models (their data is left to the user).
void random_hfields(oracle::OracleCase& c) {
  std::mt19937_64 rng(5);
  std::uniform_real_distribution<float> u(0, 1);
  for (int i = 0; i < c.mj->nhfielddata; ++i) c.mj->hfield_data[i] = c.m.hfield_data[i] = u(rng);
}

class SensorPosOracle : public ::testing::TestWithParam<std::string> {};

TEST_P(SensorPosOracle, MatchesMuJoCo) {
  sensor_oracle::SensorCheck check;
  check.stage = kStagePos;
  check.seeds = 6;
  check.setup = random_hfields;
  const sensor_oracle::SensorErrors errors = sensor_oracle::check_sensors(GetParam(), check);
  EXPECT_LE(errors.worst(), 1e-10);
}

JOCO_INSTANTIATE_SWEEP(SensorPosOracle, sensor_oracle::has_stage_sensors<kStagePos>,
                       sensor_oracle::sensor_kinds, "sensor/");

// Many random states of the rangefinder scene: every geom type hit, and rays that miss.
TEST(RangefinderOracle, ManyStates) {
  sensor_oracle::SensorCheck check;
  check.stage = kStagePos;
  check.seeds = 200;
  check.setup = random_hfields;
  // which geom type each rangefinder's ray meets (MuJoCo's answer), to show that every type is hit
  std::vector<int> hits(kNGeomTypes + 1, 0);
  check.after = [&hits](oracle::OracleCase& c) {
    for (int i = 0; i < c.m.nsensor; ++i) {
      const int site = c.m.sensor_objid[i];
      const double* mat = c.md->site_xmat + 9 * site;
      const mjtNum z[3] = {mat[2], mat[5], mat[8]};
      int geom = -1;
      mj_ray(c.mj.get(), c.md.get(), c.md->site_xpos + 3 * site, z, nullptr, 1,
             c.mj->site_bodyid[site], &geom);
      ++hits[geom < 0 ? kNGeomTypes : c.m.geom_type[geom]];
    }
  };
  const sensor_oracle::SensorErrors errors =
      sensor_oracle::check_sensors("sensor/rangefinders.xml", check);
  EXPECT_LE(errors.worst(), 1e-10);
  std::cout << "  rays by what they met (plane, hfield, sphere, capsule, ellipsoid, cylinder, box, "
               "mesh, nothing):";
  for (int n : hits) std::cout << " " << n;
  std::cout << "\n";
  for (int n : hits) EXPECT_GT(n, 0);
}

}  // namespace
}  // namespace joco
