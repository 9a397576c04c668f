// The constraint solver (computation chapter, "Constraint solver"): the constrained acceleration
// and constraint forces as the solution of a convex problem, by PGS on the dual, or CG and Newton
// on the reduced primal with exact line search, then optional noslip iterations.
//
// Each solver writes qacc, efc_force, efc_state and qfrc_constraint, and its per-iteration
// statistics in d.solver[0..solver_iter) (scaled by 1 / (meaninertia max(1, nv)), as MuJoCo
// 2.2.2): improvement of the cost, gradient norm, line-search slope, active constraints, state
// changes, cost evaluations and Cholesky updates in the line search. Iterations stop after opt.
// iterations or when the improvement or (primal) gradient falls below opt.tolerance. None of these
// allocate: temporaries come from the Data's stack.
#pragma once

#include "joco/data.h"
#include "joco/model.h"

namespace joco {

// The constraint stage of forward dynamics (mj_fwdConstraint): qacc = qacc_smooth when there are
// no constraint rows; otherwise efc_b = J qacc_smooth - aref, the warmstart (the better of
// qacc_warmstart and qacc_smooth for the primal solvers, the forces of qacc_warmstart for PGS when
// they beat zero forces; unless warmstart is disabled), the solver of opt.solver and noslip.
// Needs make_constraint, project_constraint, reference_constraint and qacc_smooth.
void solve_constraint(const Model& m, Data& d);

// The solvers, from the initial qacc (primal) or efc_force (dual) in d. Each needs efc_b; PGS and
// noslip need efc_AR (project_constraint).
void solve_pgs(const Model& m, Data& d, int max_iterations);
void solve_cg(const Model& m, Data& d, int max_iterations);
void solve_newton(const Model& m, Data& d, int max_iterations);

// Noslip post-processing: PGS iterations on the friction forces alone (friction loss and contact
// friction), without regularisation and with the normal forces held, until opt.noslip_tolerance.
// Appends its statistics after the main solver's.
void solve_noslip(const Model& m, Data& d, int max_iterations);

}  // namespace joco
