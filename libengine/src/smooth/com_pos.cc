// Subtree centres of mass, and the body inertias and dof motion axes in com-based coordinates: the
// global orientation, about the centre of mass of the tree each body belongs to.
#include "joco/smooth.h"
#include "math/spatial.h"

namespace joco {

using namespace math;

void com_pos(const Model& m, Data& d) {
  const int nbody = m.nbody;

  // subtree_com: mass-weighted positions summed from the leaves up, then divided by the mass.
  for (int b = 0; b < nbody; ++b) scale3(d.subtree_com + 3 * b, d.xipos + 3 * b, m.body_mass[b]);
  for (int b = nbody - 1; b > 0; --b) {
    double* parent = d.subtree_com + 3 * m.body_parentid[b];
    add3(parent, parent, d.subtree_com + 3 * b);
  }
  for (int b = 0; b < nbody; ++b) {
    const double mass = m.body_subtreemass[b];
    if (mass < kMinVal) {
      copy3(d.subtree_com + 3 * b, d.xipos + 3 * b);
    } else {
      scale3(d.subtree_com + 3 * b, d.subtree_com + 3 * b, 1 / mass);
    }
  }

  // cinert: each body's inertia about its tree's centre of mass.
  for (int b = 0; b < 10; ++b) d.cinert[b] = 0;
  for (int b = 1; b < nbody; ++b) {
    inertia_about(d.cinert + 10 * b, d.ximat + 9 * b, m.body_inertia + 3 * b, m.body_mass[b],
                  d.xipos + 3 * b, d.subtree_com + 3 * m.body_rootid[b]);
  }

  // cdof: the motion of each dof at unit velocity, at the tree's centre of mass.
  for (int j = 0; j < m.njnt; ++j) {
    const int b = m.jnt_bodyid[j];
    const double* origin = d.subtree_com + 3 * m.body_rootid[b];
    double* cdof = d.cdof + 6 * m.jnt_dofadr[j];
    const double* anchor = d.xanchor + 3 * j;
    double offset[3];
    sub3(offset, origin, anchor);
    switch (m.jnt_type[j]) {
      case kJointFree:
        // Translations along the world axes, then rotations like a ball joint.
        for (int k = 0; k < 3; ++k) {
          zero6(cdof + 6 * k);
          cdof[6 * k + 3 + k] = 1;
        }
        cdof += 18;
        [[fallthrough]];
      case kJointBall: {
        // Rotations about the body's axes (columns of xmat), through the anchor.
        const double* xmat = d.xmat + 9 * b;
        for (int k = 0; k < 3; ++k) {
          double* c = cdof + 6 * k;
          c[0] = xmat[k];
          c[1] = xmat[3 + k];
          c[2] = xmat[6 + k];
          cross3(c + 3, c, offset);
        }
        break;
      }
      case kJointSlide:
        zero3(cdof);
        copy3(cdof + 3, d.xaxis + 3 * j);
        break;
      default:  // hinge
        copy3(cdof, d.xaxis + 3 * j);
        cross3(cdof + 3, cdof, offset);
    }
  }
}

}  // namespace joco
