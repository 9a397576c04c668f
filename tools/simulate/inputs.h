// The inputs of joco-simulate's rollouts: each rollout's initial state (--init) and controls
// (--ctrl,
// --ctrl-noise), by the rollout's global index b in [0, B). A file of one trajectory applies to
// every rollout; a batch file (one /rollout_NNNNN group per rollout, as joco writes them or as a
// script writes them with h5py) gives rollout b its group b. Everything is read before the
// rollouts start (the serial HDF5 library is not thread-safe); each rollout's inputs are then
// read-only.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "common/controls.h"
#include "common/trajectory.h"
#include "joco/data.h"
#include "joco/model.h"
#include "simulate/options.h"

namespace joco::tools {

// The initial state: the model's, a keyframe's, or components from a row of a trajectory file.
struct InitialState {
  int key = -1;
  std::vector<std::pair<unsigned, std::vector<double>>> components;  // in the order set

  void apply(const Model& m, Data& d) const;
};

// The trajectories of an input file for `rollouts` rollouts (0: a single rollout, not a batch):
// the one trajectory it addresses (FILE.h5 with a root trajectory or one rollout group, or
// FILE.h5:/group), which applies to every rollout; else one per rollout, /rollout_b (any number of
// digits) for rollout b. UsageError (exit 2) naming both counts when the file holds several and
// their number is not the batch's; InputError when a rollout's group is missing.
std::vector<Trajectory> rollout_trajectories(const TrajectoryInput& input, int rollouts,
                                             const std::string& flag);

class RolloutInputs {
 public:
  // Reads --init and --ctrl for o.batch rollouts (0: one).
  RolloutInputs(const Model& m, const Options& o);

  // Rollout b's initial state, controls (the noise seed is seed + b) and number of steps (--steps,
  // else its controls' rows - 1, else 1000).
  const InitialState& initial_state(int b) const;
  const ControlSource& controls(int b) const;
  int64_t steps(int b) const;
  // Whether the controls come from a file (then the applied forces are recorded too).
  bool controls_from_file() const { return !controls_.empty() && controls_[0].is_file(); }
  // Where rollout b's inputs came from, for the attributes of its group: --init and --ctrl as
  // given for a single trajectory, FILE.h5:/group for a batch file's group ("" when not given).
  const std::string& init_source(int b) const { return pick(init_sources_, b); }
  const std::string& ctrl_source(int b) const { return pick(ctrl_sources_, b); }

 private:
  template <class T>
  static const T& pick(const std::vector<T>& v, int b) {
    return v[v.size() == 1 ? 0 : static_cast<size_t>(b)];
  }
  int64_t steps_ = -1;
  std::vector<InitialState> init_;
  std::vector<std::string> init_sources_;
  std::vector<ControlSource> controls_;
  std::vector<std::string> ctrl_sources_;
};

}  // namespace joco::tools
