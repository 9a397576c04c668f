// Linear velocity of each subtree's centre of mass and the subtree's angular momentum about it.
#include "joco/smooth.h"
#include "math/spatial.h"

namespace joco {

using namespace math;

void subtree_vel(const Model& m, Data& d) {
  StackFrame frame(d);
  const int nbody = m.nbody;
  double* body_vel = frame.doubles(6 * nbody);  // [angular; linear at the body's com]

  // Mass-weighted com velocities, summed from the leaves up.
  zero6(body_vel);
  zero3(d.subtree_linvel);
  for (int b = 1; b < nbody; ++b) {
    motion_to_point(body_vel + 6 * b, d.cvel + 6 * b, d.subtree_com + 3 * m.body_rootid[b],
                    d.xipos + 3 * b);
    scale3(d.subtree_linvel + 3 * b, body_vel + 6 * b + 3, m.body_mass[b]);
  }
  for (int b = nbody - 1; b > 0; --b) {
    double* parent = d.subtree_linvel + 3 * m.body_parentid[b];
    add3(parent, parent, d.subtree_linvel + 3 * b);
  }
  for (int b = 0; b < nbody; ++b) {
    const double mass = m.body_subtreemass[b];
    if (mass >= kMinVal) scale3(d.subtree_linvel + 3 * b, d.subtree_linvel + 3 * b, 1 / mass);
  }

  // Each body's own angular momentum about its subtree's com: spin plus the orbit of its com.
  zero3(d.subtree_angmom);
  for (int b = 1; b < nbody; ++b) {
    const double* ximat = d.ximat + 9 * b;
    const double* w = body_vel + 6 * b;
    const double* inertia = m.body_inertia + 3 * b;
    double local[3], spin[3], dx[3], dv[3], orbit[3];
    mat_t_vec3(local, ximat, w);
    for (int k = 0; k < 3; ++k) local[k] *= inertia[k];
    mat_vec3(spin, ximat, local);
    sub3(dx, d.xipos + 3 * b, d.subtree_com + 3 * b);
    sub3(dv, w + 3, d.subtree_linvel + 3 * b);
    cross3(orbit, dx, dv);
    add_scaled3(d.subtree_angmom + 3 * b, spin, orbit, m.body_mass[b]);
  }
  // A child subtree adds its momentum about its own com plus the orbit of that com.
  for (int b = nbody - 1; b > 0; --b) {
    const int p = m.body_parentid[b];
    double dx[3], dv[3], orbit[3];
    sub3(dx, d.subtree_com + 3 * b, d.subtree_com + 3 * p);
    sub3(dv, d.subtree_linvel + 3 * b, d.subtree_linvel + 3 * p);
    cross3(orbit, dx, dv);
    double* dst = d.subtree_angmom + 3 * p;
    add3(dst, dst, d.subtree_angmom + 3 * b);
    add_scaled3(dst, dst, orbit, m.body_subtreemass[b]);
  }
}

}  // namespace joco
