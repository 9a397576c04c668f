// The MJCF compiler: MuJoCo 2.2.2's XML dialect to a compiled Model.
#pragma once

#include <string>

#include "joco/model.h"

namespace joco {

// Compiles MJCF text. `source` names the text in messages (its path, or "<stdin>"); `base_dir` is
// where relative paths (include files, meshes, ...) are resolved. Throws InputError with file,
// line, element and reason for anything MuJoCo 2.2.2 would reject.
Model compile_mjcf(const std::string& xml, const std::string& source, const std::string& base_dir);

// Reads and compiles an MJCF file.
Model compile_mjcf_file(const std::string& path);

}  // namespace joco
