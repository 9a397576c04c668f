// MJCF (MuJoCo 2.2.2's XML dialect) to ModelSpec: schema check, default classes, every element.
#pragma once

#include <string>

#include "compiler/spec.h"
#include "compiler/xml_tree.h"

namespace joco::compiler {

// Reads a schema-checked-or-not MJCF tree (includes already expanded). `base_dir` is the main file's
// directory. Throws InputError naming file, line and element.
ModelSpec read_mjcf(const XmlElement& root, const std::string& source, const std::string& base_dir);

}  // namespace joco::compiler
