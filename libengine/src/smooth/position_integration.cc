// Arithmetic on joint positions that respects quaternions: adding a velocity to a position and the
// velocity between two positions. Angular velocities of free and ball joints are in the child
// body's frame, so orientations compose on the right: q (+) w dt = q exp(w dt / 2).
#include "joco/smooth.h"
#include "math/vec.h"

namespace joco {

using namespace math;

void integrate_pos(const Model& m, double* qpos, const double* qvel, double dt) {
  for (int j = 0; j < m.njnt; ++j) {
    double* q = qpos + m.jnt_qposadr[j];
    const double* v = qvel + m.jnt_dofadr[j];
    switch (m.jnt_type[j]) {
      case kJointFree:
        add_scaled3(q, q, v, dt);
        quat_integrate(q + 3, v + 3, dt);
        break;
      case kJointBall: quat_integrate(q, v, dt); break;
      default: q[0] += dt * v[0];
    }
  }
}

void differentiate_pos(const Model& m, double* qvel, double dt, const double* qpos1,
                       const double* qpos2) {
  const double inv_dt = 1 / dt;
  for (int j = 0; j < m.njnt; ++j) {
    const int adr = m.jnt_qposadr[j];
    const double* q1 = qpos1 + adr;
    const double* q2 = qpos2 + adr;
    double* v = qvel + m.jnt_dofadr[j];
    switch (m.jnt_type[j]) {
      case kJointFree:
        for (int k = 0; k < 3; ++k) v[k] = (q2[k] - q1[k]) * inv_dt;
        q1 += 3;
        q2 += 3;
        v += 3;
        [[fallthrough]];
      case kJointBall: {
        double a[4], b[4];
        copy4(a, q1);
        copy4(b, q2);
        quat_normalize(a);
        quat_normalize(b);
        quat_difference(v, b, a);
        scale3(v, v, inv_dt);
        break;
      }
      default: v[0] = (q2[0] - q1[0]) * inv_dt;
    }
  }
}

void normalize_quat(const Model& m, double* qpos) {
  for (int j = 0; j < m.njnt; ++j) {
    const int type = m.jnt_type[j];
    if (type == kJointFree) {
      quat_normalize(qpos + m.jnt_qposadr[j] + 3);
    } else if (type == kJointBall) {
      quat_normalize(qpos + m.jnt_qposadr[j]);
    }
  }
}

}  // namespace joco
