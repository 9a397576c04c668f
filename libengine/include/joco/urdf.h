// URDF robots to MJCF: a converter that writes MJCF a person can read and edit (default classes,
// names kept, comments where URDF says more than MJCF can), with MuJoCo 2.2.2's import rules where
// they are right and the URDF specification where MuJoCo's importer departs from it.
#pragma once

#include <functional>
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
  bool default_classes = true;  // factor repeated attributes into default classes
  // A ground plane (checker material) and a light. With floating, the free bodies are raised so
  // that the lowest collision geometry of the reference pose rests floor_margin above the plane.
  bool floor = false;
  double floor_margin = 0.001;
  // <contact><exclude> for the body pairs that would collide in the reference pose, and for parent
  // and child bodies that MuJoCo's filterparent leaves colliding (a parent welded to the world, or
  // the flag disabled by the URDF's <mujoco><option>). Off by default so that compiling a URDF
  // (compile_urdf) gives MuJoCo's import; joco-urdf2mjcf turns it on.
  bool exclude_self_collisions = false;
  // Converts a mesh file in a format the compiler cannot read (COLLADA, ...) into one it can (the
  // library converts none itself): given the file's path, returns the new file's path and sets
  // `note` to a line for the summary, or returns "" and sets `note` to why not (the mesh is then
  // left out, as without a converter). Unset: such meshes are left out.
  std::function<std::string(const std::string& path, std::string& note)> convert_mesh;
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
