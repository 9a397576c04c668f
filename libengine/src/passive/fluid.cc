// Fluid forces of MuJoCo 2.2.2's two stateless models: the inertia-box model (each body is its
// equivalent inertia box) and the ellipsoid model (each fluidshape="ellipsoid" geom is an
// ellipsoid with added mass, drag, lift and viscous resistance).
#include <algorithm>
#include <cmath>

#include "joco/passive.h"
#include "math/vec.h"

namespace joco {

using namespace math;

void fluid_semi_axes(int geom_type, const double size[3], double axes[3]) {
  switch (geom_type) {
    case kGeomSphere: axes[0] = axes[1] = axes[2] = size[0]; break;
    case kGeomCapsule:
      axes[0] = axes[1] = size[0];
      axes[2] = size[1] + size[0];
      break;
    case kGeomCylinder:
      axes[0] = axes[1] = size[0];
      axes[2] = size[1];
      break;
    default: copy3(axes, size);
  }
}

namespace {

// Velocity of the frame (point, mat) attached to `body`, in that frame, with the wind
// subtracted: angular `ang`, linear `lin`.
void local_velocity(const Model& m, const Data& d, int body, const double* point, const double* mat,
                    double ang[3], double lin[3]) {
  const double* cvel = d.cvel + 6 * body;
  double offset[3], v[3];
  sub3(offset, point, d.subtree_com + 3 * m.body_rootid[body]);
  cross3(v, cvel, offset);
  add3(v, v, cvel + 3);
  sub3(v, v, m.opt.wind);
  mat_t_vec3(ang, mat, cvel);
  mat_t_vec3(lin, mat, v);
}

// Applies a force and torque given in the frame (point, mat) of `body`.
void apply_local(const Model& m, const Data& d, const double* point, const double* mat,
                 const double force[3], const double torque[3], int body, double* qfrc) {
  double f[3], t[3];
  mat_vec3(f, mat, force);
  mat_vec3(t, mat, torque);
  apply_force_torque(m, d, f, t, point, body, qfrc);
}

void inertia_box(const Model& m, const Data& d, int body, double* qfrc) {
  const double mass = m.body_mass[body];
  const double* inertia = m.body_inertia + 3 * body;
  if (mass < kMinVal) return;
  // Half sizes of the box with the body's mass and inertia.
  double r[3];
  for (int i = 0; i < 3; ++i) {
    const double s = inertia[(i + 1) % 3] + inertia[(i + 2) % 3] - inertia[i];
    r[i] = std::sqrt(std::max(kMinVal, s) * 1.5 / mass);
  }
  double ang[3], lin[3];
  const double* point = d.xipos + 3 * body;
  const double* mat = d.ximat + 9 * body;
  local_velocity(m, d, body, point, mat, ang, lin);

  const double rho = m.opt.density, beta = m.opt.viscosity;
  double force[3] = {0, 0, 0}, torque[3] = {0, 0, 0};
  if (beta > 0) {
    // Stokes drag of the sphere of mean radius.
    const double req = (r[0] + r[1] + r[2]) / 3;
    for (int i = 0; i < 3; ++i) {
      force[i] -= 6 * beta * kPi * req * lin[i];
      torque[i] -= 8 * beta * kPi * req * req * req * ang[i];
    }
  }
  if (rho > 0) {
    // Quadratic drag on the faces of the box.
    for (int i = 0; i < 3; ++i) {
      const int j = (i + 1) % 3, k = (i + 2) % 3;
      force[i] -= 2 * rho * r[j] * r[k] * std::fabs(lin[i]) * lin[i];
      const double rj2 = r[j] * r[j], rk2 = r[k] * r[k];
      torque[i] -= 0.5 * rho * r[i] * (rj2 * rj2 + rk2 * rk2) * std::fabs(ang[i]) * ang[i];
    }
  }
  apply_local(m, d, point, mat, force, torque, body, qfrc);
}

void ellipsoid(const Model& m, const Data& d, int geom, double* qfrc) {
  const double* prm = m.geom_fluid + kNFLUID * geom;
  const double blunt = prm[1], slender = prm[2], angular = prm[3], kutta = prm[4], magnus = prm[5];
  const double* added_mass = prm + 6;
  const double* added_inertia = prm + 9;
  const int body = m.geom_bodyid[geom];
  double r[3];
  fluid_semi_axes(m.geom_type[geom], m.geom_size + 3 * geom, r);
  const double* point = d.geom_xpos + 3 * geom;
  const double* mat = d.geom_xmat + 9 * geom;
  double w[3], v[3];
  local_velocity(m, d, body, point, mat, w, v);

  const double rho = m.opt.density, beta = m.opt.viscosity;
  double force[3] = {0, 0, 0}, torque[3] = {0, 0, 0};

  // Added mass: the fluid's momentum (m_A v, I_A w) carried along by the body's motion.
  {
    double p[3], l[3], a[3];
    for (int i = 0; i < 3; ++i) {
      p[i] = rho * added_mass[i] * v[i];
      l[i] = rho * added_inertia[i] * w[i];
    }
    cross3(a, p, w);
    add3(force, force, a);
    cross3(a, p, v);
    add3(torque, torque, a);
    cross3(a, l, w);
    add3(torque, torque, a);
  }

  const double speed = norm3(v);
  const double volume = 4.0 / 3.0 * kPi * r[0] * r[1] * r[2];
  const double rmax = std::max({r[0], r[1], r[2]}), rmin = std::min({r[0], r[1], r[2]});
  const double rmid = r[0] + r[1] + r[2] - rmax - rmin;
  // The normal of the cross-section whose projection along v is the body's shadow,
  // N_i = (r_j r_k)^2 v_i, and the area of that shadow, pi sqrt(N.N / N.v).
  double normal[3];
  for (int i = 0; i < 3; ++i) {
    const double rjk = r[(i + 1) % 3] * r[(i + 2) % 3];
    normal[i] = rjk * rjk * v[i];
  }
  const double nv = dot3(normal, v), nn = dot3(normal, normal);
  const double projected = kPi * std::sqrt(nn / std::max(kMinVal, nv));

  // Drag: blunt on the projected area, slender on the rest of the largest cross-section.
  {
    const double area_max = kPi * rmax * rmid;
    const double c = rho * (blunt * projected + slender * (area_max - projected)) * speed;
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
    double moment[3];
    for (int i = 0; i < 3; ++i)
      moment[i] = (angular * inertia[i] + slender * (imax - inertia[i])) * w[i];
    const double c = rho * norm3(moment);
    for (int i = 0; i < 3; ++i) torque[i] -= c * w[i];
  }
  // Magnus lift.
  {
    double a[3];
    cross3(a, w, v);
    for (int i = 0; i < 3; ++i) force[i] += magnus * rho * volume * a[i];
  }
  // Kutta lift: (n.v / |v|) (n x v) x v with n the unit normal, written with N as MuJoCo 2.2.2
  // does, whose guard on the denominator N.N |v| damps the lift of very thin bodies at low speed.
  {
    double nxv[3], a[3];
    cross3(nxv, normal, v);
    cross3(a, nxv, v);
    const double c = kutta * rho * projected * nv / std::max(kMinVal, speed * nn);
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
  apply_local(m, d, point, mat, force, torque, body, qfrc);
}

}  // namespace

void fluid(const Model& m, Data& d, double* qfrc) {
  for (int b = 1; b < m.nbody; ++b) {
    bool uses_ellipsoids = false;
    const int end = m.body_geomadr[b] + m.body_geomnum[b];
    for (int g = m.body_geomadr[b]; g < end && m.body_geomadr[b] >= 0; ++g) {
      if (m.geom_fluid[kNFLUID * g] > 0) {
        uses_ellipsoids = true;
        ellipsoid(m, d, g, qfrc);
      }
    }
    if (!uses_ellipsoids) inertia_box(m, d, b, qfrc);
  }
}

}  // namespace joco
