#include "common/trajectory_states.h"

#include <cstring>

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
  reset_data(m, d);
  auto copy = [](const std::optional<Matrix>& x, double* dst, int n, size_t row) {
    if (x && n > 0) std::memcpy(dst, x->row(row), sizeof(double) * static_cast<size_t>(n));
  };
  std::memcpy(d.qpos, qpos_.row(r), sizeof(double) * static_cast<size_t>(m.nq));
  copy(qvel_, d.qvel, m.nv, r);
  copy(act_, d.act, m.na, r);
  copy(ctrl_, d.ctrl, m.nu, r);
  copy(qfrc_applied_, d.qfrc_applied, m.nv, r);
  copy(xfrc_applied_, d.xfrc_applied, 6 * m.nbody, r);
  if (time_) d.time = (*time_)(r, 0);
  if (qacc_warmstart_) {
    copy(qacc_warmstart_, d.qacc_warmstart, m.nv, r);
  } else if (r > 0) {
    copy(qacc_, d.qacc_warmstart, m.nv, r - 1);
  }
}

}  // namespace joco::tools
