// Mesh assets for the compiler: load, process and measure one <mesh>, and fit primitives to meshes.
#pragma once

#include <string>

#include "compiler/assets.h"
#include "compiler/spec.h"

namespace joco::compiler {

// `path` is the resolved file path (empty for inline meshes).
CompiledMeshAsset process_mesh(const MeshSpec& mesh, const std::string& path, const CompilerSettings& settings);

}  // namespace joco::compiler
