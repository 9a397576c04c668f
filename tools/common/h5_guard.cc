#include "common/h5_guard.h"

#include <fcntl.h>
#include <hdf5_hl.h>
#include <poll.h>
#include <signal.h>
#include <spdlog/sinks/base_sink.h>
#include <spdlog/spdlog.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <memory>
#include <mutex>
#include <new>
#include <set>
#include <stdexcept>
#include <utility>
#include <vector>

#include "common/h5.h"
#include "common/tool.h"
#include "joco/error.h"

namespace joco::tools {

namespace {

// Reads everything the readers could ask the library for, through the same calls (h5.h's helpers
// and the lookups the readers make by name), catching every error: only a crash or a hang matters
// here, errors are the tool's to report.
class Walker {
 public:
  Walker(hid_t file, const std::string& scope, const std::function<void()>& step)
      : file_(file), scope_(scope == "/" ? std::string() : scope), step_(step) {
    hsize_t size = 0;
    if (H5Fget_filesize(file, &size) >= 0) file_size_ = size;
    H5Eclear2(H5E_DEFAULT);
  }

  size_t run() {
    attributes(file_, "/");
    group(file_, "", 0);
    return objects_;
  }

 private:
  // A damaged file may claim more links or attributes than it could hold: each takes some bytes.
  size_t most_entries() const { return static_cast<size_t>(file_size_ / 4 + 16); }

  bool in_scope(const std::string& path) const {
    auto under = [](const std::string& p, const std::string& top) {
      return p == top || p.compare(0, top.size() + 1, top + "/") == 0;
    };
    return scope_.empty() || under(path, "/model") || under(path, scope_) || under(scope_, path);
  }

  struct Names {
    std::vector<std::string> names;
    size_t limit = 0;
  };
  static herr_t collect_link(hid_t, const char* name, const H5L_info_t*, void* data) {
    auto* n = static_cast<Names*>(data);
    n->names.emplace_back(name);
    return n->names.size() >= n->limit ? 1 : 0;
  }
  static herr_t collect_attribute(hid_t, const char* name, const H5A_info_t*, void* data) {
    auto* n = static_cast<Names*>(data);
    n->names.emplace_back(name);
    return n->names.size() >= n->limit ? 1 : 0;
  }

  void attributes(hid_t obj, const std::string& where) {
    Names n{{}, most_entries()};
    H5Aiterate2(obj, H5_INDEX_NAME, H5_ITER_INC, nullptr, collect_attribute, &n);
    H5Eclear2(H5E_DEFAULT);
    for (const std::string& name : n.names) {
      step_();
      try {
        (void)loose_attribute(obj, name, where);
        std::optional<H5Handle> a;
        if (H5Aexists(obj, name.c_str()) > 0) {
          a.emplace(make_in(H5Aopen(obj, name.c_str(), H5P_DEFAULT), H5Aclose, where));
        }
        if (!a) continue;
        H5Handle space = make_in(H5Aget_space(a->get()), H5Sclose, where);
        const size_t count = element_count(space.get());
        const H5T_class_t cls = attribute_class(a->get());
        if (cls == H5T_STRING) {
          (void)read_strings(a->get(), true, count, where);
        } else if ((cls == H5T_FLOAT || cls == H5T_INTEGER) && count <= file_size_) {
          std::vector<double> values(count);
          if (count > 0) H5Aread(a->get(), H5T_NATIVE_DOUBLE, values.data());
        }
      } catch (const std::exception&) {
      }
      H5Eclear2(H5E_DEFAULT);
    }
  }

  void dataset(hid_t parent, const std::string& name, const std::string& where) {
    try {
      H5Handle ds = make_in(H5Dopen2(parent, name.c_str(), H5P_DEFAULT), H5Dclose, where);
      H5Handle type = make_in(H5Dget_type(ds.get()), H5Tclose, where);
      if (H5Tget_class(type.get()) == H5T_STRING) {
        H5Handle space = make_in(H5Dget_space(ds.get()), H5Sclose, where);
        (void)read_strings(ds.get(), false, element_count(space.get()), where);
        return;
      }
      // The numeric reads of the readers: open_numeric (which checks the claimed size against the
      // file), then rows in blocks.
      const InputDataset d = open_numeric(parent, name, where);
      if (d.dims.empty()) {
        double value = 0;
        H5Dread(d.dataset.get(), H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, &value);
        return;
      }
      size_t row = 1;
      for (size_t i = 1; i < d.dims.size(); ++i) row *= d.dims[i];
      if (row == 0) return;
      const size_t block = std::max<size_t>(1, (size_t{1} << 17) / row);
      // Not zeroed first (the reads fill it): zeroing cost as much as reading.
      const std::unique_ptr<double[]> buffer(new double[std::min<size_t>(block, d.dims[0]) * row]);
      for (size_t first = 0; first < d.dims[0]; first += block) {
        step_();
        read_doubles(d.dataset.get(), d.dims, first, std::min<size_t>(block, d.dims[0] - first),
                     buffer.get(), where);
      }
    } catch (const std::exception&) {
    }
    H5Eclear2(H5E_DEFAULT);
  }

  void group(hid_t g, const std::string& path, int depth) {
    // The links as the readers list them: iterated in both orders, and by index.
    Names n{{}, most_entries()};
    H5Literate(g, H5_INDEX_NAME, H5_ITER_NATIVE, nullptr, collect_link, &n);
    H5Eclear2(H5E_DEFAULT);
    Names by_order{{}, most_entries()};
    H5Literate(g, H5_INDEX_NAME, H5_ITER_INC, nullptr, collect_link, &by_order);
    H5Eclear2(H5E_DEFAULT);
    H5G_info_t info;
    if (H5Gget_info(g, &info) >= 0) {
      for (hsize_t i = 0; i < std::min<hsize_t>(info.nlinks, most_entries()); ++i) {
        step_();
        const ssize_t size =
            H5Lget_name_by_idx(g, ".", H5_INDEX_NAME, H5_ITER_INC, i, nullptr, 0, H5P_DEFAULT);
        if (size < 0 || static_cast<uint64_t>(size) > file_size_) break;
        std::string name(static_cast<size_t>(size), '\0');
        H5Lget_name_by_idx(g, ".", H5_INDEX_NAME, H5_ITER_INC, i, name.data(),
                           static_cast<size_t>(size) + 1, H5P_DEFAULT);
        by_order.names.push_back(std::move(name));  // readers that list by index open these
      }
    }
    H5Eclear2(H5E_DEFAULT);
    std::set<std::string> listed(n.names.begin(), n.names.end());
    for (std::string& name : by_order.names) {
      if (listed.insert(name).second) n.names.push_back(std::move(name));
    }
    for (const std::string& name : n.names) link(g, path, name, depth);
  }

  void link(hid_t g, const std::string& path, const std::string& name, int depth) {
    step_();
    const std::string child = path + "/" + name;
    const std::string where = "<guard>:" + child;
    H5Lexists(g, name.c_str(), H5P_DEFAULT);
    H5L_info_t info;
    if (H5Lget_info(g, name.c_str(), &info, H5P_DEFAULT) >= 0 && info.type == H5L_TYPE_EXTERNAL &&
        info.u.val_size <= file_size_) {
      std::vector<char> value(info.u.val_size);
      const char *target = nullptr, *object = nullptr;
      unsigned flags = 0;
      if (H5Lget_val(g, name.c_str(), value.data(), value.size(), H5P_DEFAULT) >= 0) {
        H5Lunpack_elink_val(value.data(), value.size(), &flags, &target, &object);
      }
    }
    H5Eclear2(H5E_DEFAULT);
    const H5I_type_t type = object_type(g, name);  // a listed name
    const bool is_group = type == H5I_GROUP;
    const bool is_dataset = type == H5I_DATASET;
    if ((!is_group && !is_dataset) || !in_scope(child)) return;
    const hid_t obj = H5Oopen(g, name.c_str(), H5P_DEFAULT);
    if (obj < 0) {
      H5Eclear2(H5E_DEFAULT);
      return;
    }
    H5Handle o(obj, H5Oclose);
    H5O_info_t oi;
    if (H5Oget_info2(obj, &oi, H5O_INFO_BASIC) < 0) {
      H5Eclear2(H5E_DEFAULT);
      return;
    }
    // Hard links may form cycles; an object is read once.
    if (!seen_.emplace(oi.fileno, oi.addr).second) return;
    ++objects_;
    attributes(obj, where);
    if (is_dataset) {
      dataset(g, name, where);
    } else if (depth < 64) {
      group(obj, child, depth + 1);
    }
  }

  hid_t file_;
  std::string scope_;
  const std::function<void()>& step_;
  uint64_t file_size_ = 0;
  std::set<std::pair<unsigned long, haddr_t>> seen_;
  size_t objects_ = 0;
};

double now_seconds() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

// A process's address space in bytes (0 when unknown).
uint64_t address_space_bytes(const std::string& pid = "self") {
  std::ifstream statm("/proc/" + pid + "/statm");
  uint64_t pages = 0;
  if (!(statm >> pages)) return 0;
  return pages * static_cast<uint64_t>(sysconf(_SC_PAGESIZE));
}

// What the reading process sends, each as a tag, a length and that many bytes.
enum Tag : char {
  kTagStep = 'P',    // a step of the reading: the process is not hung
  kTagLog = 'L',     // a message the reading logged (level, text): the tool logs it
  kTagValues = 'V',  // values for the caller's ValueSink
  kTagReply = 'R',   // the reply: a status (below), then the handler's reply or a message
};

// How a request ended: its reply, or the kind of exception, rethrown by the tool as the same kind.
enum Status : uint64_t {
  kOk,
  kInputError,
  kRuntimeError,
  kUsageError,
  kBadAlloc,
  kInvalidArgument,
  kLengthError,
  kOtherError,
};

[[noreturn]] void rethrow_status(uint64_t status, const std::string& message) {
  switch (status) {
    case kInputError: throw InputError(message);
    case kRuntimeError: throw RuntimeError(message);
    case kUsageError: throw UsageError(message);
    case kBadAlloc: throw std::bad_alloc();
    case kInvalidArgument: throw std::invalid_argument(message);
    case kLengthError: throw std::length_error(message);
    default: throw std::runtime_error(message);
  }
}

// The status and message of the exception being handled.
std::pair<uint64_t, std::string> current_status() {
  try {
    throw;
  } catch (const InputError& e) {
    return {kInputError, e.what()};
  } catch (const RuntimeError& e) {
    return {kRuntimeError, e.what()};
  } catch (const UsageError& e) {
    return {kUsageError, e.what()};
  } catch (const std::bad_alloc&) {
    return {kBadAlloc, "out of memory"};
  } catch (const std::invalid_argument& e) {
    return {kInvalidArgument, e.what()};
  } catch (const std::length_error& e) {
    return {kLengthError, e.what()};
  } catch (const std::exception& e) {
    return {kOtherError, e.what()};
  } catch (...) {
    return {kOtherError, "unknown exception in the reading process"};
  }
}

std::atomic<bool> g_in_process{false};
std::atomic<uint64_t> g_failures{0};
std::atomic<uint64_t> g_memory_limit{kGuardMemoryBytes};
std::atomic<double> g_idle_seconds{kGuardIdleSeconds};
std::atomic<double> g_idle_cpu_seconds{kGuardIdleCpuSeconds};
std::atomic<void (*)()> g_before_reply{nullptr};

// The reading process's side of the socket. A write that fails means the tool is gone: the
// process ends.
class ChildChannel {
 public:
  explicit ChildChannel(int fd) : fd_(fd) {}

  void send(Tag tag, const void* data, size_t size) {
    char head[9];
    head[0] = tag;
    const uint64_t n = size;
    std::memcpy(head + 1, &n, sizeof(n));
    write_all(head, sizeof(head));
    write_all(data, size);
  }
  // At most every 0.1 s.
  void step() {
    const double now = now_seconds();
    if (now - last_step_ < 0.1) return;
    last_step_ = now;
    send(kTagStep, nullptr, 0);
  }
  // The next request; false when the tool has closed its side.
  bool receive(Wire& request) {
    uint64_t n = 0;
    if (!read_all(&n, sizeof(n))) return false;
    request = Wire();
    request.bytes.resize(n);
    return read_all(request.bytes.data(), n);
  }

 private:
  void write_all(const void* data, size_t size) {
    const char* p = static_cast<const char*>(data);
    while (size > 0) {
      const ssize_t w = ::send(fd_, p, size, MSG_NOSIGNAL);
      if (w < 0 && errno == EINTR) continue;
      if (w <= 0) _exit(2);
      p += w;
      size -= static_cast<size_t>(w);
    }
  }
  bool read_all(void* data, size_t size) {
    char* p = static_cast<char*>(data);
    while (size > 0) {
      const ssize_t r = ::read(fd_, p, size);
      if (r < 0 && errno == EINTR) continue;
      if (r <= 0) return false;
      p += r;
      size -= static_cast<size_t>(r);
    }
    return true;
  }
  int fd_;
  double last_step_ = 0;
};

// The reading process's log messages go to the tool, which logs them as its own.
class ForwardSink : public spdlog::sinks::base_sink<spdlog::details::null_mutex> {
 public:
  explicit ForwardSink(ChildChannel& channel) : channel_(channel) {}

 protected:
  void sink_it_(const spdlog::details::log_msg& msg) override {
    Wire w;
    w.put(static_cast<uint64_t>(msg.level));
    w.put(std::string(msg.payload.data(), msg.payload.size()));
    channel_.send(kTagLog, w.bytes.data(), w.bytes.size());
  }
  void flush_() override {}

 private:
  ChildChannel& channel_;
};

class ChildStream : public ReplyStream {
 public:
  explicit ChildStream(ChildChannel& channel) : channel_(channel) {}
  void step() override { channel_.step(); }
  void values(std::span<const double> v) override {
    channel_.send(kTagValues, v.data(), v.size_bytes());
    channel_.step();
  }

 private:
  ChildChannel& channel_;
};

void send_reply(ChildChannel& channel, uint64_t status, const std::string& body) {
  if (void (*hook)() = g_before_reply) hook();
  Wire w;
  w.put(status);
  w.bytes += body;
  channel.send(kTagReply, w.bytes.data(), w.bytes.size());
}

// The reading process: opens and reads the file, then serves requests until the tool closes its
// side. It never returns: _exit leaves the tool's files, buffers and atexit handlers alone.
[[noreturn]] void run_child(int fd, const ReaderProcess::Open& open, pid_t tool, bool tool_main) {
  // A tool that dies (SIGKILL, the OOM killer, a fuzzer's timeout) takes its reading process with
  // it: one looping in the library would otherwise run on, orphaned, for ever. The signal comes
  // when the thread that forked ends, so only a fork from the tool's main thread asks for it (the
  // tools open their inputs there).
  if (tool_main) {
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != tool) _exit(0);  // the tool died before the request took effect
  }
  const rlimit no_core{0, 0};
  setrlimit(RLIMIT_CORE, &no_core);  // a crash here is expected, and reported by the tool
  // The process dies by the signal of its crash, plainly, whatever handlers the tool had (a
  // sanitizer's or a fuzzer's would report the library's crash as the tool's own).
  for (int sig : {SIGINT, SIGTERM, SIGHUP, SIGPIPE, SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT})
    signal(sig, SIG_DFL);
  // Nothing of it reaches the tool's output directly (glibc's "corrupted" messages before an
  // abort, say): its log messages go through the channel, its outcome is reported by the tool.
  const int null = ::open("/dev/null", O_RDWR);
  if (null >= 0) {
    dup2(null, STDOUT_FILENO);
    dup2(null, STDERR_FILENO);
  }
  ChildChannel channel(fd);
  if (spdlog::logger* logger = spdlog::default_logger_raw()) {
    logger->sinks().clear();
    logger->sinks().push_back(std::make_shared<ForwardSink>(channel));
  }
  ReaderHandler handler;
  try {
    silence_hdf5();
    handler = open([&] { channel.step(); });
    send_reply(channel, kOk, "");
  } catch (...) {
    const auto [status, message] = current_status();
    send_reply(channel, status, message);
    _exit(0);
  }
  ChildStream stream(channel);
  Wire request;
  while (channel.receive(request)) {
    Wire reply;
    try {
      handler(request, reply, stream);
      send_reply(channel, kOk, reply.bytes);
    } catch (...) {
      const auto [status, message] = current_status();
      send_reply(channel, status, message);
    }
  }
  _exit(0);
}

void sink_values(ValueSink* sink, std::span<const double> v) {
  if (!sink) throw std::logic_error("reading process: values for a request without a sink");
  if (sink->grow) {
    sink->grow->insert(sink->grow->end(), v.begin(), v.end());
  } else {
    if (v.size() > sink->fixed.size() - sink->filled)
      throw std::logic_error("reading process: more values than the request's buffer holds");
    std::copy(v.begin(), v.end(), sink->fixed.begin() + static_cast<ptrdiff_t>(sink->filled));
  }
  sink->filled += v.size();
}

class LocalStream : public ReplyStream {
 public:
  explicit LocalStream(ValueSink* sink) : sink_(sink) {}
  void step() override {}
  void values(std::span<const double> v) override { sink_values(sink_, v); }

 private:
  ValueSink* sink_;
};

}  // namespace

// ---------------------------------------------------------------------------------------------
// Wire

void Wire::put(uint64_t v) { bytes.append(reinterpret_cast<const char*>(&v), sizeof(v)); }
void Wire::put(double v) { bytes.append(reinterpret_cast<const char*>(&v), sizeof(v)); }
void Wire::put(const std::string& s) {
  put(static_cast<uint64_t>(s.size()));
  bytes += s;
}
void Wire::put(const std::vector<std::string>& v) {
  put(static_cast<uint64_t>(v.size()));
  for (const std::string& s : v) put(s);
}
void Wire::put(const std::vector<size_t>& v) {
  put(static_cast<uint64_t>(v.size()));
  for (size_t x : v) put(static_cast<uint64_t>(x));
}
void Wire::put_doubles(std::span<const double> v) {
  put(static_cast<uint64_t>(v.size()));
  bytes.append(reinterpret_cast<const char*>(v.data()), v.size_bytes());
}

void Wire::take(void* out, size_t n) {
  if (n > bytes.size() - at_) throw std::logic_error("reading process: a message ends early");
  if (n == 0) return;  // `out` may be an empty vector's null data()
  std::memcpy(out, bytes.data() + at_, n);
  at_ += n;
}
uint64_t Wire::u64() {
  uint64_t v = 0;
  take(&v, sizeof(v));
  return v;
}
double Wire::f64() {
  double v = 0;
  take(&v, sizeof(v));
  return v;
}
std::string Wire::string() {
  const uint64_t n = u64();
  if (n > bytes.size() - at_) throw std::logic_error("reading process: a message ends early");
  std::string s(bytes, at_, n);
  at_ += n;
  return s;
}
std::vector<std::string> Wire::strings() {
  std::vector<std::string> v(u64());
  for (std::string& s : v) s = string();
  return v;
}
std::vector<size_t> Wire::sizes() {
  std::vector<size_t> v(u64());
  for (size_t& x : v) x = u64();
  return v;
}
std::vector<double> Wire::doubles() {
  const uint64_t n = u64();
  if (n > (bytes.size() - at_) / sizeof(double))
    throw std::logic_error("reading process: a message ends early");
  std::vector<double> v(n);
  take(v.data(), n * sizeof(double));
  return v;
}

// ---------------------------------------------------------------------------------------------
// ReaderProcess

struct ReaderProcess::Impl {
  std::string name;
  ReaderHandler local;  // in the fuzz target's own process
  pid_t pid = -1;
  int fd = -1;
  uint64_t start_vm = 0;
  std::optional<std::string> failure;  // set once the process has failed
  std::mutex mutex;

  ~Impl() { end(); }

  void end() {
    if (fd >= 0) close(fd);
    fd = -1;
    if (pid > 0) {
      kill(pid, SIGKILL);
      int status = 0;
      while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
      }
    }
    pid = -1;
  }

  [[noreturn]] void fail(const std::string& why) {
    failure = name + ": damaged HDF5 file: " + why + "; refused";
    ++g_failures;
    throw InputError(*failure);
  }

  // Reads `size` bytes, watching the process: a hang, growth beyond the memory limit or its
  // end is a failure (fail()).
  void receive(void* data, size_t size) {
    clockid_t child_clock;
    const bool has_clock = clock_getcpuclockid(pid, &child_clock) == 0;
    auto child_cpu = [&] {
      timespec ts{};
      if (!has_clock || clock_gettime(child_clock, &ts) != 0) return 0.0;
      return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
    };
    double progress_wall = now_seconds(), progress_cpu = child_cpu();
    char* p = static_cast<char*>(data);
    while (size > 0) {
      // A damaged file can make the library allocate without end (one changed byte: 7.6 GB in
      // 24 s). (A limit set in the process, RLIMIT_AS, would make the allocation fail there and
      // the reading go on.)
      const uint64_t vm = address_space_bytes(std::to_string(pid));
      const uint64_t limit = g_memory_limit;
      if (start_vm > 0 && vm > start_vm + limit) {
        end();
        fail("the HDF5 library asked for more than " + std::to_string(limit >> 20) +
             " MB reading it");
      }
      const double idle = g_idle_seconds, idle_cpu = g_idle_cpu_seconds;
      pollfd pfd{fd, POLLIN, 0};
      const int r = poll(&pfd, 1, std::clamp(static_cast<int>(idle * 1000 / 4), 10, 250));
      if (r < 0 && errno == EINTR) continue;
      if (r == 0) {
        const double waited = now_seconds() - progress_wall;
        if ((waited >= idle && child_cpu() - progress_cpu >= idle_cpu) ||
            waited >= kGuardStallSeconds) {
          end();
          fail(fmt::format("the HDF5 library made no progress reading it for {:g} s", idle));
        }
        continue;
      }
      const ssize_t n = ::read(fd, p, size);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) died();
      p += n;
      size -= static_cast<size_t>(n);
      progress_wall = now_seconds();
      progress_cpu = child_cpu();
    }
  }

  [[noreturn]] void died() {
    close(fd);
    fd = -1;
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    pid = -1;
    if (WIFSIGNALED(status)) {
      fail(std::string("the HDF5 library crashed reading it (") + strsignal(WTERMSIG(status)) +
           ")");
    }
    fail("reading it failed in the reading process");
  }

  // Frames until the reply; returns its body, or rethrows the request's exception.
  Wire reply(ValueSink* sink) {
    for (;;) {
      char head[9];
      receive(head, sizeof(head));
      uint64_t size = 0;
      std::memcpy(&size, head + 1, sizeof(size));
      if (head[0] == kTagStep && size == 0) continue;
      if (size > (uint64_t{1} << 40)) died();
      Wire body;
      body.bytes.resize(size);
      receive(body.bytes.data(), size);
      switch (head[0]) {
        case kTagLog: {
          const auto level = static_cast<spdlog::level::level_enum>(body.u64());
          spdlog::log(level, "{}", body.string());
          break;
        }
        case kTagValues: {
          std::span<const double> v(reinterpret_cast<const double*>(body.bytes.data()),
                                    body.bytes.size() / sizeof(double));
          sink_values(sink, v);
          break;
        }
        case kTagReply: {
          const uint64_t status = body.u64();
          if (status != kOk) rethrow_status(status, body.bytes.substr(sizeof(uint64_t)));
          Wire out;
          out.bytes = body.bytes.substr(sizeof(uint64_t));
          return out;
        }
        default: died();
      }
    }
  }
};

ReaderProcess::ReaderProcess(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
ReaderProcess::~ReaderProcess() = default;

void ReaderProcess::set_in_process(bool in_process) { g_in_process = in_process; }
uint64_t ReaderProcess::failures() { return g_failures; }
void ReaderProcess::set_memory_limit(uint64_t bytes) { g_memory_limit = bytes; }
void ReaderProcess::set_before_reply(void (*hook)()) { g_before_reply = hook; }
void ReaderProcess::set_idle_limit(double seconds, double cpu_seconds) {
  g_idle_seconds = seconds;
  g_idle_cpu_seconds = cpu_seconds;
}

std::shared_ptr<ReaderProcess> ReaderProcess::start(const std::string& name, const Open& open) {
  auto impl = std::make_unique<Impl>();
  impl->name = name;
  if (g_in_process) {
    silence_hdf5();
    impl->local = open([] {});
    return std::shared_ptr<ReaderProcess>(new ReaderProcess(std::move(impl)));
  }
  int fds[2];
  if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds) != 0) {
    throw RuntimeError(name +
                       ": cannot read the HDF5 file in a child process: " + std::strerror(errno));
  }
  impl->start_vm = address_space_bytes();
  const pid_t tool = getpid();
  const bool tool_main = gettid() == tool;
  const pid_t pid = fork();
  if (pid < 0) {
    const int e = errno;
    close(fds[0]);
    close(fds[1]);
    throw RuntimeError(name +
                       ": cannot read the HDF5 file in a child process: " + std::strerror(e));
  }
  if (pid == 0) {
    close(fds[0]);
    run_child(fds[1], open, tool, tool_main);
  }
  close(fds[1]);
  impl->pid = pid;
  impl->fd = fds[0];
  (void)impl->reply(nullptr);  // the file is open and read, or its exception is thrown here
  return std::shared_ptr<ReaderProcess>(new ReaderProcess(std::move(impl)));
}

Wire ReaderProcess::call(const Wire& request, ValueSink* sink) {
  Impl& p = *impl_;
  const std::lock_guard<std::mutex> lock(p.mutex);
  if (p.local) {
    Wire in = request, out;
    LocalStream stream(sink);
    p.local(in, out, stream);
    return out;
  }
  if (p.failure) throw InputError(*p.failure);
  std::string frame(sizeof(uint64_t), '\0');
  const uint64_t n = request.bytes.size();
  std::memcpy(frame.data(), &n, sizeof(n));
  frame += request.bytes;
  const char* data = frame.data();
  size_t left = frame.size();
  while (left > 0) {
    const ssize_t w = ::send(p.fd, data, left, MSG_NOSIGNAL);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) p.died();
    data += w;
    left -= static_cast<size_t>(w);
  }
  return p.reply(sink);
}

size_t read_whole_hdf5(hid_t file, const std::string& scope, const std::function<void()>& step) {
  try {
    Walker walker(file, scope, step);
    return walker.run();
  } catch (...) {
    return 0;
  }
}

}  // namespace joco::tools
