// qDeriv against centred finite differences of qfrc_passive + qfrc_actuator - qfrc_bias with
// respect to qvel (on the entries of its pattern), with and without the bias term, and no heap use.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "joco/derivative.h"
#include "support/stage_test_support.h"

namespace joco {
namespace {

std::vector<double> smooth_force(const Model& m, Data& d, bool with_bias) {
  test::velocity_stages(m, d);
  std::vector<double> f(static_cast<size_t>(m.nv));
  for (int i = 0; i < m.nv; ++i) {
    f[static_cast<size_t>(i)] = d.qfrc_passive[i] + d.qfrc_actuator[i];
    if (with_bias) f[static_cast<size_t>(i)] -= d.qfrc_bias[i];
  }
  return f;
}

void check_against_finite_differences(const char* model, bool with_bias, double tolerance) {
  const Model m = test::compile_testdata(model);
  Data d(m);
  double worst = 0;
  for (uint64_t seed = 0; seed < 4; ++seed) {
    test::random_state(m, d, 100 + seed);
    test::position_stages(m, d);
    test::velocity_stages(m, d);
    smooth_velocity_derivative(m, d, with_bias);
    const std::vector<double> qderiv(d.qDeriv, d.qDeriv + m.nD);
    const std::vector<double> qvel(d.qvel, d.qvel + m.nv);
    const double h = 1e-6;
    for (int j = 0; j < m.nv; ++j) {
      d.qvel[j] = qvel[j] + h;
      const std::vector<double> plus = smooth_force(m, d, with_bias);
      d.qvel[j] = qvel[j] - h;
      const std::vector<double> minus = smooth_force(m, d, with_bias);
      d.qvel[j] = qvel[j];
      // Column j: the rows i whose pattern holds j.
      for (int i = 0; i < m.nv; ++i) {
        for (int k = 0; k < d.D_rownnz[i]; ++k) {
          if (d.D_colind[d.D_rowadr[i] + k] != j) continue;
          const double fd = (plus[i] - minus[i]) / (2 * h);
          const double value = qderiv[d.D_rowadr[i] + k];
          const double err = std::fabs(fd - value) / (1 + std::fabs(fd));
          worst = std::max(worst, err);
          EXPECT_LT(err, tolerance) << model << " seed " << seed << " (" << i << ", " << j << ")";
        }
      }
    }
  }
  std::cout << model << (with_bias ? "" : " (no bias)") << ": worst " << worst << "\n";
}

TEST(SmoothVelocityDerivative, MatchesFiniteDifferences) {
  check_against_finite_differences("actuation/actuators.xml", true, 1e-6);
  check_against_finite_differences("actuation/fluid.xml", true, 1e-6);
  check_against_finite_differences("actuation/fluid.xml", false, 1e-6);
  check_against_finite_differences("actuation/springs.xml", true, 1e-6);
  check_against_finite_differences("actuation/tendons.xml", true, 1e-6);
  check_against_finite_differences("mujoco/model/humanoid/humanoid.xml", true, 1e-6);
  check_against_finite_differences("smooth/joint_zoo.xml", true, 1e-6);
}

TEST(SmoothVelocityDerivative, PatternIsSymmetricTreePattern) {
  const Model m = test::compile_testdata("mujoco/model/humanoid/humanoid.xml");
  Data d(m);
  derivative_sparsity(m, d);
  int nnz = 0;
  for (int i = 0; i < m.nv; ++i) {
    EXPECT_EQ(d.D_rowadr[i], nnz);
    nnz += d.D_rownnz[i];
    for (int k = 0; k < d.D_rownnz[i]; ++k) {
      const int j = d.D_colind[d.D_rowadr[i] + k];
      if (k > 0) {
        EXPECT_LT(d.D_colind[d.D_rowadr[i] + k - 1], j);
      }
      // j is i, an ancestor of i or a descendant of i.
      const int lo = std::min(i, j), hi = std::max(i, j);
      bool related = false;
      for (int a = hi; a >= 0; a = m.dof_parentid[a]) related |= a == lo;
      EXPECT_TRUE(related) << i << " " << j;
    }
  }
  EXPECT_EQ(nnz, m.nD);
  EXPECT_EQ(m.nD, 2 * m.nM - m.nv);
}

TEST(SmoothVelocityDerivative, NoHeapAllocation) {
  Model m = test::compile_testdata("actuation/fluid.xml");
  Data d(m);
  test::random_state(m, d, 1);
  test::position_stages(m, d);
  test::velocity_stages(m, d);
  test::AllocationCounter counter;
  smooth_velocity_derivative(m, d, true);
  EXPECT_EQ(counter.count(), 0);
}

}  // namespace
}  // namespace joco
