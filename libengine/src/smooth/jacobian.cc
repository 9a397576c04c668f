// End-effector Jacobians from the com-based dof axes: dof i moves a point p of a body it carries
// with angular velocity w_i and linear velocity v_i + w_i x (p - c), c the tree's centre of mass.
#include "joco/jacobian.h"

#include <cstring>

#include "math/vec.h"

namespace joco {

using namespace math;

namespace {

inline void zero(double* a, int n) {
  for (int i = 0; i < n; ++i) a[i] = 0;
}

}  // namespace

int* dof_chain_before(const Model& m, int body, int* end) {
  // One walk up the chain (each step waits for the load of the one before), from the end.
  int* start = end;
  for (int i = last_dof(m, body); i >= 0; i = m.dof_parentid[i]) *--start = i;
  return start;
}

int dof_chain(const Model& m, int body, int* dofs) {
  const int* start = dof_chain_before(m, body, dofs + m.nv);
  const int n = static_cast<int>(dofs + m.nv - start);
  if (start != dofs) std::memmove(dofs, start, sizeof(int) * static_cast<size_t>(n));
  return n;
}

void jac(const Model& m, const Data& d, double* jacp, double* jacr, const double point[3],
         int body) {
  const int nv = m.nv;
  if (jacp) zero(jacp, 3 * nv);
  if (jacr) zero(jacr, 3 * nv);
  double offset[3];
  sub3(offset, point, d.subtree_com + 3 * m.body_rootid[body]);
  for (int i = last_dof(m, body); i >= 0; i = m.dof_parentid[i]) {
    const double* cdof = d.cdof + 6 * i;
    if (jacr) {
      jacr[i] = cdof[0];
      jacr[nv + i] = cdof[1];
      jacr[2 * nv + i] = cdof[2];
    }
    if (jacp) {
      double wx[3];
      cross3(wx, cdof, offset);
      jacp[i] = cdof[3] + wx[0];
      jacp[nv + i] = cdof[4] + wx[1];
      jacp[2 * nv + i] = cdof[5] + wx[2];
    }
  }
}

void jac_body(const Model& m, const Data& d, double* jacp, double* jacr, int body) {
  jac(m, d, jacp, jacr, d.xpos + 3 * body, body);
}

void jac_body_com(const Model& m, const Data& d, double* jacp, double* jacr, int body) {
  jac(m, d, jacp, jacr, d.xipos + 3 * body, body);
}

void jac_geom(const Model& m, const Data& d, double* jacp, double* jacr, int geom) {
  jac(m, d, jacp, jacr, d.geom_xpos + 3 * geom, m.geom_bodyid[geom]);
}

void jac_site(const Model& m, const Data& d, double* jacp, double* jacr, int site) {
  jac(m, d, jacp, jacr, d.site_xpos + 3 * site, m.site_bodyid[site]);
}

void jac_subtree_com(const Model& m, Data& d, double* jacp, int body) {
  const int nv = m.nv;
  zero(jacp, 3 * nv);
  const double mass = m.body_subtreemass[body];
  if (mass < kMinVal) return;

  // The subtree com is the mass-weighted mean of the bodies' coms. A dof above `body` moves the
  // whole subtree, so its column is the velocity of the subtree com; a dof of a body k inside the
  // subtree moves k's own subtree only, so it contributes that velocity at k's subtree com,
  // weighted by k's share of the mass.
  auto add_column = [&](int i, int k, double weight) {
    const double* cdof = d.cdof + 6 * i;
    double offset[3], wx[3];
    sub3(offset, d.subtree_com + 3 * k, d.subtree_com + 3 * m.body_rootid[k]);
    cross3(wx, cdof, offset);
    jacp[i] = weight * (cdof[3] + wx[0]);
    jacp[nv + i] = weight * (cdof[4] + wx[1]);
    jacp[2 * nv + i] = weight * (cdof[5] + wx[2]);
  };
  for (int i = last_dof(m, body); i >= 0; i = m.dof_parentid[i]) add_column(i, body, 1);

  StackFrame frame(d);
  int* inside = frame.ints(m.nbody);  // 1 for the strict descendants of body
  for (int k = 0; k <= body; ++k) inside[k] = 0;
  for (int k = body + 1; k < m.nbody; ++k) {
    const int p = m.body_parentid[k];
    inside[k] = p == body || (p > body && inside[p]);
    if (!inside[k]) continue;
    const int end = m.body_dofadr[k] + m.body_dofnum[k];
    for (int i = m.body_dofadr[k]; i < end; ++i) add_column(i, k, m.body_subtreemass[k] / mass);
  }
}

void jac_point_axis(const Model& m, Data& d, double* jac_point, double* jac_axis,
                    const double point[3], const double axis[3], int body) {
  const int nv = m.nv;
  StackFrame frame(d);
  double* jacr = frame.doubles(3 * nv);
  jac(m, d, jac_point, jacr, point, body);
  if (!jac_axis) return;
  for (int i = 0; i < nv; ++i) {
    const double w[3] = {jacr[i], jacr[nv + i], jacr[2 * nv + i]};
    double c[3];
    cross3(c, w, axis);
    jac_axis[i] = c[0];
    jac_axis[nv + i] = c[1];
    jac_axis[2 * nv + i] = c[2];
  }
}

void apply_force_torque(const Model& m, const Data& d, const double force[3],
                        const double torque[3], const double point[3], int body, double* qfrc) {
  // Dof i moves the point with angular velocity w_i and linear velocity v_i + w_i x (p - c).
  double offset[3];
  sub3(offset, point, d.subtree_com + 3 * m.body_rootid[body]);
  for (int i = last_dof(m, body); i >= 0; i = m.dof_parentid[i]) {
    const double* cdof = d.cdof + 6 * i;
    double wx[3];
    cross3(wx, cdof, offset);
    qfrc[i] += dot3(cdof, torque) + force[0] * (cdof[3] + wx[0]) + force[1] * (cdof[4] + wx[1]) +
               force[2] * (cdof[5] + wx[2]);
  }
}

}  // namespace joco
