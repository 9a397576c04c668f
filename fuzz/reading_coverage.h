// The coverage of a fuzz target's child processes, passed back to libFuzzer. joco's HDF5 reading
// code runs in a reading process (tools/common/h5_guard.h), a fork of the target: what it covers
// is counted in that process's copy of libFuzzer's counters, which libFuzzer never sees. A shared
// mapping as large as the counters carries it back: each reading process raises the mapping's
// counters to its own before each reply, and after each input the target raises its counters to
// the mapping's and clears it (counters only grow within an execution, and a reading process
// starts with a copy of the target's).
#pragma once

namespace joco::fuzz {

// Makes the mapping (once, before any reading process); false when the executable has no inline
// 8-bit counters or the mapping cannot be made.
bool share_coverage();
// In a reading process: raises the mapping's counters to this process's.
void pass_coverage_back();
// After an input: raises this process's counters to the mapping's, and clears the mapping.
void take_coverage_back();

}  // namespace joco::fuzz
