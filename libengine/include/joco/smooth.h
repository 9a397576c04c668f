// The smooth dynamics: the stages of the forward pipeline that everything else builds on
// (computation chapter, "General framework"), each a free function named after what it computes,
// writing MuJoCo 2.2.2's fields of Data. None allocates: temporaries come from the Data's stack.
//
// Order of use: kinematics, com_pos, camlight, crb, factor_m (position); com_vel, rne (velocity);
// rne_post_constraint once qacc is known. Jacobians are in joco/jacobian.h.
#pragma once

#include <span>
#include <vector>

#include "joco/data.h"
#include "joco/model.h"

namespace joco {

// ---- position
// ------------------------------------------------------------------------------------

// Forward kinematics (mj_kinematics): global frames of bodies (xpos, xquat, xmat), their inertial
// frames (xipos, ximat), joint anchors and axes (xanchor, xaxis), geoms and sites. Like MuJoCo, it
// first normalises the quaternions of qpos (free and ball joints) and mocap_quat in place.
void kinematics(const Model& m, Data& d);

// Subtree centres of mass (subtree_com), com-based body inertias (cinert) and motion axes of the
// dofs (cdof), all in the global orientation about the subtree_com of each body's root (mj_comPos).
void com_pos(const Model& m, Data& d);

// Cameras and lights (mj_camlight): cam_xpos, cam_xmat, light_xpos, light_xdir for every tracking
// mode. Needs kinematics and com_pos.
void camlight(const Model& m, Data& d);

// Composite rigid body inertias (crb) and the joint-space inertia qM with armature, in the
// tree-sparse layout of dof_Madr (mj_crb). Rows of simple dofs (dof_simplenum > 0) are taken
// from dof_M0, as MuJoCo does. Needs com_pos.
void crb(const Model& m, Data& d);

// The L'DL factorisation of qM into qLD, qLDiagInv, qLDiagSqrtInv (mj_factorM).
void factor_m(const Model& m, Data& d);

// Factorises any matrix `mat` with qM's sparsity (mj_factorI): L'DL into qld (nM, may be mat),
// 1/D into diag_inv and 1/sqrt(D) into diag_sqrt_inv (either may be null). Like qM, `mat` must have
// no off-diagonals in the rows of simple dofs (dof_simplenum > 0), which are not eliminated.
// Pivots below kMinVal are raised to it with a kWarnInertia warning in d, as MuJoCo does.
void factor_ld(const Model& m, Data& d, const double* mat, double* qld, double* diag_inv,
               double* diag_sqrt_inv);

// x = inv(L'DL) y for n vectors of size nv stored one after the other, with a factorisation made
// by factor_ld (mj_solveLD). x and y may be the same array.
void solve_ld(const Model& m, double* x, const double* y, int n, const double* qld,
              const double* diag_inv);

// x = inv(M) y for n vectors, with the factorisation of factor_m (mj_solveM). x may alias y.
void solve_m(const Model& m, const Data& d, double* x, const double* y, int n);

// The dofs where y is nonzero and all their ancestors along dof_parentid, in ascending order (into
// `chain`): the entries of x = inv(M) y that depend only on y's entries among them, and the only
// entries of x that y'x reads.
void nonzero_dofs_and_ancestors(const Model& m, const double* y, std::vector<int>& chain);

// solve_m on those entries only: x holds y on `chain` (nonzero_dofs_and_ancestors of y) on entry
// and inv(M) y there on return, bit for bit what solve_m gives there; x's other entries are left
// as they are. A cost of the chain's length times depth instead of solve_m's nv times depth: the
// compiler's weights J inv(M) J' of each dof, body and tendon.
void solve_m_on_chain(const Model& m, const Data& d, double* x, std::span<const int> chain);

// Half of solve_m: x = sqrt(inv(D)) inv(L') y for n vectors, so that x'x = y' inv(M) y
// (mj_solveM2). x may alias y.
void solve_m2(const Model& m, const Data& d, double* x, const double* y, int n);

// res = M vec with the sparse qM (mj_mulM). res must not alias vec.
void mul_m(const Model& m, const Data& d, double* res, const double* vec);

// res = sqrt(D) L vec, the factor B of M = L'DL = B'B (what mj_mulM2 documents; MuJoCo 2.2.2's
// mj_mulM2 itself leaves the off-diagonal terms unscaled). res must not alias vec.
void mul_m2(const Model& m, const Data& d, double* res, const double* vec);

// The dense nv x nv matrix (row-major) of a matrix in qM's sparse layout (mj_fullM).
void full_m(const Model& m, double* dense, const double* sparse);

// Potential energy into d.energy[0] (mj_energyPos): gravity (unless disabled) and joint springs,
// plus tendon springs from ten_length (unless passive forces are disabled). Like MuJoCo, only
// when the energy flag is enabled; otherwise both energies are set to zero.
void energy_pos(const Model& m, Data& d);

// ---- velocity
// ------------------------------------------------------------------------------------

// Body velocities (cvel) and time derivatives of the dof axes (cdof_dot), com-based (mj_comVel).
void com_vel(const Model& m, Data& d);

// Recursive Newton-Euler: result = C(q, v) (Coriolis, centrifugal, gravity unless disabled), plus
// M qacc when with_acceleration (mj_rne). Needs com_pos and com_vel.
void rne(const Model& m, Data& d, bool with_acceleration, double* result);

// Linear velocities of the subtree centres of mass and angular momenta about them (mj_subtreeVel).
void subtree_vel(const Model& m, Data& d);

// Kinetic energy 0.5 v'Mv into d.energy[1] (mj_energyVel), when the energy flag is enabled (else
// nothing is done). Needs crb.
void energy_vel(const Model& m, Data& d);

// ---- acceleration
// --------------------------------------------------------------------------------

// Body accelerations (cacc), external forces (cfrc_ext: xfrc_applied, contact forces and the
// wrenches of connect and weld constraints, from efc_force) and interaction forces with the parent
// (cfrc_int), once qacc and the constraint forces are known (mj_rnePostConstraint).
void rne_post_constraint(const Model& m, Data& d);

// The force and torque of contact `id` in its contact frame, [normal, tangent1, tangent2, spin,
// roll1, roll2], decoded from efc_force (pyramidal or elliptic cones; mj_contactForce). Zero for
// a contact without constraint rows.
void contact_force(const Model& m, const Data& d, int id, double result[6]);

// ---- configuration space
// -------------------------------------------------------------------------

// qpos <- qpos (+) qvel * dt: adds a velocity to positions, rotating quaternions of free and ball
// joints by their angular velocity (mj_integratePos).
void integrate_pos(const Model& m, double* qpos, const double* qvel, double dt);

// qvel = (qpos2 (-) qpos1) / dt, the velocity that integrate_pos would take from qpos1 to qpos2
// over dt (mj_differentiatePos).
void differentiate_pos(const Model& m, double* qvel, double dt, const double* qpos1,
                       const double* qpos2);

// Normalises the quaternions of free and ball joints in a qpos-like vector (mj_normalizeQuat).
void normalize_quat(const Model& m, double* qpos);

}  // namespace joco
