// Recursive Newton-Euler in com-based coordinates: body accelerations from the root out, body
// forces summed from the leaves in, projected on the dof axes.
#include "joco/smooth.h"
#include "math/spatial.h"

namespace joco {

using namespace math;

void rne(const Model& m, Data& d, bool with_acceleration, double* result) {
  StackFrame frame(d);
  const int nbody = m.nbody;
  double* cacc = frame.doubles(6 * nbody);
  double* cfrc = frame.doubles(6 * nbody);

  // Gravity enters as an upward acceleration of the world.
  zero6(cacc);
  if (!(m.opt.disableflags & kDisableGravity)) scale3(cacc + 3, m.opt.gravity, -1);

  for (int b = 1; b < nbody; ++b) {
    double* acc = cacc + 6 * b;
    // The body's own dofs' terms are summed before they are added to the parent's acceleration
    // (MuJoCo's rounding), velocity terms first.
    const int dof_begin = m.body_dofadr[b], dof_end = dof_begin + m.body_dofnum[b];
    double own[6] = {0, 0, 0, 0, 0, 0};
    for (int i = dof_begin; i < dof_end; ++i) add_scaled_to6(own, d.cdof_dot + 6 * i, d.qvel[i]);
    add6(acc, cacc + 6 * m.body_parentid[b], own);
    if (with_acceleration && dof_end > dof_begin) {
      zero6(own);
      for (int i = dof_begin; i < dof_end; ++i) add_scaled_to6(own, d.cdof + 6 * i, d.qacc[i]);
      for (int k = 0; k < 6; ++k) acc[k] += own[k];
    }
    // f = I a + v x* (I v)
    const double* inert = d.cinert + 10 * b;
    const double* vel = d.cvel + 6 * b;
    double momentum[6], gyro[6];
    inertia_mul_motion(cfrc + 6 * b, inert, acc);
    inertia_mul_motion(momentum, inert, vel);
    cross_force(gyro, vel, momentum);
    for (int k = 0; k < 6; ++k) cfrc[6 * b + k] += gyro[k];
  }

  for (int b = nbody - 1; b > 0; --b) {
    const int p = m.body_parentid[b];
    if (p > 0) {
      for (int k = 0; k < 6; ++k) cfrc[6 * p + k] += cfrc[6 * b + k];
    }
  }

  for (int i = 0; i < m.nv; ++i) result[i] = dot6(d.cdof + 6 * i, cfrc + 6 * m.dof_bodyid[i]);
}

}  // namespace joco
