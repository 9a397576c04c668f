// The conversion rules: a checked URDF robot to an MJCF element tree.
#pragma once

#include <string>
#include <vector>

#include "joco/urdf.h"
#include "urdf/mjcf_writer.h"
#include "urdf/urdf_model.h"

namespace joco::urdf {

struct MjcfDocument {
  XmlNode root;                     // <mujoco>
  std::vector<std::string> header;  // the comment before it
};

// Applies the rules (see joco-urdf2mjcf(1)); fills the report; throws InputError for what cannot be
// converted (and, when options.strict, for every warning).
MjcfDocument convert(const Robot& robot, const std::string& source, const UrdfOptions& options,
                     UrdfReport& report);

// Where a URDF mesh reference points: package://, file:// or a path, resolved as the options say;
// failing that and with strippath, the file's name in meshdir or the URDF's folder (as MuJoCo's
// importer does). Empty when the file is nowhere. `tried` receives the places looked at; `by_name`
// says the fallback was used.
std::string resolve_mesh_path(const std::string& filename, const UrdfOptions& options,
                              const std::string& meshdir, bool strippath,
                              std::vector<std::string>* tried, bool* by_name);

}  // namespace joco::urdf
