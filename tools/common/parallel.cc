#include "common/parallel.h"

#include <algorithm>
#include <atomic>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace joco::tools {

void run_threads(int threads, const std::function<void(int thread)>& fn) {
  if (threads <= 1) {
    fn(0);
    return;
  }
  std::exception_ptr failure;
  std::mutex mutex;
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t) {
    pool.emplace_back([&, t]() {
      try {
        fn(t);
      } catch (...) {
        std::lock_guard<std::mutex> lock(mutex);
        if (!failure) failure = std::current_exception();
      }
    });
  }
  for (std::thread& th : pool) th.join();
  if (failure) std::rethrow_exception(failure);
}

void parallel_for(size_t count, int threads,
                  const std::function<void(int thread, size_t i)>& body) {
  std::atomic<size_t> next{0};
  const int n =
      static_cast<int>(std::min<size_t>(std::max(1, threads), std::max<size_t>(count, 1)));
  run_threads(n, [&](int t) {
    try {
      for (size_t i = next++; i < count; i = next++) body(t, i);
    } catch (...) {
      next = count;  // the others stop at their next index
      throw;
    }
  });
}

}  // namespace joco::tools
