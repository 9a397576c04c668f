// Where an output goes and the temporary files written on the way: one mechanism for every tool.
//
// - A path is checked before any work (check_output): a directory, a missing directory or a place
//   the tool cannot create files in is a usage error (exit 2).
// - A regular file (or a new name) is written under a temporary name beside it and renamed into
//   place; a symbolic link is followed to its target, which is replaced, and the link stays.
// - A FIFO, a device node or a socket is written straight through: no temporary file beside it and
//   no rename over it (which would replace /dev/null with a regular file).
// - Every temporary file is registered: SIGINT, SIGTERM and SIGHUP remove those of the process,
//   which then dies by the same signal (status 128 + signal in a shell). Temporary files of
//   processes that are gone (killed by SIGKILL or the OOM killer) are removed by the next run that
//   writes beside them.
#pragma once

#include <cstdint>
#include <string>

namespace joco::tools {

struct OutputTarget {
  enum Kind {
    kStdout,  // "-"
    kFile,    // a regular file or a new name: temporary file beside `path`, renamed over it
    kStream,  // a FIFO, device node or socket: opened and written straight through
  };
  Kind kind = kStdout;
  // Where to write: symbolic links to a file (or to a name not yet made) followed to their end.
  std::string path;
};

// Classifies `path`; RuntimeError (exit 4) naming it when it is a directory, its directory is
// missing, or links loop (check_output makes these usage errors before any work).
OutputTarget resolve_output(const std::string& path);

// resolve_output, and proves the output can be made: for a file, a temporary file is created
// beside it and removed (which also removes stale temporary files there); for a stream, it must be
// writable. UsageError (exit 2) naming the path and the system's reason otherwise. Tools call it on
// -o before any work (add_output_check in tool.h).
void check_output(const std::string& path);

// A temporary file, created empty (exclusively) and registered for removal on SIGINT, SIGTERM and
// SIGHUP; removed by the destructor unless released (after it was renamed into place).
class TemporaryFile {
 public:
  // `.NAME.tmp.PID.N` beside `target` (so renaming it over `target` is atomic). Removes the stale
  // temporary files of `target` first (those whose process is gone). RuntimeError (exit 4) when it
  // cannot be created.
  static TemporaryFile beside(const std::string& target);
  // `joco-output.tmp.PID.N` in the temporary directory ($TMPDIR or /tmp), for an output that is
  // not a file (standard output, a FIFO, a device). Removes stale ones of that name first.
  static TemporaryFile private_file();

  TemporaryFile(TemporaryFile&& o) noexcept;
  TemporaryFile& operator=(TemporaryFile&&) = delete;
  TemporaryFile(const TemporaryFile&) = delete;
  TemporaryFile& operator=(const TemporaryFile&) = delete;
  ~TemporaryFile();

  const std::string& path() const { return path_; }
  // Removes the file now (errors ignored) and forgets it.
  void remove();
  // Forgets the file without removing it (it has been renamed into place).
  void release();

 private:
  TemporaryFile(std::string path, int slot) : path_(std::move(path)), slot_(slot) {}
  std::string path_;
  int slot_ = -1;  // in the registry the signal handler reads; -1 when not registered
};

// Installs the handler of SIGINT, SIGTERM and SIGHUP (each unless ignored, as under nohup) that
// removes the registered temporary files and re-raises the signal; ignores SIGXFSZ, so that a file
// size limit (ulimit -f) makes a write fail with EFBIG, reported as any write error (exit 4),
// instead of killing the process with its temporary file left behind. run_tool calls it first.
void install_output_signal_handlers();

// RuntimeError (exit 4) naming `name` when `bytes` more cannot be written to the file `path`: more
// than the free space of its file system or than the file size limit (ulimit -f). For writers that
// cannot survive a failed write (HDF5 1.10's H5Ocopy crashes in its own clean-up when a write
// fails), checked before they start.
void check_room(const std::string& path, uint64_t bytes, const std::string& name);

// Removes the files `PREFIX.tmp.PID.N` in `dir` whose process PID is gone (on this machine).
// Returns how many were removed.
int remove_stale_temporaries(const std::string& dir, const std::string& prefix);

}  // namespace joco::tools
