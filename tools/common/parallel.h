// Work spread over threads the way every tool spreads it: the first failure stops the others and
// is rethrown once all have stopped.
#pragma once

#include <cstddef>
#include <functional>

namespace joco::tools {

// Runs fn(0), ..., fn(threads - 1) at the same time, one thread each (fn(0) on the calling thread
// when threads is 1), waits for all, then rethrows the first exception any of them threw.
void run_threads(int threads, const std::function<void(int thread)>& fn);

// Calls body(thread, i) once for every i in [0, count) on min(threads, count) threads, each
// taking the next index when it has finished one; `thread` (0, 1, ...) tells a thread's own scratch
// apart (a Data each). After a failure no thread starts another index; the first exception is
// rethrown.
void parallel_for(size_t count, int threads, const std::function<void(int thread, size_t i)>& body);

}  // namespace joco::tools
