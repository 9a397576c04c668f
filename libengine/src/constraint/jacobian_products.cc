// Products with the constraint Jacobian, dense (row-major nefc x nv) or sparse (packed rows, and
// the packed transpose efc_JT made by make_constraint).
#include <algorithm>
#include <cstring>

#include "joco/constraint.h"
#include "math/simd.h"
#include "math/vec.h"

namespace joco {

namespace {

// math::dot_span with its four partial sums as the lanes of one vector (the same sums, each
// rounded as there).
inline double dot_span4(const double* a, const double* b, int n, int lo, int hi) {
  const int blocks = n - n % 4;
  const int block_end = std::min(blocks, (hi + 3) & ~3);
  math::Vec4 p = {0, 0, 0, 0};
  for (int i = lo & ~3; i < block_end; i += 4) {
    math::Vec4 x, y;
    math::load4(x, a + i);
    math::load4(y, b + i);
    p += x * y;
  }
  double tail = 0;
  for (int i = std::max(blocks, lo); i < hi; ++i) tail += a[i] * b[i];
  return ((p[0] + p[2]) + (p[1] + p[3])) + tail;
}

// res[r] = row r . vec (gathered at cols) for G rows with the same pattern (values at
// vals + adr[r]), each sum over k in increasing order as for one row; the gathered vec entries are
// loaded once for the G rows.
template <int G>
inline void sparse_rows_dot(double* res, const double* vals, const int* adr, const int* cols,
                            int nnz, const double* vec) {
  double sum[G];
  const double* row[G];
  for (int r = 0; r < G; ++r) {
    sum[r] = 0;
    row[r] = vals + adr[r];
  }
  for (int k = 0; k < nnz; ++k) {
    const double v = vec[cols[k]];
    for (int r = 0; r < G; ++r) sum[r] += row[r][k] * v;
  }
  for (int r = 0; r < G; ++r) res[r] = sum[r];
}

// Products of a packed sparse matrix (rows of efc_J, or of efc_JT) with vec: rows sharing a
// pattern (rowsuper: how many following rows share it) four at a time.
void sparse_mul(double* res, int nrow, const double* vals, const int* rowadr, const int* rownnz,
                const int* colind, const int* rowsuper, const double* vec) {
  for (int i = 0; i < nrow;) {
    const int g = std::min(4, rowsuper[i] + 1);
    const int* cols = colind + rowadr[i];
    switch (g) {
      case 1: sparse_rows_dot<1>(res + i, vals, rowadr + i, cols, rownnz[i], vec); break;
      case 2: sparse_rows_dot<2>(res + i, vals, rowadr + i, cols, rownnz[i], vec); break;
      case 3: sparse_rows_dot<3>(res + i, vals, rowadr + i, cols, rownnz[i], vec); break;
      default: sparse_rows_dot<4>(res + i, vals, rowadr + i, cols, rownnz[i], vec); break;
    }
    i += g;
  }
}

}  // namespace

JOCO_AVX_CLONES void mul_jac_vec(const Model& m, const Data& d, double* res, const double* vec) {
  const int nv = m.nv, nefc = d.nefc;
  if (is_sparse(m)) {
    sparse_mul(res, nefc, d.efc_J, d.efc_J_rowadr, d.efc_J_rownnz, d.efc_J_colind, d.efc_J_rowsuper,
               vec);
    return;
  }
  // each row as mju_dot sums it (MuJoCo's rounding; its four partial sums overlap), over the
  // span of the row's pattern
  for (int i = 0; i < nefc; ++i) {
    const int nnz = d.efc_J_rownnz[i];
    if (nnz == 0) {
      res[i] = 0;
      continue;
    }
    const int* cols = d.efc_J_colind + d.efc_J_rowadr[i];
    res[i] = dot_span4(d.efc_J + static_cast<size_t>(i) * nv, vec, nv, cols[0], cols[nnz - 1] + 1);
  }
}

JOCO_AVX_CLONES void mul_jac_t_vec(const Model& m, const Data& d, double* res, const double* vec) {
  const int nv = m.nv, nefc = d.nefc;
  if (is_sparse(m)) {
    sparse_mul(res, nv, d.efc_JT, d.efc_JT_rowadr, d.efc_JT_rownnz, d.efc_JT_colind,
               d.efc_JT_rowsuper, vec);
    return;
  }
  std::memset(res, 0, sizeof(double) * static_cast<size_t>(nv));
  // over the span of each row's pattern (outside it the products are zeros, which leave the sums'
  // bits as they are)
  for (int i = 0; i < nefc; ++i) {
    const double f = vec[i];
    const int nnz = d.efc_J_rownnz[i];
    if (f == 0 || nnz == 0) continue;
    const double* row = d.efc_J + static_cast<size_t>(i) * nv;
    const int* cols = d.efc_J_colind + d.efc_J_rowadr[i];
    for (int k = cols[0]; k <= cols[nnz - 1]; ++k) res[k] += row[k] * f;
  }
}

}  // namespace joco
