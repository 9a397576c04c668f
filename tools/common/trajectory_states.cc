#include "common/trajectory_states.h"

#include <utility>

#include "joco/state.h"

namespace joco::tools {

TrajectoryStates::TrajectoryStates(const Model& m, Trajectory& t) {
  t.validate(m, {Field::kQpos});
  rows_ = t.rows();
  auto read = [&](Field f) {
    return t.has(f) && field_row_size(f, m) > 0 ? std::optional<Matrix>(t.read(f)) : std::nullopt;
  };
  qpos_ = t.read(Field::kQpos);
  qvel_ = read(Field::kQvel);
  act_ = read(Field::kAct);
  ctrl_ = read(Field::kCtrl);
  time_ = read(Field::kTime);
  qacc_warmstart_ = read(Field::kQaccWarmstart);
  if (!qacc_warmstart_) qacc_ = read(Field::kQacc);
  qfrc_applied_ = read(Field::kQfrcApplied);
  xfrc_applied_ = read(Field::kXfrcApplied);
}

void TrajectoryStates::load(const Model& m, Data& d, size_t r) const {
  // The initial state without clearing the Data's results (joco/data.h): a row costs its state,
  // not the Data's size.
  reset_state(m, d);
  // Each dataset is one component of the state (joco/state.h), laid out as get_state writes it.
  set_state(m, d, qpos_.row(r), kStateQpos);
  const std::pair<const std::optional<Matrix>*, unsigned> components[] = {
      {&time_, kStateTime},
      {&qvel_, kStateQvel},
      {&act_, kStateAct},
      {&ctrl_, kStateCtrl},
      {&qfrc_applied_, kStateQfrcApplied},
      {&xfrc_applied_, kStateXfrcApplied},
      {&qacc_warmstart_, kStateWarmstart}};
  for (const auto& [values, component] : components) {
    if (*values) set_state(m, d, (*values)->row(r), component);
  }
  if (!qacc_warmstart_ && qacc_ && r > 0) set_state(m, d, qacc_->row(r - 1), kStateWarmstart);
}

}  // namespace joco::tools
