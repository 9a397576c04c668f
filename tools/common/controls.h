// Inputs applied during rollouts: controls and applied forces from a trajectory file, or the
// pseudo-random control noise of mujoco-testspeed (a Halton sequence around the middle of each
// actuator's control range), so that joco and MuJoCo runs can be compared side by side.
#pragma once

#include <algorithm>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "common/trajectory.h"
#include "joco/data.h"
#include "joco/model.h"

namespace joco::tools {

// The radical inverse of `index` in `base` (the Halton sequence), in [0, 1).
double halton(int64_t index, int base);

// testspeed's control noise at step `i`: ctrl[j] = center + noise * radius * (2 halton(i, j + 2) -
// 1), with center and radius from ctrlrange where limited (0 and 1 otherwise). Another `seed`
// rotates each control's sequence by its own pseudo-random shift modulo 1, so that rollouts of
// different seeds get independent noise (seed 0 is testspeed's sequence unshifted).
void control_noise(const Model& m, double noise, int64_t seed, int64_t i, double* ctrl);

// A batch stacked in the datasets of one group, as numpy users write it with h5py and as MuJoCo's
// Python rollout takes its inputs: every dataset has the rollout as an extra first dimension
// (ctrl [B, T, nu], qfrc_applied [B, T, nv], xfrc_applied [B, T, nbody, 6]; qpos [B, T, nq], ...),
// and rollout b's trajectory is entry b of each (schemas/trajectory.md, "Batch files as inputs").
class StackedBatch {
 public:
  // The stacked batch of the group `input` addresses (its root when none was named), when the
  // first of `markers` present there has one dimension more than a trajectory's field; nullopt for
  // a file of another form (a trajectory, rollout groups). Every field of `fields` present must
  // then be stacked alike, [B, T] and the model's row shape (InputError naming the dataset), and
  // the batch must hold at least one rollout of at least one row.
  static std::optional<StackedBatch> find(const TrajectoryInput& input, const Model& m,
                                          std::span<const Field> markers,
                                          std::span<const Field> fields);

  size_t rollouts() const { return rollouts_; }
  size_t rows() const { return rows_; }
  bool has(Field f) const { return std::find(fields_.begin(), fields_.end(), f) != fields_.end(); }
  // Rollout b's rows of field f (rows() x the model's row size), which must be finite.
  Matrix read(Field f, size_t b) const;
  // "FILE.h5:/[b]", rollout b's entry of the group's datasets: for messages and the attributes
  // that say where a rollout's inputs came from.
  std::string where(size_t b) const;

 private:
  explicit StackedBatch(const TrajectoryInput& input) : input_(input) {}
  TrajectoryInput input_;
  size_t rollouts_ = 0, rows_ = 0;
  std::vector<Field> fields_;  // the fields present
};

// The datasets a controls file is read for: ctrl, qfrc_applied, xfrc_applied.
inline constexpr Field kControlFields[] = {Field::kCtrl, Field::kQfrcApplied, Field::kXfrcApplied};

class ControlSource {
 public:
  // Zero controls.
  ControlSource() = default;
  // Controls (and qfrc_applied / xfrc_applied when present) from a trajectory: FILE.h5[:/group],
  // or a trajectory opened for TrajectoryUse::kControls. ctrl is all a controls file needs (none
  // when nu = 0); the file's other datasets are not read.
  static ControlSource from_file(const std::string& ref, const Model& m);
  static ControlSource from_trajectory(Trajectory& t, const Model& m);
  // Rollout b's controls of a stacked batch found for kControlFields.
  static ControlSource from_stacked(const StackedBatch& s, size_t b, const Model& m);
  // Noise as control_noise.
  static ControlSource noise(double amplitude, int64_t seed);

  // Rows available in a file (unbounded for noise and zero).
  std::optional<size_t> rows() const;
  // Sets d.ctrl, d.qfrc_applied and d.xfrc_applied for step `row` (files hold their last row
  // beyond their end).
  void apply(const Model& m, Data& d, size_t row) const;
  // This source with the noise seed shifted (batch rollouts).
  ControlSource with_seed_offset(int64_t offset) const;
  bool is_file() const { return file_rows_ > 0; }

 private:
  double noise_ = 0;
  int64_t seed_ = 0;
  size_t file_rows_ = 0;
  Matrix ctrl_, qfrc_applied_, xfrc_applied_;
};

}  // namespace joco::tools
