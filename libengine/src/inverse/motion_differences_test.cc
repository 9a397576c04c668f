#include "joco/motion_differences.h"

#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <numbers>
#include <random>
#include <stdexcept>
#include <vector>

#include "joco/mjcf.h"
#include "joco/smooth.h"
#include "math/vec.h"

namespace joco {
namespace {

using namespace math;

// A free body, a ball joint, a hinge and a slide: nq 13, nv 11.
Model joints_model() {
  return compile_mjcf(
      "<mujoco><worldbody>"
      "<body><freejoint/><geom size='0.1'/></body>"
      "<body pos='1 0 0'><joint type='ball'/><geom size='0.1'/>"
      "  <body pos='0 0 -0.5'><joint axis='0 1 0'/><geom size='0.1'/>"
      "    <body pos='0 0 -0.5'><joint type='slide' axis='1 0 0'/><geom size='0.1'/></body>"
      "  </body></body>"
      "</worldbody></mujoco>",
      "joints.xml", ".");
}

// A motion given by its position, velocity and acceleration (qvel's convention) at time t.
struct Motion {
  std::function<void(double t, double* qpos, double* qvel, double* qacc)> at;
};

// Rotation about fixed axes with polynomial angles (exact for quadratic schemes in the tangent
// space), polynomial translations and joint angles.
Motion polynomial_motion(int degree) {
  return {[degree](double t, double* q, double* v, double* a) {
    auto poly = [degree](double x, double c, double* d1, double* d2) {
      // c (1 + x + x^2/2 [+ x^3/3]) and its derivatives
      double p = c * (1 + x + x * x / 2), p1 = c * (1 + x), p2 = c;
      if (degree >= 3) {
        p += c * x * x * x / 3;
        p1 += c * x * x;
        p2 += 2 * c * x;
      }
      *d1 = p1;
      *d2 = p2;
      return p;
    };
    double d1, d2;
    // free joint: translation, then rotation about a fixed axis
    for (int k = 0; k < 3; ++k) {
      q[k] = poly(t, 0.3 * (k + 1), &d1, &d2);
      v[k] = d1;
      a[k] = d2;
    }
    const double axis[2][3] = {{0.6, 0, 0.8}, {0, 0.28, 0.96}};
    const double q0[2][4] = {{0.9, 0.1, -0.3, 0.3}, {0.5, 0.5, 0.5, 0.5}};
    double* quats[2] = {q + 3, q + 7};
    double* vel[2] = {v + 3, v + 6};
    double* acc[2] = {a + 3, a + 6};
    for (int j = 0; j < 2; ++j) {
      const double angle = poly(t, 0.7 - 0.4 * j, &d1, &d2);
      double r[4], base[4];
      copy4(base, q0[j]);
      quat_normalize(base);
      axis_angle_to_quat(r, axis[j], angle);
      quat_mul(quats[j], base, r);
      scale3(vel[j], axis[j], d1);
      scale3(acc[j], axis[j], d2);
    }
    q[11] = poly(t, -0.5, &d1, &d2);
    v[9] = d1;
    a[9] = d2;
    q[12] = poly(t, 0.2, &d1, &d2);
    v[10] = d1;
    a[10] = d2;
  }};
}

struct Samples {
  std::vector<double> time, qpos, qvel, qacc;
};

Samples sample(const Model& m, const Motion& motion, const std::vector<double>& time) {
  Samples s;
  s.time = time;
  const size_t rows = time.size();
  s.qpos.resize(rows * m.nq);
  s.qvel.resize(rows * m.nv);
  s.qacc.resize(rows * m.nv);
  for (size_t t = 0; t < rows; ++t) {
    motion.at(time[t], &s.qpos[t * m.nq], &s.qvel[t * m.nv], &s.qacc[t * m.nv]);
  }
  return s;
}

std::vector<double> uniform_times(int rows, double h, double t0 = 0.1) {
  std::vector<double> t(rows);
  for (int i = 0; i < rows; ++i) t[i] = t0 + i * h;
  return t;
}

double max_abs_diff(const std::vector<double>& a, const std::vector<double>& b, size_t first = 0,
                    size_t last = SIZE_MAX) {
  double worst = 0;
  for (size_t i = first; i < std::min(last, a.size()); ++i)
    worst = std::max(worst, std::abs(a[i] - b[i]));
  return worst;
}

struct Result {
  std::vector<double> qpos, qvel, qacc;
};

Result differentiate(const Model& m, const Samples& s, const DifferenceOptions& o) {
  const int rows = static_cast<int>(s.time.size());
  Result r;
  r.qpos.resize(s.qpos.size());
  r.qvel.resize(s.qvel.size());
  r.qacc.resize(s.qacc.size());
  differentiate_positions(m, rows, s.time.data(), s.qpos.data(), o, r.qpos.data(), r.qvel.data(),
                          r.qacc.data());
  return r;
}

DifferenceOptions scheme(DifferenceScheme s, int window = 5, int order = 2) {
  DifferenceOptions o;
  o.scheme = s;
  o.window = window;
  o.order = order;
  return o;
}

// Quadratic motions (angles of rotations about fixed axes included) are differentiated exactly by
// the second-order schemes, at every row, on an uneven grid too.
TEST(FiniteDifference, QuadraticsAreExact) {
  const Model m = joints_model();
  const Motion motion = polynomial_motion(2);
  std::vector<double> uneven = {0.0, 0.01, 0.025, 0.03, 0.045, 0.06, 0.08, 0.085, 0.1};
  for (const auto& time : {uniform_times(9, 0.01), uneven}) {
    const Samples s = sample(m, motion, time);
    for (const DifferenceOptions& o :
         {scheme(DifferenceScheme::kCentral), scheme(DifferenceScheme::kSavitzkyGolay, 5, 2),
          scheme(DifferenceScheme::kSavitzkyGolay, 7, 3)}) {
      const Result r = differentiate(m, s, o);
      EXPECT_LT(max_abs_diff(r.qvel, s.qvel), 1e-9);
      EXPECT_LT(max_abs_diff(r.qacc, s.qacc), 1e-7);
      EXPECT_LT(max_abs_diff(r.qpos, s.qpos), 1e-12);
    }
    // First-order schemes: accelerations exact (three-point quadratics), velocities off by h a/2.
    for (DifferenceScheme d : {DifferenceScheme::kForward, DifferenceScheme::kBackward}) {
      const Result r = differentiate(m, s, scheme(d));
      EXPECT_LT(max_abs_diff(r.qacc, s.qacc), 1e-7);
      const double err = max_abs_diff(r.qvel, s.qvel);
      EXPECT_GT(err, 1e-3);
      EXPECT_LT(err, 0.02 * 2);  // h a / 2 with h <= 0.02, |a| < 2
    }
  }
}

// Cubics need a cubic: Savitzky-Golay of order 3 is exact where central differences are not.
TEST(FiniteDifference, SavitzkyGolayOrderThreeIsExactForCubics) {
  const Model m = joints_model();
  const Samples s = sample(m, polynomial_motion(3), uniform_times(15, 0.02));
  const Result sg = differentiate(m, s, scheme(DifferenceScheme::kSavitzkyGolay, 7, 3));
  EXPECT_LT(max_abs_diff(sg.qvel, s.qvel), 1e-9);
  EXPECT_LT(max_abs_diff(sg.qacc, s.qacc), 1e-7);
  const Result central = differentiate(m, s, scheme(DifferenceScheme::kCentral));
  EXPECT_GT(max_abs_diff(central.qacc, s.qacc), 1e-3);  // one-sided ends: first order in a
}

// A rotation whose axis turns (z then x, each angle a sine): no scheme is exact, and central
// differences converge at second order, in velocity and in (local) angular acceleration.
TEST(FiniteDifference, CentralDifferencesConvergeAtSecondOrderOnTurningRotations) {
  const Model m = compile_mjcf(
      "<mujoco><worldbody><body><joint type='ball'/><geom size='0.1'/></body></worldbody>"
      "</mujoco>",
      "ball.xml", ".");
  const Motion motion{[](double t, double* q, double* v, double* a) {
    const double th1 = std::sin(2 * t), d1 = 2 * std::cos(2 * t), dd1 = -4 * std::sin(2 * t);
    const double th2 = 0.5 * std::sin(3 * t), d2 = 1.5 * std::cos(3 * t),
                 dd2 = -4.5 * std::sin(3 * t);
    const double z[3] = {0, 0, 1}, x[3] = {1, 0, 0};
    double qa[4], qb[4];
    axis_angle_to_quat(qa, z, th1);
    axis_angle_to_quat(qb, x, th2);
    quat_mul(q, qa, qb);
    // body angular velocity: Rb' z th1' + x th2'; its derivative adds -(x th2') x (Rb' z) th1'.
    double rb[9], zb[3], w2[3], c[3];
    quat_to_mat(rb, qb);
    mat_t_vec3(zb, rb, z);
    scale3(w2, x, d2);
    for (int k = 0; k < 3; ++k) v[k] = zb[k] * d1 + x[k] * d2;
    cross3(c, w2, zb);
    for (int k = 0; k < 3; ++k) a[k] = zb[k] * dd1 - c[k] * d1 + x[k] * dd2;
  }};
  double previous_v = 0, previous_a = 0;
  for (double h : {0.02, 0.01, 0.005}) {
    const int rows = static_cast<int>(std::lround(0.6 / h)) + 1;
    const Samples s = sample(m, motion, uniform_times(rows, h));
    const Result r = differentiate(m, s, scheme(DifferenceScheme::kCentral));
    // interior rows
    const double ev = max_abs_diff(r.qvel, s.qvel, 3, s.qvel.size() - 3);
    const double ea = max_abs_diff(r.qacc, s.qacc, 3, s.qacc.size() - 3);
    if (previous_v > 0) {
      EXPECT_NEAR(previous_v / ev, 4, 0.3) << "h " << h;
      EXPECT_NEAR(previous_a / ea, 4, 0.3) << "h " << h;
    }
    previous_v = ev;
    previous_a = ea;
  }
}

// The discrete scheme inverts semi-implicit Euler: v' = v + h a, q' = q (+) h v'.
TEST(FiniteDifference, DiscreteSchemeInvertsTheEulerStep) {
  const Model m = joints_model();
  std::mt19937_64 rng(5);
  std::uniform_real_distribution<double> u(-1, 1);
  const int rows = 12;
  const double h = 0.004;
  Samples s;
  s.time = uniform_times(rows, h);
  std::vector<double> q(m.nq), v(m.nv), a(m.nv);
  polynomial_motion(2).at(0, q.data(), v.data(), a.data());
  for (int t = 0; t < rows; ++t) {
    for (int i = 0; i < m.nv; ++i) a[i] = 3 * u(rng);
    s.qpos.insert(s.qpos.end(), q.begin(), q.end());
    s.qvel.insert(s.qvel.end(), v.begin(), v.end());
    s.qacc.insert(s.qacc.end(), a.begin(), a.end());
    for (int i = 0; i < m.nv; ++i) v[i] += h * a[i];
    integrate_pos(m, q.data(), v.data(), h);
  }
  const Result r = differentiate(m, s, scheme(DifferenceScheme::kDiscrete));
  EXPECT_LT(max_abs_diff(r.qvel, s.qvel, m.nv), 1e-10);  // every row but the first
  EXPECT_LT(max_abs_diff(r.qacc, s.qacc, m.nv, (rows - 1) * m.nv), 1e-7);  // interior rows
  // From the velocities alone: (v_{t+1} - v_t) / h.
  std::vector<double> acc(s.qacc.size());
  differentiate_velocities(m, rows, s.time.data(), s.qvel.data(),
                           scheme(DifferenceScheme::kDiscrete), acc.data());
  EXPECT_LT(max_abs_diff(acc, s.qacc, 0, (rows - 1) * m.nv), 1e-9);
}

// Noisy capture: Savitzky-Golay smoothing brings the positions closer to the truth and cuts the
// acceleration error that central differences amplify by 1/h^2.
TEST(FiniteDifference, SavitzkyGolaySmoothsNoisyCapture) {
  const Model m = compile_mjcf(
      "<mujoco><worldbody><body><joint axis='0 1 0'/><geom size='0.1'/></body></worldbody>"
      "</mujoco>",
      "hinge.xml", ".");
  const int rows = 400;
  const double h = 0.01;
  std::mt19937_64 rng(9);
  std::normal_distribution<double> noise(0, 1e-4);
  Samples s;
  s.time = uniform_times(rows, h, 0);
  std::vector<double> truth_q, truth_a;
  for (int t = 0; t < rows; ++t) {
    const double x = s.time[t];
    truth_q.push_back(std::sin(x));
    truth_a.push_back(-std::sin(x));
    s.qpos.push_back(std::sin(x) + noise(rng));
  }
  s.qvel.resize(rows);
  s.qacc.resize(rows);
  auto rms = [&](const std::vector<double>& a, const std::vector<double>& b) {
    double sum = 0;
    for (int t = 10; t < rows - 10; ++t) sum += (a[t] - b[t]) * (a[t] - b[t]);
    return std::sqrt(sum / (rows - 20));
  };
  const Result central = differentiate(m, s, scheme(DifferenceScheme::kCentral));
  const Result sg = differentiate(m, s, scheme(DifferenceScheme::kSavitzkyGolay, 31, 3));
  EXPECT_LT(rms(sg.qpos, truth_q), 0.5 * rms(s.qpos, truth_q));
  EXPECT_LT(rms(sg.qacc, truth_a), 0.05 * rms(central.qacc, truth_a));
  EXPECT_LT(rms(sg.qacc, truth_a), 0.02);
}

TEST(FiniteDifference, ParsesAndChecksSchemes) {
  EXPECT_EQ(parse_difference_scheme("central").scheme, DifferenceScheme::kCentral);
  EXPECT_EQ(parse_difference_scheme("discrete").scheme, DifferenceScheme::kDiscrete);
  EXPECT_EQ(parse_difference_scheme("spline").scheme, DifferenceScheme::kQuinticSpline);
  const DifferenceOptions o = parse_difference_scheme("savgol:9:3");
  EXPECT_EQ(o.scheme, DifferenceScheme::kSavitzkyGolay);
  EXPECT_EQ(o.window, 9);
  EXPECT_EQ(o.order, 3);
  for (const char* bad : {"savgol:8:3", "savgol:5:5", "savgol:5:1", "savgol:5", "savgol:a:2",
                          "savgol:5:2x", "splines"}) {
    EXPECT_THROW(parse_difference_scheme(bad), std::invalid_argument) << bad;
  }
  const Model m = joints_model();
  std::vector<double> q(2 * m.nq, 0), t = {0, 1};
  for (int r = 0; r < 2; ++r) q[r * m.nq + 3] = q[r * m.nq + 7] = 1;
  EXPECT_THROW(differentiate_positions(m, 2, t.data(), q.data(), {}, nullptr, nullptr, nullptr),
               std::invalid_argument);  // too few rows
  std::vector<double> q3(3 * m.nq, 0), t3 = {0, 1, 1};
  for (int r = 0; r < 3; ++r) q3[r * m.nq + 3] = q3[r * m.nq + 7] = 1;
  EXPECT_THROW(differentiate_positions(m, 3, t3.data(), q3.data(), {}, nullptr, nullptr, nullptr),
               std::invalid_argument);  // time must increase
}

// The quintic spline (OpenSim's ID tool's derivatives): on hinges and slides sampled at 60 Hz,
// a 2 Hz sine's velocity and acceleration within 2e-5 and 2e-4 of their amplitudes away from the
// ends (rows 10 to 62), where central differences are off by 0.7% and 1.5% (1 - sin(wh)/wh and
// 1 - (2 - 2 cos(wh))/(wh)^2); a line's derivatives exact; the positions kept. At the first and
// last rows the padding decides: the odd reflection about the end sample keeps odd derivatives
// and flips even ones, so the spline's acceleration there is ~0 whatever the signal's (as in
// OpenSim, whose filtered, padded coordinates are odd about their end samples).
TEST(FiniteDifference, QuinticSplineDerivatives) {
  const Model m = compile_mjcf(
      "<mujoco><worldbody><body><joint axis='0 1 0'/><geom size='0.1'/>"
      "<body pos='0 0 -0.5'><joint type='slide' axis='1 0 0'/><geom size='0.1'/></body>"
      "</body></worldbody></mujoco>",
      "two.xml", ".");
  const int rows = 73;
  const double h = 1.0 / 60, w = 2 * std::numbers::pi * 2, amplitude = 0.7;
  std::vector<double> time(rows), q(2 * rows), v(2 * rows), a(2 * rows), qout(2 * rows);
  const auto exact = [&](int r, int derivative) {
    const double phase = w * time[r] + 0.3;
    return derivative == 1 ? amplitude * w * std::cos(phase) : -amplitude * w * w * std::sin(phase);
  };
  for (int r = 0; r < rows; ++r) {
    time[r] = 0.4 + r * h;
    q[2 * r] = amplitude * std::sin(w * time[r] + 0.3);
    q[2 * r + 1] = 0.05 - 0.2 * time[r];
  }
  DifferenceOptions o;
  o.scheme = DifferenceScheme::kQuinticSpline;
  differentiate_positions(m, rows, time.data(), q.data(), o, qout.data(), v.data(), a.data());
  std::vector<double> vc(2 * rows), ac(2 * rows);
  differentiate_positions(m, rows, time.data(), q.data(), {}, nullptr, vc.data(), ac.data());
  double velocity = 0, acceleration = 0, central = 0;
  for (int r = 0; r < rows; ++r) {
    EXPECT_NEAR(v[2 * r + 1], -0.2, 1e-12);
    EXPECT_NEAR(a[2 * r + 1], 0, 1e-9);
    EXPECT_EQ(qout[2 * r], q[2 * r]);
    if (r < 10 || r > 62) continue;
    velocity = std::max(velocity, std::abs(v[2 * r] - exact(r, 1)));
    acceleration = std::max(acceleration, std::abs(a[2 * r] - exact(r, 2)));
    central = std::max(central, std::abs(ac[2 * r] - exact(r, 2)));
  }
  EXPECT_LT(velocity, 2e-5 * amplitude * w);
  EXPECT_LT(acceleration, 2e-4 * amplitude * w * w);
  EXPECT_GT(central, 10 * acceleration);
  EXPECT_GT(std::abs(exact(0, 2)), 0.5 * amplitude * w * w);  // the ends' accelerations are large
  EXPECT_GT(std::abs(exact(rows - 1, 2)), 0.5 * amplitude * w * w);
  EXPECT_LT(std::abs(a[0]), 0.01 * amplitude * w * w);  // but the padding makes them ~0
  EXPECT_LT(std::abs(a[2 * (rows - 1)]), 0.01 * amplitude * w * w);
  // From velocities: the spline's derivative of the sampled velocity.
  std::vector<double> vel(2 * rows), acc(2 * rows);
  for (int r = 0; r < rows; ++r) vel[2 * r] = exact(r, 1);
  differentiate_velocities(m, rows, time.data(), vel.data(), o, acc.data());
  for (int r = 10; r <= 62; ++r)
    EXPECT_NEAR(acc[2 * r], exact(r, 2), 2e-4 * amplitude * w * w) << r;

  // Uneven rows and quaternions are refused.
  time[10] += 0.002;
  EXPECT_THROW(
      differentiate_positions(m, rows, time.data(), q.data(), o, nullptr, v.data(), nullptr),
      std::invalid_argument);
  const Model ball = joints_model();
  std::vector<double> qb(3 * ball.nq, 0), tb = {0, 1, 2};
  for (int r = 0; r < 3; ++r) qb[r * ball.nq + 3] = qb[r * ball.nq + 7] = 1;
  EXPECT_THROW(differentiate_positions(ball, 3, tb.data(), qb.data(), o, nullptr, nullptr, nullptr),
               std::invalid_argument);
}

}  // namespace
}  // namespace joco
