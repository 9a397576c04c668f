// Stage timers: add the wall time of a scope to d.timer[which] (MuJoCo's names: step, forward,
// position, ..., pos_project). Cheap enough to leave on: a measured run reads the processor's
// time-stamp counter at each stage boundary (20-70 ns on a virtual machine; steady_clock where the
// counter is not invariant), and only one run in d.timer_period is measured (the others count,
// at the measured mean: see DataInfo::timers_enabled); nothing when d.timers_enabled is false.
// joco-profile --timer-overhead measures what they cost.
#pragma once

#include <chrono>
#include <cstdint>

#include "joco/data.h"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <x86intrin.h>
#define JOCO_TIMER_TSC 1
#else
#define JOCO_TIMER_TSC 0
#endif

namespace joco {

namespace timer_detail {

struct Clock {
  bool tsc = false;  // ticks are time-stamp counter cycles, else steady_clock ticks
  double seconds_per_tick = 0;
};

// The clock of the timers, chosen and calibrated once per process (about 2 ms, at first use).
const Clock& clock();

inline int64_t ticks(const Clock& c) {
#if JOCO_TIMER_TSC
  if (c.tsc) return static_cast<int64_t>(__rdtsc());
#else
  static_cast<void>(c);
#endif
  return std::chrono::steady_clock::now().time_since_epoch().count();
}

// A timed scope of `which` opens: is it measured? The outermost open scope decides, for itself
// and everything nested in it, by how many runs of its timer came before (one in timer_period).
inline bool open(Data& d, Timer which) {
  if (d.timer_depth++ == 0) {
    d.timer_measuring = d.timer_period <= 1 || d.timer[which].number % d.timer_period == 0;
  }
  return d.timer_measuring;
}

inline void close(Data& d) { --d.timer_depth; }

// A run of `which` measured at `seconds`.
inline void add(Data& d, Timer which, double seconds) {
  TimerStat& t = d.timer[which];
  t.duration += seconds;
  ++t.number;
  t.measured_duration += seconds;
  ++t.measured;
  t.measured_mean = t.measured_duration / t.measured;
}

// A run of `which` not measured: counted, and estimated at the mean of the measured runs.
inline void skip(Data& d, Timer which) {
  TimerStat& t = d.timer[which];
  t.duration += t.measured_mean;
  ++t.number;
}

}  // namespace timer_detail

// Stages timed back to back share their clock reads: a TimerMark holds the tick at which the last
// stage of a run ended (or the run began), and the next stage starts there instead of reading the
// clock again. Whoever runs untimed work between two stages resets the mark. (A read of the
// time-stamp counter costs 30-50 ns on the virtual machines we measure on: on arm26, 18 reads a
// step were a sixth of its time.)
struct TimerMark {
  int64_t tick = 0;
  bool valid = false;
  void reset() { valid = false; }
};

// A scope timed into d.timer[which]. With a mark, it is a stage of a run: it starts at the mark
// when that is valid, and leaves its end there.
class StageTimer {
 public:
  StageTimer(Data& d, Timer which, TimerMark* mark = nullptr)
      : d_(d.timers_enabled ? &d : nullptr), which_(which), mark_(mark) {
    if (!d_) return;
    measure_ = timer_detail::open(d, which);
    if (measure_) {
      start_ = mark_ && mark_->valid ? mark_->tick : timer_detail::ticks(timer_detail::clock());
    }
  }
  ~StageTimer() {
    if (!d_) return;
    if (measure_) {
      const timer_detail::Clock& c = timer_detail::clock();
      const int64_t end = timer_detail::ticks(c);
      timer_detail::add(*d_, which_, static_cast<double>(end - start_) * c.seconds_per_tick);
      if (mark_) *mark_ = TimerMark{end, true};
    } else {
      timer_detail::skip(*d_, which_);
    }
    timer_detail::close(*d_);
  }
  StageTimer(const StageTimer&) = delete;
  StageTimer& operator=(const StageTimer&) = delete;

 private:
  Data* d_;
  Timer which_;
  TimerMark* mark_;
  bool measure_ = false;
  int64_t start_ = 0;
};

// A scope timed into d.timer[which] that holds a run of stages: `mark` starts at its beginning,
// and it ends where the last stage did when nothing ran after it (the mark is still valid).
class StageRun {
 public:
  StageRun(Data& d, Timer which) : d_(d.timers_enabled ? &d : nullptr), which_(which) {
    if (!d_) return;
    measure_ = timer_detail::open(d, which);
    if (measure_) mark = TimerMark{timer_detail::ticks(timer_detail::clock()), true};
    start_ = mark.tick;
  }
  ~StageRun() {
    if (!d_) return;
    if (measure_) {
      const timer_detail::Clock& c = timer_detail::clock();
      const int64_t end = mark.valid ? mark.tick : timer_detail::ticks(c);
      timer_detail::add(*d_, which_, static_cast<double>(end - start_) * c.seconds_per_tick);
    } else {
      timer_detail::skip(*d_, which_);
    }
    timer_detail::close(*d_);
  }
  StageRun(const StageRun&) = delete;
  StageRun& operator=(const StageRun&) = delete;

  TimerMark mark;  // never valid in a run not measured

 private:
  Data* d_;
  Timer which_;
  bool measure_ = false;
  int64_t start_ = 0;
};

// Consecutive sub-stages of one stage, timed with one clock read at each boundary: lap(which)
// charges the time since the previous boundary to `which`; when the scope ends, the span from its
// start to the last lap goes to `total` (so the laps tile it; end the stage with a lap). With a
// mark, the stage starts there and leaves its last lap there.
class StageLaps {
 public:
  StageLaps(Data& d, Timer total, TimerMark* mark = nullptr)
      : d_(d.timers_enabled ? &d : nullptr), total_(total), mark_(mark) {
    if (!d_) return;
    measure_ = timer_detail::open(d, total);
    if (!measure_) return;
    start_ = last_ =
        mark_ && mark_->valid ? mark_->tick : timer_detail::ticks(timer_detail::clock());
  }
  void lap(Timer which) {
    if (!d_) return;
    if (!measure_) {
      timer_detail::skip(*d_, which);
      return;
    }
    const timer_detail::Clock& c = timer_detail::clock();
    const int64_t now = timer_detail::ticks(c);
    timer_detail::add(*d_, which, static_cast<double>(now - last_) * c.seconds_per_tick);
    last_ = now;
  }
  ~StageLaps() {
    if (!d_) return;
    if (measure_) {
      timer_detail::add(
          *d_, total_,
          static_cast<double>(last_ - start_) * timer_detail::clock().seconds_per_tick);
      if (mark_) *mark_ = TimerMark{last_, true};
    } else {
      timer_detail::skip(*d_, total_);
    }
    timer_detail::close(*d_);
  }
  StageLaps(const StageLaps&) = delete;
  StageLaps& operator=(const StageLaps&) = delete;

 private:
  Data* d_;
  Timer total_;
  TimerMark* mark_;
  bool measure_ = false;
  int64_t start_ = 0, last_ = 0;
};

}  // namespace joco
