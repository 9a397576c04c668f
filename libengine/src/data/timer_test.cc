// The stage timers: every stage of step counted once per step, nested stages no longer than the
// stage holding them, the step timer's total close to the wall time of the loop (the clock's
// calibration), one run in timer_period measured, and nothing recorded with the timers off.
#include "data/timer.h"

#include <gtest/gtest.h>

#include <chrono>
#include <iostream>

#include "joco/forward.h"
#include "joco/inverse.h"
#include "joco/mjcf.h"
#include "support/test_support.h"

namespace joco {
namespace {

// humanoid has no sensors: the stages run back to back and share their boundaries, so they tile
// forward (up to the roundoff of summing seconds), and the laps of the position stage tile it.
template <typename Timers>
void expect_stages_tile(const Timers& T, int steps) {
  const double stages = T[kTimerPosition].duration + T[kTimerVelocity].duration +
                        T[kTimerActuation].duration + T[kTimerAcceleration].duration +
                        T[kTimerConstraint].duration;
  EXPECT_NEAR(stages, T[kTimerForward].duration, 1e-12 * T[kTimerForward].duration);
  const double parts = T[kTimerPosKinematics].duration + T[kTimerPosInertia].duration +
                       T[kTimerPosCollision].duration + T[kTimerPosMake].duration +
                       T[kTimerPosProject].duration;
  EXPECT_NEAR(parts, T[kTimerPosition].duration, 1e-9 * steps + 1e-6 * T[kTimerPosition].duration);
}

TEST(StageTimers, EveryStageOncePerStepAndNested) {
  const Model m = compile_mjcf_file(test::testdata("mujoco/model/humanoid/humanoid.xml"));
  Data d(m);
  forward(m, d);  // the clock calibrates on first use
  reset_data(m, d);
  d.timer_period = 1;  // every step measured: the totals are times, not estimates
  const int steps = 400;
  const auto start = std::chrono::steady_clock::now();
  for (int t = 0; t < steps; ++t) step(m, d);
  const double wall =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  for (Timer t : {kTimerStep, kTimerForward, kTimerPosition, kTimerVelocity, kTimerActuation,
                  kTimerAcceleration, kTimerConstraint, kTimerPosKinematics, kTimerPosInertia,
                  kTimerPosCollision, kTimerPosMake, kTimerPosProject}) {
    EXPECT_EQ(d.timer[t].number, steps) << "timer " << t;
    EXPECT_GT(d.timer[t].duration, 0) << "timer " << t;
  }
  EXPECT_EQ(d.timer[kTimerInverse].number, 0);
  const auto& T = d.timer;
  EXPECT_LE(T[kTimerForward].duration, T[kTimerStep].duration);
  expect_stages_tile(T, steps);
  // The step timer spans almost the whole loop; a generous bound, the machine may be busy.
  std::cout << "step timer " << T[kTimerStep].duration << " s, loop wall time " << wall << " s\n";
  EXPECT_LE(T[kTimerStep].duration, wall * 1.05);
  EXPECT_GE(T[kTimerStep].duration, wall * 0.5);
}

TEST(StageTimers, OneRunInPeriodMeasuredEveryRunCounted) {
  // The default: one step in timer_period measured, with everything nested in it; every stage still
  // counted once per step, the estimates nested and tiling as the measured times do.
  const Model m = compile_mjcf_file(test::testdata("mujoco/model/humanoid/humanoid.xml"));
  Data d(m);
  ASSERT_EQ(d.timer_period, 8);
  const int steps = 400;
  for (int t = 0; t < steps; ++t) step(m, d);
  EXPECT_EQ(d.timer_depth, 0);
  const auto& T = d.timer;
  for (Timer t : {kTimerStep, kTimerForward, kTimerPosition, kTimerVelocity, kTimerActuation,
                  kTimerAcceleration, kTimerConstraint, kTimerPosKinematics, kTimerPosInertia,
                  kTimerPosCollision, kTimerPosMake, kTimerPosProject}) {
    EXPECT_EQ(T[t].number, steps) << "timer " << t;
    EXPECT_EQ(T[t].measured, steps / 8) << "timer " << t;
    EXPECT_GT(T[t].measured_duration, 0) << "timer " << t;
    EXPECT_GE(T[t].duration, T[t].measured_duration) << "timer " << t;
  }
  EXPECT_LE(T[kTimerForward].duration, T[kTimerStep].duration);
  expect_stages_tile(T, steps);
}

TEST(StageTimers, EachOutermostTimerSamplesItsOwnRuns) {
  // Steps and inverse calls alternating: each is measured on its own first, ninth, ... run, not
  // by a count shared between them (which would leave one of them never measured).
  const Model m = compile_mjcf_file(test::testdata("mujoco/model/tendon_arm/arm26.xml"));
  Data d(m);
  for (int t = 0; t < 32; ++t) {
    step(m, d);
    inverse(m, d);
  }
  EXPECT_EQ(d.timer[kTimerStep].number, 32);
  EXPECT_EQ(d.timer[kTimerStep].measured, 4);
  EXPECT_EQ(d.timer[kTimerInverse].number, 32);
  EXPECT_EQ(d.timer[kTimerInverse].measured, 4);
  EXPECT_GT(d.timer[kTimerInverse].duration, 0);
}

TEST(StageTimers, SensorsBetweenStagesCountInForwardOnly) {
  // Sensors run between the stages: forward holds them, the stages do not.
  const Model m = compile_mjcf_file(test::testdata("sensor/all_sensors.xml"));
  ASSERT_GT(m.nsensor, 0);
  Data d(m);
  for (int t = 0; t < 200; ++t) step(m, d);
  const auto& T = d.timer;
  EXPECT_EQ(T[kTimerForward].number, 200);
  EXPECT_LT(T[kTimerPosition].duration + T[kTimerVelocity].duration + T[kTimerActuation].duration +
                T[kTimerAcceleration].duration + T[kTimerConstraint].duration,
            T[kTimerForward].duration);
}

TEST(StageTimers, OffRecordsNothing) {
  const Model m = compile_mjcf_file(test::testdata("mujoco/model/tendon_arm/arm26.xml"));
  Data d(m);
  d.timers_enabled = false;
  for (int t = 0; t < 10; ++t) step(m, d);
  for (const TimerStat& t : d.timer) {
    EXPECT_EQ(t.number, 0);
    EXPECT_EQ(t.duration, 0);
  }
}

TEST(StageTimers, ClockIsCalibrated) {
  // A busy wait of 20 ms measured by the timers' clock.
  const timer_detail::Clock& c = timer_detail::clock();
  EXPECT_GT(c.seconds_per_tick, 0);
  const auto t0 = std::chrono::steady_clock::now();
  const int64_t k0 = timer_detail::ticks(c);
  while (std::chrono::steady_clock::now() - t0 < std::chrono::milliseconds(20)) {
  }
  const int64_t k1 = timer_detail::ticks(c);
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const double measured = static_cast<double>(k1 - k0) * c.seconds_per_tick;
  std::cout << "clock: " << (c.tsc ? "time-stamp counter" : "steady_clock")
            << ", 20 ms busy wait measured " << measured * 1000 << " ms (steady_clock "
            << wall * 1000 << " ms)\n";
  EXPECT_NEAR(measured, wall, 0.05 * wall);
}

}  // namespace
}  // namespace joco
