// The inverse inertia in constraint space plus the regulariser (computation chapter, "Dual
// problem"): AR = J inv(M) J' + R. With M = L'DL, J inv(M) J' = B B' for B = J inv(L) D^-1/2,
// whose row i is solve_m2 of J row i; its support is the ancestor closure of the row's pattern, so
// two rows couple exactly when they touch a common kinematic tree.
#include <algorithm>
#include <cstring>

#include "joco/constraint.h"
#include "joco/smooth.h"

namespace joco {

namespace {

// x <- sqrt(inv(D)) inv(L') x on an ancestor-closed support (decreasing order visits each dof
// after every descendant that feeds it).
void half_solve_on_support(const Model& m, const Data& d, double* x, const int* support, int n) {
  for (int k = n - 1; k >= 0; --k) {
    const int i = support[k];
    const double xi = x[i];
    if (xi == 0) continue;
    int adr = m.dof_Madr[i] + 1;
    for (int j = m.dof_parentid[i]; j >= 0; j = m.dof_parentid[j]) x[j] -= d.qLD[adr++] * xi;
  }
  for (int k = 0; k < n; ++k) x[support[k]] *= d.qLDiagSqrtInv[support[k]];
}

// The ancestor closure of an increasing column list, increasing, into out; mark (nv, zero on
// entry and exit) is scratch.
int ancestor_closure(const Model& m, const int* cols, int ncol, int* out, unsigned char* mark) {
  int n = 0;
  for (int k = 0; k < ncol; ++k) {
    for (int j = cols[k]; j >= 0 && !mark[j]; j = m.dof_parentid[j]) {
      mark[j] = 1;
      out[n++] = j;
    }
  }
  std::sort(out, out + n);
  for (int k = 0; k < n; ++k) mark[out[k]] = 0;
  return n;
}

void project_dense(const Model& m, Data& d) {
  const int nv = m.nv, nefc = d.nefc;
  StackFrame frame(d);
  double* b = frame.doubles(static_cast<int64_t>(nefc) * nv);
  std::memcpy(b, d.efc_J, sizeof(double) * static_cast<size_t>(nefc) * nv);
  solve_m2(m, d, b, b, nefc);
  for (int i = 0; i < nefc; ++i) {
    const double* bi = b + static_cast<size_t>(i) * nv;
    for (int j = 0; j <= i; ++j) {
      const double* bj = b + static_cast<size_t>(j) * nv;
      double sum = 0;
      for (int k = 0; k < nv; ++k) sum += bi[k] * bj[k];
      d.efc_AR[static_cast<size_t>(i) * nefc + j] = sum;
      d.efc_AR[static_cast<size_t>(j) * nefc + i] = sum;
    }
    d.efc_AR[static_cast<size_t>(i) * nefc + i] += d.efc_R[i];
  }
  d.solver_nnz = nefc * nefc;
}

void project_sparse(const Model& m, Data& d) {
  const int nv = m.nv, nefc = d.nefc;
  StackFrame frame(d);
  // B rows on their supports, packed
  int* b_adr = frame.ints(nefc + 1);
  unsigned char* mark = frame.array<unsigned char>(nv);
  std::memset(mark, 0, static_cast<size_t>(nv));
  int* support = frame.ints(nv);
  int total = 0;
  for (int i = 0; i < nefc; ++i) {
    b_adr[i] = total;
    total +=
        ancestor_closure(m, d.efc_J_colind + d.efc_J_rowadr[i], d.efc_J_rownnz[i], support, mark);
  }
  b_adr[nefc] = total;
  int* b_col = frame.ints(total);
  double* b_val = frame.doubles(total);
  double* x = frame.doubles(nv);
  std::memset(x, 0, sizeof(double) * static_cast<size_t>(nv));
  for (int i = 0; i < nefc; ++i) {
    int* cols = b_col + b_adr[i];
    const int n =
        ancestor_closure(m, d.efc_J_colind + d.efc_J_rowadr[i], d.efc_J_rownnz[i], cols, mark);
    const int adr = d.efc_J_rowadr[i];
    for (int k = 0; k < d.efc_J_rownnz[i]; ++k) x[d.efc_J_colind[adr + k]] = d.efc_J[adr + k];
    half_solve_on_support(m, d, x, cols, n);
    for (int k = 0; k < n; ++k) {
      b_val[b_adr[i] + k] = x[cols[k]];
      x[cols[k]] = 0;
    }
  }

  // rows by tree root: two rows couple iff they share a root dof (supports are ancestor-closed)
  int* root_count = frame.ints(nv + 1);
  std::memset(root_count, 0, sizeof(int) * static_cast<size_t>(nv + 1));
  for (int i = 0; i < nefc; ++i) {
    for (int k = b_adr[i]; k < b_adr[i + 1]; ++k) {
      if (m.dof_parentid[b_col[k]] < 0) ++root_count[b_col[k] + 1];
    }
  }
  for (int j = 0; j < nv; ++j) root_count[j + 1] += root_count[j];
  int* root_rows = frame.ints(root_count[nv]);
  int* fill = frame.ints(nv);
  std::memcpy(fill, root_count, sizeof(int) * static_cast<size_t>(nv));
  for (int i = 0; i < nefc; ++i) {
    for (int k = b_adr[i]; k < b_adr[i + 1]; ++k) {
      if (m.dof_parentid[b_col[k]] < 0) root_rows[fill[b_col[k]]++] = i;
    }
  }

  unsigned char* seen = frame.array<unsigned char>(nefc);
  std::memset(seen, 0, static_cast<size_t>(nefc));
  int nnz = 0;
  for (int i = 0; i < nefc; ++i) {
    int* cols = d.efc_AR_colind + nnz;
    int n = 0;
    for (int k = b_adr[i]; k < b_adr[i + 1]; ++k) {
      const int r = b_col[k];
      if (m.dof_parentid[r] >= 0) continue;
      for (int q = root_count[r]; q < root_count[r + 1]; ++q) {
        const int j = root_rows[q];
        if (!seen[j]) {
          seen[j] = 1;
          cols[n++] = j;
        }
      }
    }
    if (!seen[i]) {  // a row that moves nothing still has its regulariser
      seen[i] = 1;
      cols[n++] = i;
    }
    std::sort(cols, cols + n);
    d.efc_AR_rowadr[i] = nnz;
    d.efc_AR_rownnz[i] = n;
    double* vals = d.efc_AR + nnz;
    for (int q = 0; q < n; ++q) {
      const int j = cols[q];
      seen[j] = 0;
      // sparse dot of B rows i and j
      int a = b_adr[i], ae = b_adr[i + 1], c = b_adr[j], ce = b_adr[j + 1];
      double sum = 0;
      while (a < ae && c < ce) {
        if (b_col[a] < b_col[c]) {
          ++a;
        } else if (b_col[a] > b_col[c]) {
          ++c;
        } else {
          sum += b_val[a++] * b_val[c++];
        }
      }
      vals[q] = j == i ? sum + d.efc_R[i] : sum;
    }
    nnz += n;
  }
  d.solver_nnz = nnz;
}

}  // namespace

void project_constraint(const Model& m, Data& d) {
  if (!is_dual(m) || d.nefc == 0) return;
  if (is_sparse(m)) {
    project_sparse(m, d);
  } else {
    project_dense(m, d);
  }
}

}  // namespace joco
