// Which rollouts of a batch a process runs: `--shard K/N` (the K-th of N equal parts, for scheduler
// job arrays and GNU parallel) and the ranks of an MPI run both cut the global indices [0, B) into
// contiguous parts. A rollout is named by its global index everywhere (its group /rollout_NNNNN,
// its seed, its --init and --ctrl group), so the parts only choose which indices run where.
#pragma once

#include <cstdint>
#include <string>

namespace joco::tools {

// Part `index` (0-based) of `count` equal parts.
struct Shard {
  int index = 0;
  int count = 1;
};

// "K/N" with 0 <= K < N; UsageError naming `flag` otherwise.
Shard parse_shard(const std::string& text, const std::string& flag = "--shard");

// A contiguous range of global rollout indices [first, first + count).
struct RolloutRange {
  int first = 0;
  int count = 0;
  int end() const { return first + count; }
};

// Part k of n of `range`: the parts are contiguous, in order, cover the range exactly and differ in
// size by at most one (part k starts at first + floor(k * count / n)).
RolloutRange part_of(RolloutRange range, Shard part);

}  // namespace joco::tools
