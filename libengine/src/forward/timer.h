// Stage timers: add the wall time of a scope to d.timer[which] (MuJoCo's names: step, forward,
// position, ..., pos_project). Cheap enough to leave on: one steady_clock read at each end, none
// when d.timers_enabled is false.
#pragma once

#include <chrono>

#include "joco/data.h"

namespace joco {

class StageTimer {
 public:
  StageTimer(Data& d, Timer which) : d_(d.timers_enabled ? &d : nullptr), which_(which) {
    if (d_) start_ = std::chrono::steady_clock::now();
  }
  ~StageTimer() {
    if (!d_) return;
    const std::chrono::duration<double> elapsed = std::chrono::steady_clock::now() - start_;
    TimerStat& t = d_->timer[which_];
    t.duration += elapsed.count();
    ++t.number;
  }
  StageTimer(const StageTimer&) = delete;
  StageTimer& operator=(const StageTimer&) = delete;

 private:
  Data* d_;
  Timer which_;
  std::chrono::steady_clock::time_point start_;
};

}  // namespace joco
