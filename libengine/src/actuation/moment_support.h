// Where an actuator's moment row (transmission) can be nonzero, so that products with it can skip
// the zeros and still sum the same terms in the same order.
#pragma once

#include "joco/data.h"
#include "joco/model.h"

namespace joco {

// The dofs of actuator u's moment row that may be nonzero, increasing: the joint's dofs for joint
// transmissions, every dof otherwise (tendon patterns live in Data, which may come from elsewhere,
// e.g. MuJoCo's dense-mode data without them). Calls f(dof).
template <typename F>
void for_each_moment_dof(const Model& m, int u, F&& f) {
  switch (m.actuator_trntype[u]) {
    case kTrnJoint:
    case kTrnJointInParent: {
      const int joint = m.actuator_trnid[2 * u];
      const int type = m.jnt_type[joint];
      const int ndof = type == kJointFree ? 6 : type == kJointBall ? 3 : 1;
      for (int k = 0, i = m.jnt_dofadr[joint]; k < ndof; ++k, ++i) f(i);
      return;
    }
    default:
      for (int i = 0; i < m.nv; ++i) f(i);
  }
}

}  // namespace joco
