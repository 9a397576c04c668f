// What a joco-view page is built from (schemas/replay.md): the model's geometry, materials, lights,
// cameras and keyframes, and for each trajectory shown the body poses that joco's kinematics
// gives at each displayed row, the contacts and every per-row dataset, packed as float32 base64.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "joco/model.h"

namespace joco::tools::view {

struct ReplayOptions {
  double fps = 60;        // frames per second of simulated time, at most (the rows are decimated)
  bool all_rows = false;  // every row a frame, no decimation
  // Rollout indices of a batch file to show (empty: every trajectory the argument addresses).
  std::vector<int> rollouts;
  // Textures larger than this many pixels on a side are shrunk by an integer factor.
  int max_texture_size = 512;
};

// window.JOCO_REPLAY's value, as JSON text. `model_path` names the model in the title; without a
// trajectory the page shows the model's initial state and each keyframe. Throws InputError naming
// the file for a trajectory that does not fit the model or a rollout the file does not hold.
std::string replay_json(const Model& m, const std::string& model_path,
                        const std::optional<std::string>& trajectory, const ReplayOptions& o);

// The rows shown for a trajectory of `rows` rows spaced `dt` seconds apart: every
// `decimation`-th row from row 0, so that at most `fps` frames fall in a second (every row with
// all_rows, or when dt is not a positive number).
int decimation(double dt, double fps, bool all_rows);

// The names of the columns of a per-row dataset of the trajectory table ("qpos", "qvel",
// "sensordata", ...) for model m: joint and dof components ("root.x", "root.qw", "hip"),
// actuators, sensors (with [i] beyond one value), bodies' force components; "name[i]" otherwise.
std::vector<std::string> dataset_columns(const Model& m, const std::string& dataset, size_t ncols);

}  // namespace joco::tools::view
