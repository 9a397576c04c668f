// Cholesky factorisations H = L L' for the Newton solver, dense and sparse, with rank-one updates
// and downdates (H +- w w') so that the factor follows the constraints entering and leaving the
// Hessian without refactorising. All memory comes from the caller (the Data stack).
#pragma once

#include "joco/data.h"

namespace joco::chol {

// ---- dense (n x n, row-major) -------------------------------------------------------------------

// In place: from H in the lower triangle of h (with the diagonal), L' in the upper triangle (row k
// holds column k of L, diagonal included); the strict lower triangle is left as scratch (it holds
// L until an update). Pivots
// below min_pivot are raised to it (the Hessian is positive definite in exact arithmetic);
// returns how many were. diag_inv (n) gets the reciprocals of L's diagonal, which the solve
// multiplies by.
int factor_dense(double* h, int n, double min_pivot, double* diag_inv);

// x = inv(L L') b with L' in the upper triangle of u and the reciprocals of its diagonal in
// diag_inv (x may alias b).
void solve_dense(const double* u, const double* diag_inv, int n, double* x, const double* b);

// L L' +- w w' in place, L' in the upper triangle of u, diag_inv kept the reciprocals of its
// diagonal (w is overwritten). Returns false when a downdate would lose positive definiteness (the
// factor is then unusable: refactorise).
bool update_dense(double* u, double* diag_inv, int n, double* w, bool plus);

// ---- sparse -------------------------------------------------------------------------------------

// A symmetric pattern given by columns: for column k, the rows r < k with a possibly non-zero
// entry (in any order, no duplicates), as CSC arrays col_ptr (n + 1) and row_ind.
struct Pattern {
  int n = 0;
  const int* col_ptr = nullptr;
  const int* row_ind = nullptr;
};

// The factor L in compressed columns (diagonal first in each column), its elimination tree, and
// the work arrays of factorisation and updates; sized by analyse().
class Sparse {
 public:
  // Symbolic analysis of a pattern: elimination tree and column counts; takes its memory from
  // frame. Afterwards nnz() is the number of entries of L.
  void analyse(const Pattern& p, StackFrame& frame);
  // The symbolic analysis alone, into memory of the caller's (which may outlive any frame): the
  // elimination tree (parent, n) and the column pointers of L (l_col_ptr, n + 1); work: n ints.
  static void analyse(const Pattern& p, int* parent, int* l_col_ptr, int* work);
  // Takes a pattern analysed by the static analyse (all four arrays must outlive this object) and
  // the work memory of factorisation and updates from frame.
  void bind(const Pattern& p, const int* parent, const int* l_col_ptr, StackFrame& frame);
  // Numeric factorisation of the matrix with the analysed pattern: values of column k are
  // upper[col_ptr[k]..col_ptr[k+1]) (rows as in the pattern) and diag[k]. Pivots below min_pivot
  // are raised to it; returns how many were.
  int factor(const double* upper, const double* diag, double min_pivot);
  // x = inv(L L') b (x may alias b).
  void solve(double* x, const double* b) const;
  // L L' +- w w' for w with nnz entries at rows idx (all inside the pattern of a column whose
  // elimination path covers them, as for any w w' contained in the analysed pattern).
  bool update(const int* idx, const double* val, int nnz, bool plus);

  int n() const { return n_; }
  int nnz() const { return nnz_; }
  const int* parent() const { return parent_; }

 private:
  int n_ = 0;
  int nnz_ = 0;
  Pattern a_;
  const int* parent_ = nullptr;  // elimination tree
  const int* lp_ = nullptr;      // column pointers of L (n + 1)
  int* li_ = nullptr;            // row indices of L
  double* lx_ = nullptr;         // values of L
  double* diag_inv_ = nullptr;   // the reciprocals of L's diagonal (multiplied by, not divided)
  int* next_ = nullptr;          // fill position per column during factorisation
  int* stack_ = nullptr;         // row pattern work (n)
  int* mark_ = nullptr;          // visit marks (n)
  double* x_ = nullptr;          // dense work (n)
};

}  // namespace joco::chol
