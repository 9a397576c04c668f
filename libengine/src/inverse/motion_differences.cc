// Polynomial finite-difference schemes over rows of joint positions, each row's neighbours mapped
// to the tangent space at that row. A scheme is a window of rows and a polynomial degree; the
// weights of a derivative at the row are those of the least-squares polynomial (an interpolating
// one when the window has degree + 1 rows), computed from the actual sample times.
#include "joco/motion_differences.h"

#include <Eigen/Dense>
#include <Eigen/SparseLU>
#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <vector>

#include "joco/constants.h"
#include "joco/smooth.h"

namespace joco {

namespace {

struct Window {
  int first = 0;
  int count = 0;
  int order = 0;
};

Window centred(int t, int width, int order, int rows) {
  const int first = std::clamp(t - width / 2, 0, rows - width);
  return {first, width, order};
}

// The window of rows whose polynomial gives derivative r (1 or 2) at row t. kDiscrete's own
// formulas are applied by the callers; its windows here are those of its ends.
Window window_for(const DifferenceOptions& o, int r, int t, int rows) {
  switch (o.scheme) {
    case DifferenceScheme::kCentral: return centred(t, 3, 2, rows);
    case DifferenceScheme::kSavitzkyGolay: return centred(t, o.window, o.order, rows);
    case DifferenceScheme::kBackward: return {std::max(t - r, 0), r + 1, r};
    case DifferenceScheme::kForward:
    case DifferenceScheme::kDiscrete:
    default: return {std::min(t, rows - r - 1), r + 1, r};
  }
}

// w[k] such that sum_k w[k] y_k is derivative r at s = 0 of the degree-`order` least-squares
// polynomial through (s[k], y_k), k < n.
void weights(const double* s, int n, int order, int r, double* w) {
  double scale = 0;
  for (int k = 0; k < n; ++k) scale = std::max(scale, std::abs(s[k]));
  Eigen::MatrixXd V(n, order + 1);
  for (int k = 0; k < n; ++k) {
    double p = 1;
    for (int j = 0; j <= order; ++j, p *= s[k] / scale) V(k, j) = p;
  }
  const Eigen::MatrixXd pinv = V.colPivHouseholderQr().solve(Eigen::MatrixXd::Identity(n, n));
  double factor = 1;
  for (int i = 2; i <= r; ++i) factor *= i;
  factor /= std::pow(scale, r);
  for (int k = 0; k < n; ++k) w[k] = r <= order ? factor * pinv(r, k) : 0;
}

void check_time(int rows, const double* time) {
  for (int t = 1; t < rows; ++t) {
    if (!(time[t] > time[t - 1])) {
      throw std::invalid_argument("time does not increase at row " + std::to_string(t) + " (" +
                                  std::to_string(time[t - 1]) + " then " + std::to_string(time[t]) +
                                  ")");
    }
  }
}

// sum_k w[k] columns of rows win.first + k of `values` (rows of n), into out.
void combine(const Window& win, const double* w, const double* values, int n, double* out) {
  std::fill(out, out + n, 0.0);
  for (int k = 0; k < win.count; ++k) {
    const double* v = values + static_cast<size_t>(win.first + k) * n;
    for (int i = 0; i < n; ++i) out[i] += w[k] * v[i];
  }
}

// The mean spacing of evenly spaced rows (to 1e-6 of it); std::invalid_argument otherwise.
double even_spacing(int rows, const double* time, const char* what) {
  const double h = (time[rows - 1] - time[0]) / (rows - 1);
  for (int r = 1; r < rows; ++r) {
    if (!(std::abs(time[r] - time[0] - r * h) <= 1e-6 * h)) {
      throw std::invalid_argument(std::string(what) +
                                  ": the rows are not evenly spaced in time (row " +
                                  std::to_string(r) + " at " + std::to_string(time[r]) + " s, " +
                                  std::to_string(time[0] + r * h) + " s on the even grid)");
    }
  }
  return h;
}

// First and second derivatives at the rows (`first`, `second`: rows x columns, each optional) of
// the natural quintic spline through the columns of `values` (rows x columns, h apart), padded by
// rows / 2 odd reflections at each end (kQuinticSpline). In uniform quintic B-splines
// f(x) = sum_j c_j B((x - x_j) / h), j = -2 .. n + 1 over the n padded samples, at knot i:
//   f       = (c_{i-2} + 26 c_{i-1} + 66 c_i + 26 c_{i+1} + c_{i+2}) / 120
//   h f^(1) = (-c_{i-2} - 10 c_{i-1} + 10 c_{i+1} + c_{i+2}) / 24
//   h^2 f^(2) = (c_{i-2} + 2 c_{i-1} - 6 c_i + 2 c_{i+1} + c_{i+2}) / 6
//   h^3 f^(3) = (-c_{i-2} + 2 c_{i-1} - 2 c_{i+1} + c_{i+2}) / 2
//   h^4 f^(4) = c_{i-2} - 4 c_{i-1} + 6 c_i - 4 c_{i+1} + c_{i+2}
// n interpolation conditions and f^(3) = f^(4) = 0 at both ends fix the n + 4 coefficients.
void quintic_spline_derivatives(int rows, int columns, double h, const double* values,
                                double* first, double* second) {
  const int pad = rows / 2, n = rows + 2 * pad, unknowns = n + 4;
  std::vector<Eigen::Triplet<double>> entries;
  const auto stencil = [&](int row, int first_unknown, const double(&w)[5]) {
    for (int k = 0; k < 5; ++k)
      if (w[k] != 0) entries.emplace_back(row, first_unknown + k, w[k]);
  };
  const double value[5] = {1 / 120.0, 26 / 120.0, 66 / 120.0, 26 / 120.0, 1 / 120.0};
  const double third[5] = {-0.5, 1, 0, -1, 0.5}, fourth[5] = {1, -4, 6, -4, 1};
  stencil(0, 0, fourth);
  stencil(1, 0, third);
  for (int i = 0; i < n; ++i) stencil(2 + i, i, value);
  stencil(n + 2, n - 1, third);
  stencil(n + 3, n - 1, fourth);
  Eigen::SparseMatrix<double> A(unknowns, unknowns);
  A.setFromTriplets(entries.begin(), entries.end());
  Eigen::SparseLU<Eigen::SparseMatrix<double>> lu;
  lu.compute(A);
  if (lu.info() != Eigen::Success) throw std::invalid_argument("quintic spline: singular system");

  Eigen::MatrixXd rhs = Eigen::MatrixXd::Zero(unknowns, columns);
  for (int c = 0; c < columns; ++c) {
    const auto at = [&](int r) { return values[static_cast<size_t>(r) * columns + c]; };
    for (int r = 0; r < rows; ++r) rhs(2 + pad + r, c) = at(r);
    for (int k = 1; k <= pad; ++k) {
      rhs(2 + pad - k, c) = 2 * at(0) - at(k);
      rhs(2 + pad + rows - 1 + k, c) = 2 * at(rows - 1) - at(rows - 1 - k);
    }
  }
  const Eigen::MatrixXd coef = lu.solve(rhs);
  for (int r = 0; r < rows; ++r) {
    const int u = pad + r;  // the unknown of c_{i-2}, i = pad + r the padded sample
    for (int c = 0; c < columns; ++c) {
      const double m2 = coef(u, c), m1 = coef(u + 1, c), z = coef(u + 2, c);
      const double p1 = coef(u + 3, c), p2 = coef(u + 4, c);
      const size_t out = static_cast<size_t>(r) * columns + c;
      if (first) first[out] = (p2 - m2 + 10 * (p1 - m1)) / (24 * h);
      if (second) second[out] = (m2 + p2 + 2 * (m1 + p1) - 6 * z) / (6 * h * h);
    }
  }
}

}  // namespace

DifferenceOptions parse_difference_scheme(const std::string& text) {
  DifferenceOptions o;
  if (text == "central") {
    o.scheme = DifferenceScheme::kCentral;
  } else if (text == "forward") {
    o.scheme = DifferenceScheme::kForward;
  } else if (text == "backward") {
    o.scheme = DifferenceScheme::kBackward;
  } else if (text == "discrete") {
    o.scheme = DifferenceScheme::kDiscrete;
  } else if (text == "spline") {
    o.scheme = DifferenceScheme::kQuinticSpline;
  } else if (text.rfind("savgol:", 0) == 0) {
    o.scheme = DifferenceScheme::kSavitzkyGolay;
    const std::string rest = text.substr(7);
    const size_t colon = rest.find(':');
    const bool seconds = colon != std::string::npos && colon > 0 && rest[colon - 1] == 's';
    size_t used_window = 0, used_order = 0;
    try {
      if (colon == std::string::npos) throw std::invalid_argument("");
      if (seconds) {
        o.window_seconds = std::stod(rest.substr(0, colon - 1), &used_window);
        ++used_window;  // the 's'
      } else {
        o.window = std::stoi(rest.substr(0, colon), &used_window);
      }
      o.order = std::stoi(rest.substr(colon + 1), &used_order);
    } catch (const std::exception&) {
      used_window = used_order = std::string::npos;
    }
    if (colon == std::string::npos || used_window != colon ||
        used_order != rest.size() - colon - 1) {
      throw std::invalid_argument("\"" + text +
                                  "\": expected savgol:WINDOW:ORDER, WINDOW rows or seconds, "
                                  "e.g. savgol:7:3 or savgol:0.05s:3");
    }
    if (seconds) {
      if (!(o.window_seconds > 0) || !std::isfinite(o.window_seconds))
        throw std::invalid_argument("Savitzky-Golay window " + rest.substr(0, colon) +
                                    ": must be a positive number of seconds");
      if (o.order < 2)
        throw std::invalid_argument("Savitzky-Golay order " + std::to_string(o.order) +
                                    ": must be at least 2 (accelerations)");
    } else {
      check_difference_options(o, o.window);
    }
  } else {
    throw std::invalid_argument("\"" + text +
                                "\": expected central, forward, backward, discrete, spline or "
                                "savgol:WINDOW:ORDER");
  }
  return o;
}

DifferenceOptions resolve_window(const DifferenceOptions& o, int rows, const double* time) {
  DifferenceOptions out = o;
  if (o.scheme != DifferenceScheme::kSavitzkyGolay || !(o.window_seconds > 0) || rows < 2)
    return out;
  const double h = (time[rows - 1] - time[0]) / (rows - 1);
  const double span = o.window_seconds / h;  // rows - 1 the window spans
  out.window = std::max(3, 2 * static_cast<int>(std::lround(span / 2)) + 1);
  out.window_seconds = 0;
  return out;
}

void check_difference_options(const DifferenceOptions& o, int rows) {
  if (o.scheme == DifferenceScheme::kSavitzkyGolay) {
    if (o.window < 3 || o.window % 2 == 0) {
      throw std::invalid_argument("Savitzky-Golay window " + std::to_string(o.window) +
                                  ": must be odd and at least 3");
    }
    if (o.order < 2 || o.order >= o.window) {
      throw std::invalid_argument("Savitzky-Golay order " + std::to_string(o.order) +
                                  ": must be at least 2 (accelerations) and less than the window " +
                                  std::to_string(o.window));
    }
    if (rows < o.window) {
      throw std::invalid_argument(std::to_string(rows) + " rows: fewer than the window of " +
                                  std::to_string(o.window));
    }
  }
  if (rows < 3) {
    throw std::invalid_argument(std::to_string(rows) +
                                " rows: accelerations need at least 3 positions");
  }
}

void differentiate_positions(const Model& m, int rows, const double* time, const double* qpos,
                             const DifferenceOptions& given, double* qpos_out, double* qvel,
                             double* qacc) {
  const DifferenceOptions o = resolve_window(given, rows, time);
  check_difference_options(o, rows);
  check_time(rows, time);
  const int nq = m.nq, nv = m.nv;
  if (o.scheme == DifferenceScheme::kQuinticSpline) {
    for (int j = 0; j < m.njnt; ++j) {
      if (m.jnt_type[j] == kJointFree || m.jnt_type[j] == kJointBall)
        throw std::invalid_argument(
            "spline differences: the model has ball or free joints (quaternions); use central "
            "or savgol");
    }
    const double h = even_spacing(rows, time, "spline differences");
    if (qpos_out) std::copy(qpos, qpos + static_cast<size_t>(rows) * nq, qpos_out);
    quintic_spline_derivatives(rows, nv, h, qpos, qvel, qacc);  // nq == nv: hinges and slides
    return;
  }
  const bool smooth = o.scheme == DifferenceScheme::kSavitzkyGolay;
  const auto row = [](auto* base, int n, int t) { return base + static_cast<size_t>(t) * n; };

  std::vector<double> q(qpos, qpos + static_cast<size_t>(rows) * nq);
  for (int t = 0; t < rows; ++t) normalize_quat(m, q.data() + static_cast<size_t>(t) * nq);

  std::vector<double> tangent, s, w, vel(nv);
  for (int t = 0; t < rows; ++t) {
    const double* qt = row(q.data(), nq, t);
    // The tangent coordinates d_k = q_k (-) q_t of every row the windows of t use.
    Window windows[3] = {smooth ? centred(t, o.window, o.order, rows) : Window{t, 1, 0},
                         window_for(o, 1, t, rows), window_for(o, 2, t, rows)};
    int lo = t, hi = t;
    for (const Window& win : windows) {
      lo = std::min(lo, win.first);
      hi = std::max(hi, win.first + win.count - 1);
    }
    if (o.scheme == DifferenceScheme::kDiscrete) {
      lo = std::max(0, std::min(lo, t - 1));
      hi = std::min(rows - 1, std::max(hi, t + 1));
    }
    tangent.assign(static_cast<size_t>(hi - lo + 1) * nv, 0.0);
    for (int k = lo; k <= hi; ++k) {
      if (k != t)
        differentiate_pos(m, row(tangent.data(), nv, k - lo), 1.0, qt, row(q.data(), nq, k));
    }
    const auto derivative = [&](const Window& win, int r, double* out) {
      s.resize(static_cast<size_t>(win.count));
      w.resize(static_cast<size_t>(win.count));
      for (int k = 0; k < win.count; ++k) s[k] = time[win.first + k] - time[t];
      weights(s.data(), win.count, win.order, r, w.data());
      Window local = win;
      local.first -= lo;
      combine(local, w.data(), tangent.data(), nv, out);
    };

    if (qpos_out) {
      double* out = row(qpos_out, nq, t);
      std::copy(qt, qt + nq, out);
      if (smooth) {
        derivative(windows[0], 0, vel.data());
        integrate_pos(m, out, vel.data(), 1.0);
      }
    }
    const bool interior = t > 0 && t < rows - 1;
    if (o.scheme == DifferenceScheme::kDiscrete) {
      // Velocities as the Euler step made them, from the previous row (the next at row 0).
      if (qvel) {
        const int a = t > 0 ? t - 1 : 0, b = t > 0 ? t : 1;
        differentiate_pos(m, row(qvel, nv, t), time[b] - time[a], row(q.data(), nq, a),
                          row(q.data(), nq, b));
      }
      if (qacc && interior) {
        const double h_prev = time[t] - time[t - 1], h_next = time[t + 1] - time[t];
        double* a = row(qacc, nv, t);
        differentiate_pos(m, a, h_prev, row(q.data(), nq, t - 1), qt);
        differentiate_pos(m, vel.data(), h_next, qt, row(q.data(), nq, t + 1));
        for (int i = 0; i < nv; ++i) a[i] = (vel[i] - a[i]) / h_next;
      } else if (qacc) {
        derivative(windows[2], 2, row(qacc, nv, t));  // one-sided at the ends
      }
      continue;
    }
    if (qvel) derivative(windows[1], 1, row(qvel, nv, t));
    if (qacc) derivative(windows[2], 2, row(qacc, nv, t));
  }
}

void differentiate_velocities(const Model& m, int rows, const double* time, const double* qvel,
                              const DifferenceOptions& given, double* qacc) {
  const DifferenceOptions o = resolve_window(given, rows, time);
  check_difference_options(o, rows);
  check_time(rows, time);
  const int nv = m.nv;
  if (o.scheme == DifferenceScheme::kQuinticSpline) {
    quintic_spline_derivatives(rows, nv, even_spacing(rows, time, "spline differences"), qvel, qacc,
                               nullptr);
    return;
  }
  std::vector<double> s, w;
  for (int t = 0; t < rows; ++t) {
    Window win = window_for(o, 1, t, rows);
    if (o.scheme == DifferenceScheme::kDiscrete && t == rows - 1) win = {rows - 2, 2, 1};
    s.resize(static_cast<size_t>(win.count));
    w.resize(static_cast<size_t>(win.count));
    for (int k = 0; k < win.count; ++k) s[k] = time[win.first + k] - time[t];
    weights(s.data(), win.count, win.order, 1, w.data());
    combine(win, w.data(), qvel, nv, qacc + static_cast<size_t>(t) * nv);
  }
}

}  // namespace joco
