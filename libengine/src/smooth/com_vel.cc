// Body velocities and the rates of change of the dof axes, com-based.
#include "joco/smooth.h"
#include "math/spatial.h"

namespace joco {

using namespace math;

namespace {

// vel += the motion of three dofs, summed before it is added (MuJoCo's rounding).
inline void add_three_dofs(double* vel, const double* cdof, const double* qvel) {
  for (int k = 0; k < 6; ++k)
    vel[k] += (cdof[k] * qvel[0] + cdof[6 + k] * qvel[1]) + cdof[12 + k] * qvel[2];
}

}  // namespace

void com_vel(const Model& m, Data& d) {
  zero6(d.cvel);
  for (int b = 1; b < m.nbody; ++b) {
    double vel[6];
    copy6(vel, d.cvel + 6 * m.body_parentid[b]);
    const int jnt_end = m.body_jntadr[b] + m.body_jntnum[b];
    for (int j = m.body_jntadr[b]; j < jnt_end; ++j) {
      int dof = m.jnt_dofadr[j];
      const double* cdof = d.cdof + 6 * dof;
      double* cdof_dot = d.cdof_dot + 6 * dof;
      switch (m.jnt_type[j]) {
        case kJointFree:
          // Translations along fixed world axes do not change; the rotation axes move with the
          // body's translation.
          for (int k = 0; k < 18; ++k) cdof_dot[k] = 0;
          add_three_dofs(vel, cdof, d.qvel + dof);
          dof += 3;
          cdof += 18;
          cdof_dot += 18;
          [[fallthrough]];
        case kJointBall:
          // The three rotations act together: all are carried by the velocity before them.
          for (int k = 0; k < 3; ++k) cross_motion(cdof_dot + 6 * k, vel, cdof + 6 * k);
          add_three_dofs(vel, cdof, d.qvel + dof);
          break;
        default:
          // cdof x cdof = 0, so the velocity before or after this dof gives the same result.
          cross_motion(cdof_dot, vel, cdof);
          add_scaled_to6(vel, cdof, d.qvel[dof]);
      }
    }
    copy6(d.cvel + 6 * b, vel);
  }
}

}  // namespace joco
