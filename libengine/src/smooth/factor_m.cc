// The L'DL factorisation of the joint-space inertia, M = L' D L with L unit lower triangular, done
// in place on the tree-sparse layout: eliminating dof k from the leaves up only touches the
// entries of its ancestors, so no fill-in occurs (Featherstone's LTDL).
#include <cmath>
#include <cstring>

#include "joco/smooth.h"
#include "math/simd.h"

namespace joco {

namespace {

// row_i -= a * row_k over N entries, N known at compile time: unrolled, without the set-up and
// tail of a vector loop, which cost more than the work on the short rows of most dof trees. The
// rows are disjoint parts of the factor: saying so spares the compiler's overlap checks.
template <int N>
[[gnu::always_inline]] inline void sub_scaled_fixed(double* __restrict row_i,
                                                    const double* __restrict row_k, double a) {
  for (int t = 0; t < N; ++t) row_i[t] -= a * row_k[t];
}

// row_i -= a * row_k over len entries (each entry's product and difference rounded as in a plain
// loop, whichever way the length is dispatched). Inlined into factor_ld's clones, so that each
// gets its own vector width.
[[gnu::always_inline]] inline void sub_scaled(double* __restrict row_i,
                                              const double* __restrict row_k, double a, int len) {
  switch (len) {
    case 1: return sub_scaled_fixed<1>(row_i, row_k, a);
    case 2: return sub_scaled_fixed<2>(row_i, row_k, a);
    case 3: return sub_scaled_fixed<3>(row_i, row_k, a);
    case 4: return sub_scaled_fixed<4>(row_i, row_k, a);
    case 5: return sub_scaled_fixed<5>(row_i, row_k, a);
    case 6: return sub_scaled_fixed<6>(row_i, row_k, a);
    case 7: return sub_scaled_fixed<7>(row_i, row_k, a);
    case 8: return sub_scaled_fixed<8>(row_i, row_k, a);
    case 9: return sub_scaled_fixed<9>(row_i, row_k, a);
    case 10: return sub_scaled_fixed<10>(row_i, row_k, a);
    case 11: return sub_scaled_fixed<11>(row_i, row_k, a);
    case 12: return sub_scaled_fixed<12>(row_i, row_k, a);
    case 13: return sub_scaled_fixed<13>(row_i, row_k, a);
    case 14: return sub_scaled_fixed<14>(row_i, row_k, a);
    case 15: return sub_scaled_fixed<15>(row_i, row_k, a);
    case 16: return sub_scaled_fixed<16>(row_i, row_k, a);
    default:
      for (int t = 0; t < len; ++t) row_i[t] -= a * row_k[t];
  }
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
    // up entry by entry with row i (i's own ancestors follow i in both), so row i's length is
    // what is left of row k (rows are consecutive: row k ends where row k + 1 begins).
    const int end_k = k + 1 < m.nv ? madr[k + 1] : m.nM;
    int adr_ki = madr[k] + 1;
    for (int i = parent[k]; i >= 0; i = parent[i], ++adr_ki) {
      const double a = qld[adr_ki] * inv_dkk;
      sub_scaled(qld + madr[i], qld + adr_ki, a, end_k - adr_ki);
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
