#include "model_input.h"

#include <spdlog/spdlog.h>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <mutex>
#include <span>
#include <utility>

#include "io.h"
#include "joco/error.h"
#include "joco/jmb.h"
#include "joco/mjcf.h"
#include "joco/urdf.h"

namespace joco::tools {

namespace {

// A fingerprint of bytes: four independent multiply-xor lanes over 8-byte words (the lanes keep
// the multiplier busy where a byte-serial hash waits on each product), then the tail bytes.
struct Fingerprint {
  uint64_t lane[4] = {0x9e3779b97f4a7c15ull, 0xc2b2ae3d27d4eb4full, 0x165667b19e3779f9ull,
                      0x27d4eb2f165667c5ull};
  uint64_t length = 0;

  void add(const void* data, size_t n) {
    const auto* p = static_cast<const unsigned char*>(data);
    constexpr uint64_t kPrime = 0x100000001b3ull;
    size_t i = 0;
    for (; i + 32 <= n; i += 32) {
      for (int k = 0; k < 4; ++k) {
        uint64_t w;
        std::memcpy(&w, p + i + 8 * k, 8);
        lane[k] = (lane[k] ^ w) * kPrime;
      }
    }
    for (; i < n; ++i) lane[0] = (lane[0] ^ p[i]) * kPrime;
    length += n;
    lane[1] = (lane[1] ^ length) * kPrime;  // where one piece ends and the next begins
  }
  bool operator==(const Fingerprint& o) const {
    return std::memcmp(lane, o.lane, sizeof(lane)) == 0 && length == o.length;
  }
};

Fingerprint fingerprint(const Model& m) {
  Fingerprint f;
  for (const auto& [name, value] : m.size_list()) f.add(&value, sizeof(value));
  for (const StructField& s : m.struct_fields()) {
    f.add(s.data, scalar_size(s.type) * static_cast<size_t>(s.count));
  }
  for (const ArrayField& a : m.arrays()) f.add(a.data, a.bytes());
  return f;
}

// The name of the root element of an XML document (skipping the declaration, comments, DOCTYPE).
std::string xml_root_name(const std::string& text) {
  size_t i = 0;
  if (text.compare(0, 3, "\xEF\xBB\xBF") == 0) i = 3;  // UTF-8 byte-order mark
  while (i < text.size()) {
    i = text.find('<', i);
    if (i == std::string::npos || i + 1 >= text.size()) return "";
    if (text.compare(i, 4, "<!--") == 0) {
      i = text.find("-->", i);
      if (i == std::string::npos) return "";
      continue;
    }
    if (text[i + 1] == '?' || text[i + 1] == '!') {
      ++i;
      continue;
    }
    size_t end = i + 1;
    while (end < text.size() && !std::isspace(static_cast<unsigned char>(text[end])) &&
           text[end] != '>' && text[end] != '/') {
      ++end;
    }
    return text.substr(i + 1, end - i - 1);
  }
  return "";
}

// The directory relative paths in a model resolve against: the file's, or the working directory for
// standard input.
std::string input_dir(const std::string& path) {
  if (path == "-") return std::filesystem::current_path().string();
  const std::string dir = std::filesystem::path(path).parent_path().string();
  return dir.empty() ? "." : dir;
}

}  // namespace

std::vector<std::string> split_path_list(const char* text) {
  std::vector<std::string> dirs;
  if (!text) return dirs;
  const std::string s(text);
  size_t start = 0;
  while (start <= s.size()) {
    const size_t end = s.find(':', start);
    const std::string dir =
        s.substr(start, end == std::string::npos ? std::string::npos : end - start);
    if (!dir.empty()) dirs.push_back(dir);
    if (end == std::string::npos) break;
    start = end + 1;
  }
  return dirs;
}

ModelFormat detect_model_format(const std::string& start) {
  const std::span<const uint8_t> bytes(reinterpret_cast<const uint8_t*>(start.data()),
                                       start.size());
  if (looks_like_jmb(bytes)) return ModelFormat::kJmb;
  if (looks_like_mjb(bytes)) return ModelFormat::kMjb;
  const std::string root = xml_root_name(start);
  if (root == "mujoco") return ModelFormat::kMjcf;
  if (root == "robot") return ModelFormat::kUrdf;
  return ModelFormat::kUnknown;
}

Model load_model(const std::string& path) {
  const std::vector<uint8_t> bytes = read_input(path);
  const std::string name = display_name(path);
  const std::string text(bytes.begin(), bytes.end());
  switch (detect_model_format(text)) {
    case ModelFormat::kJmb:
    case ModelFormat::kMjb: return read_jmb(bytes, name);
    case ModelFormat::kMjcf: return compile_mjcf(text, name, input_dir(path));
    case ModelFormat::kUrdf: {
      // Converted with joco-urdf2mjcf's defaults (packages from ROS_PACKAGE_PATH), then compiled.
      UrdfOptions options;
      options.base_dir = input_dir(path);
      options.ros_package_path = split_path_list(std::getenv("ROS_PACKAGE_PATH"));
      UrdfReport report;
      Model m = compile_urdf(text, name, options, &report);
      for (const std::string& w : report.warnings) spdlog::warn("{}", w);
      for (const std::string& line : report.summary) spdlog::info("{}: {}", name, line);
      return m;
    }
    case ModelFormat::kUnknown: break;
  }
  throw InputError(name +
                   ": not a model: expected a .jmb binary model, or XML with a <mujoco> (MJCF) or "
                   "<robot> (URDF) root");
}

uint64_t model_checksum_once(const Model& m) {
  static std::mutex mutex;
  static std::vector<std::pair<Fingerprint, uint64_t>> known;
  const Fingerprint f = fingerprint(m);
  {
    const std::lock_guard<std::mutex> lock(mutex);
    for (const auto& [key, sum] : known) {
      if (key == f) return sum;
    }
  }
  const uint64_t sum = model_checksum(m);
  const std::lock_guard<std::mutex> lock(mutex);
  known.emplace_back(f, sum);
  return sum;
}

}  // namespace joco::tools
