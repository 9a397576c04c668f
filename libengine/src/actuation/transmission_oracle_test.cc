// transmission and actuator_velocity against MuJoCo 2.2.2's mj_transmission and mj_fwdVelocity at
// seeded random states; the body (adhesion) transmission on MuJoCo's own contact list.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "joco/actuation.h"
#include "joco/smooth.h"
#include "joco/tendon.h"
#include "oracle/random_state.h"
#include "support/test_models.h"

namespace joco {
namespace {

class TransmissionOracle : public ::testing::TestWithParam<std::string> {};

// Compares actuator_moment (a matrix of lengths, against at least the model's extent) and
// actuator_velocity after MuJoCo's mj_fwdVelocity.
void compare_moments_and_velocities(oracle::OracleCase& c, oracle::Comparison& cmp) {
  const int64_t n = static_cast<int64_t>(c.m.nu) * c.m.nv;
  cmp.fields.push_back(oracle::compare_arrays("actuator_moment", c.d.actuator_moment,
                                              c.md->actuator_moment, n, {},
                                              std::max(1.0, c.mj->stat.extent)));
  mj_fwdVelocity(c.mj.get(), c.md.get());
  actuator_velocity(c.m, c.d);
  cmp.fields.push_back(oracle::compare_arrays("actuator_velocity", c.d.actuator_velocity,
                                              c.md->actuator_velocity, c.m.nu));
}

TEST_P(TransmissionOracle, MatchesMuJoCo) {
  oracle::StageCheck check;
  check.fields = {"actuator_length"};
  check.mujoco = [](const mjModel* m, mjData* d) { mj_transmission(m, d); };
  check.joco = [](const Model& m, Data& d) {
    tendon(m, d);  // moment arms in joco's layout (MuJoCo packs them in sparse mode)
    transmission(m, d);
  };
  check.extra = compare_moments_and_velocities;
  check.seeds = 6;
  oracle::check_stage(GetParam(), check);
}

// Every model with actuators (every transmission type is among them).
bool has_actuators(const test::ModelFeatures& f) { return f.nu > 0; }
uint64_t actuator_kinds(const test::ModelFeatures& f) { return f.actuator_kinds(); }

JOCO_INSTANTIATE_SWEEP(TransmissionOracle, has_actuators, actuator_kinds, "actuation/");

// The slider_crank model's "broken" actuator at the initial state: its rod cannot reach the
// slider's axis (negative determinant), the case MuJoCo draws as a broken crank.
TEST(TransmissionOracle, BrokenCrankAtInitialState) {
  oracle::OracleCase c;
  ASSERT_TRUE(oracle::load_case("mujoco/model/slider_crank/slider_crank.xml", c));
  mj_forward(c.mj.get(), c.md.get());
  const int u = mj_name2id(c.mj.get(), mjOBJ_ACTUATOR, "broken");
  ASSERT_GE(u, 0);
  const mjtNum* crank = c.md->site_xpos + 3 * c.mj->actuator_trnid[2 * u];
  const mjtNum* slider = c.md->site_xpos + 3 * c.mj->actuator_trnid[2 * u + 1];
  const mjtNum* mat = c.md->site_xmat + 9 * c.mj->actuator_trnid[2 * u + 1];
  const double axis[3] = {mat[2], mat[5], mat[8]};
  double v[3], av = 0, vv = 0;
  for (int k = 0; k < 3; ++k) {
    v[k] = crank[k] - slider[k];
    av += axis[k] * v[k];
    vv += v[k] * v[k];
  }
  const double rod = c.mj->actuator_cranklength[u];
  EXPECT_LT(av * av + rod * rod - vv, 0) << "the crank is not broken";
  oracle::copy_data(c.mj.get(), c.md.get(), c.d);
  oracle::poison(c.d, {"actuator_length", "actuator_moment"});
  tendon(c.m, c.d);
  transmission(c.m, c.d);
  oracle::Comparison cmp =
      oracle::compare_data(c.d, c.md.get(), c.mj.get(), {"actuator_length"}, {});
  compare_moments_and_velocities(c, cmp);
  oracle::expect_match(cmp, "slider_crank at qpos0");
}

// Copies MuJoCo's contact list into joco's Data.
void copy_contacts(const mjData* md, Data& d) {
  d.ncon = md->ncon;
  for (int i = 0; i < md->ncon; ++i) {
    const mjContact& a = md->contact[i];
    Contact& b = d.contact[i];
    b = Contact{};
    b.dist = a.dist;
    std::copy(a.pos, a.pos + 3, b.pos);
    std::copy(a.frame, a.frame + 9, b.frame);
    b.includemargin = a.includemargin;
    std::copy(a.friction, a.friction + 5, b.friction);
    std::copy(a.solref, a.solref + kNREF, b.solref);
    std::copy(a.solimp, a.solimp + kNIMP, b.solimp);
    b.mu = a.mu;
    std::copy(a.H, a.H + 36, b.H);
    b.dim = a.dim;
    b.geom1 = a.geom1;
    b.geom2 = a.geom2;
    b.exclude = a.exclude;
    b.efc_address = a.efc_address;
  }
}

// Adhesion actuators on the contacts MuJoCo found, after letting the model settle into contact
// (some of them in the margin gap, with `exclude` set).
TEST(TransmissionOracle, BodyTransmissionOnMuJoCoContacts) {
  oracle::OracleCase c;
  ASSERT_TRUE(oracle::load_case("mujoco/model/adhesion/active_adhesion.xml", c));
  int checked = 0, with_gap = 0;
  oracle::WorstErrors worst;
  for (int step = 0; step < 600; ++step) {
    for (int u = 0; u < c.mj->nu; ++u) c.md->ctrl[u] = 0.5 + 0.5 * std::sin(0.01 * step + u);
    mj_step(c.mj.get(), c.md.get());
    if (step % 50 != 49) continue;
    mj_forward(c.mj.get(), c.md.get());
    oracle::copy_data(c.mj.get(), c.md.get(), c.d);
    copy_contacts(c.md.get(), c.d);
    oracle::poison(c.d, {"actuator_length", "actuator_moment"});
    tendon(c.m, c.d);
    transmission(c.m, c.d);
    oracle::Comparison cmp =
        oracle::compare_data(c.d, c.md.get(), c.mj.get(), {"actuator_length"}, {});
    compare_moments_and_velocities(c, cmp);
    const std::string where = "step " + std::to_string(step);
    oracle::expect_match(cmp, where);
    worst.add(where, cmp);
    ++checked;
    for (int i = 0; i < c.md->ncon; ++i) with_gap += c.md->contact[i].exclude != 0;
    ASSERT_GT(c.md->ncon, 0);
  }
  EXPECT_EQ(checked, 12);
  std::cout << "active_adhesion (" << with_gap << " gap contacts seen):\n" << worst.table();
}

}  // namespace
}  // namespace joco
