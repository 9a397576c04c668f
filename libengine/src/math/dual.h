// Forward-mode automatic differentiation: a value with its derivatives along N directions, for
// code written once as a template over the scalar type and evaluated both on doubles and on Duals
// (exact derivatives, no finite-difference error). Inline and allocation-free.
#pragma once

#include <cmath>

namespace joco::math {

template <int N>
struct Dual {
  double v = 0;      // value
  double d[N] = {};  // derivatives

  Dual() = default;
  Dual(double value) : v(value) {}  // NOLINT: constants promote implicitly

  // The k-th independent variable with the given value.
  static Dual variable(double value, int k) {
    Dual x(value);
    x.d[k] = 1;
    return x;
  }

  Dual& operator+=(const Dual& b) {
    v += b.v;
    for (int k = 0; k < N; ++k) d[k] += b.d[k];
    return *this;
  }
  Dual& operator-=(const Dual& b) {
    v -= b.v;
    for (int k = 0; k < N; ++k) d[k] -= b.d[k];
    return *this;
  }
  Dual& operator*=(const Dual& b) {
    for (int k = 0; k < N; ++k) d[k] = d[k] * b.v + v * b.d[k];
    v *= b.v;
    return *this;
  }
  Dual& operator/=(const Dual& b) {
    const double inv = 1 / b.v;
    v *= inv;
    for (int k = 0; k < N; ++k) d[k] = (d[k] - v * b.d[k]) * inv;
    return *this;
  }
};

template <int N>
inline Dual<N> operator+(Dual<N> a, const Dual<N>& b) {
  return a += b;
}
template <int N>
inline Dual<N> operator-(Dual<N> a, const Dual<N>& b) {
  return a -= b;
}
template <int N>
inline Dual<N> operator*(Dual<N> a, const Dual<N>& b) {
  return a *= b;
}
template <int N>
inline Dual<N> operator/(Dual<N> a, const Dual<N>& b) {
  return a /= b;
}
template <int N>
inline Dual<N> operator-(Dual<N> a) {
  a.v = -a.v;
  for (int k = 0; k < N; ++k) a.d[k] = -a.d[k];
  return a;
}
template <int N>
inline Dual<N> operator+(Dual<N> a, double b) {
  a.v += b;
  return a;
}
template <int N>
inline Dual<N> operator+(double a, Dual<N> b) {
  b.v += a;
  return b;
}
template <int N>
inline Dual<N> operator-(Dual<N> a, double b) {
  a.v -= b;
  return a;
}
template <int N>
inline Dual<N> operator-(double a, const Dual<N>& b) {
  return Dual<N>(a) - b;
}
template <int N>
inline Dual<N> operator*(Dual<N> a, double b) {
  a.v *= b;
  for (int k = 0; k < N; ++k) a.d[k] *= b;
  return a;
}
template <int N>
inline Dual<N> operator*(double a, const Dual<N>& b) {
  return b * a;
}
template <int N>
inline Dual<N> operator/(Dual<N> a, double b) {
  return a * (1 / b);
}
template <int N>
inline Dual<N> operator/(double a, const Dual<N>& b) {
  return Dual<N>(a) / b;
}
template <int N>
inline bool operator<(const Dual<N>& a, const Dual<N>& b) {
  return a.v < b.v;
}

// sqrt with a zero derivative at 0 (where the functions differentiated here are flat).
template <int N>
inline Dual<N> sqrt(const Dual<N>& a) {
  Dual<N> r(std::sqrt(a.v));
  const double scale = r.v > 0 ? 0.5 / r.v : 0;
  for (int k = 0; k < N; ++k) r.d[k] = a.d[k] * scale;
  return r;
}
template <int N>
inline Dual<N> fabs(const Dual<N>& a) {
  return a.v < 0 ? -a : a;
}

// Value of a double or of a Dual, for comparisons.
inline double value(double x) { return x; }
template <int N>
inline double value(const Dual<N>& x) {
  return x.v;
}

// max(lo, x) for a constant lo: the derivative is zero where lo is taken.
inline double at_least(double lo, double x) { return x < lo ? lo : x; }
template <int N>
inline Dual<N> at_least(double lo, const Dual<N>& x) {
  return x.v < lo ? Dual<N>(lo) : x;
}

}  // namespace joco::math
