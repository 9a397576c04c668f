// 6D spatial algebra in MuJoCo's com-based convention: every vector of a kinematic tree is
// expressed in the global orientation, about the centre of mass of the tree's subtree (subtree_com
// of the body's root). Motion vectors are [angular; linear], force vectors [torque; force].
//
// A body inertia is stored in 10 numbers, MuJoCo's cinert layout:
//   [Ixx Iyy Izz Ixy Ixz Iyz  m*cx m*cy m*cz  m]
// with I the rotational inertia about the frame's origin and c the body's centre of mass relative
// to the origin. Inline and allocation-free.
#pragma once

#include <cstring>

#include "math/vec.h"

namespace joco::math {

inline void zero6(double* r) { r[0] = r[1] = r[2] = r[3] = r[4] = r[5] = 0; }
inline void copy6(double* r, const double* a) {
  for (int i = 0; i < 6; ++i) r[i] = a[i];
}
inline void add6(double* r, const double* a, const double* b) {
  for (int i = 0; i < 6; ++i) r[i] = a[i] + b[i];
}
inline void sub6(double* r, const double* a, const double* b) {
  for (int i = 0; i < 6; ++i) r[i] = a[i] - b[i];
}
// r += s * a
inline void add_scaled_to6(double* r, const double* a, double s) {
  for (int i = 0; i < 6; ++i) r[i] += s * a[i];
}
// dot(a, b, 6) (mju_dot's rounding: p0..p3 from 0 over the first four, (p0 + p2) + (p1 + p3), plus
// the last two summed from 0) with the partial sums two to a register: the same operations,
// half the instructions (crb makes one for every stored entry of M).
inline double dot6(const double* a, const double* b) {
  typedef double Vec2 __attribute__((vector_size(16)));
  Vec2 a01, a23, b01, b23;
  std::memcpy(&a01, a, sizeof a01);
  std::memcpy(&a23, a + 2, sizeof a23);
  std::memcpy(&b01, b, sizeof b01);
  std::memcpy(&b23, b + 2, sizeof b23);
  const Vec2 zero = {0, 0};
  const Vec2 sums = (zero + a01 * b01) + (zero + a23 * b23);  // p0 + p2, p1 + p3
  const double tail = (0.0 + a[4] * b[4]) + a[5] * b[5];
  return (sums[0] + sums[1]) + tail;
}

// r = a x b for motion vectors (the derivative of b moving with velocity a). r must not alias.
inline void cross_motion(double* r, const double* a, const double* b) {
  r[0] = a[1] * b[2] - a[2] * b[1];
  r[1] = a[2] * b[0] - a[0] * b[2];
  r[2] = a[0] * b[1] - a[1] * b[0];
  // The two cross products rounded separately, then summed (MuJoCo's rounding).
  r[3] = (a[1] * b[5] - a[2] * b[4]) + (a[4] * b[2] - a[5] * b[1]);
  r[4] = (a[2] * b[3] - a[0] * b[5]) + (a[5] * b[0] - a[3] * b[2]);
  r[5] = (a[0] * b[4] - a[1] * b[3]) + (a[3] * b[1] - a[4] * b[0]);
}

// r = v x* f: a force f carried along by motion v (the dual of cross_motion). r must not alias.
inline void cross_force(double* r, const double* v, const double* f) {
  // The two cross products rounded separately, then summed (MuJoCo's rounding).
  r[0] = (v[1] * f[2] - v[2] * f[1]) + (v[4] * f[5] - v[5] * f[4]);
  r[1] = (v[2] * f[0] - v[0] * f[2]) + (v[5] * f[3] - v[3] * f[5]);
  r[2] = (v[0] * f[1] - v[1] * f[0]) + (v[3] * f[4] - v[4] * f[3]);
  r[3] = v[1] * f[5] - v[2] * f[4];
  r[4] = v[2] * f[3] - v[0] * f[5];
  r[5] = v[0] * f[4] - v[1] * f[3];
}

// r = I v: the momentum of a body of inertia I (10 numbers) moving with motion v. With h = m c:
//   torque = I w + h x v,  force = m v - h x w.  r must not alias v.
inline void inertia_mul_motion(double* r, const double* inert, const double* v) {
  const double* w = v;
  const double* lin = v + 3;
  const double* h = inert + 6;
  const double mass = inert[9];
  // Summed left to right in this order (MuJoCo's rounding).
  r[0] = inert[0] * w[0] + inert[3] * w[1] + inert[4] * w[2] - h[2] * lin[1] + h[1] * lin[2];
  r[1] = inert[3] * w[0] + inert[1] * w[1] + inert[5] * w[2] + h[2] * lin[0] - h[0] * lin[2];
  r[2] = inert[4] * w[0] + inert[5] * w[1] + inert[2] * w[2] - h[1] * lin[0] + h[0] * lin[1];
  r[3] = h[2] * w[1] - h[1] * w[2] + mass * lin[0];
  r[4] = h[0] * w[2] - h[2] * w[0] + mass * lin[1];
  r[5] = h[1] * w[0] - h[0] * w[1] + mass * lin[2];
}

// The 10-number inertia about `origin` of a body of mass `mass`, principal inertia `diag` along the
// columns of `frame` (its inertial frame, row-major) and centre of mass `com`.
inline void inertia_about(double* inert, const double* frame, const double* diag, double mass,
                          const double* com, const double* origin) {
  double c[3];
  sub3(c, com, origin);
  // frame * diag(diag) * frame', plus the parallel-axis term m (|c|^2 E - c c').
  double rot[6];
  const int rows[6] = {0, 1, 2, 0, 0, 1};
  const int cols[6] = {0, 1, 2, 1, 2, 2};
  for (int k = 0; k < 6; ++k) {
    const double* a = frame + 3 * rows[k];
    const double* b = frame + 3 * cols[k];
    // a (diag b), and the two other squares summed below, in MuJoCo's rounding order: a cube's
    // off-diagonal terms are pure rounding, and they decide chaotic trajectories.
    rot[k] = a[0] * (diag[0] * b[0]) + a[1] * (diag[1] * b[1]) + a[2] * (diag[2] * b[2]);
  }
  inert[0] = rot[0] + mass * (c[1] * c[1] + c[2] * c[2]);
  inert[1] = rot[1] + mass * (c[0] * c[0] + c[2] * c[2]);
  inert[2] = rot[2] + mass * (c[0] * c[0] + c[1] * c[1]);
  inert[3] = rot[3] - mass * c[0] * c[1];
  inert[4] = rot[4] - mass * c[0] * c[2];
  inert[5] = rot[5] - mass * c[1] * c[2];
  inert[6] = mass * c[0];
  inert[7] = mass * c[1];
  inert[8] = mass * c[2];
  inert[9] = mass;
}

// Moves a motion vector from point `from` to point `to` (same orientation): the angular part is
// unchanged, the linear part becomes the velocity of the point `to`: v + w x (to - from).
inline void motion_to_point(double* r, const double* v, const double* from, const double* to) {
  double d[3], wd[3];
  sub3(d, to, from);
  cross3(wd, v, d);
  r[0] = v[0];
  r[1] = v[1];
  r[2] = v[2];
  r[3] = v[3] + wd[0];
  r[4] = v[4] + wd[1];
  r[5] = v[5] + wd[2];
}

// Moves a force vector from point `from` to point `to`: the force is unchanged, the torque about
// `to` is t + (from - to) x f.
inline void force_to_point(double* r, const double* f, const double* from, const double* to) {
  double d[3], df[3];
  sub3(d, from, to);
  cross3(df, d, f + 3);
  r[0] = f[0] + df[0];
  r[1] = f[1] + df[1];
  r[2] = f[2] + df[2];
  r[3] = f[3];
  r[4] = f[4];
  r[5] = f[5];
}

}  // namespace joco::math
