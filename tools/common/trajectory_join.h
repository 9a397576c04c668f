// Joining batch files into one: the rollout groups of several files (the shards of `joco-simulate
// --shard K/N`, or the per-rank files of an MPI run) under one file that every reader opens as a
// batch file (schemas/trajectory.md, "Joined batch files"). One piece of code for `joco-simulate
// --join` and for the end of an MPI run.
#pragma once

#include <string>
#include <vector>

namespace joco::tools {

enum class JoinMode {
  // /rollout_NNNNN of the output is an HDF5 external link to the group in its input file (stored
  // relative to the output's directory when the input is under it, so the files move together):
  // nothing is copied, joining is instant, the inputs must stay.
  kLinks,
  // Each rollout group is copied whole into the output (its compressed chunks as they are): a
  // file that stands alone.
  kCopy,
};

struct JoinSummary {
  int files = 0;
  int rollouts = 0;
  int missing = 0;  // indices below the largest one that no input holds
};

// Writes `output` (atomically; "-" only with kCopy) holding /model from the first input and every
// /rollout_NNNNN group of every input, in index order. InputError (exit 3) for an input that is
// not a batch file, inputs of different models (model_checksum) and a rollout index held by two
// inputs; gaps in the indices only warn (a shard not joined yet, say).
JoinSummary join_trajectory_files(const std::string& output, const std::vector<std::string>& inputs,
                                  JoinMode mode);

}  // namespace joco::tools
