#include "io.h"

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <random>

#include "common/tool.h"
#include "joco/error.h"

namespace joco::tools {

namespace fs = std::filesystem;

namespace {

std::string unique_suffix() {
  std::random_device rd;
  return ".tmp." + std::to_string(::getpid()) + "." + std::to_string(rd() % 1000000);
}

// A temporary path beside `path` (same directory, so rename is atomic).
std::string temp_beside(const std::string& path) {
  const fs::path p(path);
  return (p.parent_path() / ("." + p.filename().string() + unique_suffix())).string();
}

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

// Bytes to a file atomically, or to standard output.
void write_bytes(const std::string& path, std::span<const uint8_t> bytes) {
  if (path == "-") {
    write_all(stdout, bytes, "<stdout>");
    if (std::fflush(stdout) != 0)
      throw RuntimeError("cannot write <stdout>: " + std::string(std::strerror(errno)));
    return;
  }
  const std::string temp = temp_beside(path);
  std::FILE* f = std::fopen(temp.c_str(), "wb");
  if (!f) throw RuntimeError("cannot create " + path + ": " + std::strerror(errno));
  try {
    write_all(f, bytes, path);
  } catch (...) {
    std::fclose(f);
    std::remove(temp.c_str());
    throw;
  }
  if (std::fclose(f) != 0 || std::rename(temp.c_str(), path.c_str()) != 0) {
    const std::string reason = std::strerror(errno);
    std::remove(temp.c_str());
    throw RuntimeError("cannot write " + path + ": " + reason);
  }
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

AtomicOutput::AtomicOutput(const std::string& path) : path_(path) {
  refuse_binary_to_terminal(path);
  if (path == "-") {
    temp_ = (fs::temp_directory_path() / ("joco-stdout" + unique_suffix())).string();
  } else {
    temp_ = temp_beside(path);
  }
}

AtomicOutput::~AtomicOutput() {
  if (!committed_) std::remove(temp_.c_str());
}

void AtomicOutput::commit() {
  if (path_ == "-") {
    const std::vector<uint8_t> bytes = read_input(temp_);
    std::remove(temp_.c_str());
    committed_ = true;
    write_bytes("-", bytes);
    return;
  }
  if (std::rename(temp_.c_str(), path_.c_str()) != 0) {
    throw RuntimeError("cannot write " + path_ + ": " + std::strerror(errno));
  }
  committed_ = true;
}

}  // namespace joco::tools
