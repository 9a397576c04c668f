#include "common/output_file.h"

#include <dirent.h>
#include <fcntl.h>
#include <fmt/format.h>
#include <limits.h>
#include <spdlog/spdlog.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <filesystem>
#include <random>
#include <string_view>
#include <utility>

#include "common/tool.h"
#include "joco/error.h"

namespace joco::tools {

namespace fs = std::filesystem;

namespace {

// ---------------------------------------------------------------------------------------------
// The registry of temporary files the signal handler removes. Fixed slots of plain bytes and
// lock-free flags, because a handler may only read memory and call async-signal-safe functions
// (unlink): no allocation, no lock. A process has at most a few temporary files at once (an
// output, an MPI rank's part); one that does not fit is still removed by its owner, only not on a
// signal.

constexpr int kSlots = 32;

struct Slot {
  std::atomic<bool> taken{false};  // owned by a TemporaryFile
  std::atomic<bool> armed{false};  // `path` is complete: the handler may remove it
  char path[PATH_MAX];
};
static_assert(std::atomic<bool>::is_always_lock_free);

Slot g_slots[kSlots];

int register_path(const std::string& path) {
  if (path.size() >= PATH_MAX) return -1;
  for (int i = 0; i < kSlots; ++i) {
    bool expected = false;
    if (g_slots[i].taken.compare_exchange_strong(expected, true)) {
      std::memcpy(g_slots[i].path, path.c_str(), path.size() + 1);
      g_slots[i].armed.store(true);
      return i;
    }
  }
  return -1;
}

void unregister_path(int slot) {
  if (slot < 0) return;
  g_slots[slot].armed.store(false);
  g_slots[slot].taken.store(false);
}

extern "C" void remove_temporaries_and_die(int sig) {
  const int saved_errno = errno;
  for (Slot& s : g_slots) {
    if (s.armed.load()) ::unlink(s.path);
  }
  // Die by the same signal, as an uncaught one would (the shell's status is 128 + signal, and a
  // script running the tool stops on Ctrl-C): the signal is blocked while its handler runs, so the
  // one raised here is delivered with the default action when the handler returns.
  struct sigaction dfl = {};
  dfl.sa_handler = SIG_DFL;
  sigemptyset(&dfl.sa_mask);
  ::sigaction(sig, &dfl, nullptr);
  ::raise(sig);
  errno = saved_errno;
}

std::string temp_suffix() {
  std::random_device rd;
  return ".tmp." + std::to_string(::getpid()) + "." + std::to_string(rd() % 1000000);
}

// Creates a new empty file `prefix + temp_suffix()` in `dir` ("" for the current directory),
// registered before it exists so that no signal can leave it behind.
std::pair<std::string, int> create_temporary(const std::string& dir, const std::string& prefix,
                                             const std::string& what) {
  for (int attempt = 0;; ++attempt) {
    const std::string name = prefix + temp_suffix();
    const std::string path = dir.empty() ? name : (fs::path(dir) / name).string();
    const int slot = register_path(path);
    const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd >= 0) {
      ::close(fd);
      return {path, slot};
    }
    const int error = errno;
    unregister_path(slot);
    if (error != EEXIST || attempt == 100) {
      throw RuntimeError("cannot create " + what + ": " + std::strerror(error));
    }
  }
}

}  // namespace

// ---------------------------------------------------------------------------------------------

OutputTarget resolve_output(const std::string& path) {
  if (path == "-") return {OutputTarget::kStdout, path};
  if (path.empty()) throw RuntimeError("empty output path");
  struct stat st;
  if (::stat(path.c_str(), &st) == 0) {
    if (S_ISDIR(st.st_mode)) throw RuntimeError(path + ": is a directory; give a file name");
    // Through links too (/dev/stdout is a link to /proc/self/fd/1, itself a link to a pipe).
    if (!S_ISREG(st.st_mode)) return {OutputTarget::kStream, path};
  }
  // A regular file or a new name: links followed to their end (a dangling link names the file to
  // make), so the temporary file is made beside the target and renamed over it, not over the link.
  fs::path target(path);
  for (int depth = 0;; ++depth) {
    struct stat lst;
    if (::lstat(target.c_str(), &lst) != 0 || !S_ISLNK(lst.st_mode)) break;
    if (depth == 40) throw RuntimeError(path + ": " + std::strerror(ELOOP));
    std::error_code ec;
    const fs::path next = fs::read_symlink(target, ec);
    if (ec) throw RuntimeError(path + ": cannot read the link: " + ec.message());
    target = next.is_absolute() ? next : target.parent_path() / next;
  }
  const fs::path dir = target.parent_path();
  if (!dir.empty()) {
    struct stat dst;
    if (::stat(dir.c_str(), &dst) != 0) {
      throw RuntimeError("cannot create " + path + ": " + std::strerror(errno));
    }
    if (!S_ISDIR(dst.st_mode))
      throw RuntimeError("cannot create " + path + ": " + dir.string() + " is not a directory");
  }
  return {OutputTarget::kFile, target.string()};
}

void check_output(const std::string& path) {
  // The failures of writing, found before the work: usage errors.
  try {
    const OutputTarget t = resolve_output(path);
    if (t.kind == OutputTarget::kStream && ::access(path.c_str(), W_OK) != 0) {
      throw RuntimeError("cannot write " + path + ": " + std::strerror(errno));
    }
    // For a file, making one there is the only sure test (permissions, a read-only file system).
    if (t.kind == OutputTarget::kFile) TemporaryFile probe = TemporaryFile::beside(t.path);
  } catch (const RuntimeError& e) {
    throw UsageError(e.what());
  }
}

TemporaryFile TemporaryFile::beside(const std::string& target) {
  const fs::path t(target);
  const std::string dir = t.parent_path().string();
  const std::string prefix = "." + t.filename().string();
  remove_stale_temporaries(dir.empty() ? "." : dir, prefix);
  auto [path, slot] = create_temporary(dir, prefix, target);
  return TemporaryFile(std::move(path), slot);
}

TemporaryFile TemporaryFile::private_file() {
  const std::string dir = fs::temp_directory_path().string();
  remove_stale_temporaries(dir, "joco-output");
  auto [path, slot] = create_temporary(dir, "joco-output", "a temporary file in " + dir);
  return TemporaryFile(std::move(path), slot);
}

TemporaryFile::TemporaryFile(TemporaryFile&& o) noexcept
    : path_(std::move(o.path_)), slot_(std::exchange(o.slot_, -1)) {
  o.path_.clear();
}

TemporaryFile::~TemporaryFile() { remove(); }

void TemporaryFile::remove() {
  if (path_.empty()) return;
  ::unlink(path_.c_str());
  release();
}

void TemporaryFile::release() {
  unregister_path(slot_);
  slot_ = -1;
  path_.clear();
}

void install_output_signal_handlers() {
  for (const int sig : {SIGINT, SIGTERM, SIGHUP}) {
    struct sigaction old;
    if (::sigaction(sig, nullptr, &old) != 0 || old.sa_handler == SIG_IGN) continue;
    struct sigaction sa = {};
    sa.sa_handler = remove_temporaries_and_die;
    sigemptyset(&sa.sa_mask);
    ::sigaction(sig, &sa, nullptr);
  }
  std::signal(SIGXFSZ, SIG_IGN);
}

void check_room(const std::string& path, uint64_t bytes, const std::string& name) {
  rlimit limit;
  if (::getrlimit(RLIMIT_FSIZE, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY &&
      bytes > limit.rlim_cur) {
    throw RuntimeError(fmt::format("cannot write {}: {} (needs {} bytes; the limit is {})", name,
                                   std::strerror(EFBIG), bytes, limit.rlim_cur));
  }
  struct statvfs fs_stat;
  if (::statvfs(path.c_str(), &fs_stat) != 0) return;
  // Root may use the blocks reserved for it.
  const uint64_t blocks = ::geteuid() == 0 ? fs_stat.f_bfree : fs_stat.f_bavail;
  const uint64_t free = blocks * fs_stat.f_frsize;
  if (bytes > free) {
    throw RuntimeError(fmt::format("cannot write {}: {} (needs {} bytes; {} free)", name,
                                   std::strerror(ENOSPC), bytes, free));
  }
}

int remove_stale_temporaries(const std::string& dir, const std::string& prefix) {
  DIR* d = ::opendir(dir.c_str());
  if (!d) return 0;
  const std::string start = prefix + ".tmp.";
  int removed = 0;
  while (const dirent* e = ::readdir(d)) {
    const std::string_view name = e->d_name;
    if (!name.starts_with(start)) continue;
    // PID.N, both decimal.
    const std::string_view rest = name.substr(start.size());
    const size_t dot = rest.find('.');
    if (dot == 0 || dot == std::string_view::npos || dot + 1 == rest.size()) continue;
    const std::string_view pid_text = rest.substr(0, dot), n_text = rest.substr(dot + 1);
    const auto digits = [](std::string_view s) {
      return s.size() <= 10 && s.find_first_not_of("0123456789") == std::string_view::npos;
    };
    if (!digits(pid_text) || !digits(n_text)) continue;
    const long pid = std::stol(std::string(pid_text));
    if (pid <= 0 || pid > INT_MAX || pid == ::getpid()) continue;
    // Gone: no process of that id (a reused id keeps the file, to be safe).
    if (::kill(static_cast<pid_t>(pid), 0) == 0 || errno != ESRCH) continue;
    const std::string path = (fs::path(dir) / name).string();
    struct stat st;
    if (::lstat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) continue;
    if (::unlink(path.c_str()) == 0) {
      ++removed;
      // debug: check_output runs while the command line is parsed, before logging is set up.
      spdlog::debug("removed {}, a temporary file left by process {}, which is gone", path, pid);
    }
  }
  ::closedir(d);
  return removed;
}

}  // namespace joco::tools
