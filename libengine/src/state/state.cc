#include "joco/state.h"

#include <cstring>
#include <string>

#include "joco/error.h"

namespace joco {

namespace {

// The number of doubles of component i (bit 1 << i).
int component_size(const Model& m, int i) {
  switch (1u << i) {
    case kStateTime: return 1;
    case kStateQpos: return m.nq;
    case kStateQvel:
    case kStateWarmstart:
    case kStateQfrcApplied: return m.nv;
    case kStateAct: return m.na;
    case kStateCtrl: return m.nu;
    case kStateXfrcApplied: return 6 * m.nbody;
    case kStateMocapPos: return 3 * m.nmocap;
    default: return 4 * m.nmocap;
  }
}

// Component i's values in d.
double* component_values(Data& d, int i) {
  switch (1u << i) {
    case kStateTime: return &d.time;
    case kStateQpos: return d.qpos;
    case kStateQvel: return d.qvel;
    case kStateAct: return d.act;
    case kStateWarmstart: return d.qacc_warmstart;
    case kStateCtrl: return d.ctrl;
    case kStateQfrcApplied: return d.qfrc_applied;
    case kStateXfrcApplied: return d.xfrc_applied;
    case kStateMocapPos: return d.mocap_pos;
    default: return d.mocap_quat;
  }
}

const double* component_values(const Data& d, int i) {
  return component_values(const_cast<Data&>(d), i);
}

void check_mask(unsigned mask) {
  if (mask & ~unsigned{kStateAll}) {
    throw InputError("state mask " + std::to_string(mask) + " has bits beyond the " +
                     std::to_string(kNStateComponent) + " state components");
  }
}

void copy(double* dst, const double* src, int n) {
  if (n > 0) std::memcpy(dst, src, sizeof(double) * static_cast<size_t>(n));
}

}  // namespace

int state_size(const Model& m, unsigned mask) {
  check_mask(mask);
  int size = 0;
  for (int i = 0; i < kNStateComponent; ++i) {
    if (mask & (1u << i)) size += component_size(m, i);
  }
  return size;
}

void get_state(const Model& m, const Data& d, double* state, unsigned mask) {
  check_data(m, d);
  check_mask(mask);
  for (int i = 0; i < kNStateComponent; ++i) {
    if (!(mask & (1u << i))) continue;
    const int n = component_size(m, i);
    copy(state, component_values(d, i), n);
    state += n;
  }
}

void set_state(const Model& m, Data& d, const double* state, unsigned mask) {
  check_data(m, d);
  check_mask(mask);
  for (int i = 0; i < kNStateComponent; ++i) {
    if (!(mask & (1u << i))) continue;
    const int n = component_size(m, i);
    copy(component_values(d, i), state, n);
    state += n;
  }
}

void copy_state(const Model& m, const Data& src, Data& dst, unsigned mask) {
  check_data(m, src);
  check_data(m, dst);
  check_mask(mask);
  for (int i = 0; i < kNStateComponent; ++i) {
    if (mask & (1u << i))
      copy(component_values(dst, i), component_values(src, i), component_size(m, i));
  }
}

}  // namespace joco
