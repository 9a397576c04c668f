// reset_state clears only the state, the inputs and what the pipeline reads before it writes: a
// call after reset_state and set_state gives, bit for bit, what it gives after reset_data, even
// when every other byte of the Data holds garbage (all bits set: NaN doubles, -1 ints and
// indices). This is what lets the per-row tools skip clearing the whole Data for every row.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "joco/data.h"
#include "joco/derivative.h"
#include "joco/forward.h"
#include "joco/inverse.h"
#include "joco/mjcf.h"
#include "joco/state.h"
#include "support/test_models.h"
#include "support/test_support.h"

namespace joco {
namespace {

// Whether a call left `dirty` as it left `clean`: the same header (counts, statistics, warnings)
// and, over the arrays, contacts and the Newton solver's cache, every byte the same, except bytes
// the call did not write, which hold the poison in `dirty` (0xff) and zero in `clean` (reset_data).
// A value computed from a stale byte differs (a NaN, or garbage): the call read before writing.
::testing::AssertionResult same_results(const Model& m, const Data& clean, const Data& dirty) {
  std::vector<double> a(static_cast<size_t>(state_size(m, kStateAll))), b(a.size());
  get_state(m, clean, a.data(), kStateAll);
  get_state(m, dirty, b.data(), kStateAll);
  if (std::memcmp(a.data(), b.data(), a.size() * sizeof(double)) != 0)
    return ::testing::AssertionFailure() << "the states differ";
  const int counts[2][6] = {
      {clean.ne, clean.nf, clean.nefc, clean.ncon, clean.solver_iter, clean.solver_nnz},
      {dirty.ne, dirty.nf, dirty.nefc, dirty.ncon, dirty.solver_iter, dirty.solver_nnz}};
  if (std::memcmp(counts[0], counts[1], sizeof(counts[0])) != 0 ||
      std::memcmp(clean.solver_fwdinv, dirty.solver_fwdinv, sizeof(clean.solver_fwdinv)) != 0 ||
      std::memcmp(clean.energy, dirty.energy, sizeof(clean.energy)) != 0)
    return ::testing::AssertionFailure() << "counts, fwdinv or energy differ";
  for (int w = 0; w < kNWarning; ++w) {
    if (clean.warning[w].number != dirty.warning[w].number)
      return ::testing::AssertionFailure() << "warning " << w << " differs";
  }
  const auto* x = reinterpret_cast<const unsigned char*>(clean.contact);
  const auto* y = reinterpret_cast<const unsigned char*>(dirty.contact);
  for (size_t i = 0; i < clean.nbuffer(); ++i) {
    if (x[i] != y[i] && !(x[i] == 0 && y[i] == 0xff)) {
      // Name the array.
      std::string where;
      const size_t contacts = sizeof(Contact) * static_cast<size_t>(m.nconmax);
      if (i < contacts) {
        where = "contact " + std::to_string(i / sizeof(Contact)) + " byte " +
                std::to_string(i % sizeof(Contact));
      } else {
        where = "solver cache byte " + std::to_string(i - contacts);
      }
      where += " (" + std::to_string(x[i]) + " after reset_data, " + std::to_string(y[i]) + ")";
      for (const ArrayField& f : clean.arrays()) {
        const auto* p = static_cast<const unsigned char*>(f.data);
        if (x + i >= p && x + i < p + f.bytes())
          where = std::string(f.name) + " byte " + std::to_string(x + i - p) + " (" +
                  std::to_string(x[i]) + " after reset_data, " + std::to_string(y[i]) + ")";
      }
      return ::testing::AssertionFailure() << "a result differs: " << where;
    }
  }
  return ::testing::AssertionSuccess();
}

// Every byte of d's arrays and contacts (and the Newton solver's cache) set: what a Data that
// computed anything before could hold, at its worst.
void poison(Data& d) { std::memset(static_cast<void*>(d.contact), 0xff, d.nbuffer()); }

// States along a short rollout with varied controls and applied forces: contacts, limits and a
// warmstart that is not zero.
std::vector<std::vector<double>> rollout_states(const Model& m, int count) {
  Data d = make_data(m);
  std::vector<std::vector<double>> states;
  for (int t = 0; t < 40 * count; ++t) {
    for (int u = 0; u < m.nu; ++u) d.ctrl[u] = 0.5 * std::sin(0.1 * t + u);
    for (int i = 0; i < m.nv; ++i) d.qfrc_applied[i] = 0.1 * std::cos(0.07 * t + i);
    step(m, d);
    if (t % 40 == 39) {
      states.emplace_back(static_cast<size_t>(state_size(m, kStateAll)));
      get_state(m, d, states.back().data(), kStateAll);
    }
  }
  return states;
}

// The call to compare, made after the state is set; it is told which state (inverse sets qacc).
using Call = std::function<void(const Model&, Data&, size_t state)>;

// The whole state, and only positions and velocities (a file with nothing else): reset_state must
// then give the rest of the state and inputs reset_data's values.
constexpr unsigned kMasks[] = {kStateAll, kStateQpos | kStateQvel};

// The call at `state` from a freshly reset Data and from a poisoned Data put right by reset_state:
// the same results, bit for bit.
void expect_independent(const Model& m, const std::vector<std::vector<double>>& states,
                        const Call& call, const std::string& what) {
  Data clean = make_data(m), dirty = make_data(m);
  std::vector<double> part;
  for (size_t k = 0; k < states.size(); ++k) {
    for (const unsigned mask : kMasks) {
      part.resize(static_cast<size_t>(state_size(m, mask)));
      set_state(m, clean, states[k].data(), kStateAll);
      get_state(m, clean, part.data(), mask);
      reset_data(m, clean);
      set_state(m, clean, part.data(), mask);
      call(m, clean, k);
      poison(dirty);
      reset_state(m, dirty);
      set_state(m, dirty, part.data(), mask);
      call(m, dirty, k);
      EXPECT_TRUE(same_results(m, clean, dirty)) << what << ", state " << k << ", mask " << mask;
    }
  }
}

class ResetState : public ::testing::TestWithParam<std::string> {};

TEST_P(ResetState, ForwardAndCheckIndependentOfStaleArrays) {
  Model m = compile_mjcf_file(test::testdata(GetParam()));
  for (int solver : {kSolverPGS, kSolverCG, kSolverNewton}) {
    m.opt.solver = solver;
    const auto states = rollout_states(m, 3);
    expect_independent(
        m, states, [](const Model& mm, Data& d, size_t) { forward(mm, d); },
        "forward, solver " + std::to_string(solver));
    expect_independent(
        m, states,
        [](const Model& mm, Data& d, size_t) {
          forward(mm, d);
          compare_fwd_inv(mm, d);
        },
        "forward and compare_fwd_inv, solver " + std::to_string(solver));
  }
}

TEST_P(ResetState, InverseIndependentOfStaleArrays) {
  const Model m = compile_mjcf_file(test::testdata(GetParam()));
  auto states = rollout_states(m, 3);
  // qacc as forward finds it at each state: inverse's input, set after set_state.
  std::vector<std::vector<double>> qacc;
  Data probe = make_data(m);
  for (const auto& s : states) {
    set_state(m, probe, s.data(), kStateAll);
    forward(m, probe);
    qacc.emplace_back(probe.qacc, probe.qacc + m.nv);
  }
  for (const bool discrete : {false, true}) {
    InverseOptions options;
    options.discrete = discrete;
    expect_independent(
        m, states,
        [&](const Model& mm, Data& d, size_t k) {
          std::copy(qacc[k].begin(), qacc[k].end(), d.qacc);
          inverse(mm, d, options);
        },
        discrete ? "discrete inverse" : "inverse");
  }
}

TEST_P(ResetState, StepIndependentOfStaleArrays) {
  Model m = compile_mjcf_file(test::testdata(GetParam()));
  for (int integrator : {kIntEuler, kIntRK4, kIntImplicit, kIntImplicitFast}) {
    m.opt.integrator = integrator;
    const auto states = rollout_states(m, 2);
    expect_independent(
        m, states, [](const Model& mm, Data& d, size_t) { step(mm, d); },
        "step, integrator " + std::to_string(integrator));
  }
}

TEST_P(ResetState, DerivativesIndependentOfStaleArrays) {
  Model m = compile_mjcf_file(test::testdata(GetParam()));
  m.nstack += transition_fd_stack(m);
  const auto states = rollout_states(m, 1);
  const int nx = 2 * m.nv + m.na;
  std::vector<double> a_clean(static_cast<size_t>(nx * nx)), a_dirty(a_clean.size());
  std::vector<double> b_clean(static_cast<size_t>(nx * m.nu)), b_dirty(b_clean.size());
  Data clean = make_data(m), dirty = make_data(m);
  poison(dirty);
  reset_data(m, clean);
  reset_state(m, dirty);
  for (Data* x : {&clean, &dirty}) set_state(m, *x, states[0].data(), kStateAll);
  transition_fd(m, clean, 1e-6, false, a_clean.data(), b_clean.data(), nullptr, nullptr);
  transition_fd(m, dirty, 1e-6, false, a_dirty.data(), b_dirty.data(), nullptr, nullptr);
  EXPECT_TRUE(a_clean == a_dirty && b_clean == b_dirty) << "transition_fd";

  // Continuous-time derivatives, a few columns of each.
  prepare_model_for_continuous_fd(m);
  const int end = std::min(m.nv, 3);
  const size_t n = static_cast<size_t>(m.nv * m.nv);
  std::vector<double> c[2][6];
  for (auto& set : c)
    for (auto& v : set) v.assign(n, 0.0);
  poison(dirty);
  reset_data(m, clean);
  reset_state(m, dirty);
  int which = 0;
  for (Data* x : {&clean, &dirty}) {
    set_state(m, *x, states[0].data(), kStateAll);
    auto& v = c[which++];
    forward_dynamics_fd(m, *x, {}, 0, end, v[0].data(), v[1].data(), v[2].data());
    forward(m, *x);  // qacc at the state: inverse's input
    inverse_dynamics_fd(m, *x, {}, 0, end, v[3].data(), v[4].data(), v[5].data());
  }
  for (int k = 0; k < 6; ++k) EXPECT_TRUE(c[0][k] == c[1][k]) << "continuous, matrix " << k;
}

INSTANTIATE_TEST_SUITE_P(Models, ResetState, ::testing::ValuesIn(test::quick_models()),
                         test::param_name);

// What it costs does not depend on the Data's size, and it allocates nothing.
TEST(ResetStateCost, NoHeap) {
  const Model m = compile_mjcf_file(test::testdata("mujoco/model/humanoid/humanoid.xml"));
  Data d = make_data(m);
  test::AllocationCounter counter;
  reset_state(m, d);
  EXPECT_EQ(counter.count(), 0);
}

}  // namespace
}  // namespace joco
