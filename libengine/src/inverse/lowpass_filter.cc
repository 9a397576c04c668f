// The zero-lag low-pass Butterworth filter of joco/motion_differences.h: one second-order section
// run forward and backward, its cutoff corrected for the two passes, linear trend out and odd
// reflections at the ends; or OpenSim's style, a third-order section per pass, uncorrected.
#include <algorithm>
#include <cmath>
#include <numbers>
#include <stdexcept>
#include <string>
#include <vector>

#include "joco/constants.h"
#include "joco/motion_differences.h"
#include "joco/smooth.h"

namespace joco {
namespace {

// (sqrt 2 - 1)^(1/4): a pass's cutoff is cutoff / kTwoPassCorrection, so that the square of its
// gain, the combined gain, is 1/sqrt 2 at the cutoff.
const double kTwoPassCorrection = std::pow(std::numbers::sqrt2 - 1, 0.25);

// tan(pi f_p h) of one pass, the bilinear transform's prewarped cutoff: corrected for the two
// passes in joco's style, the cutoff itself in OpenSim's.
double prewarped_pass_cutoff(double h, double cutoff, LowpassStyle style) {
  const double k = std::tan(std::numbers::pi * cutoff * h);
  return style == LowpassStyle::kJoco ? k / kTwoPassCorrection : k;
}

void check(double h, double cutoff) {
  if (!(h > 0) || !std::isfinite(h))
    throw std::invalid_argument("low-pass filter: the rows' spacing " + std::to_string(h) +
                                " s is not positive");
  if (!(cutoff > 0) || !(cutoff < 0.5 / h))
    throw std::invalid_argument("low-pass cutoff " + std::to_string(cutoff) +
                                " Hz: must be above 0 and below the Nyquist frequency " +
                                std::to_string(0.5 / h) + " Hz of rows " + std::to_string(h) +
                                " s apart");
}

// A second-order section for the analogue factor s^2 + d s + 1 (d = sqrt 2: the second-order
// Butterworth; d = 1: the quadratic factor of the third-order one): y_n = b0 (x_n + 2 x_{n-1} +
// x_{n-2}) - a1 y_{n-1} - a2 y_{n-2}, at rest at x[0] before it (unit gain at 0 Hz).
struct Section {
  double b0, a1, a2;
  Section(double k, double d) {
    const double norm = 1 / (1 + d * k + k * k);
    b0 = k * k * norm;
    a1 = 2 * (k * k - 1) * norm;
    a2 = (1 - d * k + k * k) * norm;
  }
  void run(double* x, size_t n, ptrdiff_t stride) const {
    double x1 = x[0], x2 = x[0], y1 = x[0], y2 = x[0];
    for (size_t i = 0; i < n; ++i) {
      double& v = x[static_cast<ptrdiff_t>(i) * stride];
      const double y = b0 * (v + 2 * x1 + x2) - a1 * y1 - a2 * y2;
      x2 = x1;
      x1 = v;
      y2 = y1;
      y1 = y;
      v = y;
    }
  }
};

// The first-order section for s + 1: y_n = c0 (x_n + x_{n-1}) - c1 y_{n-1}, at rest at x[0].
struct FirstOrderSection {
  double c0, c1;
  explicit FirstOrderSection(double k) : c0(k / (1 + k)), c1((k - 1) / (1 + k)) {}
  void run(double* x, size_t n, ptrdiff_t stride) const {
    double x1 = x[0], y1 = x[0];
    for (size_t i = 0; i < n; ++i) {
      double& v = x[static_cast<ptrdiff_t>(i) * stride];
      const double y = c0 * (v + x1) - c1 * y1;
      x1 = v;
      y1 = y;
      v = y;
    }
  }
};

// One pass of the style's filter over n values `stride` apart.
void run_pass(LowpassStyle style, double k, double* x, size_t n, ptrdiff_t stride) {
  if (style == LowpassStyle::kJoco) {
    Section(k, std::numbers::sqrt2).run(x, n, stride);
  } else {
    FirstOrderSection(k).run(x, n, stride);
    Section(k, 1).run(x, n, stride);
  }
}

}  // namespace

double lowpass_gain(double f, double h, double cutoff, LowpassStyle style) {
  check(h, cutoff);
  const double ratio = std::tan(std::numbers::pi * f * h) / prewarped_pass_cutoff(h, cutoff, style);
  return 1 / (1 + std::pow(ratio, style == LowpassStyle::kJoco ? 4 : 6));
}

void lowpass_filter(int rows, int columns, double h, double cutoff, double* values,
                    LowpassStyle style) {
  check(h, cutoff);
  if (rows < 2 || columns <= 0) return;
  const double prewarped = prewarped_pass_cutoff(h, cutoff, style);
  const int pad = style == LowpassStyle::kJoco
                      ? std::min(rows - 1, static_cast<int>(std::ceil(10 / (cutoff * h))))
                      : rows / 2;
  std::vector<double> x(static_cast<size_t>(rows + 2 * pad));
  for (int c = 0; c < columns; ++c) {
    const auto at = [&](int r) -> double& { return values[static_cast<size_t>(r) * columns + c]; };
    const double first = at(0), last = at(rows - 1);
    const auto line = [&](int r) { return first + (last - first) * r / (rows - 1); };
    // The remainder after the line (0 at both ends), then its odd reflections: -r(k) before the
    // start and after the end.
    for (int r = 0; r < rows; ++r) x[static_cast<size_t>(pad + r)] = at(r) - line(r);
    for (int k = 1; k <= pad; ++k) {
      x[static_cast<size_t>(pad - k)] = -x[static_cast<size_t>(pad + k)];
      x[static_cast<size_t>(pad + rows - 1 + k)] = -x[static_cast<size_t>(pad + rows - 1 - k)];
    }
    run_pass(style, prewarped, x.data(), x.size(), 1);
    run_pass(style, prewarped, x.data() + x.size() - 1, x.size(), -1);
    for (int r = 0; r < rows; ++r) at(r) = x[static_cast<size_t>(pad + r)] + line(r);
  }
}

void lowpass_positions(const Model& m, int rows, const double* time, double cutoff, double* qpos,
                       LowpassStyle style) {
  if (rows < 2) return;
  const double h = (time[rows - 1] - time[0]) / (rows - 1);
  for (int r = 1; r < rows; ++r) {
    if (!(std::abs(time[r] - time[0] - r * h) <= 1e-6 * h)) {
      throw std::invalid_argument("low-pass filter: the rows are not evenly spaced in time (row " +
                                  std::to_string(r) + " at " + std::to_string(time[r]) + " s, " +
                                  std::to_string(time[0] + r * h) + " s on the even grid)");
    }
  }
  const int nq = m.nq;
  // Quaternions: each row's sign chosen nearest to the previous row's.
  for (int j = 0; j < m.njnt; ++j) {
    if (m.jnt_type[j] != kJointFree && m.jnt_type[j] != kJointBall) continue;
    const int adr = m.jnt_qposadr[j] + (m.jnt_type[j] == kJointFree ? 3 : 0);
    for (int r = 1; r < rows; ++r) {
      double* q = qpos + static_cast<size_t>(r) * nq + adr;
      const double* p = q - nq;
      if (q[0] * p[0] + q[1] * p[1] + q[2] * p[2] + q[3] * p[3] < 0)
        for (int k = 0; k < 4; ++k) q[k] = -q[k];
    }
  }
  lowpass_filter(rows, nq, h, cutoff, qpos, style);
  for (int r = 0; r < rows; ++r) normalize_quat(m, qpos + static_cast<size_t>(r) * nq);
}

}  // namespace joco
