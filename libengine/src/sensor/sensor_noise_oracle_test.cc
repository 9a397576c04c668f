// Sensor noise, cutoff and the sensor disable flag against MuJoCo 2.2.2: the same C-library
// random sequence in both engines (srand(seed) in MuJoCo, noise_random.reseed(seed) in joco), all
// three stages, every data type.
#include <cstdlib>

#include "oracle/sensor_oracle_support.h"

namespace joco {
namespace {

// Runs the three stages in both engines on the state MuJoCo's data holds (copied to joco's, with
// the same random outputs), and compares every sensor.
void run_all_stages(oracle::OracleCase& c, std::mt19937_64& rng, const std::string& where,
                    sensor_oracle::SensorErrors& errors) {
  oracle::copy_data(c.mj.get(), c.md.get(), c.d);
  sensor_oracle::fill_outputs(c, rng);
  for (int stage : {kStagePos, kStageVel, kStageAcc}) {
    sensor_oracle::run_stage(c, stage, true);
    sensor_oracle::run_stage(c, stage, false);
  }
  sensor_oracle::compare_outputs(c, where, errors, kStageNone);
}

// The generator itself: MuJoCo's mju_standardNormal after srand(seed), pairs and singles, bit for
// bit.
TEST(SensorNoiseOracle, StandardNormalIsMuJoCos) {
  for (uint32_t seed : {0u, 1u, 123u, 98765u}) {
    std::srand(seed);
    GlibcRandom random(seed);
    for (int k = 0; k < 3000; ++k) {
      mjtNum mj_second = 0;
      double second = 0;
      const bool pair = k % 3 == 0;
      const mjtNum expected = mju_standardNormal(pair ? &mj_second : nullptr);
      oracle::count_compared(pair ? 2 : 1);
      ASSERT_EQ(random.standard_normal(pair ? &second : nullptr), expected) << seed << " " << k;
      if (pair) {
        ASSERT_EQ(second, mj_second) << seed << " " << k;
      }
    }
    EXPECT_EQ(random.next(), std::rand()) << "seed " << seed;  // still in step
  }
}

TEST(SensorNoiseOracle, SameRandomSequenceSameNoise) {
  oracle::OracleCase c;
  ASSERT_TRUE(oracle::load_case("sensor/noise.xml", c));
  ASSERT_NE(c.m.opt.enableflags & kEnableSensornoise, 0);
  std::mt19937_64 rng(3);
  sensor_oracle::SensorErrors errors;
  for (int seed = 0; seed < 20; ++seed) {
    oracle::randomize_state(c.mj.get(), c.md.get(), 300 + seed, {});
    mj_forward(c.mj.get(), c.md.get());
    std::srand(static_cast<unsigned>(seed));
    c.d.noise_random.reseed(static_cast<uint32_t>(seed));
    run_all_stages(c, rng, "noise seed " + std::to_string(seed), errors);
    // both generators are at the same place afterwards
    EXPECT_EQ(c.d.noise_random.next(), std::rand()) << "seed " << seed;
  }
  std::cout << errors.table();
  EXPECT_LE(errors.worst(), 1e-10);
}

// A fresh Data draws what rand() gives after MuJoCo compiles a model without random textures
// (srand(123)). The model must not enable noise when compiled: MuJoCo's compiler then evaluates
// the sensors once and draws their noise (116 numbers for sensor/noise.xml), so noise is switched
// on in both models afterwards.
TEST(SensorNoiseOracle, FreshDataStartsLikeMuJoCoAfterCompiling) {
  oracle::OracleCase c;
  ASSERT_TRUE(oracle::load_case("sensor/all_sensors.xml", c));  // MuJoCo calls srand(123)
  for (int i = 0; i < c.m.nsensor; ++i) c.mj->sensor_noise[i] = c.m.sensor_noise[i] = 0.1;
  std::mt19937_64 rng(4);
  sensor_oracle::SensorErrors errors;
  oracle::randomize_state(c.mj.get(), c.md.get(), 77, {});
  mj_forward(c.mj.get(), c.md.get());  // noise is off: no draws
  c.mj->opt.enableflags |= mjENBL_SENSORNOISE;
  c.m.opt.enableflags |= kEnableSensornoise;
  run_all_stages(c, rng, "fresh", errors);
  EXPECT_LE(errors.worst(), 1e-10);
  EXPECT_EQ(c.d.noise_random.next(), std::rand());
}

// With the sensor disable flag the stages leave everything alone, in both engines.
TEST(SensorDisableOracle, StagesDoNothing) {
  for (const char* model : {"sensor/all_sensors.xml", "sensor/noise.xml", "sensor/touch.xml"}) {
    oracle::OracleCase c;
    ASSERT_TRUE(oracle::load_case(model, c));
    c.mj->opt.disableflags |= mjDSBL_SENSOR;
    c.m.opt.disableflags |= kDisableSensor;
    std::mt19937_64 rng(5);
    sensor_oracle::SensorErrors errors;
    oracle::randomize_state(c.mj.get(), c.md.get(), 11, {});
    mj_forward(c.mj.get(), c.md.get());
    oracle::copy_data(c.mj.get(), c.md.get(), c.d);
    sensor_oracle::fill_outputs(c, rng);
    const std::vector<double> before(c.d.sensordata, c.d.sensordata + c.m.nsensordata);
    for (int stage : {kStagePos, kStageVel, kStageAcc}) {
      sensor_oracle::run_stage(c, stage, true);
      sensor_oracle::run_stage(c, stage, false);
    }
    sensor_oracle::compare_outputs(c, model, errors, kStageNone);
    EXPECT_EQ(errors.worst(), 0) << model;
    EXPECT_TRUE(std::equal(before.begin(), before.end(), c.d.sensordata)) << model;
  }
}

}  // namespace
}  // namespace joco
