#include "compiler/geom_inertia.h"

#include <algorithm>
#include <cmath>

#include "math/vec.h"

namespace joco::compiler {

GeomMassProperties primitive_mass_properties(int type, const Vec3& size, bool /*shell*/) {
  GeomMassProperties p;
  const double r = size[0];
  switch (type) {
    case kGeomSphere:
      p.volume = 4.0 / 3.0 * kPi * r * r * r;
      p.inertia.fill(0.4 * p.volume * r * r);
      break;
    case kGeomCapsule: {
      // A cylinder of length L plus a sphere split into two hemispheres at its ends.
      const double length = 2 * size[1];
      const double cylinder = kPi * r * r * length;
      const double sphere = 4.0 / 3.0 * kPi * r * r * r;
      p.volume = cylinder + sphere;
      const double axial = cylinder * r * r / 2 + sphere * 0.4 * r * r;
      const double transverse = cylinder * (r * r / 4 + length * length / 12) +
                                sphere * (0.4 * r * r + length * length / 4 + 3.0 / 8.0 * r * length);
      p.inertia = {transverse, transverse, axial};
      break;
    }
    case kGeomCylinder: {
      const double length = 2 * size[1];
      p.volume = kPi * r * r * length;
      const double transverse = p.volume * (3 * r * r + length * length) / 12;
      p.inertia = {transverse, transverse, p.volume * r * r / 2};
      break;
    }
    case kGeomEllipsoid: {
      const double a = size[0], b = size[1], c = size[2];
      p.volume = 4.0 / 3.0 * kPi * a * b * c;
      p.inertia = {p.volume * (b * b + c * c) / 5, p.volume * (a * a + c * c) / 5, p.volume * (a * a + b * b) / 5};
      break;
    }
    case kGeomBox: {
      const double a = size[0], b = size[1], c = size[2];
      p.volume = 8 * a * b * c;
      p.inertia = {p.volume * (b * b + c * c) / 3, p.volume * (a * a + c * c) / 3, p.volume * (a * a + b * b) / 3};
      break;
    }
    default: break;
  }
  return p;
}

void principal_axes(const double* matrix, double* eigenvalues, double* quat) {
  // Jacobi iteration with the rotation kept as a quaternion q: D = R(q)' A R(q) is driven to a
  // diagonal matrix, one symmetric Schur rotation at a time (Golub and Van Loan, 8.4.2).
  constexpr double kEps = 1e-12;
  double q[4] = {1, 0, 0, 0};
  double d[9];
  for (int iteration = 0; iteration < 500; ++iteration) {
    double r[9], tmp[9];
    math::quat_to_mat(r, q);
    math::mat_t_mat3(tmp, r, matrix);
    math::mat_mat3(d, tmp, r);
    // The largest off-diagonal element (ties go to the earlier pair) and the axis k of the plane
    // rotation (i, j) that annihilates it.
    int i = 1, j = 2, k = 0;
    if (std::abs(d[1]) > std::abs(d[2]) && std::abs(d[1]) > std::abs(d[5])) {
      i = 0, j = 1, k = 2;
    } else if (std::abs(d[2]) > std::abs(d[5])) {
      i = 0, j = 2, k = 1;
    }
    const double dij = d[3 * i + j];
    if (std::abs(dij) < kEps) break;
    // The smaller of the two Schur rotations: t = tan(angle), |angle| <= 45 degrees.
    const double tau = (d[4 * j] - d[4 * i]) / (2 * dij);
    const double t = tau >= 0 ? 1 / (tau + std::sqrt(1 + tau * tau)) : -1 / (-tau + std::sqrt(1 + tau * tau));
    const double c = 1 / std::sqrt(1 + t * t);
    if (c > 1 - kEps) break;
    // As a quaternion about axis k: half-angle sine of magnitude sqrt((1 - c) / 2), with the sign
    // of the rotation direction (flipped for the non-cyclic pair (0, 2)).
    double g[4] = {0, 0, 0, 0};
    double half = std::sqrt(0.5 - 0.5 * c);
    if (tau >= 0) half = -half;
    if (k == 1) half = -half;
    g[k + 1] = half;
    g[0] = std::sqrt(1 - half * half);
    math::quat_normalize(g);
    math::quat_mul(q, q, g);
    math::quat_normalize(q);
  }
  double r[9], tmp[9];
  math::quat_to_mat(r, q);
  math::mat_t_mat3(tmp, r, matrix);
  math::mat_mat3(d, tmp, r);
  eigenvalues[0] = d[0];
  eigenvalues[1] = d[4];
  eigenvalues[2] = d[8];
  // Sort in decreasing order with three compare-and-swaps (pairs 01, 12, 01). Swapping columns i
  // and i+1 is a quarter turn about the third axis, which keeps R a proper rotation.
  for (int pass = 0; pass < 3; ++pass) {
    const int a = pass % 2;
    if (eigenvalues[a] >= eigenvalues[a + 1]) continue;
    std::swap(eigenvalues[a], eigenvalues[a + 1]);
    double turn[4] = {std::sqrt(0.5), 0, 0, 0};
    turn[(a + 2) % 3 + 1] = std::sqrt(0.5);
    math::quat_mul(q, q, turn);
    math::quat_normalize(q);
  }
  math::copy4(quat, q);
}

}  // namespace joco::compiler
