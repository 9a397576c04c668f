// How trajectories are named: on the command line ("FILE.h5", "FILE.h5:/group", "-", "-:/group"),
// inside a file (the root "/" or the rollouts "/rollout_00000", ...), and in messages
// ("FILE.h5:/group/dataset").
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace joco::tools {

// A command-line trajectory argument, "FILE.h5", "FILE.h5:/group", "-" or "-:/group", split into
// the file and the group ("" when none was given), at the first ":/" whose left part exists (or is
// "-"). A path that exists is never split.
struct TrajectoryRef {
  std::string path;
  std::string group;
};
TrajectoryRef parse_trajectory_ref(const std::string& arg);

// A group path with one leading slash and no trailing one: "a/" -> "/a", "" -> "/".
std::string normalize_group(std::string group);

// "/rollout_00042" for 42.
std::string rollout_group(int index);
// The index of a rollout group's name ("rollout_00042", without the slash); nullopt for other
// names.
std::optional<long long> rollout_index(std::string_view name);

// "FILE:/group/dataset" for messages: "run.h5:/", "run.h5:/qpos", "run.h5:/rollout_00001/qpos".
std::string location(const std::string& file, const std::string& group,
                     const std::string& dataset = "");

}  // namespace joco::tools
