// Products with the joint-space inertia in its tree-sparse layout, and its dense form.
#include "joco/smooth.h"

namespace joco {

void mul_m(const Model& m, const Data& d, double* res, const double* vec) {
  const int* madr = m.dof_Madr;
  const int* parent = m.dof_parentid;
  const double* qM = d.qM;
  for (int i = 0; i < m.nv; ++i) res[i] = qM[madr[i]] * vec[i];
  // Each stored off-diagonal M(i, j) = M(j, i) contributes to both rows; simple rows have none.
  const int* simple = m.dof_simplenum;
  for (int i = 0; i < m.nv; ++i) {
    if (simple[i]) {
      i += simple[i] - 1;
      continue;
    }
    // each term added to res[i] in turn, not summed first (MuJoCo's rounding)
    int adr = madr[i] + 1;
    double ri = res[i];
    const double vi = vec[i];
    for (int j = parent[i]; j >= 0; j = parent[j], ++adr) {
      ri += qM[adr] * vec[j];
      res[j] += qM[adr] * vi;
    }
    res[i] = ri;
  }
}

void mul_m2(const Model& m, const Data& d, double* res, const double* vec) {
  const int* madr = m.dof_Madr;
  const int* parent = m.dof_parentid;
  for (int i = 0; i < m.nv; ++i) {
    int adr = madr[i] + 1;
    double sum = vec[i];
    for (int j = parent[i]; j >= 0; j = parent[j]) sum += d.qLD[adr++] * vec[j];
    res[i] = sum / d.qLDiagSqrtInv[i];
  }
}

void full_m(const Model& m, double* dense, const double* sparse) {
  const int nv = m.nv;
  for (int i = 0; i < nv * nv; ++i) dense[i] = 0;
  for (int i = 0; i < nv; ++i) {
    int adr = m.dof_Madr[i];
    dense[i * nv + i] = sparse[adr++];
    for (int j = m.dof_parentid[i]; j >= 0; j = m.dof_parentid[j], ++adr) {
      dense[i * nv + j] = sparse[adr];
      dense[j * nv + i] = sparse[adr];
    }
  }
}

}  // namespace joco
