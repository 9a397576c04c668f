#include "common/h5_guard.h"

#include <fcntl.h>
#include <hdf5_hl.h>
#include <poll.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <memory>
#include <set>
#include <utility>
#include <vector>

#include "common/h5.h"
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

// The child: opens, reads, says 'K' when done. It never returns: _exit leaves the parent's files,
// buffers and HDF5 state alone.
[[noreturn]] void run_child(int fd, const Hdf5Opener& open, const std::string& scope) {
  const rlimit no_core{0, 0};
  setrlimit(RLIMIT_CORE, &no_core);  // a crash here is expected, and reported by the parent
  // The child dies by the signal of its crash, plainly, whatever handlers the process had (a
  // sanitizer's or a fuzzer's would report the library's crash as the tool's own).
  for (int sig : {SIGINT, SIGTERM, SIGHUP, SIGPIPE, SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT})
    signal(sig, SIG_DFL);
  // Nothing of the child reaches the tool's output (glibc's "corrupted" messages before an abort,
  // say): its outcome is reported by the parent.
  const int null = ::open("/dev/null", O_RDWR);
  if (null >= 0) {
    dup2(null, STDOUT_FILENO);
    dup2(null, STDERR_FILENO);
  }
  double last = 0;
  // Progress reaches the parent at most every 0.1 s.
  const std::function<void()> step = [&] {
    const double now = now_seconds();
    if (now - last < 0.1) return;
    last = now;
    const char c = '.';
    if (write(fd, &c, 1) < 0) _exit(2);
  };
  try {
    silence_hdf5();
    const hid_t file = open();
    H5Eclear2(H5E_DEFAULT);
    if (file >= 0) {
      read_whole_hdf5(file, scope, step);
      // and closes it, as the tool will: closing frees what the walk cached, and on a damaged
      // file that can crash too (hdf5_trajectory_fuzz: SIGSEGV in H5Fclose after the markers)
      H5Fclose(file);
    }
  } catch (...) {
  }
  const char done = 'K';
  _exit(write(fd, &done, 1) == 1 ? 0 : 2);
}

}  // namespace

size_t read_whole_hdf5(hid_t file, const std::string& scope, const std::function<void()>& step) {
  try {
    Walker walker(file, scope, step);
    return walker.run();
  } catch (...) {
    return 0;
  }
}

void guard_hdf5_read(const std::string& name, const Hdf5Opener& open, const std::string& scope) {
  int fds[2];
  if (pipe(fds) != 0) {
    throw RuntimeError(name +
                       ": cannot check the HDF5 file in a child process: " + std::strerror(errno));
  }
  const uint64_t start_vm = address_space_bytes();
  const pid_t pid = fork();
  if (pid < 0) {
    const int e = errno;
    close(fds[0]);
    close(fds[1]);
    throw RuntimeError(name +
                       ": cannot check the HDF5 file in a child process: " + std::strerror(e));
  }
  if (pid == 0) {
    close(fds[0]);
    run_child(fds[1], open, scope);
  }
  close(fds[1]);
  // A hang is a child busy without progress: kGuardIdleSeconds of waiting during which it also
  // used kGuardIdleCpuSeconds of CPU (a child starved of CPU on a loaded machine is not hung), or
  // kGuardStallSeconds of waiting whatever it did.
  clockid_t child_clock;
  const bool has_clock = clock_getcpuclockid(pid, &child_clock) == 0;
  auto child_cpu = [&] {
    timespec ts{};
    if (!has_clock || clock_gettime(child_clock, &ts) != 0) return 0.0;
    return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
  };
  double progress_wall = now_seconds(), progress_cpu = child_cpu();
  // A damaged file can make the library allocate without end (one changed byte: 7.6 GB in 24 s):
  // the child's address space may grow by kGuardMemoryBytes, no more. (A limit set in the child,
  // RLIMIT_AS, would make the allocation fail there and the walk go on: the tool would then meet
  // it.)
  auto too_big = [&] {
    const uint64_t vm = address_space_bytes(std::to_string(pid));
    return start_vm > 0 && vm > start_vm + kGuardMemoryBytes;
  };
  bool done = false, hung = false, big = false;
  for (;;) {
    if (too_big()) {
      big = true;
      break;
    }
    pollfd p{fds[0], POLLIN, 0};
    const int r = poll(&p, 1, 250);
    if (r < 0 && errno == EINTR) continue;
    if (r == 0) {
      const double waited = now_seconds() - progress_wall;
      if ((waited >= kGuardIdleSeconds && child_cpu() - progress_cpu >= kGuardIdleCpuSeconds) ||
          waited >= kGuardStallSeconds) {
        hung = true;
        break;
      }
      continue;
    }
    char buffer[256];
    const ssize_t n = read(fds[0], buffer, sizeof(buffer));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    if (buffer[n - 1] == 'K') done = true;
    progress_wall = now_seconds();
    progress_cpu = child_cpu();
  }
  close(fds[0]);
  if (hung || big) kill(pid, SIGKILL);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (big) {
    throw InputError(name + ": damaged HDF5 file: the HDF5 library asked for more than " +
                     std::to_string(kGuardMemoryBytes >> 20) + " MB reading it; refused");
  }
  if (hung) {
    throw InputError(name +
                     ": damaged HDF5 file: the HDF5 library made no progress reading it for " +
                     std::to_string(kGuardIdleSeconds) + " s; refused");
  }
  if (WIFSIGNALED(status)) {
    throw InputError(name + ": damaged HDF5 file: the HDF5 library crashed reading it (" +
                     strsignal(WTERMSIG(status)) + "); refused");
  }
  if (!done || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    throw InputError(name +
                     ": damaged HDF5 file: reading it failed in the checking process; refused");
  }
}

}  // namespace joco::tools
