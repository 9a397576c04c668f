#include "common/trajectory_path.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>

namespace joco::tools {

namespace fs = std::filesystem;

TrajectoryRef parse_trajectory_ref(const std::string& arg) {
  std::error_code ec;
  if (arg == "-" || fs::exists(arg, ec)) return {arg, ""};
  size_t first = std::string::npos;
  for (size_t pos = arg.find(":/"); pos != std::string::npos; pos = arg.find(":/", pos + 1)) {
    if (first == std::string::npos) first = pos;
    const std::string prefix = arg.substr(0, pos);
    if (prefix == "-" || (fs::exists(prefix, ec) && !fs::is_directory(prefix, ec)))
      return {prefix, normalize_group(arg.substr(pos + 1))};
  }
  if (first == std::string::npos) return {arg, ""};
  return {arg.substr(0, first), normalize_group(arg.substr(first + 1))};
}

std::string normalize_group(std::string group) {
  if (group.empty() || group[0] != '/') group = "/" + group;
  while (group.size() > 1 && group.back() == '/') group.pop_back();
  return group;
}

std::string rollout_group(int index) {
  char buffer[32];
  std::snprintf(buffer, sizeof(buffer), "/rollout_%05d", index);
  return buffer;
}

std::optional<long long> rollout_index(std::string_view n) {
  constexpr std::string_view kPrefix = "rollout_";
  if (n.size() > kPrefix.size() && n.substr(0, kPrefix.size()) == kPrefix &&
      n.size() - kPrefix.size() <= 12 &&
      std::all_of(n.begin() + kPrefix.size(), n.end(),
                  [](char c) { return c >= '0' && c <= '9'; })) {
    return std::stoll(std::string(n.substr(kPrefix.size())));
  }
  return std::nullopt;
}

std::string location(const std::string& file, const std::string& group,
                     const std::string& dataset) {
  std::string path = group == "/" ? "" : group;
  if (!dataset.empty()) path += "/" + dataset;
  return file + ":" + (path.empty() ? "/" : path);
}

}  // namespace joco::tools
