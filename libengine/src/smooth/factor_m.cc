// The L'DL factorisation of the joint-space inertia, M = L' D L with L unit lower triangular, done
// in place on the tree-sparse layout: eliminating dof k from the leaves up only touches the
// entries of its ancestors, so no fill-in occurs (Featherstone's LTDL).
#include <cmath>
#include <cstring>

#include "joco/smooth.h"
#include "math/simd.h"

namespace joco {

namespace {

// row_i -= a * row_k over len entries. The rows are disjoint parts of the factor: saying so spares
// the compiler's overlap checks, which cost more than these short loops.
inline void sub_scaled(double* __restrict row_i, const double* __restrict row_k, double a,
                       int len) {
  for (int t = 0; t < len; ++t) row_i[t] -= a * row_k[t];
}

}  // namespace

// (In an AVX clone: the row updates four entries at a time.)
JOCO_AVX_CLONES void factor_ld(const Model& m, Data& d, const double* mat, double* qld,
                               double* diag_inv, double* diag_sqrt_inv) {
  const int* madr = m.dof_Madr;
  const int* parent = m.dof_parentid;
  if (qld != mat) std::memcpy(qld, mat, sizeof(double) * static_cast<size_t>(m.nM));
  for (int k = m.nv - 1; k >= 0; --k) {
    // A (near) singular matrix: keep the pivot positive and say so.
    if (qld[madr[k]] < kMinVal) {
      raise_warning(d, kWarnInertia, k);
      qld[madr[k]] = kMinVal;
    }
    if (m.dof_simplenum[k]) continue;  // no off-diagonals to eliminate
    const double inv_dkk = 1 / qld[madr[k]];
    // Row k's off-diagonals are its ancestors i in chain order; the part of row k from i on lines
    // up entry by entry with row i (i's own ancestors follow i in both).
    int adr_ki = madr[k] + 1;
    for (int i = parent[k]; i >= 0; i = parent[i], ++adr_ki) {
      const double a = qld[adr_ki] * inv_dkk;
      const int len = (i + 1 < m.nv ? madr[i + 1] : m.nM) - madr[i];  // rows are consecutive
      sub_scaled(qld + madr[i], qld + adr_ki, a, len);
      qld[adr_ki] = a;
    }
  }
  for (int i = 0; i < m.nv; ++i) {
    const double dii = qld[madr[i]];
    if (diag_inv) diag_inv[i] = 1 / dii;
    if (diag_sqrt_inv) diag_sqrt_inv[i] = 1 / std::sqrt(dii);
  }
}

void factor_m(const Model& m, Data& d) {
  factor_ld(m, d, d.qM, d.qLD, d.qLDiagInv, d.qLDiagSqrtInv);
}

}  // namespace joco
