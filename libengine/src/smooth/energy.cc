// Potential and kinetic energy.
#include "joco/smooth.h"
#include "math/vec.h"

namespace joco {

using namespace math;

void energy_pos(const Model& m, Data& d) {
  // As in MuJoCo, energies are only computed on request; without it both read zero.
  if (!(m.opt.enableflags & kEnableEnergy)) {
    d.energy[0] = d.energy[1] = 0;
    return;
  }
  double energy = 0;
  if (!(m.opt.disableflags & kDisableGravity)) {
    for (int b = 1; b < m.nbody; ++b)
      energy -= m.body_mass[b] * dot3(m.opt.gravity, d.xipos + 3 * b);
  }
  if (!(m.opt.disableflags & kDisablePassive)) {
    for (int j = 0; j < m.njnt; ++j) {
      const double k = m.jnt_stiffness[j];
      if (k == 0) continue;
      const int adr = m.jnt_qposadr[j];
      const double* q = d.qpos + adr;
      const double* q0 = m.qpos_spring + adr;
      switch (m.jnt_type[j]) {
        case kJointFree: {
          double dx[3];
          sub3(dx, q, q0);
          energy += 0.5 * k * dot3(dx, dx);
          q += 3;
          q0 += 3;
          [[fallthrough]];
        }
        case kJointBall: {
          // The spring acts on the rotation angle between the orientation and the spring's.
          double quat[4], rot[3];
          copy4(quat, q);
          quat_normalize(quat);
          quat_difference(rot, quat, q0);
          energy += 0.5 * k * dot3(rot, rot);
          break;
        }
        default: {
          const double dx = q[0] - q0[0];
          energy += 0.5 * k * dx * dx;
        }
      }
    }
    for (int t = 0; t < m.ntendon; ++t) {
      const double k = m.tendon_stiffness[t];
      if (k == 0) continue;
      const double dx = d.ten_length[t] - m.tendon_lengthspring[t];
      energy += 0.5 * k * dx * dx;
    }
  }
  d.energy[0] = energy;
}

void energy_vel(const Model& m, Data& d) {
  if (!(m.opt.enableflags & kEnableEnergy)) return;
  StackFrame frame(d);
  double* mv = frame.doubles(m.nv);
  mul_m(m, d, mv, d.qvel);
  double energy = 0;
  for (int i = 0; i < m.nv; ++i) energy += d.qvel[i] * mv[i];
  d.energy[1] = 0.5 * energy;
}

}  // namespace joco
