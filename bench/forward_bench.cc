// Google Benchmark of forward and step on models of the list: arm26 (muscles, spatial
// tendons, joint limits) and humanoid without contacts. Figures with mujoco-testspeed beside them
// go to bench/RESULTS.md (scripts/bench runs both on the same machine).
#include <benchmark/benchmark.h>

#include <string>

#include "joco/forward.h"
#include "joco/mjcf.h"

namespace {

joco::Model load(const std::string& relative, bool no_contacts) {
  joco::Model m = joco::compile_mjcf_file(std::string(JOCO_TESTDATA_DIR) + "/" + relative);
  if (no_contacts) m.opt.disableflags |= joco::kDisableContact;
  return m;
}

// testspeed's control noise (Halton sequence, 1% of the range) so the state keeps changing.
double halton(int64_t index, int base) {
  double result = 0, fraction = 1.0 / base;
  for (; index > 0; index /= base, fraction /= base)
    result += fraction * static_cast<double>(index % base);
  return result;
}

void noise(const joco::Model& m, joco::Data& d, int64_t i) {
  for (int j = 0; j < m.nu; ++j) {
    double center = 0, radius = 1;
    if (m.actuator_ctrllimited[j]) {
      center = (m.actuator_ctrlrange[2 * j + 1] + m.actuator_ctrlrange[2 * j]) / 2;
      radius = (m.actuator_ctrlrange[2 * j + 1] - m.actuator_ctrlrange[2 * j]) / 2;
    }
    d.ctrl[j] = center + 0.01 * radius * (2 * halton(i, j + 2) - 1);
  }
}

void BM_Step(benchmark::State& state, const char* model, bool no_contacts) {
  const joco::Model m = load(model, no_contacts);
  joco::Data d = joco::make_data(m);
  int64_t i = 0;
  for (auto _ : state) {
    noise(m, d, i++);
    joco::step(m, d);
  }
  state.SetItemsProcessed(state.iterations());
}

void BM_Forward(benchmark::State& state, const char* model, bool no_contacts) {
  const joco::Model m = load(model, no_contacts);
  joco::Data d = joco::make_data(m);
  for (int k = 0; k < 100; ++k) joco::step(m, d);  // a state away from the initial one
  for (auto _ : state) joco::forward(m, d);
  state.SetItemsProcessed(state.iterations());
}

BENCHMARK_CAPTURE(BM_Step, arm26, "mujoco/model/tendon_arm/arm26.xml", false);
BENCHMARK_CAPTURE(BM_Forward, arm26, "mujoco/model/tendon_arm/arm26.xml", false);
BENCHMARK_CAPTURE(BM_Step, humanoid_nocontact, "mujoco/model/humanoid/humanoid.xml", true);
BENCHMARK_CAPTURE(BM_Forward, humanoid_nocontact, "mujoco/model/humanoid/humanoid.xml", true);
BENCHMARK_CAPTURE(BM_Step, humanoid, "mujoco/model/humanoid/humanoid.xml", false);
BENCHMARK_CAPTURE(BM_Step, humanoid100, "mujoco/model/humanoid100/humanoid100.xml", false);

}  // namespace

BENCHMARK_MAIN();
