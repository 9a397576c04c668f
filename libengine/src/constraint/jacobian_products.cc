// Products with the constraint Jacobian, dense (row-major nefc x nv) or sparse (packed rows, and
// the packed transpose efc_JT made by make_constraint).
#include <algorithm>
#include <cstring>

#include "joco/constraint.h"
#include "math/simd.h"
#include "math/vec.h"

namespace joco {

namespace {

// math::dot_span of G rows (row + r nv) with vec over [lo, hi), each with its four partial sums as
// the lanes of one vector (the same sums, each rounded as there); the blocks of vec are loaded once
// for the G rows.
template <int G>
inline void dot_span4_rows(double* res, const double* row, int n, const double* vec, int lo,
                           int hi) {
  const int blocks = n - n % 4;
  const int block_end = std::min(blocks, (hi + 3) & ~3);
  math::Vec4 p[G];
  for (int r = 0; r < G; ++r) p[r] = math::Vec4{0, 0, 0, 0};
  for (int i = lo & ~3; i < block_end; i += 4) {
    math::Vec4 y;
    math::load4(y, vec + i);
    for (int r = 0; r < G; ++r) {
      math::Vec4 x;
      math::load4(x, row + static_cast<size_t>(r) * n + i);
      p[r] += x * y;
    }
  }
  for (int r = 0; r < G; ++r) {
    const double* a = row + static_cast<size_t>(r) * n;
    double tail = 0;
    for (int i = std::max(blocks, lo); i < hi; ++i) tail += a[i] * vec[i];
    res[r] = ((p[r][0] + p[r][2]) + (p[r][1] + p[r][3])) + tail;
  }
}

// res[k] += rows[0][k] f[0] + ... + rows[G-1][k] f[G-1] over [lo, hi), each term added in turn.
template <int G>
inline void add_rows_scaled(double* __restrict res, const double* const* rows, const double* f,
                            int lo, int hi) {
  for (int k = lo; k < hi; ++k) {
    double v = res[k];
    for (int r = 0; r < G; ++r) v += rows[r][k] * f[r];
    res[k] = v;
  }
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
  // span of the row's pattern; rows sharing a pattern (the rows of a contact) up to four at a
  // time, loading vec once for them
  for (int i = 0; i < nefc;) {
    const int nnz = d.efc_J_rownnz[i];
    const int g = std::min(4, d.efc_J_rowsuper[i] + 1);
    if (nnz == 0) {
      for (int r = 0; r < g; ++r) res[i + r] = 0;
      i += g;
      continue;
    }
    const int* cols = d.efc_J_colind + d.efc_J_rowadr[i];
    const double* row = d.efc_J + static_cast<size_t>(i) * nv;
    const int lo = cols[0], hi = cols[nnz - 1] + 1;
    switch (g) {
      case 1: dot_span4_rows<1>(res + i, row, nv, vec, lo, hi); break;
      case 2: dot_span4_rows<2>(res + i, row, nv, vec, lo, hi); break;
      case 3: dot_span4_rows<3>(res + i, row, nv, vec, lo, hi); break;
      default: dot_span4_rows<4>(res + i, row, nv, vec, lo, hi); break;
    }
    i += g;
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
  // bits as they are); rows sharing a pattern up to four at a time, each entry of res loaded and
  // stored once for them, their terms added in row order as one row at a time would (rows with a
  // zero force left out, as they would be)
  for (int i = 0; i < nefc;) {
    const int nnz = d.efc_J_rownnz[i];
    const int g = std::min(4, d.efc_J_rowsuper[i] + 1);
    const double* rows[4];
    double f[4];
    int n = 0;
    for (int r = 0; r < g; ++r) {
      rows[n] = d.efc_J + static_cast<size_t>(i + r) * nv;
      f[n] = vec[i + r];
      n += f[n] != 0;
    }
    if (nnz > 0 && n > 0) {
      const int* cols = d.efc_J_colind + d.efc_J_rowadr[i];
      const int lo = cols[0], hi = cols[nnz - 1] + 1;
      switch (n) {
        case 1: add_rows_scaled<1>(res, rows, f, lo, hi); break;
        case 2: add_rows_scaled<2>(res, rows, f, lo, hi); break;
        case 3: add_rows_scaled<3>(res, rows, f, lo, hi); break;
        default: add_rows_scaled<4>(res, rows, f, lo, hi); break;
      }
    }
    i += g;
  }
}

}  // namespace joco
