// What a run asks for, checked before the work (issue 19: sizes were trusted until memory or the
// disk ran out). A run whose output cannot fit in the free space of the file system it is written
// to, or whose states cannot fit in memory, is refused at once with a usage error (exit code 2)
// naming the flag to lower.
#pragma once

#include <cstdint>
#include <string>

namespace joco::tools {

// Refuses (UsageError) a run whose output, `rows` rows of `row_bytes` bytes, cannot fit on the
// file system of `output` (its directory; the temporary directory for "-", where the file is made
// before it is copied out): at least rows * row_bytes bytes uncompressed, 1/1032 of it with
// --compress (deflate's greatest ratio). `flags` names what to lower ("--steps or --batch").
// Skipped where the free space cannot be read, and for an output that is a FIFO or a device.
void check_output_space(const std::string& output, long double rows, long double row_bytes,
                        const std::string& flags);

// Refuses (UsageError) a run that must hold `bytes` in memory at once when that exceeds the
// machine's physical memory or the process's address-space limit (ulimit -v).
void check_memory_need(long double bytes, const std::string& what, const std::string& flags);

}  // namespace joco::tools
