#include "common/parallel.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <string>
#include <system_error>
#include <thread>
#include <vector>

#include "joco/error.h"

namespace joco::tools {

namespace {

std::atomic<int> g_fail_after{-1};

// Threads started for one call; joined by the destructor, so that no joinable std::thread is ever
// destroyed (std::terminate) whatever is thrown meanwhile.
class Pool {
 public:
  ~Pool() {
    for (std::thread& th : threads_) th.join();
  }
  // Starts fn on a new thread; false (with `why` set) when the system refuses one.
  bool start(std::function<void()> fn, std::string& why) {
    try {
      const int fail_after = g_fail_after.load();
      if (fail_after >= 0 && static_cast<int>(threads_.size()) >= fail_after) {
        throw std::system_error(EAGAIN, std::generic_category(), "injected");
      }
      threads_.reserve(threads_.size() + 1);
      threads_.emplace_back(std::move(fn));
      return true;
    } catch (const std::system_error& e) {
      why = e.code().message();
      return false;
    } catch (const std::bad_alloc&) {
      why = "out of memory";
      return false;
    }
  }
  int size() const { return static_cast<int>(threads_.size()); }

 private:
  std::vector<std::thread> threads_;
};

// The first exception of several threads.
class FirstFailure {
 public:
  void record() {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!failure_) failure_ = std::current_exception();
  }
  void rethrow() const {
    if (failure_) std::rethrow_exception(failure_);
  }

 private:
  std::mutex mutex_;
  std::exception_ptr failure_;
};

}  // namespace

void fail_thread_starts_for_testing(int started) { g_fail_after = started; }

void run_threads(int threads, const std::function<void(int thread)>& fn) {
  if (threads <= 1) {
    fn(0);
    return;
  }
  FirstFailure failure;
  // The threads wait until all have started, and run nothing if one could not be: fn(t) are meant
  // to run at the same time (joco-profile measures them side by side).
  std::mutex mutex;
  std::condition_variable ready;
  enum { kStarting, kGo, kCancelled } state = kStarting;
  std::string why;
  int refused = -1;
  {
    Pool pool;
    for (int t = 0; t < threads && refused < 0; ++t) {
      const bool started = pool.start(
          [&, t]() {
            {
              std::unique_lock<std::mutex> lock(mutex);
              ready.wait(lock, [&] { return state != kStarting; });
              if (state == kCancelled) return;
            }
            try {
              fn(t);
            } catch (...) {
              failure.record();
            }
          },
          why);
      if (!started) refused = t;
    }
    {
      std::lock_guard<std::mutex> lock(mutex);
      state = refused < 0 ? kGo : kCancelled;
    }
    ready.notify_all();
  }  // the pool's threads joined
  if (refused >= 0) {
    throw RuntimeError("cannot start thread " + std::to_string(refused + 1) + " of " +
                       std::to_string(threads) + " (" + why +
                       "): a thread or memory limit (ulimit -u, ulimit -v, a container's); "
                       "use fewer threads");
  }
  failure.rethrow();
}

void parallel_for(size_t count, int threads,
                  const std::function<void(int thread, size_t i)>& body) {
  std::atomic<size_t> next{0};
  const int n =
      static_cast<int>(std::min<size_t>(std::max(1, threads), std::max<size_t>(count, 1)));
  FirstFailure failure;
  const auto work = [&](int t) {
    try {
      for (size_t i = next++; i < count; i = next++) body(t, i);
    } catch (...) {
      next = count;  // the others stop at their next index
      failure.record();
    }
  };
  {
    Pool pool;
    std::string why;
    for (int t = 1; t < n; ++t) {
      if (!pool.start([&work, t] { work(t); }, why)) {
        spdlog::warn("cannot start thread {} of {} ({}): going on with {}", t + 1, n, why, t);
        break;
      }
    }
    // The calling thread is thread 0; the pool's threads are joined as the block ends.
    work(0);
  }
  failure.rethrow();
}

}  // namespace joco::tools
