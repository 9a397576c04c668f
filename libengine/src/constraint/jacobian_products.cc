// Products with the constraint Jacobian, dense (row-major nefc x nv) or sparse (packed rows, and
// the packed transpose efc_JT made by make_constraint).
#include <cstring>

#include "joco/constraint.h"

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
  // Four rows at a time: their sums are independent chains of additions that the processor
  // overlaps, and each row still adds its terms in column order (the same bits as one by one).
  int i = 0;
  for (; i + 4 <= nefc; i += 4) {
    const double* r0 = d.efc_J + static_cast<size_t>(i) * nv;
    const double* r1 = r0 + nv;
    const double* r2 = r1 + nv;
    const double* r3 = r2 + nv;
    double s0 = 0, s1 = 0, s2 = 0, s3 = 0;
    for (int k = 0; k < nv; ++k) {
      const double v = vec[k];
      s0 += r0[k] * v;
      s1 += r1[k] * v;
      s2 += r2[k] * v;
      s3 += r3[k] * v;
    }
    res[i] = s0;
    res[i + 1] = s1;
    res[i + 2] = s2;
    res[i + 3] = s3;
  }
  for (; i < nefc; ++i) {
    const double* row = d.efc_J + static_cast<size_t>(i) * nv;
    double sum = 0;
    for (int k = 0; k < nv; ++k) sum += row[k] * vec[k];
    res[i] = sum;
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
  for (int i = 0; i < nefc; ++i) {
    const double f = vec[i];
    if (f == 0) continue;
    const double* row = d.efc_J + static_cast<size_t>(i) * nv;
    for (int k = 0; k < nv; ++k) res[k] += row[k] * f;
  }
}

}  // namespace joco
