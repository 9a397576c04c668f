// The simulation state as one value: the Data fields that, with the Model, determine what step and
// forward compute (the "State and control" section of the computation chapter). Every tool and the
// derivatives save, restore and copy a state through these four functions; none allocates.
//
// A state is a flat array of doubles: the components a mask selects, in the order of
// StateComponent (time, qpos, qvel, act, qacc_warmstart, ctrl, qfrc_applied, xfrc_applied,
// mocap_pos, mocap_quat), each with its Data array's size. The same idea as mjtState /
// mj_getState / mj_setState / mj_copyState of MuJoCo's later releases.
#pragma once

#include "joco/data.h"
#include "joco/model.h"

namespace joco {

// The number of components.
constexpr int kNStateComponent = 10;

// One bit per component; a mask is an OR of them.
enum StateComponent : unsigned {
  kStateTime = 1u << 0,         // time (1)
  kStateQpos = 1u << 1,         // qpos (nq)
  kStateQvel = 1u << 2,         // qvel (nv)
  kStateAct = 1u << 3,          // act (na)
  kStateWarmstart = 1u << 4,    // qacc_warmstart (nv): where the constraint solver starts
  kStateCtrl = 1u << 5,         // ctrl (nu)
  kStateQfrcApplied = 1u << 6,  // qfrc_applied (nv)
  kStateXfrcApplied = 1u << 7,  // xfrc_applied (6 nbody)
  kStateMocapPos = 1u << 8,     // mocap_pos (3 nmocap)
  kStateMocapQuat = 1u << 9,    // mocap_quat (4 nmocap)
  kStateAll = (1u << kNStateComponent) - 1,

  // The physical state, what the dynamics integrate.
  kStatePhysics = kStateQpos | kStateQvel | kStateAct,
  kStateFullPhysics = kStateTime | kStatePhysics,
  // The user's inputs: controls, applied forces and mocap poses.
  kStateUser =
      kStateCtrl | kStateQfrcApplied | kStateXfrcApplied | kStateMocapPos | kStateMocapQuat,
  // Everything a step depends on: with it set, step reproduces a step bit for bit.
  kStateIntegration = kStateFullPhysics | kStateUser | kStateWarmstart,
};

// The number of doubles of a state with the components of `mask`. Throws InputError when mask has
// a bit beyond kStateAll.
int state_size(const Model& m, unsigned mask);

// Writes the components of `mask` of d into state (state_size(m, mask) doubles).
void get_state(const Model& m, const Data& d, double* state, unsigned mask);

// Sets the components of `mask` of d from state, as get_state wrote them. The rest of d is left as
// it is: results computed from the old state stay until forward or step recomputes them.
void set_state(const Model& m, Data& d, const double* state, unsigned mask);

// Copies the components of `mask` from src to dst (two Data of the same model).
void copy_state(const Model& m, const Data& src, Data& dst, unsigned mask);

}  // namespace joco
