// Loading a model the way every tool accepts one: a .jmb, an MJCF or URDF file, or "-" (standard
// input), told apart by content, not by name.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "joco/model.h"

namespace joco::tools {

enum class ModelFormat { kJmb, kMjcf, kUrdf, kMjb, kUnknown };

// What the bytes are: .jmb magic, MuJoCo .mjb, or XML whose root element is <mujoco> or <robot>.
ModelFormat detect_model_format(const std::string& bytes_start);

// Loads and, for XML, compiles the model (a URDF is converted as joco-urdf2mjcf does by default,
// with packages found through ROS_PACKAGE_PATH). Throws InputError naming the input on any problem.
Model load_model(const std::string& path);

// joco::model_checksum(m), computed once per model content in the process: it serialises the model
// and hashes every byte one at a time (the humanoid's 5.8 MB of textures: 24 M instructions), and a
// tool needs it for its input trajectory's check and for its output file. The value is remembered
// under a fingerprint of the model's sizes, settings and arrays hashed 32 bytes at a time (a
// tenth of the cost), so a model changed in any byte is hashed anew. Thread-safe.
uint64_t model_checksum_once(const Model& m);

// The directories of a PATH-like list ("a:b:c"), empty entries dropped (ROS_PACKAGE_PATH).
std::vector<std::string> split_path_list(const char* text);

}  // namespace joco::tools
