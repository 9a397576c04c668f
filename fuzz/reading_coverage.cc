// Built without the fuzzer's instrumentation (fuzz/CMakeLists.txt): an instrumented file that
// names the counters' section bounds has the compiler's own references to them renamed, and its
// module then registers no counters at all (libFuzzer saw no coverage).
#include "reading_coverage.h"

#include <sys/mman.h>

#include <cstddef>
#include <cstdint>
#include <cstring>

// libFuzzer's inline 8-bit counters, one a code edge: the section the linker bounds by these.
extern "C" uint8_t __start___sancov_cntrs[] __attribute__((weak, visibility("hidden")));
extern "C" uint8_t __stop___sancov_cntrs[] __attribute__((weak, visibility("hidden")));

namespace joco::fuzz {
namespace {

uint8_t* g_shared = nullptr;

size_t count() { return static_cast<size_t>(__stop___sancov_cntrs - __start___sancov_cntrs); }

}  // namespace

bool share_coverage() {
  if (g_shared) return true;
  if (!__start___sancov_cntrs || count() == 0) return false;
  void* p = mmap(nullptr, count(), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) return false;
  g_shared = static_cast<uint8_t*>(p);
  return true;
}

void pass_coverage_back() {
  if (!g_shared) return;
  for (size_t i = 0, n = count(); i < n; ++i)
    if (__start___sancov_cntrs[i] > g_shared[i]) g_shared[i] = __start___sancov_cntrs[i];
}

void take_coverage_back() {
  if (!g_shared) return;
  for (size_t i = 0, n = count(); i < n; ++i)
    if (g_shared[i] > __start___sancov_cntrs[i]) __start___sancov_cntrs[i] = g_shared[i];
  std::memset(g_shared, 0, count());
}

}  // namespace joco::fuzz
