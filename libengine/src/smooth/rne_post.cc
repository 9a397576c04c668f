// Newton-Euler with the accelerations of the forward dynamics: body accelerations, external
// forces and the forces each body receives from its parent.
#include "joco/smooth.h"
#include "math/spatial.h"

namespace joco {

using namespace math;

void rne_post_constraint(const Model& m, Data& d) {
  const int nbody = m.nbody;

  // External forces: xfrc_applied acts at the body's centre of mass; moved to the tree's origin.
  zero6(d.cfrc_ext);
  for (int b = 1; b < nbody; ++b) {
    const double* xfrc = d.xfrc_applied + 6 * b;
    double* ext = d.cfrc_ext + 6 * b;
    // xfrc_applied is [force; torque], com-based forces are [torque; force].
    const double wrench[6] = {xfrc[3], xfrc[4], xfrc[5], xfrc[0], xfrc[1], xfrc[2]};
    force_to_point(ext, wrench, d.xipos + 3 * b, d.subtree_com + 3 * m.body_rootid[b]);
  }

  // Accelerations, with gravity as an upward acceleration of the world.
  zero6(d.cacc);
  if (!(m.opt.disableflags & kDisableGravity)) scale3(d.cacc + 3, m.opt.gravity, -1);
  for (int b = 1; b < nbody; ++b) {
    double* acc = d.cacc + 6 * b;
    copy6(acc, d.cacc + 6 * m.body_parentid[b]);
    const int dof_end = m.body_dofadr[b] + m.body_dofnum[b];
    for (int i = m.body_dofadr[b]; i < dof_end; ++i) {
      add_scaled_to6(acc, d.cdof_dot + 6 * i, d.qvel[i]);
      add_scaled_to6(acc, d.cdof + 6 * i, d.qacc[i]);
    }
  }

  // Interaction forces: what each body needs beyond its external force, summed from the leaves.
  zero6(d.cfrc_int);
  for (int b = 1; b < nbody; ++b) {
    const double* inert = d.cinert + 10 * b;
    const double* vel = d.cvel + 6 * b;
    double* frc = d.cfrc_int + 6 * b;
    double momentum[6], gyro[6];
    inertia_mul_motion(frc, inert, d.cacc + 6 * b);
    inertia_mul_motion(momentum, inert, vel);
    cross_force(gyro, vel, momentum);
    for (int k = 0; k < 6; ++k) frc[k] += gyro[k] - d.cfrc_ext[6 * b + k];
  }
  // The world receives the sum of what its children exert on it.
  for (int b = nbody - 1; b > 0; --b) {
    double* parent = d.cfrc_int + 6 * m.body_parentid[b];
    for (int k = 0; k < 6; ++k) parent[k] += d.cfrc_int[6 * b + k];
  }
}

}  // namespace joco
