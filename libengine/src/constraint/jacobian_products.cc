// Products with the constraint Jacobian, dense (row-major nefc x nv) or sparse (packed rows, and
// the packed transpose efc_JT made by make_constraint).
#include <cstring>

#include "joco/constraint.h"
#include "math/vec.h"

namespace joco {

void mul_jac_vec(const Model& m, const Data& d, double* res, const double* vec) {
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
    res[i] =
        math::dot_span(d.efc_J + static_cast<size_t>(i) * nv, vec, nv, cols[0], cols[nnz - 1] + 1);
  }
}

void mul_jac_t_vec(const Model& m, const Data& d, double* res, const double* vec) {
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
