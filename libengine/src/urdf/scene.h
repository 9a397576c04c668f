// What a converted robot needs its compiled model for: a floor with the free bodies placed on it,
// and the self-collision exclusions.
#pragma once

#include <string>

#include "joco/urdf.h"
#include "urdf/convert.h"

namespace joco::urdf {

// Compiles `doc` (meshes resolved from options.output_dir, or base_dir) and, as the options say,
// adds the floor and its light (raising the free bodies onto it) and <contact><exclude> elements;
// each step gets a line in the report's summary. Does nothing when neither option is set.
void finish_scene(MjcfDocument& doc, const std::string& source, const UrdfOptions& options,
                  UrdfReport& report);

}  // namespace joco::urdf
