// The continuous-time derivatives against closed forms where the dynamics are smooth (no
// constraints): dqacc/dqfrc = inv(M), dqacc/dqvel = inv(M) qDeriv with the analytic qDeriv, and,
// with inverse dynamics, dqfrc_inverse/dqacc = M; the same numbers whatever the thread count; no
// heap allocation in a worker.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <iostream>
#include <vector>

#include "joco/derivative.h"
#include "joco/forward.h"
#include "joco/mjcf.h"
#include "joco/smooth.h"
#include "support/test_support.h"

namespace joco {
namespace {

// humanoid with its constraints (contacts, joint limits) disabled: smooth dynamics.
Model smooth_humanoid() {
  Model m = compile_mjcf_file(test::testdata("mujoco/model/humanoid/humanoid.xml"));
  m.opt.disableflags |= kDisableConstraint;
  prepare_model_for_continuous_fd(m);
  return m;
}

// A state away from the initial one, with velocities.
void some_state(const Model& m, Data& d) {
  for (int t = 0; t < 60; ++t) {
    for (int i = 0; i < m.nu; ++i) d.ctrl[i] = 0.4 * std::sin(0.2 * t + i);
    step(m, d);
  }
}

double worst_relative(const std::vector<double>& a, const std::vector<double>& b) {
  double scale = 0, worst = 0;
  for (double x : b) scale = std::max(scale, std::abs(x));
  for (size_t i = 0; i < a.size(); ++i) worst = std::max(worst, std::abs(a[i] - b[i]) / scale);
  return worst;
}

TEST(ContinuousFd, ForwardDerivativesOfSmoothDynamicsHaveClosedForms) {
  const Model m = smooth_humanoid();
  const int nv = m.nv;
  Data state(m);
  some_state(m, state);
  std::vector<Data> workers;
  workers.emplace_back(m);
  ContinuousOptions options;
  options.inverse = false;
  const ContinuousDerivatives deriv = continuous_derivatives(m, state, workers, options);

  // inv(M), column by column, and inv(M) qDeriv with qDeriv from the analytic derivative.
  Data d = state;
  forward(m, d);
  std::vector<double> minv(static_cast<size_t>(nv * nv)), qderiv(static_cast<size_t>(nv * nv)),
      expected_vel(static_cast<size_t>(nv * nv)), col(static_cast<size_t>(nv));
  smooth_velocity_derivative_dense(m, d, true, qderiv.data());
  for (int c = 0; c < nv; ++c) {
    std::fill(col.begin(), col.end(), 0.0);
    col[static_cast<size_t>(c)] = 1;
    solve_m(m, d, col.data(), col.data(), 1);
    for (int r = 0; r < nv; ++r)
      minv[static_cast<size_t>(r * nv + c)] = col[static_cast<size_t>(r)];
    for (int r = 0; r < nv; ++r)
      col[static_cast<size_t>(r)] = qderiv[static_cast<size_t>(r * nv + c)];
    solve_m(m, d, col.data(), col.data(), 1);
    for (int r = 0; r < nv; ++r)
      expected_vel[static_cast<size_t>(r * nv + c)] = col[static_cast<size_t>(r)];
  }
  const double err_frc = worst_relative(deriv.dqacc_dqfrc, minv);
  const double err_vel = worst_relative(deriv.dqacc_dqvel, expected_vel);
  std::cout << "smooth humanoid: dqacc/dqfrc vs inv(M) " << err_frc
            << ", dqacc/dqvel vs inv(M) qDeriv " << err_vel << "\n";
  EXPECT_LT(err_frc, 1e-6);
  // One-sided differences: an O(eps) truncation error on top of roundoff.
  EXPECT_LT(err_vel, 1e-5);
}

TEST(ContinuousFd, ThreadCountChangesNothing) {
  Model m = compile_mjcf_file(test::testdata("mujoco/model/humanoid/humanoid.xml"));
  prepare_model_for_continuous_fd(m);
  Data state(m);
  ContinuousOptions options;
  options.inverse = true;
  std::vector<Data> one, three;
  one.emplace_back(m);
  for (int t = 0; t < 3; ++t) three.emplace_back(m);
  // On the floor (contacts), at several states: a worker's first column once started from
  // quaternions its centre evaluation had normalised in place, which showed at some states only.
  int steps = 0;
  for (int until : {145, 150, 151}) {
    for (; steps < until; ++steps) step(m, state);
    ASSERT_GT(state.ncon, 0);
    const ContinuousDerivatives a = continuous_derivatives(m, state, one, options);
    const ContinuousDerivatives b = continuous_derivatives(m, state, three, options);
    EXPECT_EQ(a.dqacc_dqpos, b.dqacc_dqpos) << "after " << steps << " steps";
    EXPECT_EQ(a.dqacc_dqvel, b.dqacc_dqvel) << "after " << steps << " steps";
    EXPECT_EQ(a.dqacc_dqfrc, b.dqacc_dqfrc) << "after " << steps << " steps";
    EXPECT_EQ(a.dqfrc_dqpos, b.dqfrc_dqpos) << "after " << steps << " steps";
    EXPECT_EQ(a.dqfrc_dqvel, b.dqfrc_dqvel) << "after " << steps << " steps";
    EXPECT_EQ(a.dqfrc_dqacc, b.dqfrc_dqacc) << "after " << steps << " steps";
  }
}

TEST(ContinuousFd, ForwardWorkerAllocatesNothing) {
  Model m = compile_mjcf_file(test::testdata("mujoco/model/humanoid/humanoid.xml"));
  prepare_model_for_continuous_fd(m);
  Data d(m);
  for (int t = 0; t < 150; ++t) step(m, d);
  const int nv = m.nv;
  std::vector<double> f0(static_cast<size_t>(nv * nv)), f1(f0.size()), f2(f0.size());
  const int pstack = d.pstack;
  test::AllocationCounter counter;
  forward_dynamics_fd(m, d, ContinuousOptions{}, 0, nv, f0.data(), f1.data(), f2.data());
  EXPECT_EQ(counter.count(), 0);
  EXPECT_EQ(d.pstack, pstack);
}

// joco-derivatives --continuous's loop over states: after the first state has made the matrices,
// a state's derivatives (one worker: more start threads) and their accuracy check allocate
// nothing, and the matrices are those of a fresh call.
TEST(ContinuousFd, AStateLoopAllocatesOnlyAtItsFirstState) {
  Model m = compile_mjcf_file(test::testdata("mujoco/model/humanoid/humanoid.xml"));
  prepare_model_for_continuous_fd(m);
  Data state(m);
  std::vector<Data> workers;
  workers.emplace_back(m);
  ContinuousDerivatives reused;
  for (int t = 0; t < 60; ++t) step(m, state);
  forward(m, state);
  continuous_derivatives(m, state, workers, ContinuousOptions{}, reused);
  for (int t = 0; t < 60; ++t) step(m, state);
  forward(m, state);
  test::AllocationCounter counter;
  continuous_derivatives(m, state, workers, ContinuousOptions{}, reused);
  const std::array<double, kNAccuracy> accuracy = continuous_derivative_accuracy(reused);
  EXPECT_EQ(counter.count(), 0);
  const ContinuousDerivatives fresh =
      continuous_derivatives(m, state, workers, ContinuousOptions{});
  EXPECT_EQ(reused.dqacc_dqpos, fresh.dqacc_dqpos);
  EXPECT_EQ(reused.dqacc_dqfrc, fresh.dqacc_dqfrc);
  EXPECT_EQ(reused.dqfrc_dqvel, fresh.dqfrc_dqvel);
  EXPECT_EQ(reused.dqfrc_dqacc, fresh.dqfrc_dqacc);
  EXPECT_EQ(accuracy, continuous_derivative_accuracy(fresh));
}

TEST(ContinuousFd, InverseDerivativesOfSmoothDynamics) {
  const Model m = smooth_humanoid();
  const int nv = m.nv;
  Data state(m);
  some_state(m, state);
  // Inverse dynamics at the acceleration forward dynamics gives at this state: there the
  // identities of the accuracy check hold.
  forward(m, state);
  std::vector<Data> workers;
  workers.emplace_back(m);
  workers.emplace_back(m);
  const ContinuousDerivatives deriv =
      continuous_derivatives(m, state, workers, ContinuousOptions{});
  Data d = state;
  forward(m, d);
  std::vector<double> M(static_cast<size_t>(nv * nv));
  full_m(m, M.data(), d.qM);
  const double err = worst_relative(deriv.dqfrc_dqacc, M);
  const std::array<double, kNAccuracy> accuracy = continuous_derivative_accuracy(deriv);
  std::cout << "smooth humanoid: dqfrc_inverse/dqacc vs M " << err << "; accuracy";
  for (int k = 0; k < kNAccuracy; ++k)
    std::cout << " [" << kAccuracyNames[k] << "] " << accuracy[static_cast<size_t>(k)];
  std::cout << "\n";
  EXPECT_LT(err, 1e-6);
  // The products that should be identity or zero (log10 of relative residuals), as small as
  // mujoco-derivative finds them on smooth dynamics.
  EXPECT_LT(accuracy[0], -5);  // G2*F2 - I
  EXPECT_LT(accuracy[4], -4);  // G1 + G2*F1
  EXPECT_LT(accuracy[5], -4);  // G0 + G2*F0
  EXPECT_LT(accuracy[6], -4);  // F1 + F2*G1
  EXPECT_LT(accuracy[7], -4);  // F0 + F2*G0
}

// With contacts, d qfrc_inverse / d qacc = M + J' D J over the active rows: symmetric. The qacc
// columns recompute only the acceleration stage, so collision detection, whose contact points
// move with rounding for ill-conditioned poses (a cylinder standing on its cap), cannot spoil them.
TEST(ContinuousFd, InverseAccelerationColumnsAreSymmetricWithManyContacts) {
  Model m = compile_mjcf_file(test::testdata("mujoco/model/humanoid100/humanoid100.xml"));
  Data d(m);
  for (int t = 0; t < 500; ++t) step(m, d);
  ASSERT_GT(d.ncon, 100);
  forward(m, d);
  const int nv = m.nv;
  std::vector<double> dqfrc_dqacc(static_cast<size_t>(nv) * nv);
  inverse_dynamics_fd(m, d, ContinuousOptions{}, 0, nv, nullptr, nullptr, dqfrc_dqacc.data());
  double asymmetry = 0, size = 0;
  for (int i = 0; i < nv; ++i) {
    for (int j = 0; j < nv; ++j) {
      const double a = dqfrc_dqacc[static_cast<size_t>(i) * nv + j];
      asymmetry += std::abs(a - dqfrc_dqacc[static_cast<size_t>(j) * nv + i]);
      size += std::abs(a);
    }
  }
  EXPECT_LT(asymmetry / size, 1e-7);
}

}  // namespace
}  // namespace joco
