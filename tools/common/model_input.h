// Loading a model the way every tool accepts one: a .jmb, an MJCF or URDF file, or "-" (standard
// input), told apart by content, not by name.
#pragma once

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

// The directories of a PATH-like list ("a:b:c"), empty entries dropped (ROS_PACKAGE_PATH).
std::vector<std::string> split_path_list(const char* text);

}  // namespace joco::tools
