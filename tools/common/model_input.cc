#include "model_input.h"

#include <spdlog/spdlog.h>

#include <cstdlib>
#include <filesystem>
#include <span>

#include "io.h"
#include "joco/error.h"
#include "joco/jmb.h"
#include "joco/mjcf.h"
#include "joco/urdf.h"

namespace joco::tools {

namespace {

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

}  // namespace joco::tools
