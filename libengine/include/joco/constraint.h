// The constraint model (computation chapter, "Constraint model" and "Solver parameters"): the rows
// of the constraint Jacobian with their residuals, the impedance, regulariser and reference
// acceleration of each row, the inverse inertia in constraint space, and the analytic constraint
// forces of the reduced primal problem (which are also the inverse-dynamics constraint forces).
//
// Order in forward dynamics: make_constraint, project_constraint (position stage, after collision);
// reference_constraint (velocity stage); a solver (joco/solver.h) in the constraint stage. None of
// these allocate: temporaries come from the Data's stack.
//
// Layout of the rows, as MuJoCo 2.2.2: equality rows first (d.ne of them), then friction loss
// (d.nf), then limits and contacts; d.nefc in all. efc_J is dense (nefc x nv, row-major) unless
// is_sparse(m), in which case row i holds efc_J_rownnz[i] values at efc_J_rowadr[i] (rows packed
// one after the other) with their columns in efc_J_colind, and efc_JT is the same for the
// transpose. A dense row i also has its pattern (the columns that can be non-zero, increasing)
// in efc_J_rownnz[i] and efc_J_colind + efc_J_rowadr[i], with efc_J_rowadr[i] = i nv: outside it
// the row is exactly zero.
//
// Tendon Jacobians are read as joco's tendon stage writes them: ten_J dense (ntendon x nv), its
// non-zero columns in ten_J_colind (used only when is_sparse(m)).
#pragma once

#include "joco/data.h"
#include "joco/model.h"

namespace joco {

// ---- model-level choices
// --------------------------------------------------------------------------

// Sparse Jacobian: opt.jacobian is sparse, or auto with nv >= 60.
bool is_sparse(const Model& m);
// Pyramidal friction cones (opt.cone); otherwise elliptic.
bool is_pyramidal(const Model& m);
// The dual (efc_AR) is needed: the PGS solver, or noslip iterations.
bool is_dual(const Model& m);

// ---- position stage
// -------------------------------------------------------------------------------

// The constraint rows at the current positions (mj_makeConstraint): efc_type, efc_id, efc_pos,
// efc_margin, efc_frictionloss, efc_J (and its sparse structure and transpose), ne, nf, nefc, the
// contacts' efc_address; then constraint_parameters. Rows are made for active equalities, friction
// loss of dofs and tendons, violated (within margin) joint and tendon limits, and the included
// contacts d.contact[0..ncon), each kind unless disabled. Rows beyond njmax are dropped with a
// kWarnConstraintFull warning. Needs kinematics, com_pos, the tendon stage and factor_m.
void make_constraint(const Model& m, Data& d);

// The solver parameters of every row (mj_makeImpedance): efc_diagApprox (from the invweights at
// qpos0), efc_KBIP (stiffness and damping from solref, impedance and its derivative from solimp and
// the residual), efc_R = (1 - imp) / imp * diagApprox, efc_D = 1 / R, and the regularised friction
// of the contacts (Contact::mu); impratio shapes the friction rows. Called by make_constraint.
void constraint_parameters(const Model& m, Data& d);

// The inverse inertia in constraint space plus the regulariser, efc_AR = J inv(M) J' + diag(R),
// dense or (is_sparse) in the row format of efc_AR_rownnz/rowadr/colind (mj_projectConstraint).
// Only when is_dual(m); otherwise nothing is done.
void project_constraint(const Model& m, Data& d);

// ---- velocity stage
// -------------------------------------------------------------------------------

// efc_vel = J qvel and the reference acceleration efc_aref = -B vel - K imp (pos - margin)
// (mj_referenceConstraint).
void reference_constraint(const Model& m, Data& d);

// ---- constraint forces
// ----------------------------------------------------------------------------

// The constraint forces of the reduced primal problem at jar = J qacc - aref (nefc values):
// efc_force = -grad s(jar), efc_state, qfrc_constraint = J' efc_force, and, when cost is not null,
// *cost = s(jar). With cone_hessian, each contact in the cone state of an elliptic cone gets its
// Hessian in Contact::H (dim x dim) (mj_constraintUpdate).
void constraint_update(const Model& m, Data& d, const double* jar, double* cost, bool cone_hessian);
// constraint_update without qfrc_constraint (for when only the cost or efc_force is needed).
void constraint_forces(const Model& m, Data& d, const double* jar, double* cost, bool cone_hessian);

// Inverse dynamics of the constraints at the current qacc (mj_invConstraint): efc_force and
// qfrc_constraint from the analytic formula, without a solver. Needs reference_constraint.
void inverse_constraint(const Model& m, Data& d);

// The position joint equality `equality` gives its first joint at `qpos`: qpos0 + a0 + a1 x + ... +
// a4 x^4, x the second joint's displacement from its qpos0 (qpos0 + a0 without a second joint), the
// polynomial of the constraint's own row. Used where equalities are eliminated rather than added as
// rows (inverse kinematics, joint coordinates read from files that leave the tied joints out).
double joint_equality_position(const Model& m, int equality, const double* qpos);

// ---- products with the constraint Jacobian
// --------------------------------------------------------

// res = J vec (nefc), dense or sparse.
void mul_jac_vec(const Model& m, const Data& d, double* res, const double* vec);
// res = J' vec (nv), dense or sparse.
void mul_jac_t_vec(const Model& m, const Data& d, double* res, const double* vec);

// ---- distance equality
// ----------------------------------------------------------------------------

// Signed distance between the surfaces of two geoms (negative when they overlap), with the unit
// normal from geom1 to geom2 and the point midway between the nearest surface points. Supported
// pairs (geom_distance_supported): returns false for any other.
bool geom_distance(const Model& m, const Data& d, int geom1, int geom2, double* dist,
                   double normal[3], double point[3]);

// The geom type pairs of the distance equality: spheres and capsules with each other; a box with
// a sphere or capsule; a plane with any geom but a plane or height field.
bool geom_distance_supported(int type1, int type2);

}  // namespace joco
