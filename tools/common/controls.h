// Inputs applied during rollouts: controls and applied forces from a trajectory file, or the
// pseudo-random control noise of mujoco-testspeed (a Halton sequence around the middle of each
// actuator's control range), so that joco and MuJoCo runs can be compared side by side.
#pragma once

#include <optional>
#include <string>

#include "common/trajectory.h"
#include "joco/data.h"
#include "joco/model.h"

namespace joco::tools {

// The radical inverse of `index` in `base` (the Halton sequence), in [0, 1).
double halton(int64_t index, int base);

// testspeed's control noise at step `i`: ctrl[j] = center + noise * radius * (2 halton(i, j + 2) -
// 1), with center and radius from ctrlrange where limited (0 and 1 otherwise). `seed` shifts the
// sequence (seed 0 is testspeed's).
void control_noise(const Model& m, double noise, int64_t seed, int64_t i, double* ctrl);

class ControlSource {
 public:
  // Zero controls.
  ControlSource() = default;
  // Controls (and qfrc_applied / xfrc_applied when present) from a trajectory: FILE.h5[:/group],
  // or a trajectory opened for TrajectoryUse::kControls. ctrl is all a controls file needs (none
  // when nu = 0); the file's other datasets are not read.
  static ControlSource from_file(const std::string& ref, const Model& m);
  static ControlSource from_trajectory(Trajectory& t, const Model& m);
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
