// The local force laws of the two fluid models, written once over the scalar type so that the
// passive stage evaluates them on doubles and the velocity derivatives on math::Dual numbers.
// Velocities (v linear, w angular) and the resulting force and torque are in the frame of the
// body's inertia box or of the geom's ellipsoid; v already has the wind subtracted.
#pragma once

#include <algorithm>
#include <cmath>

#include "joco/constants.h"
#include "joco/model.h"
#include "math/dual.h"

namespace joco::fluid_forces {

using math::at_least;
using math::fabs;
using math::sqrt;
using std::fabs;
using std::sqrt;

template <class T>
inline void cross(T r[3], const T a[3], const T b[3]) {
  const T x = a[1] * b[2] - a[2] * b[1];
  const T y = a[2] * b[0] - a[0] * b[2];
  const T z = a[0] * b[1] - a[1] * b[0];
  r[0] = x;
  r[1] = y;
  r[2] = z;
}
template <class T>
inline T dot(const T a[3], const T b[3]) {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

// The area of the ellipsoid's shadow along v, pi sqrt(N.N / N.v) from nn = N.N and nv = N.v.
inline double projected_area(double nn, double nv) {
  return kPi * std::sqrt(nn / std::max(kMinVal, nv));
}
// Its derivative as MuJoCo 2.2.2 takes it: pi (nv dnn - nn dnv) / (2 sqrt(nn nv^3)), with the
// denominator kept above kMinVal (which, for very thin bodies, damps the derivative well below the
// true one).
template <int N>
math::Dual<N> projected_area(const math::Dual<N>& nn, const math::Dual<N>& nv) {
  math::Dual<N> a(projected_area(nn.v, nv.v));
  const double den = 2 * std::max(kMinVal, std::sqrt(nn.v * nv.v * nv.v * nv.v));
  for (int k = 0; k < N; ++k) a.d[k] = kPi * (nv.v * nn.d[k] - nn.v * nv.d[k]) / den;
  return a;
}

// Half sizes of the box with the body's mass and principal inertia; false for massless bodies.
inline bool inertia_box_sizes(const Model& m, int body, double r[3]) {
  const double mass = m.body_mass[body];
  const double* inertia = m.body_inertia + 3 * body;
  if (mass < kMinVal) return false;
  for (int i = 0; i < 3; ++i) {
    const double s = inertia[(i + 1) % 3] + inertia[(i + 2) % 3] - inertia[i];
    r[i] = std::sqrt(std::max(kMinVal, s) * 1.5 / mass);
  }
  return true;
}

// Inertia-box model: Stokes drag of the sphere of mean radius (viscosity beta) and quadratic drag
// on the faces of the box of half sizes r (density rho).
template <class T>
void inertia_box(const double r[3], double rho, double beta, const T v[3], const T w[3], T force[3],
                 T torque[3]) {
  for (int i = 0; i < 3; ++i) force[i] = torque[i] = T(0);
  if (beta > 0) {
    const double req = (r[0] + r[1] + r[2]) / 3;
    for (int i = 0; i < 3; ++i) {
      force[i] -= 6 * beta * kPi * req * v[i];
      torque[i] -= 8 * beta * kPi * req * req * req * w[i];
    }
  }
  if (rho > 0) {
    for (int i = 0; i < 3; ++i) {
      const int j = (i + 1) % 3, k = (i + 2) % 3;
      force[i] -= 2 * rho * r[j] * r[k] * fabs(v[i]) * v[i];
      const double rj2 = r[j] * r[j], rk2 = r[k] * r[k];
      torque[i] -= 0.5 * rho * r[i] * (rj2 * rj2 + rk2 * rk2) * fabs(w[i]) * w[i];
    }
  }
}

// Ellipsoid model of one geom with semi-axes r and parameters prm (its geom_fluid row).
template <class T>
void ellipsoid(const double* prm, const double r[3], double rho, double beta, const T v[3],
               const T w[3], T force[3], T torque[3]) {
  const double blunt = prm[1], slender = prm[2], angular = prm[3], kutta = prm[4], magnus = prm[5];
  const double* added_mass = prm + 6;
  const double* added_inertia = prm + 9;
  for (int i = 0; i < 3; ++i) force[i] = torque[i] = T(0);

  // Added mass: the fluid's momentum (m_A v, I_A w) carried along by the body's motion.
  {
    T p[3], l[3], a[3];
    for (int i = 0; i < 3; ++i) {
      p[i] = rho * added_mass[i] * v[i];
      l[i] = rho * added_inertia[i] * w[i];
    }
    cross(a, p, w);
    for (int i = 0; i < 3; ++i) force[i] += a[i];
    cross(a, p, v);
    for (int i = 0; i < 3; ++i) torque[i] += a[i];
    cross(a, l, w);
    for (int i = 0; i < 3; ++i) torque[i] += a[i];
  }

  const T speed = sqrt(dot(v, v));
  const double volume = 4.0 / 3.0 * kPi * r[0] * r[1] * r[2];
  const double rmax = std::max({r[0], r[1], r[2]}), rmin = std::min({r[0], r[1], r[2]});
  const double rmid = r[0] + r[1] + r[2] - rmax - rmin;
  // The normal of the cross-section whose projection along v is the body's shadow,
  // N_i = (r_j r_k)^2 v_i, and the area of that shadow, pi sqrt(N.N / N.v).
  T normal[3];
  for (int i = 0; i < 3; ++i) {
    const double rjk = r[(i + 1) % 3] * r[(i + 2) % 3];
    normal[i] = rjk * rjk * v[i];
  }
  const T nv = dot(normal, v), nn = dot(normal, normal);
  const T projected = projected_area(nn, nv);

  // Drag: blunt on the projected area, slender on the rest of the largest cross-section.
  {
    const double area_max = kPi * rmax * rmid;
    const T c = rho * (blunt * projected + slender * (area_max - projected)) * speed;
    for (int i = 0; i < 3; ++i) force[i] -= c * v[i];
  }
  // Angular drag on the moments of inertia of the swept ellipsoids.
  {
    double inertia[3];
    for (int i = 0; i < 3; ++i) {
      const double s = std::max(r[(i + 1) % 3], r[(i + 2) % 3]);
      inertia[i] = 8.0 / 15.0 * kPi * r[i] * s * s * s * s;
    }
    const double imax = std::max({inertia[0], inertia[1], inertia[2]});
    T moment[3];
    for (int i = 0; i < 3; ++i) {
      moment[i] = (angular * inertia[i] + slender * (imax - inertia[i])) * w[i];
    }
    const T c = rho * sqrt(dot(moment, moment));
    for (int i = 0; i < 3; ++i) torque[i] -= c * w[i];
  }
  // Magnus lift.
  {
    T a[3];
    cross(a, w, v);
    for (int i = 0; i < 3; ++i) force[i] += magnus * rho * volume * a[i];
  }
  // Kutta lift: (n.v / |v|) (n x v) x v with n the unit normal, written with N as MuJoCo 2.2.2
  // does, whose guard on the denominator N.N |v| damps the lift of very thin bodies at low speed.
  {
    T nxv[3], a[3];
    cross(nxv, normal, v);
    cross(a, nxv, v);
    const T c = kutta * rho * projected * nv / at_least(kMinVal, speed * nn);
    for (int i = 0; i < 3; ++i) force[i] += c * a[i];
  }
  // Viscous resistance of the sphere of mean radius.
  {
    const double rd = (r[0] + r[1] + r[2]) / 3;
    for (int i = 0; i < 3; ++i) {
      force[i] -= 6 * kPi * rd * beta * v[i];
      torque[i] -= 8 * kPi * rd * rd * rd * beta * w[i];
    }
  }
}

}  // namespace joco::fluid_forces
