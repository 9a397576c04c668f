#include "io.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>

#include "common/tool.h"
#include "joco/error.h"

namespace joco::tools {

namespace fs = std::filesystem;

namespace {

void write_all(std::FILE* f, std::span<const uint8_t> bytes, const std::string& name) {
  if (!bytes.empty() && std::fwrite(bytes.data(), 1, bytes.size(), f) != bytes.size()) {
    throw RuntimeError("cannot write " + name + ": " + std::strerror(errno));
  }
}

}  // namespace

std::string display_name(const std::string& path, bool output) {
  if (path == "-") return output ? "<stdout>" : "<stdin>";
  return path;
}

std::vector<uint8_t> read_input(const std::string& path) {
  if (path == "-") {
    std::vector<uint8_t> bytes;
    uint8_t buffer[1 << 16];
    size_t n;
    while ((n = std::fread(buffer, 1, sizeof(buffer), stdin)) > 0)
      bytes.insert(bytes.end(), buffer, buffer + n);
    if (std::ferror(stdin)) throw InputError("<stdin>: read error");
    return bytes;
  }
  std::error_code ec;
  if (fs::is_directory(path, ec)) throw InputError(path + ": is a directory, not a file");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path + ": cannot open: " + std::strerror(errno));
  // Read whole, not a byte at a time through stream iterators (13 instructions a byte: 75 M for
  // the humanoid's 5.8 MB model); pipes and files that grow are read to their end.
  std::vector<uint8_t> bytes;
  if (fs::is_regular_file(path, ec)) {
    const auto size = fs::file_size(path, ec);
    if (!ec) bytes.reserve(size);
  }
  char buffer[1 << 16];
  while (in.read(buffer, sizeof(buffer)) || in.gcount() > 0) {
    bytes.insert(bytes.end(), buffer, buffer + in.gcount());
  }
  if (in.bad()) throw InputError(path + ": read error");
  return bytes;
}

void refuse_binary_to_terminal(const std::string& path) {
  if (path == "-" && ::isatty(STDOUT_FILENO)) {
    throw UsageError(
        "standard output is a terminal: not writing binary output there; give -o FILE or "
        "redirect standard output to a file or a pipe");
  }
}

namespace {

// Standard output, or a FIFO or device opened for writing (straight through: no temporary file,
// no rename), as a stream; `write` gets it and its display name. Flushed and closed here, so a
// full device is reported (RuntimeError).
template <typename Write>
void write_stream(const OutputTarget& t, Write&& write) {
  const std::string name = display_name(t.path, true);
  std::FILE* f = stdout;
  if (t.kind == OutputTarget::kStream) {
    const int fd = ::open(t.path.c_str(), O_WRONLY | O_CLOEXEC);
    if (fd < 0 || !(f = ::fdopen(fd, "wb"))) {
      const std::string reason = std::strerror(errno);
      if (fd >= 0) ::close(fd);
      throw RuntimeError("cannot open " + name + ": " + reason);
    }
  }
  try {
    write(f, name);
  } catch (...) {
    if (f != stdout) std::fclose(f);
    throw;
  }
  if (f == stdout ? std::fflush(f) != 0 : std::fclose(f) != 0) {
    throw RuntimeError("cannot write " + name + ": " + std::strerror(errno));
  }
}

// Bytes to a file atomically (temporary file beside it, renamed over it), or to a stream.
void write_bytes(const std::string& path, std::span<const uint8_t> bytes) {
  const OutputTarget t = resolve_output(path);
  if (t.kind != OutputTarget::kFile) {
    write_stream(t, [&](std::FILE* f, const std::string& name) { write_all(f, bytes, name); });
    return;
  }
  TemporaryFile temp = TemporaryFile::beside(t.path);
  std::FILE* f = std::fopen(temp.path().c_str(), "wb");
  if (!f) throw RuntimeError("cannot create " + path + ": " + std::strerror(errno));
  try {
    write_all(f, bytes, path);
  } catch (...) {
    std::fclose(f);
    throw;
  }
  if (std::fclose(f) != 0 || std::rename(temp.path().c_str(), t.path.c_str()) != 0) {
    throw RuntimeError("cannot write " + path + ": " + std::strerror(errno));
  }
  temp.release();
}

}  // namespace

void write_output(const std::string& path, std::span<const uint8_t> bytes) {
  refuse_binary_to_terminal(path);
  write_bytes(path, bytes);
}

void write_output(const std::string& path, std::string_view text) {
  write_bytes(path,
              std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(text.data()), text.size()));
}

namespace {

TemporaryFile temporary_for(const OutputTarget& t) {
  return t.kind == OutputTarget::kFile ? TemporaryFile::beside(t.path)
                                       : TemporaryFile::private_file();
}

}  // namespace

AtomicOutput::AtomicOutput(const std::string& path)
    : path_(path),
      target_((refuse_binary_to_terminal(path), resolve_output(path))),
      temp_(temporary_for(target_)) {}

AtomicOutput::~AtomicOutput() = default;

void AtomicOutput::commit() {
  if (committed_) return;
  if (target_.kind == OutputTarget::kFile) {
    if (std::rename(temp_.path().c_str(), target_.path.c_str()) != 0) {
      throw RuntimeError("cannot write " + path_ + ": " + std::strerror(errno));
    }
    temp_.release();
    committed_ = true;
    return;
  }
  // The complete file copied to the stream a block at a time, removed first (it stays readable
  // through `in`), so that nothing is left behind if the copy is cut short (SIGPIPE).
  std::FILE* in = std::fopen(temp_.path().c_str(), "rb");
  if (!in) throw RuntimeError("cannot read back " + temp_.path() + ": " + std::strerror(errno));
  temp_.remove();
  committed_ = true;
  try {
    write_stream(target_, [&](std::FILE* out, const std::string& name) {
      std::vector<uint8_t> buffer(1 << 20);
      size_t n;
      while ((n = std::fread(buffer.data(), 1, buffer.size(), in)) > 0) {
        write_all(out, std::span<const uint8_t>(buffer.data(), n), name);
      }
      if (std::ferror(in)) throw RuntimeError("cannot write " + name + ": read error");
    });
  } catch (...) {
    std::fclose(in);
    throw;
  }
  std::fclose(in);
}

}  // namespace joco::tools
