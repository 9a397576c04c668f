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

}  // namespace

JOCO_AVX_CLONES void mul_jac_vec(const Model& m, const Data& d, double* res, const double* vec) {
  const int nv = m.nv, nefc = d.nefc;
  if (is_sparse(m)) {
    for (int i = 0; i < nefc; ++i) {
      const int adr = d.efc_J_rowadr[i], nnz = d.efc_J_rownnz[i];
      const double* vals = d.efc_J + adr;
      const int* cols = d.efc_J_colind + adr;
      double sum = 0;
      for (int k = 0; k < nnz; ++k) sum += vals[k] * vec[cols[k]];
      res[i] = sum;
    }
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
    for (int j = 0; j < nv; ++j) {
      const int adr = d.efc_JT_rowadr[j], nnz = d.efc_JT_rownnz[j];
      const double* vals = d.efc_JT + adr;
      const int* rows = d.efc_JT_colind + adr;
      double sum = 0;
      for (int k = 0; k < nnz; ++k) sum += vals[k] * vec[rows[k]];
      res[j] = sum;
    }
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
