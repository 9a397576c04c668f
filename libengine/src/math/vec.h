// Small fixed-size math on plain double arrays: 3-vectors, row-major 3x3 matrices and unit
// quaternions (w, x, y, z). Inline, allocation-free, shared by the compiler and the pipeline.
#pragma once

#include <algorithm>
#include <cmath>

#include "joco/constants.h"

namespace joco::math {

// ---- n-vectors -------------------------------------------------------------------------------

// a'b in MuJoCo's rounding order (mju_dot's): four interleaved partial sums over the blocks of
// four, combined as (0 + 2) + (1 + 3), plus the remaining elements summed on their own.
inline double dot(const double* a, const double* b, int n) {
  const int blocks = n - n % 4;
  double p0 = 0, p1 = 0, p2 = 0, p3 = 0;
  for (int i = 0; i < blocks; i += 4) {
    p0 += a[i] * b[i];
    p1 += a[i + 1] * b[i + 1];
    p2 += a[i + 2] * b[i + 2];
    p3 += a[i + 3] * b[i + 3];
  }
  double tail = 0;
  for (int i = blocks; i < n; ++i) tail += a[i] * b[i];
  return ((p0 + p2) + (p1 + p3)) + tail;
}

// dot(a, b, n) when a is zero outside [lo, hi): the same partial sums over the blocks and tail
// elements that meet [lo, hi) only. The terms left out are exact zeros (b finite), which leave
// the partial sums' bits as they are (a sum that starts at +0 is never -0).
inline double dot_span(const double* a, const double* b, int n, int lo, int hi) {
  const int blocks = n - n % 4;
  const int block_end = std::min(blocks, (hi + 3) & ~3);
  double p0 = 0, p1 = 0, p2 = 0, p3 = 0;
  for (int i = lo & ~3; i < block_end; i += 4) {
    p0 += a[i] * b[i];
    p1 += a[i + 1] * b[i + 1];
    p2 += a[i + 2] * b[i + 2];
    p3 += a[i + 3] * b[i + 3];
  }
  double tail = 0;
  for (int i = std::max(blocks, lo); i < hi; ++i) tail += a[i] * b[i];
  return ((p0 + p2) + (p1 + p3)) + tail;
}

// ---- 3-vectors -------------------------------------------------------------------------------

inline void zero3(double* r) { r[0] = r[1] = r[2] = 0; }
inline void copy3(double* r, const double* a) {
  r[0] = a[0];
  r[1] = a[1];
  r[2] = a[2];
}
inline void add3(double* r, const double* a, const double* b) {
  r[0] = a[0] + b[0];
  r[1] = a[1] + b[1];
  r[2] = a[2] + b[2];
}
inline void sub3(double* r, const double* a, const double* b) {
  r[0] = a[0] - b[0];
  r[1] = a[1] - b[1];
  r[2] = a[2] - b[2];
}
inline void scale3(double* r, const double* a, double s) {
  r[0] = a[0] * s;
  r[1] = a[1] * s;
  r[2] = a[2] * s;
}
// r = a + s * b
inline void add_scaled3(double* r, const double* a, const double* b, double s) {
  r[0] = a[0] + s * b[0];
  r[1] = a[1] + s * b[1];
  r[2] = a[2] + s * b[2];
}
inline double dot3(const double* a, const double* b) {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}
inline double norm3(const double* a) { return std::sqrt(dot3(a, a)); }
inline double dist3(const double* a, const double* b) {
  const double d[3] = {a[0] - b[0], a[1] - b[1], a[2] - b[2]};
  return norm3(d);
}
// Normalises in place and returns the former norm; a (near) zero vector becomes (1, 0, 0).
inline double normalize3(double* v) {
  const double n = norm3(v);
  if (n < kMinVal) {
    v[0] = 1;
    v[1] = v[2] = 0;
  } else {
    const double inv = 1 / n;
    v[0] *= inv;
    v[1] *= inv;
    v[2] *= inv;
  }
  return n;
}
inline void cross3(double* r, const double* a, const double* b) {
  const double x = a[1] * b[2] - a[2] * b[1];
  const double y = a[2] * b[0] - a[0] * b[2];
  const double z = a[0] * b[1] - a[1] * b[0];
  r[0] = x;
  r[1] = y;
  r[2] = z;
}

// ---- 3x3 matrices, row-major -------------------------------------------------------------------

inline void identity3(double* m) {
  for (int i = 0; i < 9; ++i) m[i] = (i % 4 == 0) ? 1 : 0;
}
// r = M v
inline void mat_vec3(double* r, const double* m, const double* v) {
  const double x = m[0] * v[0] + m[1] * v[1] + m[2] * v[2];
  const double y = m[3] * v[0] + m[4] * v[1] + m[5] * v[2];
  const double z = m[6] * v[0] + m[7] * v[1] + m[8] * v[2];
  r[0] = x;
  r[1] = y;
  r[2] = z;
}
// r = M' v
inline void mat_t_vec3(double* r, const double* m, const double* v) {
  const double x = m[0] * v[0] + m[3] * v[1] + m[6] * v[2];
  const double y = m[1] * v[0] + m[4] * v[1] + m[7] * v[2];
  const double z = m[2] * v[0] + m[5] * v[1] + m[8] * v[2];
  r[0] = x;
  r[1] = y;
  r[2] = z;
}
// r = A B (r must not alias a or b)
inline void mat_mat3(double* r, const double* a, const double* b) {
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j)
      r[3 * i + j] = a[3 * i] * b[j] + a[3 * i + 1] * b[3 + j] + a[3 * i + 2] * b[6 + j];
}
// r = A' B (r must not alias a or b)
inline void mat_t_mat3(double* r, const double* a, const double* b) {
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j)
      r[3 * i + j] = a[i] * b[j] + a[3 + i] * b[3 + j] + a[6 + i] * b[6 + j];
}
// r = A B' (r must not alias a or b)
inline void mat_mat_t3(double* r, const double* a, const double* b) {
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j)
      r[3 * i + j] =
          a[3 * i] * b[3 * j] + a[3 * i + 1] * b[3 * j + 1] + a[3 * i + 2] * b[3 * j + 2];
}
inline void transpose3(double* r, const double* m) {
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) r[3 * i + j] = m[3 * j + i];
}

// ---- quaternions (w, x, y, z) ------------------------------------------------------------------

inline void quat_identity(double* q) {
  q[0] = 1;
  q[1] = q[2] = q[3] = 0;
}
inline void copy4(double* r, const double* a) {
  r[0] = a[0];
  r[1] = a[1];
  r[2] = a[2];
  r[3] = a[3];
}
// Normalises in place and returns the former norm; a (near) zero quaternion becomes the identity.
inline double quat_normalize(double* q) {
  const double n = std::sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
  if (n < kMinVal) {
    quat_identity(q);
  } else {
    const double inv = 1 / n;
    q[0] *= inv;
    q[1] *= inv;
    q[2] *= inv;
    q[3] *= inv;
  }
  return n;
}
inline void quat_conj(double* r, const double* q) {
  r[0] = q[0];
  r[1] = -q[1];
  r[2] = -q[2];
  r[3] = -q[3];
}
// r = a * b (Hamilton product; r may alias a or b)
inline void quat_mul(double* r, const double* a, const double* b) {
  const double w = a[0] * b[0] - a[1] * b[1] - a[2] * b[2] - a[3] * b[3];
  const double x = a[0] * b[1] + a[1] * b[0] + a[2] * b[3] - a[3] * b[2];
  const double y = a[0] * b[2] - a[1] * b[3] + a[2] * b[0] + a[3] * b[1];
  const double z = a[0] * b[3] + a[1] * b[2] - a[2] * b[1] + a[3] * b[0];
  r[0] = w;
  r[1] = x;
  r[2] = y;
  r[3] = z;
}
// r = conj(a) * b
inline void quat_conj_mul(double* r, const double* a, const double* b) {
  double ac[4];
  quat_conj(ac, a);
  quat_mul(r, ac, b);
}
// r = a * conj(b)
inline void quat_mul_conj(double* r, const double* a, const double* b) {
  double bc[4];
  quat_conj(bc, b);
  quat_mul(r, a, bc);
}
// Rotation matrix of a unit quaternion (row-major).
inline void quat_to_mat(double* m, const double* q) {
  const double ww = q[0] * q[0], xx = q[1] * q[1], yy = q[2] * q[2], zz = q[3] * q[3];
  const double wx = q[0] * q[1], wy = q[0] * q[2], wz = q[0] * q[3];
  const double xy = q[1] * q[2], xz = q[1] * q[3], yz = q[2] * q[3];
  m[0] = ww + xx - yy - zz;
  m[4] = ww - xx + yy - zz;
  m[8] = ww - xx - yy + zz;
  m[1] = 2 * (xy - wz);
  m[2] = 2 * (xz + wy);
  m[3] = 2 * (xy + wz);
  m[5] = 2 * (yz - wx);
  m[6] = 2 * (xz - wy);
  m[7] = 2 * (yz + wx);
}
// Unit quaternion of a rotation matrix (row-major): from the trace when it is positive, else from
// the largest diagonal element (w may then be negative, as in MuJoCo's conversion).
inline void mat_to_quat(double* q, const double* m) {
  const double trace = m[0] + m[4] + m[8];
  if (trace > 0) {
    const double s = 2 * std::sqrt(1 + trace);
    q[0] = 0.25 * s;
    q[1] = (m[7] - m[5]) / s;
    q[2] = (m[2] - m[6]) / s;
    q[3] = (m[3] - m[1]) / s;
  } else if (m[0] > m[4] && m[0] > m[8]) {
    const double s = 2 * std::sqrt(1 + m[0] - m[4] - m[8]);
    q[0] = (m[7] - m[5]) / s;
    q[1] = 0.25 * s;
    q[2] = (m[1] + m[3]) / s;
    q[3] = (m[2] + m[6]) / s;
  } else if (m[4] > m[8]) {
    const double s = 2 * std::sqrt(1 + m[4] - m[0] - m[8]);
    q[0] = (m[2] - m[6]) / s;
    q[1] = (m[1] + m[3]) / s;
    q[2] = 0.25 * s;
    q[3] = (m[5] + m[7]) / s;
  } else {
    const double s = 2 * std::sqrt(1 + m[8] - m[0] - m[4]);
    q[0] = (m[3] - m[1]) / s;
    q[1] = (m[2] + m[6]) / s;
    q[2] = (m[5] + m[7]) / s;
    q[3] = 0.25 * s;
  }
  quat_normalize(q);
}
// r = R(q) v for a unit q, as v + 2 u x (w v + u x v) with u = (x, y, z), each product summed
// left to right (MuJoCo's rounding order, mju_rotVecQuat's, identified from its outputs).
inline void quat_rotate(double* r, const double* q, const double* v) {
  const double w = q[0], x = q[1], y = q[2], z = q[3];
  const double t0 = w * v[0] + y * v[2] - z * v[1];
  const double t1 = w * v[1] + z * v[0] - x * v[2];
  const double t2 = w * v[2] + x * v[1] - y * v[0];
  const double r0 = v[0] + 2 * (y * t2 - z * t1);
  const double r1 = v[1] + 2 * (z * t0 - x * t2);
  const double r2 = v[2] + 2 * (x * t1 - y * t0);
  r[0] = r0;
  r[1] = r1;
  r[2] = r2;
}
// Quaternion of a rotation by `angle` about the unit vector `axis`.
inline void axis_angle_to_quat(double* q, const double* axis, double angle) {
  const double s = std::sin(angle / 2);
  q[0] = std::cos(angle / 2);
  q[1] = axis[0] * s;
  q[2] = axis[1] * s;
  q[3] = axis[2] * s;
}
// The rotation vector (axis times angle, angle in [-pi, pi]) of a unit quaternion.
inline void quat_to_rotation_vector(double* v, const double* q) {
  double axis[3] = {q[1], q[2], q[3]};
  const double s = normalize3(axis);
  if (s < kMinVal) {
    zero3(v);
    return;
  }
  double angle = 2 * std::atan2(s, q[0]);
  if (angle > kPi) angle -= 2 * kPi;
  scale3(v, axis, angle);
}
// q <- q * exp(omega * scale / 2): integrates a body-frame angular velocity over `scale` seconds.
inline void quat_integrate(double* q, const double* omega, double scale) {
  double axis[3] = {omega[0], omega[1], omega[2]};
  const double speed = normalize3(axis);
  if (speed < kMinVal) return;
  double dq[4];
  axis_angle_to_quat(dq, axis, speed * scale);
  quat_mul(q, q, dq);
  quat_normalize(q);
}
// The body-frame rotation vector taking qb to qa: qa = qb * exp(v), v = log(conj(qb) * qa).
inline void quat_difference(double* v, const double* qa, const double* qb) {
  double dq[4];
  quat_conj_mul(dq, qb, qa);
  quat_to_rotation_vector(v, dq);
}

// ---- frames ------------------------------------------------------------------------------------

// Composes frame (pos_a, quat_a) with a child frame (pos_b, quat_b) given in it.
inline void frame_mul(double* pos, double* quat, const double* pos_a, const double* quat_a,
                      const double* pos_b, const double* quat_b) {
  double rotated[3];
  quat_rotate(rotated, quat_a, pos_b);
  double q[4];
  quat_mul(q, quat_a, quat_b);
  add3(pos, pos_a, rotated);
  copy4(quat, q);
}

}  // namespace joco::math
