#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <stdexcept>
#include <vector>

#include "joco/mjcf.h"
#include "joco/motion_differences.h"

namespace joco {
namespace {

constexpr double kPi = std::numbers::pi;

std::vector<double> sine(int rows, double h, double f, double phase = 0) {
  std::vector<double> x(static_cast<size_t>(rows));
  for (int r = 0; r < rows; ++r) x[r] = std::sin(2 * kPi * f * r * h + phase);
  return x;
}

// Amplitude and phase of x against sin(2 pi f t) over the middle rows (least squares on sin, cos).
void fit_sine(const std::vector<double>& x, double h, double f, int first, int last,
              double& amplitude, double& phase) {
  double ss = 0, cc = 0, sc = 0, xs = 0, xc = 0;
  for (int r = first; r < last; ++r) {
    const double s = std::sin(2 * kPi * f * r * h), c = std::cos(2 * kPi * f * r * h);
    ss += s * s;
    cc += c * c;
    sc += s * c;
    xs += x[r] * s;
    xc += x[r] * c;
  }
  const double det = ss * cc - sc * sc;
  const double a = (xs * cc - xc * sc) / det, b = (xc * ss - xs * sc) / det;
  amplitude = std::hypot(a, b);
  phase = std::atan2(b, a);
}

// The combined forward-backward filter: -3 dB at the cutoff (Winter's two-pass correction), the
// closed form |H(f)| = 1 / (1 + (tan(pi f h) / tan(pi f_p h))^4), unit gain at 0 Hz.
TEST(LowpassFilter, GainClosedForm) {
  const double h = 1.0 / 60, fc = 6;
  EXPECT_NEAR(lowpass_gain(fc, h, fc), 1 / std::numbers::sqrt2, 1e-12);
  EXPECT_NEAR(20 * std::log10(lowpass_gain(fc, h, fc)), -3.0103, 1e-4);
  EXPECT_EQ(lowpass_gain(0, h, fc), 1.0);
  EXPECT_LT(lowpass_gain(15, h, fc), 0.03);
  EXPECT_THROW(lowpass_gain(1, h, 30), std::invalid_argument);  // at Nyquist
  EXPECT_THROW(lowpass_gain(1, h, 0), std::invalid_argument);
}

// A sine far from the ends comes out scaled by the closed-form gain with no phase shift, at the
// cutoff and around it, at the trial's 60 Hz and at 1000 Hz.
TEST(LowpassFilter, SineResponseMatchesClosedFormWithZeroPhase) {
  int compared = 0;
  for (const double rate : {60.0, 1000.0}) {
    const double h = 1 / rate, fc = 6;
    const int rows = rate < 100 ? 2000 : 20000;
    for (const double f : {1.0, 3.0, 6.0, 9.0, 12.0}) {
      std::vector<double> x = sine(rows, h, f, 0.3);
      lowpass_filter(rows, 1, h, fc, x.data());
      double amplitude = 0, phase = 0;
      fit_sine(x, h, f, rows / 4, 3 * rows / 4, amplitude, phase);
      EXPECT_NEAR(amplitude, lowpass_gain(f, h, fc), 2e-6) << "rate " << rate << " f " << f;
      EXPECT_NEAR(phase, 0.3, 1e-6) << "rate " << rate << " f " << f;
      ++compared;
    }
  }
  EXPECT_EQ(compared, 10);
}

// OpenSim's style (its ID tool's Signal::LowpassIIR): third order per pass, uncorrected, so the
// combined gain is 1 / (1 + (tan(pi f h) / tan(pi fc h))^6), 1/2 at the cutoff; a sine far from
// the ends comes out scaled by it with no phase shift; lines pass, and the padding of half the
// rows keeps a slow signal's ends.
TEST(LowpassFilter, OpenSimStyle) {
  const double h = 1.0 / 60, fc = 6;
  EXPECT_NEAR(lowpass_gain(fc, h, fc, LowpassStyle::kOpenSim), 0.5, 1e-12);
  const double ratio = std::tan(kPi * 9 * h) / std::tan(kPi * fc * h);
  EXPECT_NEAR(lowpass_gain(9, h, fc, LowpassStyle::kOpenSim), 1 / (1 + std::pow(ratio, 6)), 1e-12);
  int compared = 0;
  for (const double f : {1.0, 3.0, 6.0, 9.0, 12.0}) {
    const int rows = 2000;
    std::vector<double> x = sine(rows, h, f, 0.3);
    lowpass_filter(rows, 1, h, fc, x.data(), LowpassStyle::kOpenSim);
    double amplitude = 0, phase = 0;
    fit_sine(x, h, f, rows / 4, 3 * rows / 4, amplitude, phase);
    EXPECT_NEAR(amplitude, lowpass_gain(f, h, fc, LowpassStyle::kOpenSim), 2e-6) << f;
    EXPECT_NEAR(phase, 0.3, 1e-6) << f;
    ++compared;
  }
  EXPECT_EQ(compared, 5);
  std::vector<double> line(73), slow = sine(73, h, 0.5);
  for (int r = 0; r < 73; ++r) line[r] = 3 - 2 * r * h;
  std::vector<double> filtered = line, smooth = slow;
  lowpass_filter(73, 1, h, fc, filtered.data(), LowpassStyle::kOpenSim);
  lowpass_filter(73, 1, h, fc, smooth.data(), LowpassStyle::kOpenSim);
  for (int r = 0; r < 73; ++r) {
    EXPECT_NEAR(filtered[r], line[r], 1e-10);
    EXPECT_NEAR(smooth[r], slow[r], 3e-3);
  }
}

// Constant and linear signals (whole and at the ends) pass unchanged, several columns at once.
TEST(LowpassFilter, PassesConstantsAndLines) {
  const int rows = 73, columns = 3;
  const double h = 1.0 / 60;
  std::vector<double> x(rows * columns);
  for (int r = 0; r < rows; ++r) {
    x[r * columns + 0] = 2.5;
    x[r * columns + 1] = -1 + 0.37 * r * h;
    x[r * columns + 2] = 1e3 - 40 * r * h;
  }
  std::vector<double> y = x;
  lowpass_filter(rows, columns, h, 6, y.data());
  for (size_t i = 0; i < x.size(); ++i) EXPECT_NEAR(y[i], x[i], 1e-10 * (1 + std::abs(x[i])));
}

// At the ends: a slow signal (well below the cutoff) comes out nearly unchanged up to the first and
// last rows (the odd reflections continue its value and slope; what is left, 2.3e-3 at the last
// rows, is the response to its curvature, which the reflection flips), where a filter started from
// rest at the first row would lag by the signal's change over the impulse response.
TEST(LowpassFilter, EndsFollowSlowSignals) {
  const int rows = 73;
  const double h = 1.0 / 60;
  std::vector<double> x(rows);
  for (int r = 0; r < rows; ++r) x[r] = std::sin(2 * kPi * 0.7 * r * h) + 0.3 * r * h;
  std::vector<double> y = x;
  lowpass_filter(rows, 1, h, 6, y.data());
  for (int r = 0; r < rows; ++r) EXPECT_NEAR(y[r], x[r], 3e-3) << r;
}

// Positions: hinge and slide columns filtered, a ball joint's quaternion made sign-continuous,
// filtered and normalised; uneven rows refused.
TEST(LowpassFilter, Positions) {
  const Model m = compile_mjcf(
      "<mujoco><worldbody><body><joint type='ball'/><geom size='0.1'/>"
      "<body><joint type='hinge'/><geom size='0.1'/></body></body></worldbody></mujoco>",
      "ball.xml", ".");
  const int rows = 200;
  std::vector<double> time(rows), q(rows * m.nq);
  for (int r = 0; r < rows; ++r) {
    time[r] = 0.01 * r;
    const double angle = 0.5 * time[r];  // slow rotation about z
    const double sign = r % 2 ? -1 : 1;  // flipped quaternions: the same rotations
    q[r * 5 + 0] = sign * std::cos(angle / 2);
    q[r * 5 + 3] = sign * std::sin(angle / 2);
    q[r * 5 + 4] = std::sin(2 * kPi * 20 * time[r]) + 0.2;  // 20 Hz, removed by a 6 Hz cutoff
  }
  lowpass_positions(m, rows, time.data(), 6, q.data());
  for (int r = 0; r < rows; ++r) {
    const double angle = 0.5 * time[r];
    EXPECT_NEAR(std::abs(q[r * 5 + 0]), std::cos(angle / 2), 1e-4) << r;
    EXPECT_NEAR(q[r * 5 + 0] * q[r * 5 + 3], std::cos(angle / 2) * std::sin(angle / 2), 1e-4);
    if (r > 20 && r < rows - 20) {
      EXPECT_NEAR(q[r * 5 + 4], 0.2, 0.02) << r;
    }
  }
  time[5] += 0.003;
  EXPECT_THROW(lowpass_positions(m, rows, time.data(), 6, q.data()), std::invalid_argument);
}

// The Savitzky-Golay window in seconds: the odd row count nearest the span, at least 3.
TEST(LowpassFilter, SavitzkyGolayWindowInSeconds) {
  const DifferenceOptions o = parse_difference_scheme("savgol:0.1s:3");
  EXPECT_EQ(o.window_seconds, 0.1);
  EXPECT_EQ(o.order, 3);
  std::vector<double> time(100);
  for (int r = 0; r < 100; ++r) time[r] = r / 60.0;
  EXPECT_EQ(resolve_window(o, 100, time.data()).window, 7);  // 6 intervals of 1/60 s
  EXPECT_EQ(resolve_window(parse_difference_scheme("savgol:0.001s:2"), 100, time.data()).window, 3);
  EXPECT_EQ(resolve_window(parse_difference_scheme("savgol:9:3"), 100, time.data()).window, 9);
  for (const char* bad :
       {"savgol:0s:3", "savgol:-1s:3", "savgol:xs:3", "savgol:0.1s:1", "savgol:0.1ss:3"})
    EXPECT_THROW(parse_difference_scheme(bad), std::invalid_argument) << bad;
}

}  // namespace
}  // namespace joco
