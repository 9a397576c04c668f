// What the CG and Newton solvers share: the reduced primal problem (computation chapter, "Reduced
// primal problem") over accelerations x,
//
//   cost(x) = 0.5 (x - qacc_smooth)' M (x - qacc_smooth) + s(J x - aref),
//
// its gradient M (x - qacc_smooth) - J' f(x), and the exact line search along a direction.
#pragma once

#include "joco/data.h"
#include "joco/model.h"

namespace joco::primal {

struct Context {
  const Model* m = nullptr;
  Data* d = nullptr;
  int nv = 0, nefc = 0;
  bool sparse = false, elliptic = false;
  double scale = 1;  // statistics scale: 1 / (meaninertia max(1, nv))

  double* jaref = nullptr;    // J qacc - aref (nefc)
  double* jv = nullptr;       // J search (nefc)
  double* ma = nullptr;       // M qacc (nv)
  double* mv = nullptr;       // M search (nv)
  double* grad = nullptr;     // gradient of the cost (nv)
  double* mgrad = nullptr;    // preconditioned gradient (nv)
  double* search = nullptr;   // search direction (nv)
  double* scratch = nullptr;  // work vector (nv)
  double* quad = nullptr;     // line-search polynomials of the rows (3 nefc)
  // the line search's one-sided rows packed (x = x0 + alpha v, polynomial q0, q1, q2), and the
  // first rows of elliptic contacts
  double* packed = nullptr;  // 5 nefc
  int npacked = 0;
  int* cones = nullptr;  // nefc
  int ncones = 0;
  int* old_state = nullptr;  // efc_state before the last update (nefc)
  bool updated = false;      // whether the constraints were updated once
  // the forces at the starting qacc are known (Start::forces_known), with this constraint cost
  bool start_forces_known = false;
  double start_constraint_cost = 0;

  double cost = 0;   // at qacc
  double gauss = 0;  // the Gauss part of cost
  int nactive = 0;   // rows not satisfied
  int nchange = 0;   // rows whose state changed in the last update

  // last line search
  int neval = 0;
  double lineslope = 0;
};

// What the warmstart already computed at the initial d.qacc, so that the solver's setup does not
// compute it again (nullptr: not known).
struct Start {
  const double* jaref = nullptr;  // J qacc - aref (nefc)
  const double* ma = nullptr;     // M qacc (nv)
  // efc_force and efc_state hold the forces at jaref (constraint_forces without cone Hessians),
  // whose constraint cost is constraint_cost
  bool forces_known = false;
  double constraint_cost = 0;
};

// Allocates the context on the frame and sets ma and jaref from d.qacc (copied from `start` where
// it has them).
void setup(Context& c, const Model& m, Data& d, StackFrame& frame, const Start& start = {});

// Forces, states, qfrc_constraint and the cost at d.qacc (from jaref and ma); counts active rows
// and state changes. With cone_hessian, contacts in the cone state get their Hessians.
void update_constraints(Context& c, bool cone_hessian);

// grad = M qacc - qfrc_smooth - qfrc_constraint.
void update_gradient(Context& c);

// The step alpha minimising cost(qacc + alpha search), found by Newton's method in one dimension
// with analytic second derivatives, safeguarded by bracketing (possibly a tiny negative step at
// the solution, where roundoff decides the slope's sign). Returns false, with no step, when the
// search direction vanishes (|search| < kMinVal): the solver is done. Leaves jv and mv set for
// `move`.
bool line_search(Context& c, double tolerance, double* alpha);

// qacc += alpha search, with ma and jaref.
void move(Context& c, double alpha);

// Saves the statistics of iteration `iter` (when it is below kNSOLVER).
void record(Context& c, int iter, double improvement, double gradient, int nupdate);

}  // namespace joco::primal

namespace joco {

// The primal solvers from what is known at the initial qacc.
void solve_cg(const Model& m, Data& d, int max_iterations, const primal::Start& start);
void solve_newton(const Model& m, Data& d, int max_iterations, const primal::Start& start);

}  // namespace joco
