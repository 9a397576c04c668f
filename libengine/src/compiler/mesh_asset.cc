#include "compiler/mesh_asset.h"

#include "joco/error.h"

namespace joco::compiler {

CompiledMeshAsset process_mesh(const MeshSpec& mesh, const std::string&, const CompilerSettings&) {
  throw InputError(mesh.origin.describe(mesh.name) + ": mesh assets are not supported yet");
}

Vec3 fit_primitive(const CompiledMeshAsset&, int, double, bool) {
  throw InputError("fitting primitives to meshes is not supported yet");
}

}  // namespace joco::compiler
