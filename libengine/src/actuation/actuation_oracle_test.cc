// actuation against MuJoCo 2.2.2's mj_fwdActuation at seeded random states, controls and
// activations (inside and outside their ranges), with the clampctrl and actuation flags, and on
// bad controls.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "joco/actuation.h"
#include "oracle/random_state.h"
#include "support/test_models.h"

namespace joco {
namespace {

const std::vector<std::string> kFields = {"act_dot", "actuator_force", "qfrc_actuator"};

// Random controls (beyond their ranges, sometimes) and activations.
void randomize_inputs(const mjModel* mj, mjData* md, std::mt19937_64& rng) {
  std::uniform_real_distribution<double> u(-1, 1);
  for (int i = 0; i < mj->nu; ++i) {
    const double lo = mj->actuator_ctrlrange[2 * i], hi = mj->actuator_ctrlrange[2 * i + 1];
    const double mid = 0.5 * (lo + hi), half = hi > lo ? 0.5 * (hi - lo) : 1;
    md->ctrl[i] = mid + 1.3 * half * u(rng);
  }
  for (int i = 0; i < mj->na; ++i) md->act[i] = 1.2 * u(rng);
}

struct Variant {
  const char* name;
  int disable = 0;  // extra MuJoCo disable flags
};

oracle::WorstErrors run(const std::string& model, const Variant& variant, int seeds = 4) {
  oracle::WorstErrors worst;
  oracle::OracleCase c;
  if (!oracle::load_case(model, c)) return worst;
  c.mj->opt.disableflags |= mjDSBL_CONTACT | variant.disable;
  c.m.opt.disableflags |= kDisableContact | variant.disable;
  std::mt19937_64 rng(17);
  for (int seed = 0; seed < seeds; ++seed) {
    oracle::randomize_state(c.mj.get(), c.md.get(), 2000 + seed);
    randomize_inputs(c.mj.get(), c.md.get(), rng);
    mj_forward(c.mj.get(), c.md.get());
    oracle::copy_data(c.mj.get(), c.md.get(), c.d);
    oracle::poison(c.d, kFields);
    // Disabled actuation leaves act_dot alone: both start from MuJoCo's.
    for (int i = 0; i < c.m.na; ++i) c.d.act_dot[i] = c.md->act_dot[i];
    mj_fwdActuation(c.mj.get(), c.md.get());
    actuation(c.m, c.d);
    oracle::Comparison cmp = oracle::compare_data(c.d, c.md.get(), c.mj.get(), kFields, {});
    const std::string where = model + " " + variant.name + " seed " + std::to_string(seed);
    oracle::expect_match(cmp, where);
    worst.add("seed " + std::to_string(seed), cmp);
  }
  std::cout << model << " (" << variant.name << "):\n" << worst.table();
  return worst;
}

class ActuationOracle : public ::testing::TestWithParam<std::string> {};

TEST_P(ActuationOracle, MatchesMuJoCo) {
  run(GetParam(), {"default"});
  run(GetParam(), {"clampctrl disabled", mjDSBL_CLAMPCTRL}, 2);
  run(GetParam(), {"actuation disabled", mjDSBL_ACTUATION}, 1);
}

// Every model with actuators.
bool has_actuators(const test::ModelFeatures& f) { return f.nu > 0; }
uint64_t actuator_kinds(const test::ModelFeatures& f) { return f.actuator_kinds(); }

JOCO_INSTANTIATE_SWEEP(ActuationOracle, has_actuators, actuator_kinds, "actuation/");

// A NaN or huge control: MuJoCo warns with the first bad index (after clamping) and zeroes every
// control; a huge control on a limited actuator is clamped first and is no longer bad.
TEST(ActuationOracle, BadControls) {
  oracle::OracleCase c;
  ASSERT_TRUE(oracle::load_case("actuation/actuators.xml", c));
  struct Case {
    int actuator;
    double value;
  };
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const Case cases[] = {{1, nan},  {1, 2e10}, {1, -1.5e10},   {1, 1e10},
                        {3, 2e10}, {3, nan},  {14, INFINITY}, {0, -INFINITY}};
  int warned = 0;
  for (const Case& bad : cases) {
    oracle::randomize_state(c.mj.get(), c.md.get(), 77);
    std::mt19937_64 rng(3);
    randomize_inputs(c.mj.get(), c.md.get(), rng);
    c.md->ctrl[bad.actuator] = bad.value;
    mj_forward(c.mj.get(), c.md.get());
    oracle::copy_data(c.mj.get(), c.md.get(), c.d);
    const WarningStat before = c.d.warning[kWarnBadCtrl];
    const int mj_before = c.md->warning[mjWARN_BADCTRL].number;
    mj_fwdActuation(c.mj.get(), c.md.get());
    actuation(c.m, c.d);
    oracle::Comparison cmp = oracle::compare_data(c.d, c.md.get(), c.mj.get(), kFields, {});
    const std::string where =
        "ctrl[" + std::to_string(bad.actuator) + "] = " + std::to_string(bad.value);
    oracle::expect_match(cmp, where);
    EXPECT_EQ(c.d.warning[kWarnBadCtrl].number - before.number,
              c.md->warning[mjWARN_BADCTRL].number - mj_before)
        << where;
    EXPECT_EQ(c.d.warning[kWarnBadCtrl].lastinfo, c.md->warning[mjWARN_BADCTRL].lastinfo) << where;
    warned += c.md->warning[mjWARN_BADCTRL].number - mj_before;
    // d.ctrl is left as it was.
    if (std::isnan(bad.value)) {
      EXPECT_TRUE(std::isnan(c.d.ctrl[bad.actuator]));
    } else {
      EXPECT_EQ(c.d.ctrl[bad.actuator], bad.value);
    }
  }
  // All but 1e10 (not beyond the limit) and the values clamped by ctrlrange (2e10 and -inf).
  EXPECT_EQ(warned, 5);
}

}  // namespace
}  // namespace joco
