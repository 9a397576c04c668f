// Newton-Euler with the accelerations of the forward dynamics: body accelerations, external
// forces (applied, contact, connect and weld constraint wrenches) and the forces each body
// receives from its parent.
#include "joco/smooth.h"
#include "math/spatial.h"

namespace joco {

using namespace math;

namespace {

// Adds sign * (force, torque) acting at the global `point` to the com-based external force of
// `body` (the world receives nothing).
inline void add_external(const Model& m, Data& d, int body, const double* force,
                         const double* torque, const double* point, double sign) {
  if (body == 0) return;
  double arm[3], moment[3];
  sub3(arm, point, d.subtree_com + 3 * m.body_rootid[body]);
  cross3(moment, arm, force);
  double* ext = d.cfrc_ext + 6 * body;
  for (int k = 0; k < 3; ++k) {
    ext[k] += sign * (torque[k] + moment[k]);
    ext[3 + k] += sign * force[k];
  }
}

// A point fixed in `body` at local `pos`, in global coordinates.
inline void body_point(double* r, const Data& d, int body, const double* pos) {
  mat_vec3(r, d.xmat + 9 * body, pos);
  add3(r, r, d.xpos + 3 * body);
}

}  // namespace

void contact_force(const Model& m, const Data& d, int id, double result[6]) {
  const Contact& con = d.contact[id];
  zero6(result);
  const int adr = con.efc_address;
  if (adr < 0) return;
  const double* f = d.efc_force + adr;
  if (con.dim == 1 || m.opt.cone == kConeElliptic) {
    for (int k = 0; k < con.dim; ++k) result[k] = f[k];
    return;
  }
  // Pyramidal: edge pair j pushes along normal +- mu_j tangent_j.
  for (int k = 0; k < 2 * (con.dim - 1); ++k) result[0] += f[k];
  for (int j = 0; j < con.dim - 1; ++j) result[j + 1] = con.friction[j] * (f[2 * j] - f[2 * j + 1]);
}

void rne_post_constraint(const Model& m, Data& d) {
  const int nbody = m.nbody;

  // External forces: xfrc_applied acts at the body's centre of mass; moved to the tree's origin.
  zero6(d.cfrc_ext);
  for (int b = 1; b < nbody; ++b) {
    const double* xfrc = d.xfrc_applied + 6 * b;
    double* ext = d.cfrc_ext + 6 * b;
    // xfrc_applied is [force; torque], com-based forces are [torque; force].
    const double wrench[6] = {xfrc[3], xfrc[4], xfrc[5], xfrc[0], xfrc[1], xfrc[2]};
    force_to_point(ext, wrench, d.xipos + 3 * b, d.subtree_com + 3 * m.body_rootid[b]);
  }

  // Contacts: the force of geom1 on geom2, at the contact point, in the contact frame.
  for (int i = 0; i < d.ncon; ++i) {
    const Contact& con = d.contact[i];
    if (con.efc_address < 0) continue;
    double local[6], force[3], torque[3];
    contact_force(m, d, i, local);
    mat_t_vec3(force, con.frame, local);
    mat_t_vec3(torque, con.frame, local + 3);
    add_external(m, d, m.geom_bodyid[con.geom1], force, torque, con.pos, -1);
    add_external(m, d, m.geom_bodyid[con.geom2], force, torque, con.pos, 1);
  }

  // Connect and weld constraints: body1 receives the constraint force at its anchor, body2 the
  // opposite at its own; a weld adds its torque rows.
  for (int i = 0; i < d.nefc; ++i) {
    if (d.efc_type[i] != kCnstrEquality) continue;
    const int id = d.efc_id[i];
    const int type = m.eq_type[id];
    if (type != kEqConnect && type != kEqWeld) continue;
    const int b1 = m.eq_obj1id[id];
    const int b2 = m.eq_obj2id[id];
    const double* data = m.eq_data + kNEQDATA * id;
    const double* force = d.efc_force + i;
    double p1[3], p2[3];
    const double no_torque[3] = {0, 0, 0};
    const double* torque = no_torque;
    if (type == kEqConnect) {
      body_point(p1, d, b1, data);
      body_point(p2, d, b2, data + 3);
      i += 2;
    } else {
      body_point(p1, d, b1, data + 3);
      body_point(p2, d, b2, data);
      torque = d.efc_force + i + 3;
      i += 5;
    }
    add_external(m, d, b1, force, torque, p1, 1);
    add_external(m, d, b2, force, torque, p2, -1);
  }

  // Accelerations, with gravity as an upward acceleration of the world.
  zero6(d.cacc);
  if (!(m.opt.disableflags & kDisableGravity)) scale3(d.cacc + 3, m.opt.gravity, -1);
  for (int b = 1; b < nbody; ++b) {
    double* acc = d.cacc + 6 * b;
    copy6(acc, d.cacc + 6 * m.body_parentid[b]);
    const int dof_end = m.body_dofadr[b] + m.body_dofnum[b];
    for (int i = m.body_dofadr[b]; i < dof_end; ++i) {
      add_scaled_to6(acc, d.cdof_dot + 6 * i, d.qvel[i]);
      add_scaled_to6(acc, d.cdof + 6 * i, d.qacc[i]);
    }
  }

  // Interaction forces: what each body needs beyond its external force, summed from the leaves.
  zero6(d.cfrc_int);
  for (int b = 1; b < nbody; ++b) {
    const double* inert = d.cinert + 10 * b;
    const double* vel = d.cvel + 6 * b;
    double* frc = d.cfrc_int + 6 * b;
    double momentum[6], gyro[6];
    inertia_mul_motion(frc, inert, d.cacc + 6 * b);
    inertia_mul_motion(momentum, inert, vel);
    cross_force(gyro, vel, momentum);
    for (int k = 0; k < 6; ++k) frc[k] += gyro[k] - d.cfrc_ext[6 * b + k];
  }
  // The world receives the sum of what its children exert on it.
  for (int b = nbody - 1; b > 0; --b) {
    double* parent = d.cfrc_int + 6 * m.body_parentid[b];
    for (int k = 0; k < 6; ++k) parent[k] += d.cfrc_int[6 * b + k];
  }
}

}  // namespace joco
