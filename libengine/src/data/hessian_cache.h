// The layout of Data::hessian_cache, the memory the sparse Newton solver keeps from one solve to
// the next (solver/hessian_pattern.h says what it holds and how it is reused). It lives beside
// Data, which sizes and owns the memory; the solver, a layer above, fills it.
#pragma once

#include <algorithm>
#include <cstdint>

#include "joco/model.h"

namespace joco::newton {

// The cache's first ints.
enum CacheHeader { kTreeValid, kPatternValid, kCrossNnz, kHeaderInts };

// The cache holds patterns with up to this many cross entries, 16 per dof on average (or every
// pair of a small model); larger ones are analysed at every solve.
inline int64_t cross_capacity(const ModelSizes& s) {
  const int64_t nv = s.nv;
  return std::min(nv * (nv - 1) / 2, 16 * nv);
}

// The parts of the cache, as offsets in ints.
struct CacheOffsets {
  // the dof tree the rest derives from, to notice a Data used with another model
  int64_t dof_parentid, dof_Madr;  // nv each
  // from the tree: qM by columns (see HessianPattern), preorder numbers and subtree sizes of dofs
  int64_t m_col_ptr, m_row, m_adr, preorder, subtree_size;
  // the last pattern: its cross entries by original column, the whole pattern, its analysis
  int64_t cross_col_ptr, cross_row, col_ptr, row_ind, parent, l_col_ptr;
  int64_t total;

  explicit CacheOffsets(const ModelSizes& s) {
    const int64_t nv = s.nv, below = int64_t{s.nM} - s.nv, cross = cross_capacity(s);
    int64_t at = kHeaderInts;
    auto take = [&at](int64_t n) {
      const int64_t offset = at;
      at += n;
      return offset;
    };
    dof_parentid = take(nv);
    dof_Madr = take(nv);
    m_col_ptr = take(nv + 1);
    m_row = take(below);
    m_adr = take(below);
    preorder = take(nv);
    subtree_size = take(nv);
    cross_col_ptr = take(nv + 1);
    cross_row = take(cross);
    col_ptr = take(nv + 1);
    row_ind = take(below + cross);
    parent = take(nv);
    l_col_ptr = take(nv + 1);
    total = at;
  }
};

// The ints of Data::hessian_cache for a model of these sizes.
inline int64_t hessian_cache_ints(const ModelSizes& sizes) { return CacheOffsets(sizes).total; }

}  // namespace joco::newton
