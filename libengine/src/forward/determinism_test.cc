// Determinism: the same model and inputs give the same bits, whichever Data runs them, after a
// reset, from a copy taken mid-run, and on any thread. Users rely on it to replay rollouts,
// bisect divergences, and split batches over threads.
#include <gtest/gtest.h>

#include <cctype>
#include <cmath>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "joco/forward.h"
#include "joco/mjcf.h"
#include "support/test_models.h"
#include "support/test_support.h"

namespace joco {
namespace {

// A rollout with contacts and time-varying controls; returns the final qpos, qvel, act and the
// solver's last forces, concatenated.
std::vector<double> run(const Model& m, Data& d, int steps) {
  for (int t = 0; t < steps; ++t) {
    for (int i = 0; i < m.nu; ++i) d.ctrl[i] = 0.3 * std::sin(0.01 * t + i);
    step(m, d);
  }
  std::vector<double> out(d.qpos, d.qpos + m.nq);
  out.insert(out.end(), d.qvel, d.qvel + m.nv);
  out.insert(out.end(), d.act, d.act + m.na);
  out.insert(out.end(), d.efc_force, d.efc_force + d.nefc);
  return out;
}

bool same_bits(const std::vector<double>& a, const std::vector<double>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(double)) == 0;
}

class Determinism : public ::testing::TestWithParam<const char*> {};

TEST_P(Determinism, SameInputsSameBits) {
  Model m = compile_mjcf_file(test::testdata(GetParam()));
  for (int cone : {kConePyramidal, kConeElliptic}) {
    m.opt.cone = cone;
    const std::string where = std::string(GetParam()) + " cone " + std::to_string(cone);
    Data a = make_data(m), b = make_data(m);
    const std::vector<double> first = run(m, a, 300);
    EXPECT_TRUE(same_bits(first, run(m, b, 300))) << where << ": two Data";

    reset_data(m, a);
    EXPECT_TRUE(same_bits(first, run(m, a, 300))) << where << ": after reset_data";

    // A copy taken mid-run continues exactly as the original (warmstart included).
    Data c = make_data(m);
    run(m, c, 150);
    Data copy = c;
    for (int t = 150; t < 300; ++t) {
      for (int i = 0; i < m.nu; ++i) {
        c.ctrl[i] = copy.ctrl[i] = 0.3 * std::sin(0.01 * t + i);
      }
      step(m, c);
      step(m, copy);
    }
    EXPECT_EQ(std::memcmp(c.qpos, copy.qpos, sizeof(double) * m.nq), 0) << where << ": copy";
    EXPECT_EQ(std::memcmp(c.qvel, copy.qvel, sizeof(double) * m.nv), 0) << where << ": copy";

    // Threads: each with its own Data, all sharing the one Model.
    std::vector<std::vector<double>> results(3);
    std::vector<std::thread> threads;
    for (auto& r : results) {
      threads.emplace_back([&m, &r] {
        Data d = make_data(m);
        r = run(m, d, 300);
      });
    }
    for (std::thread& t : threads) t.join();
    for (const auto& r : results) EXPECT_TRUE(same_bits(first, r)) << where << ": on a thread";
  }
}

// "humanoid_humanoid_xml" from "mujoco/model/humanoid/humanoid.xml".
std::string model_name(const ::testing::TestParamInfo<const char*>& param) {
  std::string name = param.param;
  return test::test_name(name.substr(name.rfind('/', name.rfind('/') - 1) + 1));
}

INSTANTIATE_TEST_SUITE_P(Models, Determinism,
                         ::testing::Values("mujoco/model/humanoid/humanoid.xml",
                                           "mujoco/model/tendon_arm/arm26.xml",
                                           "real/anybotics_anymal_c/scene.xml"),
                         model_name);

}  // namespace
}  // namespace joco
