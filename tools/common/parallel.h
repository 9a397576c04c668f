// Work spread over threads the way every tool spreads it: the first failure stops the others and
// is rethrown once all have stopped. A thread that cannot be started (a thread or address-space
// limit: ulimit -u, ulimit -v, a container's pids limit) is not a crash: parallel_for carries on
// with the threads it has, run_threads fails with RuntimeError (exit code 4) before any work.
#pragma once

#include <cstddef>
#include <functional>

namespace joco::tools {

// Runs fn(0), ..., fn(threads - 1) at the same time, one thread each (fn(0) on the calling thread
// when threads is 1), waits for all, then rethrows the first exception any of them threw. When a
// thread cannot be started, none of fn runs and RuntimeError says which thread and why.
void run_threads(int threads, const std::function<void(int thread)>& fn);

// Calls body(thread, i) once for every i in [0, count) on min(threads, count) threads, each
// taking the next index when it has finished one; `thread` (0, 1, ...) tells a thread's own scratch
// apart (a Data each). After a failure no thread starts another index; the first exception is
// rethrown. Thread 0 is the calling thread; when another cannot be started, the work goes on with
// those that did (a warning says how many), so it always completes.
void parallel_for(size_t count, int threads, const std::function<void(int thread, size_t i)>& body);

// Testing: thread starts fail (as std::thread's constructor does, std::system_error) once `started`
// threads have been started by one call of run_threads or parallel_for; -1 turns it off.
void fail_thread_starts_for_testing(int started);

}  // namespace joco::tools
