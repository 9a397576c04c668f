#include "solver/hessian_pattern.h"

#include <algorithm>
#include <cstring>

#include "data/hessian_cache.h"

namespace joco::newton {

namespace {

class Builder {
 public:
  Builder(const Model& m, Data& d, StackFrame& frame)
      : m_(m), d_(d), frame_(frame), nv_(m.nv), at_(d.sizes()), cache_(d.hessian_cache) {}

  HessianPattern build() {
    if (!same_tree()) analyse_tree();
    cross_entries();
    HessianPattern h;
    h.m_col_ptr = cache(at_.m_col_ptr);
    h.m_row = cache(at_.m_row);
    h.m_adr = cache(at_.m_adr);
    h.pattern.n = nv_;
    if (same_cross_entries()) {
      h.pattern.col_ptr = cache(at_.col_ptr);
      h.pattern.row_ind = cache(at_.row_ind);
      h.parent = cache(at_.parent);
      h.l_col_ptr = cache(at_.l_col_ptr);
      return h;
    }
    // a new pattern: into the cache when it fits, else on the frame (and the cache forgets)
    const int64_t nnz = int64_t{m_.nM} - nv_ + ncross_;
    const bool fits = ncross_ <= cross_capacity(d_.sizes());
    int* col_ptr = fits ? cache(at_.col_ptr) : frame_.ints(nv_ + 1);
    int* row_ind = fits ? cache(at_.row_ind) : frame_.ints(nnz);
    int* parent = fits ? cache(at_.parent) : frame_.ints(nv_);
    int* l_col_ptr = fits ? cache(at_.l_col_ptr) : frame_.ints(nv_ + 1);
    cache_[kPatternValid] = 0;
    merge(col_ptr, row_ind);
    h.pattern.col_ptr = col_ptr;
    h.pattern.row_ind = row_ind;
    chol::Sparse::analyse(h.pattern, parent, l_col_ptr, frame_.ints(nv_));
    h.parent = parent;
    h.l_col_ptr = l_col_ptr;
    if (fits) {
      copy(cache(at_.cross_col_ptr), cross_col_ptr_, nv_ + 1);
      copy(cache(at_.cross_row), cross_row_, ncross_);
      cache_[kCrossNnz] = ncross_;
      cache_[kPatternValid] = 1;
    }
    return h;
  }

 private:
  int* cache(int64_t offset) const { return cache_ + offset; }

  static void copy(int* to, const int* from, int64_t n) {
    std::memcpy(to, from, sizeof(int) * static_cast<size_t>(n));
  }
  static bool equal(const int* a, const int* b, int64_t n) {
    return std::memcmp(a, b, sizeof(int) * static_cast<size_t>(n)) == 0;
  }

  bool same_tree() const {
    return cache_[kTreeValid] && equal(cache(at_.dof_parentid), m_.dof_parentid, nv_) &&
           equal(cache(at_.dof_Madr), m_.dof_Madr, nv_);
  }

  // Everything that depends on the dof tree alone.
  void analyse_tree() {
    const Model& m = m_;
    const int nv = nv_;
    copy(cache(at_.dof_parentid), m.dof_parentid, nv);
    copy(cache(at_.dof_Madr), m.dof_Madr, nv);
    // qM by columns
    int* m_col_ptr = cache(at_.m_col_ptr);
    int* m_row = cache(at_.m_row);
    int* m_adr = cache(at_.m_adr);
    std::memset(m_col_ptr, 0, sizeof(int) * static_cast<size_t>(nv + 1));
    for (int q = 0; q < nv; ++q) {
      for (int j = m.dof_parentid[q]; j >= 0; j = m.dof_parentid[j]) ++m_col_ptr[j + 1];
    }
    for (int j = 0; j < nv; ++j) m_col_ptr[j + 1] += m_col_ptr[j];
    StackFrame frame(d_);
    int* fill = frame.ints(nv);
    copy(fill, m_col_ptr, nv);
    for (int q = 0; q < nv; ++q) {
      int adr = m.dof_Madr[q] + 1;
      for (int j = m.dof_parentid[q]; j >= 0; j = m.dof_parentid[j]) {
        m_row[fill[j]] = q;
        m_adr[fill[j]++] = adr++;
      }
    }
    // Preorder numbers, so that a dof's descendants are the numbers following its own within its
    // subtree size: sizes from the leaves up (parents come first), then each child takes the next
    // free number of its parent's range.
    int* preorder = cache(at_.preorder);
    int* size = cache(at_.subtree_size);
    for (int q = 0; q < nv; ++q) size[q] = 1;
    for (int q = nv - 1; q >= 0; --q) {
      if (m.dof_parentid[q] >= 0) size[m.dof_parentid[q]] += size[q];
    }
    int* next_free = fill;
    int next_root = 0;
    for (int q = 0; q < nv; ++q) {
      const int p = m.dof_parentid[q];
      int& from = p >= 0 ? next_free[p] : next_root;
      preorder[q] = from;
      from += size[q];
      next_free[q] = preorder[q] + 1;
    }
    cache_[kTreeValid] = 1;
    cache_[kPatternValid] = 0;
  }

  // Is dof q a descendant of dof j (not j itself)? Then M(q, j) is in M's pattern.
  bool descends(int q, int j) const {
    return preorder_[q] > preorder_[j] && preorder_[q] < preorder_[j] + size_[j];
  }

  // Do the columns of a row lie on one path from the root (each an ancestor of the next)? Then
  // all its pairs are in M's pattern.
  bool on_one_path(const int* cols, int n) const {
    for (int k = 0; k + 1 < n; ++k) {
      if (!descends(cols[k + 1], cols[k])) return false;
    }
    return true;
  }

  // The pairs of J'J outside M's pattern, by column j (original order) and without duplicates,
  // each column's rows q in the order of the first row of J to bring them (then increasing q):
  // cross_col_ptr_ (nv + 1) and cross_row_ (ncross_).
  void cross_entries() {
    const Data& d = d_;
    const int nv = nv_, nefc = d.nefc;
    preorder_ = cache(at_.preorder);
    size_ = cache(at_.subtree_size);
    // (rows of a supernode share their columns: once per supernode)
    int64_t bound = 0;
    for (int i = 0; i < nefc; ++i) {
      const int n = d.efc_J_rownnz[i];
      bound += static_cast<int64_t>(n) * (n - 1) / 2;
      i += d.efc_J_rowsuper[i];
    }
    int* pair_col = frame_.ints(bound);
    int* pair_row = frame_.ints(bound);
    int64_t np = 0;
    for (int i = 0; i < nefc; ++i) {
      const int* cols = d.efc_J_colind + d.efc_J_rowadr[i];
      const int n = d.efc_J_rownnz[i];
      i += d.efc_J_rowsuper[i];
      if (on_one_path(cols, n)) continue;
      for (int a = 0; a < n; ++a) {
        for (int b = a + 1; b < n; ++b) {
          if (descends(cols[b], cols[a])) continue;
          pair_col[np] = cols[a];
          pair_row[np++] = cols[b];
        }
      }
    }
    // by column (stable), then the first occurrence of each row
    int* by_col = frame_.ints(nv + 1);
    std::memset(by_col, 0, sizeof(int) * static_cast<size_t>(nv + 1));
    for (int64_t k = 0; k < np; ++k) ++by_col[pair_col[k] + 1];
    for (int j = 0; j < nv; ++j) by_col[j + 1] += by_col[j];
    int* sorted = frame_.ints(np);
    int* fill = frame_.ints(nv);
    copy(fill, by_col, nv);
    for (int64_t k = 0; k < np; ++k) sorted[fill[pair_col[k]]++] = pair_row[k];
    int* mark = fill;
    for (int j = 0; j < nv; ++j) mark[j] = -1;
    cross_col_ptr_ = frame_.ints(nv + 1);
    cross_row_ = frame_.ints(np);
    int n = 0;
    for (int j = 0; j < nv; ++j) {
      cross_col_ptr_[j] = n;
      for (int k = by_col[j]; k < by_col[j + 1]; ++k) {
        const int q = sorted[k];
        if (mark[q] == j) continue;
        mark[q] = j;
        cross_row_[n++] = q;
      }
    }
    cross_col_ptr_[nv] = n;
    ncross_ = n;
  }

  bool same_cross_entries() const {
    return cache_[kPatternValid] && cache_[kCrossNnz] == ncross_ &&
           equal(cache(at_.cross_col_ptr), cross_col_ptr_, nv_ + 1) &&
           equal(cache(at_.cross_row), cross_row_, ncross_);
  }

  // The whole pattern in reverse order: M's rows of each column, then its cross entries.
  void merge(int* col_ptr, int* row_ind) const {
    const int nv = nv_;
    const int* m_col_ptr = cache(at_.m_col_ptr);
    const int* m_row = cache(at_.m_row);
    int nnz = 0;
    for (int K = 0; K < nv; ++K) {
      const int j = nv - 1 - K;
      col_ptr[K] = nnz;
      for (int k = m_col_ptr[j]; k < m_col_ptr[j + 1]; ++k) row_ind[nnz++] = nv - 1 - m_row[k];
      for (int k = cross_col_ptr_[j]; k < cross_col_ptr_[j + 1]; ++k) {
        row_ind[nnz++] = nv - 1 - cross_row_[k];
      }
    }
    col_ptr[nv] = nnz;
  }

  const Model& m_;
  Data& d_;
  StackFrame& frame_;
  int nv_;
  CacheOffsets at_;
  int* cache_;
  const int* preorder_ = nullptr;
  const int* size_ = nullptr;
  int* cross_col_ptr_ = nullptr;
  int* cross_row_ = nullptr;
  int ncross_ = 0;
};

}  // namespace

HessianPattern hessian_pattern(const Model& m, Data& d, StackFrame& frame) {
  return Builder(m, d, frame).build();
}

}  // namespace joco::newton
