// Eigen-decomposition of a symmetric 3x3 matrix by cyclic Jacobi rotations accumulated in a unit
// quaternion. The frame convention (start from the identity, rotate about the axis of the largest
// off-diagonal element, sort by quarter turns) fixes which of the equivalent eigenframes is
// returned, so principal axes of meshes and bodies come out as MuJoCo 2.2.2 reports them.
#pragma once

#include <cmath>

#include "math/vec.h"

namespace joco::math {

// mat = R diag(eigval) R' with R = quat_to_mat(quat), eigval in decreasing order. Returns the
// number of Jacobi iterations.
inline int eig3(double eigval[3], double quat[4], const double mat[9]) {
  constexpr double kEps = 1e-12;
  quat_identity(quat);
  int iter = 0;
  for (; iter < 500; ++iter) {
    // D = R' A R in the current frame.
    double r[9], tmp[9], d[9];
    quat_to_mat(r, quat);
    mat_t_mat3(tmp, r, mat);
    mat_mat3(d, tmp, r);
    eigval[0] = d[0];
    eigval[1] = d[4];
    eigval[2] = d[8];

    // Pivot on the largest off-diagonal element (p, q); the rotation is about the remaining axis.
    int p, q, axis;
    if (std::fabs(d[1]) > std::fabs(d[2]) && std::fabs(d[1]) > std::fabs(d[5])) {
      p = 0, q = 1, axis = 2;
    } else if (std::fabs(d[2]) > std::fabs(d[5])) {
      p = 0, q = 2, axis = 1;
    } else {
      p = 1, q = 2, axis = 0;
    }
    const double off = d[3 * p + q];
    if (std::fabs(off) < kEps) break;

    // The plane rotation [c s; -s c] in (p, q) that zeroes the pivot (smaller of the two angles).
    const double tau = (d[4 * q] - d[4 * p]) / (2 * off);
    const double t =
        tau >= 0 ? 1 / (tau + std::sqrt(1 + tau * tau)) : -1 / (-tau + std::sqrt(1 + tau * tau));
    const double c = 1 / std::sqrt(1 + t * t);
    if (c > 1 - kEps) break;

    // As a rotation about `axis`: the angle is -atan(t), except about y where the plane (x, z) is
    // oriented the other way.
    double half_sin = std::sqrt(0.5 - 0.5 * c);
    if (tau >= 0) half_sin = -half_sin;
    if (axis == 1) half_sin = -half_sin;
    double dq[4] = {std::sqrt(1 - half_sin * half_sin), 0, 0, 0};
    dq[1 + axis] = half_sin;
    quat_normalize(dq);
    quat_mul(quat, quat, dq);
    quat_normalize(quat);
  }

  // Sort decreasingly (pairs (0,1), (1,2), (0,1)); each swap is a quarter turn about the third
  // axis.
  for (int j = 0; j < 3; ++j) {
    const int a = j % 2;
    if (eigval[a] < eigval[a + 1]) {
      const double swap = eigval[a];
      eigval[a] = eigval[a + 1];
      eigval[a + 1] = swap;
      const double kHalf = std::sqrt(0.5);  // cos(pi/4) = sin(pi/4)
      double dq[4] = {kHalf, 0, 0, 0};
      dq[1 + (a + 2) % 3] = kHalf;
      quat_mul(quat, quat, dq);
      quat_normalize(quat);
    }
  }
  return iter;
}

}  // namespace joco::math
