#include "joco/state.h"

#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "joco/error.h"
#include "joco/forward.h"
#include "joco/mjcf.h"
#include "support/test_support.h"

namespace joco {
namespace {

// Between them: quaternions and mocap bodies (joint_zoo), activations and controls (arm26).
const char* const kModels[] = {"smooth/joint_zoo.xml", "mujoco/model/tendon_arm/arm26.xml"};

// Every component's Data array and size, in the state's order.
struct Expected {
  const double* values;
  int size;
};
std::vector<Expected> components(const Model& m, const Data& d) {
  return {{&d.time, 1},
          {d.qpos, m.nq},
          {d.qvel, m.nv},
          {d.act, m.na},
          {d.qacc_warmstart, m.nv},
          {d.ctrl, m.nu},
          {d.qfrc_applied, m.nv},
          {d.xfrc_applied, 6 * m.nbody},
          {d.mocap_pos, 3 * m.nmocap},
          {d.mocap_quat, 4 * m.nmocap}};
}

// Distinct values in every state component, each starting at `base`.
void fill(const Model& m, Data& d, double base) {
  double v = base;
  for (const Expected& c : components(m, d)) {
    for (int i = 0; i < c.size; ++i) const_cast<double*>(c.values)[i] = (v += 0.25);
  }
}

bool same(const double* a, const double* b, int n) {
  return n == 0 || std::memcmp(a, b, sizeof(double) * static_cast<size_t>(n)) == 0;
}

TEST(State, SizesFollowTheModel) {
  int nonzero = 0;
  for (const char* path : kModels) {
    const Model m = compile_mjcf_file(test::testdata(path));
    const Data d = make_data(m);
    const std::vector<Expected> c = components(m, d);
    int all = 0;
    for (int i = 0; i < kNStateComponent; ++i) {
      EXPECT_EQ(state_size(m, 1u << i), c[static_cast<size_t>(i)].size) << path << " bit " << i;
      all += c[static_cast<size_t>(i)].size;
      if (c[static_cast<size_t>(i)].size > 0) nonzero |= 1 << i;
    }
    EXPECT_EQ(state_size(m, kStateAll), all);
    EXPECT_EQ(state_size(m, 0), 0);
    EXPECT_EQ(state_size(m, kStatePhysics), m.nq + m.nv + m.na);
    EXPECT_EQ(state_size(m, kStateFullPhysics), 1 + m.nq + m.nv + m.na);
    EXPECT_EQ(state_size(m, kStateUser), m.nu + m.nv + 6 * m.nbody + 7 * m.nmocap);
    EXPECT_EQ(state_size(m, kStateIntegration), all);
  }
  // The models between them exercise every component.
  EXPECT_EQ(nonzero, static_cast<int>(kStateAll));
}

TEST(State, RoundTripOfEveryMask) {
  for (const char* path : kModels) {
    const Model m = compile_mjcf_file(test::testdata(path));
    Data a = make_data(m), b = make_data(m), c = make_data(m), untouched = make_data(m);
    fill(m, a, 1);
    fill(m, untouched, -1000);
    for (unsigned mask = 0; mask <= kStateAll; ++mask) {
      std::vector<double> state(static_cast<size_t>(state_size(m, mask)));
      get_state(m, a, state.data(), mask);
      // The layout: the selected components, in order, each as its Data array.
      size_t at = 0;
      const std::vector<Expected> ca = components(m, a);
      for (int i = 0; i < kNStateComponent; ++i) {
        if (!(mask & (1u << i))) continue;
        const Expected& want = ca[static_cast<size_t>(i)];
        EXPECT_TRUE(same(state.data() + at, want.values, want.size)) << path << " mask " << mask;
        at += static_cast<size_t>(want.size);
      }
      ASSERT_EQ(at, state.size());
      // set_state sets exactly the selected components; copy_state the same.
      fill(m, b, -1000);
      fill(m, c, -1000);
      set_state(m, b, state.data(), mask);
      copy_state(m, a, c, mask);
      const std::vector<Expected> cb = components(m, b), cc = components(m, c),
                                  cu = components(m, untouched);
      for (int i = 0; i < kNStateComponent; ++i) {
        const size_t k = static_cast<size_t>(i);
        const Expected& want = (mask & (1u << i)) ? ca[k] : cu[k];
        EXPECT_TRUE(same(cb[k].values, want.values, want.size)) << path << " set, bit " << i;
        EXPECT_TRUE(same(cc[k].values, want.values, want.size)) << path << " copy, bit " << i;
      }
    }
  }
}

TEST(State, BadMaskAndForeignDataAreRefused) {
  const Model m = compile_mjcf_file(test::testdata(kModels[0]));
  const Model other = compile_mjcf_file(test::testdata(kModels[1]));
  Data d = make_data(m), foreign = make_data(other);
  std::vector<double> state(static_cast<size_t>(state_size(m, kStateAll)));
  EXPECT_THROW(state_size(m, kStateAll + 1), InputError);
  EXPECT_THROW(get_state(m, d, state.data(), 1u << kNStateComponent), InputError);
  EXPECT_THROW(get_state(m, foreign, state.data(), kStateAll), InputError);
  EXPECT_THROW(set_state(m, foreign, state.data(), kStateAll), InputError);
  EXPECT_THROW(copy_state(m, d, foreign, kStateAll), InputError);
  EXPECT_THROW(copy_state(m, foreign, d, kStateAll), InputError);
}

// What joco-fwdinv-check and the derivatives did before the state had one definition: reset, then
// each input copied by hand. set_state (after reset_data) then forward computes the same bits.
TEST(State, SetStateThenForwardIsTheHandCopy) {
  for (const char* path : kModels) {
    const Model m = compile_mjcf_file(test::testdata(path));
    Data source = make_data(m);
    for (int i = 0; i < m.nu; ++i) source.ctrl[i] = 0.3;
    for (int k = 0; k < 25; ++k) step(m, source);
    for (int i = 0; i < m.nv; ++i) source.qfrc_applied[i] = 0.01 * i;
    source.xfrc_applied[6 * (m.nbody - 1) + 2] = 0.5;

    Data by_hand = make_data(m);
    const auto set = [](double* dst, const double* src, int n) {
      if (n > 0) std::memcpy(dst, src, sizeof(double) * static_cast<size_t>(n));
    };
    by_hand.time = source.time;
    set(by_hand.qpos, source.qpos, m.nq);
    set(by_hand.qvel, source.qvel, m.nv);
    set(by_hand.act, source.act, m.na);
    set(by_hand.ctrl, source.ctrl, m.nu);
    set(by_hand.qfrc_applied, source.qfrc_applied, m.nv);
    set(by_hand.xfrc_applied, source.xfrc_applied, 6 * m.nbody);
    set(by_hand.qacc_warmstart, source.qacc_warmstart, m.nv);
    set(by_hand.mocap_pos, source.mocap_pos, 3 * m.nmocap);
    set(by_hand.mocap_quat, source.mocap_quat, 4 * m.nmocap);

    Data by_state = make_data(m);
    std::vector<double> state(static_cast<size_t>(state_size(m, kStateIntegration)));
    get_state(m, source, state.data(), kStateIntegration);
    set_state(m, by_state, state.data(), kStateIntegration);

    forward(m, by_hand);
    forward(m, by_state);
    EXPECT_TRUE(same(by_hand.qacc, by_state.qacc, m.nv)) << path;
    EXPECT_TRUE(same(by_hand.sensordata, by_state.sensordata, m.nsensordata)) << path;
    EXPECT_TRUE(same(by_hand.qfrc_constraint, by_state.qfrc_constraint, m.nv)) << path;
    step(m, by_hand);
    step(m, by_state);
    std::vector<double> after_hand(state.size()), after_state(state.size());
    get_state(m, by_hand, after_hand.data(), kStateIntegration);
    get_state(m, by_state, after_state.data(), kStateIntegration);
    EXPECT_EQ(after_hand, after_state) << path;
  }
}

}  // namespace
}  // namespace joco
