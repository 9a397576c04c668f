// Passive forces: spring-dampers in joints and tendons, and fluid forces.
#include "joco/passive.h"

#include "math/vec.h"

namespace joco {

using namespace math;

namespace {

void joint_springs_and_dampers(const Model& m, Data& d) {
  for (int j = 0; j < m.njnt; ++j) {
    const double k = m.jnt_stiffness[j];
    if (k == 0) continue;
    const int qadr = m.jnt_qposadr[j], dadr = m.jnt_dofadr[j];
    const double* q = d.qpos + qadr;
    const double* q0 = m.qpos_spring + qadr;
    double* f = d.qfrc_passive + dadr;
    switch (m.jnt_type[j]) {
      case kJointFree:
        for (int k3 = 0; k3 < 3; ++k3) f[k3] -= k * (q[k3] - q0[k3]);
        q += 3;
        q0 += 3;
        f += 3;
        [[fallthrough]];
      case kJointBall: {
        double rotation[3];
        quat_difference(rotation, q, q0);
        for (int k3 = 0; k3 < 3; ++k3) f[k3] -= k * rotation[k3];
        break;
      }
      default: f[0] -= k * (q[0] - q0[0]);
    }
  }
  for (int i = 0; i < m.nv; ++i) d.qfrc_passive[i] -= m.dof_damping[i] * d.qvel[i];
}

void tendon_springs_and_dampers(const Model& m, Data& d) {
  const int nv = m.nv;
  for (int t = 0; t < m.ntendon; ++t) {
    const double force = -m.tendon_stiffness[t] * (d.ten_length[t] - m.tendon_lengthspring[t]) -
                         m.tendon_damping[t] * d.ten_velocity[t];
    if (force == 0) continue;
    const double* J = d.ten_J + static_cast<size_t>(t) * nv;
    const int* colind = d.ten_J_colind + d.ten_J_rowadr[t];
    for (int k = 0; k < d.ten_J_rownnz[t]; ++k) d.qfrc_passive[colind[k]] += J[colind[k]] * force;
  }
}

}  // namespace

void passive(const Model& m, Data& d) {
  for (int i = 0; i < m.nv; ++i) d.qfrc_passive[i] = 0;
  if (m.opt.disableflags & kDisablePassive) return;
  joint_springs_and_dampers(m, d);
  tendon_springs_and_dampers(m, d);
  if (m.opt.viscosity > 0 || m.opt.density > 0) fluid(m, d, d.qfrc_passive);
}

}  // namespace joco
