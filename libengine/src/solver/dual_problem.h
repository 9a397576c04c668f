// What PGS and noslip share: the dual problem (computation chapter, "Dual problem") over forces f,
//
//   min 0.5 f' AR f + f' b   subject to f in Omega,
//
// with AR = J inv(M) J' + R from project_constraint (dense or sparse rows) and b = efc_b, its
// residuals, the small elliptic sub-problem, and turning forces back into accelerations.
#pragma once

#include "joco/data.h"
#include "joco/model.h"

namespace joco::dual {

// A block update that raises the dual cost by more than this is undone (MuJoCo 2.2.2's dual
// solvers keep the old forces then).
inline constexpr double kCostRise = 1e-10;

// Rows of efc_AR: row i's values and columns (columns null when dense: all nefc columns).
struct Rows {
  const double* ar;
  const int* rownnz;
  const int* rowadr;
  const int* colind;
  int nefc;
  bool sparse;

  Rows(const Model& m, const Data& d);
  // AR(i, :) f
  double dot(int i, const double* f) const;
  // AR(i, j) (j inside row i's pattern, or 0)
  double at(int i, int j) const;
};

// min 0.5 x' A x + x' b over sum (x_k / s_k)^2 <= r^2 (an ellipse cut from the cone at normal force
// r), for n <= 5 unknowns; A is n x n row-major: the unconstrained minimum when inside, else
// Newton's method on the Lagrange multiplier of the boundary (at most 20 steps, the result scaled
// onto the ellipse), as MuJoCo 2.2.2's PGS solves it; for two or three unknowns x = 0 when the
// system scaled to the ball is nearly singular, as in MuJoCo. Returns whether the ellipse
// constrains the result (false for r <= 0 or a singular system, where x = 0).
bool ellipse_qp(double* x, const double* A, const double* b, const double* s, double r, int n);

// The change of a block's cost 0.5 y' A y + y' g (n x n block A) from y = old to y = x, from the
// gradient res = A old + g at old: 0.5 d' A d + d' res with d = x - old (accurate where the two
// costs are large and nearly equal).
double block_cost_change(const double* a, const double* res, const double* old, const double* x,
                         int n);

// The dual cost 0.5 f' AR f + f' b.
double cost(const Rows& ar, const double* b, const double* f);

// qfrc_constraint = J' efc_force, qacc = qacc_smooth + inv(M) qfrc_constraint.
void finish(const Model& m, Data& d);

// efc_state from the forces, as MuJoCo 2.2.2's dual solvers report it: equality rows quadratic;
// friction loss linear at either bound, else quadratic; one-sided rows satisfied at zero, else
// quadratic; elliptic contacts "satisfied". (MuJoCo 2.2.2 reports "cone" for a few saturated
// contacts, those whose final force lies outside the cone by roundoff: sum (f_j / mu_j)^2 > f_n^2
// holds for 8 of its 10 on ANYmal, humanoid and contacts.xml states, and never for a "satisfied"
// one. Applied to joco's forces, which differ from MuJoCo's by 1e-15, the test flags other
// contacts, so it is not reproduced.)
void set_states(const Model& m, Data& d);

}  // namespace joco::dual
