// URDF robots to MJCF: a converter that writes MJCF a person can read and edit (default classes,
// names kept, comments where URDF says more than MJCF can), with MuJoCo 2.2.2's import rules where
// they are right and the URDF specification where MuJoCo's importer departs from it.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "joco/model.h"

namespace joco {

struct UrdfOptions {
  // Directory that relative mesh paths (and the MuJoCo <compiler meshdir> extension) resolve
  // against: the URDF's folder, or the working directory for standard input.
  std::string base_dir = ".";
  // Directory the MJCF will be read from: meshdir is written relative to it, so that the output is
  // portable together with the meshes. Empty: the same as base_dir.
  std::string output_dir;
  // package://NAME/... is looked up in these (NAME, DIR) pairs first, then under each directory of
  // ros_package_path (DIR/NAME, or DIR itself when its name is NAME). Callers pass the
  // environment's ROS_PACKAGE_PATH there; the library reads no environment.
  std::vector<std::pair<std::string, std::string>> package_paths;
  std::vector<std::string> ros_package_path;

  bool floating = false;  // a free joint on the root link
  // The three switches MuJoCo's URDF extension <robot><mujoco><compiler .../></mujoco> also sets
  // (fusestatic, discardvisual, balanceinertia). Set here, they override the extension; unset, the
  // extension decides, and without it the default in brackets applies.
  // Links on fixed joints become part of their parent body [true] (as MuJoCo does).
  std::optional<bool> fuse_fixed;
  // Keep visual geoms, in a class that neither collides nor has mass [true].
  std::optional<bool> visual;
  // Repair inertias whose principal moments violate A + B >= C by their mean [false].
  std::optional<bool> balance_inertia;
  enum class Actuators { kNone, kMotor, kPosition } actuators = Actuators::kNone;
  double kp = 100;  // position gain of --actuators position
  // Every warning (an unreadable mesh format, a dubious limit, ...) is an error.
  bool strict = false;
  bool default_classes = true;               // factor repeated attributes into default classes
  std::string generator = "joco-urdf2mjcf";  // named in the header comment
  std::string options_text;  // the options as the user gave them, for the header comment
};

// What the conversion did, for the summary a tool prints on standard error.
struct UrdfReport {
  std::vector<std::string> summary;   // converted, fused, dropped and why: one line each
  std::vector<std::string> warnings;  // input that was converted but deserves a look
};

// Converts URDF text to MJCF text. `source` names the URDF in messages and in the header comment.
// Throws InputError naming the file, line and element for a bad URDF (malformed XML or numbers,
// missing or duplicate names, missing parent or child, two roots, cycles, unknown joint or geometry
// types, non-positive mass with inertia, missing mesh files, ...), and for any warning when strict.
std::string urdf_to_mjcf(const std::string& urdf_text, const std::string& source,
                         const UrdfOptions& options, UrdfReport* report = nullptr);

// Converts and compiles in one go (the MJCF is compiled from options.base_dir; output_dir is
// ignored). Compiler messages name the converted text as "SOURCE [as MJCF]".
Model compile_urdf(const std::string& urdf_text, const std::string& source,
                   const UrdfOptions& options, UrdfReport* report = nullptr);

}  // namespace joco
