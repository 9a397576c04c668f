// Solves with the L'DL factorisation of the joint-space inertia by sparse substitution along the
// dof tree: M^-1 = L^-1 D^-1 L'^-1.
#include <cstring>

#include "joco/smooth.h"

namespace joco {

namespace {

// x <- inv(L') x: from the leaves up, each solved x_i updates its ancestors.
inline void solve_lt(const Model& m, double* x, const double* qld) {
  const int* madr = m.dof_Madr;
  const int* parent = m.dof_parentid;
  const int* simple = m.dof_simplenum;
  for (int i = m.nv - 1; i >= 0; --i) {
    const double xi = x[i];
    if (xi == 0 || simple[i]) continue;
    int adr = madr[i] + 1;
    for (int j = parent[i]; j >= 0; j = parent[j]) x[j] -= qld[adr++] * xi;
  }
}

// x <- inv(L) x: from the roots down, each x_i takes its ancestors' final values.
inline void solve_l(const Model& m, double* x, const double* qld) {
  const int* madr = m.dof_Madr;
  const int* parent = m.dof_parentid;
  const int* simple = m.dof_simplenum;
  for (int i = 0; i < m.nv; ++i) {
    if (simple[i]) {
      i += simple[i] - 1;  // a run of rows without off-diagonals
      continue;
    }
    int adr = madr[i] + 1;
    double sum = 0;
    for (int j = parent[i]; j >= 0; j = parent[j]) sum += qld[adr++] * x[j];
    x[i] -= sum;
  }
}

inline void copy_vectors(const Model& m, double* x, const double* y, int n) {
  if (x != y)
    std::memcpy(x, y, sizeof(double) * static_cast<size_t>(m.nv) * static_cast<size_t>(n));
}

}  // namespace

void solve_ld(const Model& m, double* x, const double* y, int n, const double* qld,
              const double* diag_inv) {
  copy_vectors(m, x, y, n);
  for (int v = 0; v < n; ++v) {
    double* xv = x + static_cast<size_t>(v) * m.nv;
    solve_lt(m, xv, qld);
    for (int i = 0; i < m.nv; ++i) xv[i] *= diag_inv[i];
    solve_l(m, xv, qld);
  }
}

void solve_m(const Model& m, const Data& d, double* x, const double* y, int n) {
  solve_ld(m, x, y, n, d.qLD, d.qLDiagInv);
}

void solve_m2(const Model& m, const Data& d, double* x, const double* y, int n) {
  copy_vectors(m, x, y, n);
  for (int v = 0; v < n; ++v) {
    double* xv = x + static_cast<size_t>(v) * m.nv;
    solve_lt(m, xv, d.qLD);
    for (int i = 0; i < m.nv; ++i) xv[i] *= d.qLDiagSqrtInv[i];
  }
}

}  // namespace joco
