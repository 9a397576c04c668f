// A progress bar on standard error for long work, shown only when standard error is a terminal (and
// the tool is not quiet): never in a pipe or a log file.
#pragma once

#include <chrono>
#include <cstdint>
#include <mutex>
#include <string>

namespace joco::tools {

class Progress {
 public:
  // `total` units of work; `label` precedes the bar. Disabled when stderr is not a terminal or
  // `enabled` is false.
  Progress(std::string label, int64_t total, bool enabled = true);
  ~Progress();
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;

  // Adds `units` of completed work (thread-safe); redraws at most ten times a second.
  void advance(int64_t units = 1);
  // Clears the bar.
  void finish();
  bool shown() const { return enabled_; }

 private:
  void draw();

  std::string label_;
  int64_t total_;
  int64_t done_ = 0;
  bool enabled_;
  bool finished_ = false;
  std::chrono::steady_clock::time_point start_, last_draw_;
  std::mutex mutex_;
};

}  // namespace joco::tools
