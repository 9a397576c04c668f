// Reading untrusted HDF5 files without letting the HDF5 library take the tool down with it. The C
// library is not robust against damaged or hostile files: a changed byte in a header can make it
// read out of bounds (SIGSEGV), corrupt its heap (SIGABRT) or loop for ever. So the tool never
// calls the library on an input file itself: a ReaderProcess (a fork) opens the file, first reads
// all of it (every link, object, attribute and dataset value the readers could ask for, so that a
// damaged file fails before the run), then answers the tool's requests with plain values. A
// reading process that dies by a signal, stops making progress or grows without bound is an
// InputError (exit 3) naming the file. schemas/trajectory.md ("Damaged and hostile files") gives
// the reasons for this design and its measured cost.
#pragma once

#include <hdf5.h>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <vector>

namespace joco::tools {

// Values passed between the tool and its reading process, appended and taken in order.
class Wire {
 public:
  void put(uint64_t v);
  void put(double v);
  void put(const std::string& s);
  void put(const std::vector<std::string>& v);
  void put(const std::vector<size_t>& v);
  void put_doubles(std::span<const double> v);

  uint64_t u64();
  double f64();
  bool flag() { return u64() != 0; }
  std::string string();
  std::vector<std::string> strings();
  std::vector<size_t> sizes();
  std::vector<double> doubles();

  std::string bytes;

 private:
  void take(void* out, size_t n);
  size_t at_ = 0;
};

// What a request's handler sends before its reply: steps (which tell the tool the process is not
// hung) and values for the caller's buffer (so that a large read is never held whole in the
// reading process).
class ReplyStream {
 public:
  virtual ~ReplyStream() = default;
  virtual void step() = 0;
  virtual void values(std::span<const double> v) = 0;
};

// Serves one request: reads what `request` asks and appends the answer to `reply`. Exceptions
// reach the caller with their kind (InputError, RuntimeError, UsageError, std::bad_alloc, ...).
using ReaderHandler = std::function<void(Wire& request, Wire& reply, ReplyStream& stream)>;

// Where values streamed by a request go: a buffer of known size, or a vector that grows.
struct ValueSink {
  std::span<double> fixed;
  std::vector<double>* grow = nullptr;
  size_t filled = 0;
};

class ReaderProcess {
 public:
  // Starts the process that reads the file `name` (for messages): `open` runs there with a step
  // function for progress, and returns the handler of the requests. `open`'s exceptions are
  // thrown here.
  using Open = std::function<ReaderHandler(const std::function<void()>& step)>;
  static std::shared_ptr<ReaderProcess> start(const std::string& name, const Open& open);
  ~ReaderProcess();
  ReaderProcess(const ReaderProcess&) = delete;
  ReaderProcess& operator=(const ReaderProcess&) = delete;

  // Sends a request and returns the reply; values the handler streams go to `sink`. Throws what
  // the handler threw, or InputError "NAME: damaged HDF5 file: ..." when the process died (then
  // every later call throws the same). One call at a time (calls from several threads wait).
  Wire call(const Wire& request, ValueSink* sink = nullptr);

  // Runs the handlers in this process instead of a fork (the fuzz target's JOCO_FUZZ_IN_PROCESS:
  // one input's reading under the sanitizers, with its stack); the tools never do.
  static void set_in_process(bool in_process);
  // How many reading processes have failed (died, hung, grew) in this process's life.
  static uint64_t failures();
  // How much a reading process's address space may grow (kGuardMemoryBytes unless set).
  static void set_memory_limit(uint64_t bytes);
  // How long a reading process may go without a step, using CPU, before it is taken to hang
  // (kGuardIdleSeconds and kGuardIdleCpuSeconds unless set).
  static void set_idle_limit(double seconds, double cpu_seconds);
  // Runs in the reading process before each reply it sends (the fuzz target passes that process's
  // coverage counters back to libFuzzer's this way); the tools set none.
  static void set_before_reply(void (*hook)());

  struct Impl;

 private:
  explicit ReaderProcess(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

// The whole reading of the file, as the reading process does it first: the groups on the way to
// `scope` ("/group") and everything under it and under /model, or the whole file when `scope` is
// empty. Never throws; returns how many objects it read.
size_t read_whole_hdf5(hid_t file, const std::string& scope, const std::function<void()>& step);

// When the reading process is taken to hang while the tool waits for it: no step (an object, an
// attribute, a block of rows) for kGuardIdleSeconds during which it used kGuardIdleCpuSeconds of
// CPU (busy, not starved on a loaded machine), or none for kGuardStallSeconds whatever it did.
inline constexpr int kGuardIdleSeconds = 5;
inline constexpr double kGuardIdleCpuSeconds = 0.5;
inline constexpr int kGuardStallSeconds = 60;

// How much the reading process's address space may grow beyond what it inherits (it reads
// blocks of 1 MB; the library's chunk cache is 1 MB a dataset).
inline constexpr uint64_t kGuardMemoryBytes = uint64_t{1} << 30;

// Rows read at a time: about 1 MB of doubles, at least one row.
inline size_t rows_per_block(size_t row_size) {
  return row_size == 0 ? SIZE_MAX : std::max<size_t>(1, (size_t{1} << 17) / row_size);
}

}  // namespace joco::tools
