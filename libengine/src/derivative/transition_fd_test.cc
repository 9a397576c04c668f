// transition_fd against closed forms (a linear damped slider with a limited motor; a free body,
// whose position columns rotate the tangent space), against plain differences of full steps
// (skipping stages must change nothing), and for what it leaves behind: the caller's state, no
// heap allocation.
#include <gtest/gtest.h>

#include <cmath>
#include <iostream>
#include <vector>

#include "joco/derivative.h"
#include "joco/forward.h"
#include "joco/mjcf.h"
#include "joco/smooth.h"
#include "math/vec.h"
#include "support/test_support.h"

namespace joco {
namespace {

using namespace math;

Model load(const std::string& relative) {
  Model m = compile_mjcf_file(test::testdata(relative));
  m.nstack += transition_fd_stack(m);
  return m;
}

struct Jacobians {
  std::vector<double> A, B, C, D;
};

Jacobians jacobians(const Model& m, Data& d, double eps, bool centered) {
  const size_t nx = static_cast<size_t>(2 * m.nv + m.na), nu = static_cast<size_t>(m.nu),
               ns = static_cast<size_t>(m.nsensordata);
  Jacobians j{std::vector<double>(nx * nx), std::vector<double>(nx * nu),
              std::vector<double>(ns * nx), std::vector<double>(ns * nu)};
  transition_fd(m, d, eps, centered, j.A.data(), j.B.data(), j.C.data(), j.D.data());
  return j;
}

// The slider: M = 2, k = 3, b = 0.5, gear g = 1.5, h = 0.01. Semi-implicit Euler with implicit
// damping: a = (-k q - b v + g u) / (M + h b), v' = v + h a, q' = q + h v'.
TEST(TransitionFd, LinearSliderHasItsClosedForm) {
  const Model m = load("derivative/slider.xml");
  ASSERT_EQ(m.nv, 1);
  const double M = 2, k = 3, b = 0.5, g = 1.5, h = 0.01, den = M + h * b;
  const double dv_dq = -h * k / den, dv_dv = 1 - h * b / den, dv_du = h * g / den;
  const double A[4] = {1 + h * dv_dq, h * dv_dv, dv_dq, dv_dv};
  const double B[2] = {h * dv_du, dv_du};
  // Sensors: jointpos, jointvel, actuatorfrc (the actuator's force: the control itself).
  const double C[6] = {1, 0, 0, 1, 0, 0};
  const double D[3] = {0, 0, 1};
  Data d(m);
  d.qpos[0] = 0.3;
  d.qvel[0] = -0.7;
  for (const double u :
       {0.2, 1.0, -1.0, 1.0 - 1e-7}) {  // inside, at both bounds, within eps of one
    for (const bool centered : {false, true}) {
      d.ctrl[0] = u;
      const Jacobians j = jacobians(m, d, 1e-6, centered);
      for (int i = 0; i < 4; ++i) EXPECT_NEAR(j.A[i], A[i], 1e-8) << "A " << i << " u " << u;
      for (int i = 0; i < 2; ++i) EXPECT_NEAR(j.B[i], B[i], 1e-8) << "B " << i << " u " << u;
      for (int i = 0; i < 6; ++i) EXPECT_NEAR(j.C[i], C[i], 1e-8) << "C " << i << " u " << u;
      for (int i = 0; i < 3; ++i) EXPECT_NEAR(j.D[i], D[i], 1e-8) << "D " << i << " u " << u;
    }
  }
  // Beyond the range actuation clamps the control: no side can be nudged, the column is zero.
  d.ctrl[0] = 1.5;
  const Jacobians j = jacobians(m, d, 1e-6, true);
  EXPECT_EQ(j.B[0], 0);
  EXPECT_EQ(j.B[1], 0);
  EXPECT_EQ(j.D[2], 0);
}

// A free box in zero gravity: q' = q exp(h w') with w' independent of the pose, so the rotational
// block of dqpos'/dqpos is the transposed rotation of exp(h w'), the translational one identity.
TEST(TransitionFd, FreeBodyRotatesTheTangentSpace) {
  const Model m = load("derivative/free_body.xml");
  ASSERT_EQ(m.nv, 6);
  Data d(m);
  double axis[3] = {0.3, -0.5, 0.8};
  normalize3(axis);
  double q[4];
  axis_angle_to_quat(q, axis, 0.9);
  for (int i = 0; i < 4; ++i) d.qpos[3 + i] = q[i];
  const double qvel[6] = {0.1, -0.2, 0.3, 4.0, -3.0, 5.0};
  for (int i = 0; i < 6; ++i) d.qvel[i] = qvel[i];
  for (const bool centered : {false, true}) {
    const Jacobians j = jacobians(m, d, 1e-6, centered);
    Data next(m);
    std::copy(d.qpos, d.qpos + m.nq, next.qpos);
    std::copy(d.qvel, d.qvel + m.nv, next.qvel);
    step(m, next);
    double w[3] = {next.qvel[3], next.qvel[4], next.qvel[5]};
    double rot[4], R[9];
    double angle = normalize3(w) * m.opt.timestep;
    axis_angle_to_quat(rot, w, angle);
    quat_to_mat(R, rot);
    const int nx = 12;
    double worst = 0;
    for (int r = 0; r < 6; ++r) {
      for (int c = 0; c < 6; ++c) {
        double expected = r == c && r < 3 ? 1 : 0;
        if (r >= 3 && c >= 3) expected = R[3 * (c - 3) + (r - 3)];  // R'
        worst = std::max(worst, std::abs(j.A[static_cast<size_t>(r * nx + c)] - expected));
      }
    }
    EXPECT_LT(worst, centered ? 1e-8 : 1e-5) << (centered ? "centred" : "forward");
    std::cout << "free body, " << (centered ? "centred" : "forward")
              << ": worst |dq'/dq - closed form| " << worst << "\n";
  }
}

// The same Jacobians from full steps of copies of the Data (no stage skipped): transition_fd's
// skipping may only change roundoff.
Jacobians by_full_steps(const Model& m, const Data& d0, double eps) {
  const int nq = m.nq, nv = m.nv, na = m.na, nu = m.nu, ns = m.nsensordata, nx = 2 * nv + na;
  auto run = [&](const Data& from, std::vector<double>& x, std::vector<double>& y) {
    Data d = from;
    step(m, d);
    x.assign(d.qpos, d.qpos + nq);
    x.insert(x.end(), d.qvel, d.qvel + nv);
    x.insert(x.end(), d.act, d.act + na);
    y.assign(d.sensordata, d.sensordata + ns);
  };
  std::vector<double> x0, y0, x1, y1, dx(static_cast<size_t>(nx));
  run(d0, x0, y0);
  Jacobians j{std::vector<double>(static_cast<size_t>(nx * nx)),
              std::vector<double>(static_cast<size_t>(nx * nu)),
              std::vector<double>(static_cast<size_t>(ns * nx)),
              std::vector<double>(static_cast<size_t>(ns * nu))};
  auto column = [&](std::vector<double>& X, std::vector<double>& Y, int cols, int c) {
    differentiate_pos(m, dx.data(), eps, x0.data(), x1.data());
    for (int i = 0; i < nv + na; ++i)
      dx[static_cast<size_t>(nv + i)] =
          (x1[static_cast<size_t>(nq + i)] - x0[static_cast<size_t>(nq + i)]) / eps;
    for (int i = 0; i < nx; ++i) X[static_cast<size_t>(i * cols + c)] = dx[static_cast<size_t>(i)];
    for (int i = 0; i < ns; ++i)
      Y[static_cast<size_t>(i * cols + c)] =
          (y1[static_cast<size_t>(i)] - y0[static_cast<size_t>(i)]) / eps;
  };
  for (int i = 0; i < nu; ++i) {
    Data d = d0;
    d.ctrl[i] += eps;
    run(d, x1, y1);
    column(j.B, j.D, nu, i);
  }
  for (int i = 0; i < na; ++i) {
    Data d = d0;
    d.act[i] += eps;
    run(d, x1, y1);
    column(j.A, j.C, nx, 2 * nv + i);
  }
  for (int i = 0; i < nv; ++i) {
    Data d = d0;
    d.qvel[i] += eps;
    run(d, x1, y1);
    column(j.A, j.C, nx, nv + i);
  }
  std::vector<double> dq(static_cast<size_t>(nv), 0.0);
  for (int i = 0; i < nv; ++i) {
    Data d = d0;
    dq[static_cast<size_t>(i)] = 1;
    integrate_pos(m, d.qpos, dq.data(), eps);
    dq[static_cast<size_t>(i)] = 0;
    run(d, x1, y1);
    column(j.A, j.C, nx, i);
  }
  return j;
}

double worst_difference(const std::vector<double>& a, const std::vector<double>& b) {
  double scale = 1, worst = 0;
  for (double x : b) scale = std::max(scale, std::abs(x));
  for (size_t i = 0; i < a.size(); ++i) worst = std::max(worst, std::abs(a[i] - b[i]) / scale);
  return worst;
}

TEST(TransitionFd, SkippingStagesChangesOnlyRoundoff) {
  struct Case {
    const char* model;
    int integrator;
  };
  for (const Case c : {Case{"mujoco/model/humanoid/humanoid.xml", kIntEuler},
                       Case{"mujoco/model/humanoid/humanoid.xml", kIntRK4},
                       Case{"mujoco/model/tendon_arm/arm26.xml", kIntEuler},
                       Case{"mujoco/model/tendon_arm/arm26.xml", kIntImplicit},
                       Case{"sensor/all_sensors.xml", kIntEuler},
                       Case{"sensor/all_sensors.xml", kIntImplicitFast}}) {
    const char* model = c.model;
    Model m = load(model);
    m.opt.integrator = c.integrator;
    Data d(m);
    for (int t = 0; t < 150; ++t) {
      for (int i = 0; i < m.nu; ++i) d.ctrl[i] = 0.3 * std::sin(0.1 * t + i);
      step(m, d);
    }
    const Jacobians reference = by_full_steps(m, d, 1e-6);
    const Jacobians j = jacobians(m, d, 1e-6, false);
    const double worst =
        std::max({worst_difference(j.A, reference.A), worst_difference(j.B, reference.B),
                  worst_difference(j.C, reference.C), worst_difference(j.D, reference.D)});
    std::cout << model << " (integrator " << c.integrator << "): worst difference from full steps "
              << worst << " (ncon " << d.ncon << ")\n";
    EXPECT_LT(worst, 1e-8) << model;
  }
}

TEST(TransitionFd, RestoresTheStateAndAllocatesNothing) {
  const Model m = load("mujoco/model/humanoid/humanoid.xml");
  Data d(m);
  for (int t = 0; t < 50; ++t) step(m, d);
  const Data before = d;
  const size_t nx = static_cast<size_t>(2 * m.nv + m.na);
  std::vector<double> A(nx * nx), B(nx * static_cast<size_t>(m.nu));
  {
    test::AllocationCounter counter;
    transition_fd(m, d, 1e-6, true, A.data(), B.data(), nullptr, nullptr);
    EXPECT_EQ(counter.count(), 0);
  }
  EXPECT_EQ(d.time, before.time);
  EXPECT_EQ(d.pstack, before.pstack);
  for (int i = 0; i < m.nq; ++i) EXPECT_EQ(d.qpos[i], before.qpos[i]);
  for (int i = 0; i < m.nv; ++i) EXPECT_EQ(d.qvel[i], before.qvel[i]);
  for (int i = 0; i < m.nv; ++i) EXPECT_EQ(d.qacc_warmstart[i], before.qacc_warmstart[i]);
  for (int i = 0; i < m.nu; ++i) EXPECT_EQ(d.ctrl[i], before.ctrl[i]);
  // Called again from the same inputs: the same numbers (the warmstart is the caller's each time).
  std::vector<double> A2(nx * nx);
  transition_fd(m, d, 1e-6, true, A2.data(), nullptr, nullptr, nullptr);
  EXPECT_EQ(A, A2);
}

}  // namespace
}  // namespace joco
