// End-effector Jacobians (MuJoCo's mj_jac family): how a point attached to a body moves with the
// joint velocities. Each is a row-major 3 x nv matrix, translational (jacp) and rotational (jacr);
// either pointer may be null to skip it. They need kinematics and com_pos (joco/smooth.h), as
// does apply_force_torque, which maps a force at a point to generalised forces through them.
#pragma once

#include "joco/data.h"
#include "joco/model.h"

namespace joco {

// The last dof that moves `body` (its own, or its nearest ancestor's); -1 when none does. The dofs
// that move it are this one and its dof_parentid chain, decreasing.
inline int last_dof(const Model& m, int body) {
  while (body > 0 && m.body_dofnum[body] == 0) body = m.body_parentid[body];
  return body > 0 ? m.body_dofadr[body] + m.body_dofnum[body] - 1 : -1;
}

// The dofs that move `body`, in increasing order (the dof tree chain from the body's last dof);
// returns their number. `dofs` needs room for nv ints.
int dof_chain(const Model& m, int body, int* dofs);

// The same chain written to end just before `end` (with room for nv ints before it); returns
// where it starts. (dof_chain without moving the chain to the front of its room.)
int* dof_chain_before(const Model& m, int body, int* end);

// Jacobian of the global point `point`, taken as attached to `body` (mj_jac).
void jac(const Model& m, const Data& d, double* jacp, double* jacr, const double point[3],
         int body);

// Jacobians of the body's frame origin (mj_jacBody), its centre of mass (mj_jacBodyCom), a geom's
// centre (mj_jacGeom) and a site (mj_jacSite).
void jac_body(const Model& m, const Data& d, double* jacp, double* jacr, int body);
void jac_body_com(const Model& m, const Data& d, double* jacp, double* jacr, int body);
void jac_geom(const Model& m, const Data& d, double* jacp, double* jacr, int geom);
void jac_site(const Model& m, const Data& d, double* jacp, double* jacr, int site);

// Translational Jacobian of the centre of mass of the subtree rooted at `body`
// (mj_jacSubtreeCom); zero when the subtree has no mass.
void jac_subtree_com(const Model& m, Data& d, double* jacp, int body);

// Translational Jacobian of `point` and rotational Jacobian of the direction `axis`, both attached
// to `body` (mj_jacPointAxis): column i of jac_axis is jacr_i x axis. Either may be null.
void jac_point_axis(const Model& m, Data& d, double* jac_point, double* jac_axis,
                    const double point[3], const double axis[3], int body);

// qfrc += J' [force; torque] for a force and torque (global) applied at the global point `point`
// attached to `body` (mj_applyFT): their generalised force, through the point's Jacobians.
void apply_force_torque(const Model& m, const Data& d, const double force[3],
                        const double torque[3], const double point[3], int body, double* qfrc);

}  // namespace joco
