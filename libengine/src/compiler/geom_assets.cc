// Compiler stages (compiler/compiler.h): geom asset references, primitives fitted to meshes, sizes
// checked.
#include <map>
#include <string>

#include "compiler/compiler.h"
#include "math/vec.h"

namespace joco::compiler {

void Compiler::resolve_geoms() {
  for (FlatGeom& g : geoms_) {
    GeomSpec& s = *g.spec;
    const std::string& name = s.name;
    if (!s.material.empty())
      g.material = find_asset(assets_.material_ids, s.material, s.origin, name, "material");
    if (s.type == kGeomHfield) {
      if (s.hfield.empty()) fail(s.origin, name, "a height field geom needs the hfield attribute");
      g.hfield = find_asset(assets_.hfield_ids, s.hfield, s.origin, name, "hfield");
    }
    if (!s.mesh.empty()) {
      g.mesh = find_asset(assets_.mesh_ids, s.mesh, s.origin, name, "mesh");
      fit_to_mesh(g);
    } else if (s.type == kGeomMesh) {
      fail(s.origin, name, "a mesh geom needs the mesh attribute");
    }
    if (s.shellinertia && s.type != kGeomMesh) {
      fail(s.origin, name, "shellinertia is only available for meshes");
    }
    check_size(s);
  }
  for (FlatSite& t : sites_) {
    if (!t.spec->material.empty()) {
      t.material = find_asset(assets_.material_ids, t.spec->material, t.spec->origin, t.spec->name,
                              "material");
    }
  }
}

int Compiler::find_asset(const std::map<std::string, int>& ids, const std::string& name,
                         const Origin& origin, const std::string& element, const char* kind) {
  auto it = ids.find(name);
  if (it == ids.end()) fail(origin, element, std::string("unknown ") + kind + " '" + name + "'");
  return it->second;
}

// A mesh geom takes the mesh's frame offset and size; a primitive referencing a mesh is fitted to
// it (the geom frame moves by the offset either way).
void Compiler::fit_to_mesh(FlatGeom& g) {
  const CompiledMesh& mesh = assets_.meshes[static_cast<size_t>(g.mesh)];
  MeshGeomSpec request;
  request.type = g.spec->type;
  request.shellinertia = g.spec->shellinertia;
  request.fitaabb = spec_.compiler.fitaabb;
  request.fitscale = g.spec->fitscale;
  g.mesh_geom = mesh_geom(mesh, request, g.spec->origin.describe(g.spec->name));
  math::quat_normalize(g.quat.data());
  double pos[3], quat[4];
  compose_mesh_frame(pos, quat, g.pos.data(), g.quat.data(), g.mesh_geom);
  g.pos = {pos[0], pos[1], pos[2]};
  g.quat = {quat[0], quat[1], quat[2], quat[3]};
  g.spec->size = {g.mesh_geom.size[0], g.mesh_geom.size[1], g.mesh_geom.size[2]};
}

}  // namespace joco::compiler
