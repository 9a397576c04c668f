// Reading inputs and writing outputs the way every tool does: "-" is standard input or output, and
// files are written under a temporary name and renamed into place only when complete (FIFOs and
// devices straight through); output_file.h has the mechanism.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "common/output_file.h"

namespace joco::tools {

// The display name of an input or output path ("<stdin>" / "<stdout>" for "-").
std::string display_name(const std::string& path, bool output = false);

// Reads a whole file, or standard input for "-". Throws InputError naming the path.
std::vector<uint8_t> read_input(const std::string& path);

// A binary output (HDF5, .jmb) is never written to a terminal (as gzip refuses): throws UsageError
// (exit 2) when `path` is "-" and standard output is a terminal. The binary writers below call it;
// a tool may call it before its work to fail early.
void refuse_binary_to_terminal(const std::string& path);

// Writes binary bytes (a .jmb) to a file atomically (temporary name, then rename; a symbolic link is
// followed to its target), straight through to a FIFO or device, or to standard output for "-"
// (refused when it is a terminal: refuse_binary_to_terminal). Throws RuntimeError (exit 4) when
// writing fails; never leaves a partial file at `path`.
void write_output(const std::string& path, std::span<const uint8_t> bytes);
// The same with text (a report, MJCF), which may go to a terminal.
void write_output(const std::string& path, std::string_view text);

// An output file written by a library that wants a path (HDF5): write to temp_path(), then
// commit(). Without commit() the temporary file is removed. For "-", a FIFO or a device, temp_path()
// is a private temporary file whose bytes commit() copies to the stream; the output is binary, so
// "-" is refused when standard output is a terminal (refuse_binary_to_terminal), before anything
// is made.
class AtomicOutput {
 public:
  explicit AtomicOutput(const std::string& path);
  ~AtomicOutput();
  AtomicOutput(const AtomicOutput&) = delete;
  AtomicOutput& operator=(const AtomicOutput&) = delete;

  const std::string& temp_path() const { return temp_.path(); }
  void commit();

 private:
  std::string path_;
  OutputTarget target_;
  TemporaryFile temp_;
  bool committed_ = false;
};

}  // namespace joco::tools
