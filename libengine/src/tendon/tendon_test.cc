// Tendon lengths and moment arms against finite differences (moment arms = d length / d qpos along
// each dof), velocities against J qvel and against the derivative of the length along qvel, the
// wrapping geometry against analytic cases, and no heap use.
#include "joco/tendon.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "support/stage_test_support.h"
#include "tendon/wrap.h"

namespace joco {
namespace {

// Lengths at qpos moved by dt along the velocity v.
std::vector<double> lengths_along(const Model& m, Data& d, const std::vector<double>& qpos,
                                  const double* v, double dt) {
  for (int i = 0; i < m.nq; ++i) d.qpos[i] = qpos[i];
  integrate_pos(m, d.qpos, v, dt);
  kinematics(m, d);
  com_pos(m, d);
  tendon(m, d);
  return std::vector<double>(d.ten_length, d.ten_length + m.ntendon);
}

void check_moment_arms(const char* model, double tolerance) {
  const Model m = test::compile_testdata(model);
  Data d(m);
  double worst = 0;
  for (uint64_t seed = 0; seed < 6; ++seed) {
    test::random_state(m, d, seed);
    const std::vector<double> qpos(d.qpos, d.qpos + m.nq);
    kinematics(m, d);
    com_pos(m, d);
    tendon(m, d);
    const std::vector<double> J(d.ten_J, d.ten_J + static_cast<size_t>(m.ntendon) * m.nv);
    const double h = 1e-6;
    std::vector<double> e(static_cast<size_t>(m.nv), 0.0);
    for (int i = 0; i < m.nv; ++i) {
      e[static_cast<size_t>(i)] = 1;
      const std::vector<double> plus = lengths_along(m, d, qpos, e.data(), h);
      const std::vector<double> minus = lengths_along(m, d, qpos, e.data(), -h);
      e[static_cast<size_t>(i)] = 0;
      for (int t = 0; t < m.ntendon; ++t) {
        const double fd = (plus[t] - minus[t]) / (2 * h);
        const double err = std::fabs(fd - J[static_cast<size_t>(t) * m.nv + i]);
        worst = std::max(worst, err);
        EXPECT_LT(err, tolerance) << model << " seed " << seed << " tendon " << t << " dof " << i;
      }
    }
  }
  std::cout << model << ": worst |d length/dq - ten_J| " << worst << "\n";
}

TEST(Tendon, MomentArmsAreLengthGradients) {
  check_moment_arms("actuation/tendons.xml", 1e-7);
  check_moment_arms("actuation/tendons_inside.xml", 1e-7);
  check_moment_arms("mujoco/model/tendon_arm/arm26.xml", 1e-7);
}

TEST(Tendon, VelocityIsJacobianTimesQvel) {
  const Model m = test::compile_testdata("actuation/tendons.xml");
  Data d(m);
  test::random_state(m, d, 11);
  const std::vector<double> qpos(d.qpos, d.qpos + m.nq), qvel(d.qvel, d.qvel + m.nv);
  kinematics(m, d);
  com_pos(m, d);
  tendon(m, d);
  tendon_velocity(m, d);
  const std::vector<double> velocity(d.ten_velocity, d.ten_velocity + m.ntendon);
  const std::vector<double> J(d.ten_J, d.ten_J + static_cast<size_t>(m.ntendon) * m.nv);
  // Dense product, and the derivative of the length along qvel.
  const double h = 1e-6;
  const std::vector<double> plus = lengths_along(m, d, qpos, qvel.data(), h);
  const std::vector<double> minus = lengths_along(m, d, qpos, qvel.data(), -h);
  for (int t = 0; t < m.ntendon; ++t) {
    double dense = 0;
    for (int i = 0; i < m.nv; ++i) dense += J[static_cast<size_t>(t) * m.nv + i] * qvel[i];
    EXPECT_NEAR(velocity[t], dense, 1e-12);
    EXPECT_NEAR(velocity[t], (plus[t] - minus[t]) / (2 * h), 1e-7);
  }
}

TEST(Tendon, SparsityCoversEveryNonzero) {
  const Model m = test::compile_testdata("actuation/tendons.xml");
  Data d(m);
  test::random_state(m, d, 3);
  kinematics(m, d);
  com_pos(m, d);
  tendon(m, d);
  for (int t = 0; t < m.ntendon; ++t) {
    std::vector<bool> in(static_cast<size_t>(m.nv), false);
    for (int k = 0; k < d.ten_J_rownnz[t]; ++k) {
      const int c = d.ten_J_colind[d.ten_J_rowadr[t] + k];
      if (k > 0) {
        EXPECT_LT(d.ten_J_colind[d.ten_J_rowadr[t] + k - 1], c);
      }
      in[static_cast<size_t>(c)] = true;
    }
    for (int i = 0; i < m.nv; ++i) {
      if (!in[static_cast<size_t>(i)]) {
        EXPECT_EQ(d.ten_J[t * m.nv + i], 0) << "tendon " << t;
      }
    }
  }
}

TEST(Wrap, SymmetricCircleWrap) {
  // Ends at (-2, 0.5) and (2, 0.5) around the unit circle: tangent points at x = -+ sin(a) with
  // cos(a) ... by symmetry the path's length is 2 sqrt(d^2 - 1) + arc.
  const double q0[2] = {-2, 0.5}, q1[2] = {2, 0.5};
  double u0[2], u1[2];
  const double arc = wrap::circle(q0, q1, nullptr, 1, u0, u1);
  ASSERT_GT(arc, 0);
  const double d = std::hypot(2.0, 0.5);
  const double phi = std::atan2(0.5, -2.0), alpha = std::acos(1 / d);
  EXPECT_NEAR(u0[0], std::cos(phi - alpha), 1e-15);
  EXPECT_NEAR(u0[1], std::sin(phi - alpha), 1e-15);
  EXPECT_NEAR(u1[0], -u0[0], 1e-15);
  EXPECT_NEAR(u1[1], u0[1], 1e-15);
  EXPECT_NEAR(arc, 2 * std::atan2(-u0[0], u0[1]), 1e-15);
  // Tangency: the radius is perpendicular to the straight part.
  EXPECT_NEAR((q0[0] - u0[0]) * u0[0] + (q0[1] - u0[1]) * u0[1], 0, 1e-15);
  // A segment clear of the circle does not wrap; a side site below forces the path under it.
  const double far0[2] = {-2, 1.5}, far1[2] = {2, 1.5}, below[2] = {0, -3};
  EXPECT_LT(wrap::circle(far0, far1, nullptr, 1, u0, u1), 0);
  EXPECT_GT(wrap::circle(far0, far1, below, 1, u0, u1), 0);
  EXPECT_LT(u0[1], 0);
  EXPECT_LT(u1[1], 0);
}

TEST(Wrap, InsidePointIsTheShortestPath) {
  const double q0[2] = {-1.3, 0.9}, q1[2] = {0.4, 2.1};
  double u[2];
  wrap::inside_point(q0, q1, 1, u);
  EXPECT_NEAR(std::hypot(u[0], u[1]), 1, 1e-15);
  auto length = [&](double a) {
    const double p[2] = {std::cos(a), std::sin(a)};
    return std::hypot(q0[0] - p[0], q0[1] - p[1]) + std::hypot(q1[0] - p[0], q1[1] - p[1]);
  };
  const double a = std::atan2(u[1], u[0]);
  EXPECT_LE(length(a), length(a + 1e-4));
  EXPECT_LE(length(a), length(a - 1e-4));
  // Stationary: equal angles with the normal (reflection law).
  const double n[2] = {u[0], u[1]};
  const double a0[2] = {q0[0] - u[0], q0[1] - u[1]}, a1[2] = {q1[0] - u[0], q1[1] - u[1]};
  const double c0 = (a0[0] * n[0] + a0[1] * n[1]) / std::hypot(a0[0], a0[1]);
  const double c1 = (a1[0] * n[0] + a1[1] * n[1]) / std::hypot(a1[0], a1[1]);
  // MuJoCo 2.2.2's search stops with the reflection law met to about 1e-6.
  EXPECT_NEAR(c0, c1, 2e-6);
  EXPECT_GT(std::fabs(c0 - c1), 1e-12);  // it did stop early
}

TEST(Wrap, InsidePointOfANearlyGrazingSegmentIsTheEndsMidDirection) {
  // The segment passes 1e-3 above the unit circle: at z = 1 - 1e-7 the reflection law's residual
  // is already positive, and MuJoCo 2.2.2 takes the direction of q0 + q1.
  const double q0[2] = {-2, 1.001}, q1[2] = {3, 1.001};
  double u[2];
  wrap::inside_point(q0, q1, 1, u);
  const double n = std::hypot(q0[0] + q1[0], q0[1] + q1[1]);
  EXPECT_NEAR(u[0], (q0[0] + q1[0]) / n, 1e-15);
  EXPECT_NEAR(u[1], (q0[1] + q1[1]) / n, 1e-15);
}

TEST(Tendon, NoHeapAllocation) {
  const Model m = test::compile_testdata("actuation/tendons.xml");
  Data d(m);
  test::random_state(m, d, 1);
  kinematics(m, d);
  com_pos(m, d);
  test::AllocationCounter counter;
  tendon(m, d);
  tendon_velocity(m, d);
  EXPECT_EQ(counter.count(), 0);
}

}  // namespace
}  // namespace joco
