// Composite rigid body inertias and the joint-space inertia matrix (CRB algorithm) in the
// tree-sparse layout: row i of the lower triangle holds M(i, i) at dof_Madr[i], followed by
// M(i, j) for the ancestors j of dof i (dof_parentid chain), nearest first.
#include "joco/smooth.h"
#include "math/spatial.h"

namespace joco {

using namespace math;

void crb(const Model& m, Data& d) {
  // All bodies of a tree share the origin of their com-based frame, so composite inertias are
  // plain sums from the leaves up (trees stop below the world).
  for (int i = 0; i < 10 * m.nbody; ++i) d.crb[i] = d.cinert[i];
  for (int b = m.nbody - 1; b > 0; --b) {
    const int p = m.body_parentid[b];
    if (p == 0) continue;
    double* dst = d.crb + 10 * p;
    const double* src = d.crb + 10 * b;
    for (int k = 0; k < 10; ++k) dst[k] += src[k];
  }

  // M(i, j) = cdof_j' crb_i cdof_i for j an ancestor of i (or i itself), crb of dof i's body.
  // Simple dofs (dof_simplenum > 0, as the compiler found them) have a constant diagonal and no
  // off-diagonals: like MuJoCo, their row is dof_M0 (which includes armature) and zeros.
  for (int i = 0; i < m.nv; ++i) {
    int adr = m.dof_Madr[i];
    if (m.dof_simplenum[i]) {
      d.qM[adr] = m.dof_M0[i];
      for (int j = m.dof_parentid[i]; j >= 0; j = m.dof_parentid[j]) d.qM[++adr] = 0;
      continue;
    }
    double force[6];
    inertia_mul_motion(force, d.crb + 10 * m.dof_bodyid[i], d.cdof + 6 * i);
    d.qM[adr] = dot6(force, d.cdof + 6 * i) + m.dof_armature[i];
    for (int j = m.dof_parentid[i]; j >= 0; j = m.dof_parentid[j]) {
      d.qM[++adr] = dot6(force, d.cdof + 6 * j);
    }
  }
}

}  // namespace joco
