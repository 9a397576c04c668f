// The sparsity pattern of the Newton solver's Hessian H = M + J' D J (sparse Jacobian) and its
// symbolic factorisation, kept in Data::hessian_cache from one solve to the next.
//
// M's part is fixed by the dof tree. Each row of J couples its columns pairwise, but a dof and its
// ancestors are coupled in M already: only pairs across two branches of the tree (contacts between
// two bodies, neither an ancestor of the other) add entries. Those cross pairs change only when
// such contacts come or go, so while they stay the same, the pattern and its symbolic
// factorisation (elimination tree, column counts) are the last solve's.
#pragma once

#include <cstdint>

#include "joco/data.h"
#include "joco/model.h"
#include "solver/cholesky.h"

namespace joco::newton {

struct HessianPattern {
  // Upper triangle by columns in reverse dof order (column nv-1-j holds the rows nv-1-q, q > j):
  // in each column M's rows first (increasing q), then J'J's in the order the rows of J bring
  // them. Factorised in this order, the tree part of M causes no fill.
  chol::Pattern pattern;
  const int* parent = nullptr;     // its elimination tree
  const int* l_col_ptr = nullptr;  // column pointers of the factor L (nnz: l_col_ptr[nv])
  // qM by columns: column j's descendants q (increasing) are m_row[m_col_ptr[j]..m_col_ptr[j+1]),
  // with the address of M(q, j) in qM at the same index of m_adr
  const int* m_col_ptr = nullptr;
  const int* m_row = nullptr;
  const int* m_adr = nullptr;
};

// The pattern for the rows of the sparse efc_J, with its symbolic analysis done or reused. The
// arrays live in the cache (or, when the pattern is too large for it, on frame) and stay valid
// until the next call.
HessianPattern hessian_pattern(const Model& m, Data& d, StackFrame& frame);

}  // namespace joco::newton
