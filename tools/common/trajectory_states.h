// The states of a trajectory file, read once, put into a Data row by row.
#pragma once

#include <cstddef>
#include <optional>

#include "common/trajectory_reader.h"
#include "joco/data.h"
#include "joco/model.h"

namespace joco::tools {

// The states a trajectory records, read once (validated against the model; qpos required), so
// that any row can be put into a Data: qpos, and where present qvel, act, ctrl, time,
// qfrc_applied and xfrc_applied. The constraint solver's warmstart is the row's qacc_warmstart
// where the file has it (what the rollout that wrote the row started from, mjData.qacc_warmstart:
// joco-simulate records it), else the previous row's qacc (which is what an Euler or implicit
// rollout starts the next row from), else none (zero, as after a reset).
class TrajectoryStates {
 public:
  TrajectoryStates(const Model& m, Trajectory& t);
  size_t rows() const { return rows_; }
  bool has_applied_forces() const { return qfrc_applied_ || xfrc_applied_; }
  // reset_state (the model's initial state, not a clearing of the whole Data), then row r's state
  // and inputs: what d computes next depends on row r only.
  void load(const Model& m, Data& d, size_t r) const;

 private:
  size_t rows_ = 0;
  Matrix qpos_;
  std::optional<Matrix> qvel_, act_, ctrl_, time_, qacc_, qacc_warmstart_, qfrc_applied_,
      xfrc_applied_;
};

}  // namespace joco::tools
