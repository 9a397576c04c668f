#include "data/timer.h"

#include <thread>

#if JOCO_TIMER_TSC
#include <cpuid.h>
#endif

namespace joco::timer_detail {

namespace {

// Whether the time-stamp counter runs at a constant rate in every power state (CPUID
// 0x80000007, EDX bit 8), so that its ticks measure wall time.
bool invariant_tsc() {
#if JOCO_TIMER_TSC
  unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
  if (!__get_cpuid(0x80000000, &eax, &ebx, &ecx, &edx) || eax < 0x80000007) return false;
  if (!__get_cpuid(0x80000007, &eax, &ebx, &ecx, &edx)) return false;
  return (edx & (1u << 8)) != 0;
#else
  return false;
#endif
}

Clock calibrate() {
  Clock c;
  using steady = std::chrono::steady_clock;
  if (!invariant_tsc()) {
    c.seconds_per_tick = static_cast<double>(steady::period::num) / steady::period::den;
    return c;
  }
  c.tsc = true;
  // Counter cycles against steady_clock over about 2 ms: a rate good to about 1e-5.
  const steady::time_point t0 = steady::now();
  const int64_t k0 = ticks(c);
  steady::time_point t1;
  do {
    t1 = steady::now();
  } while (t1 - t0 < std::chrono::milliseconds(2));
  const int64_t k1 = ticks(c);
  c.seconds_per_tick =
      std::chrono::duration<double>(t1 - t0).count() / static_cast<double>(k1 - k0);
  return c;
}

}  // namespace

const Clock& clock() {
  static const Clock c = calibrate();
  return c;
}

}  // namespace joco::timer_detail
