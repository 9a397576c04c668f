// Fluid forces of MuJoCo 2.2.2's two stateless models: the inertia-box model (each body is its
// equivalent inertia box) and the ellipsoid model (each fluidshape="ellipsoid" geom is an
// ellipsoid with added mass, drag, lift and viscous resistance).
#include "joco/jacobian.h"
#include "joco/passive.h"
#include "math/vec.h"
#include "passive/fluid_forces.h"

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
  double r[3];
  if (!fluid_forces::inertia_box_sizes(m, body, r)) return;
  double w[3], v[3], force[3], torque[3];
  const double* point = d.xipos + 3 * body;
  const double* mat = d.ximat + 9 * body;
  local_velocity(m, d, body, point, mat, w, v);
  fluid_forces::inertia_box(r, m.opt.density, m.opt.viscosity, v, w, force, torque);
  apply_local(m, d, point, mat, force, torque, body, qfrc);
}

void ellipsoid(const Model& m, const Data& d, int geom, double* qfrc) {
  const int body = m.geom_bodyid[geom];
  double r[3];
  fluid_semi_axes(m.geom_type[geom], m.geom_size + 3 * geom, r);
  double w[3], v[3], force[3], torque[3];
  const double* point = d.geom_xpos + 3 * geom;
  const double* mat = d.geom_xmat + 9 * geom;
  local_velocity(m, d, body, point, mat, w, v);
  fluid_forces::ellipsoid(m.geom_fluid + kNFLUID * geom, r, m.opt.density, m.opt.viscosity, v, w,
                          force, torque);
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
