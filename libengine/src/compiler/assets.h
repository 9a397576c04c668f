// Compiled assets: meshes, skins, height fields, textures and materials, with the name-to-id maps
// the rest of the compiler resolves references through.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "compiler/spec.h"
#include "joco/model.h"

namespace joco::compiler {

// One mesh after processing: what mjModel stores and what geoms using it need.
struct CompiledMeshAsset {
  std::vector<float> vert, normal, texcoord;
  std::vector<int> face, graph;
  Vec3 pos{};                 // offset applied when centring the mesh at its centre of mass
  Quat quat{1, 0, 0, 0};      // rotation applied when aligning it with its principal axes
  double volume = 0;          // per unit density
  double surface = 0;         // area, for shell inertia
  Vec3 inertia{};             // principal inertia per unit density (solid)
  Vec3 shell_inertia{};       // principal inertia per unit area (shell)
  Vec3 size{};                // geom_size of mesh geoms
  double rbound = 0;          // geom_rbound of mesh geoms
  Vec3 aabb_half{};           // half sizes of the axis-aligned box in the mesh frame
};

struct CompiledTexture {
  int type = kTexture2D;
  int width = 0, height = 0;
  std::vector<uint8_t> rgb;
};

struct CompiledHfield {
  std::array<double, 4> size{};
  int nrow = 0, ncol = 0;
  std::vector<float> data;
};

struct CompiledAssets {
  std::vector<CompiledMeshAsset> meshes;
  std::vector<CompiledTexture> textures;
  std::vector<CompiledHfield> hfields;
  std::vector<std::string> mesh_names, skin_names, hfield_names, texture_names, material_names;
  std::map<std::string, int> mesh_ids, skin_ids, hfield_ids, texture_ids, material_ids;
  const ModelSpec* spec = nullptr;

  // Adds the asset sizes (nmesh, nmeshvert, ..., nmat) to `s`.
  void add_sizes(ModelSizes& s) const;
  // Fills the asset arrays of the model (skins need body ids).
  void fill(Model& m, const std::map<std::string, int>& body_ids, const ModelSpec& spec) const;

  Vec3 hfield_geom_size(int id) const;
};

CompiledAssets compile_assets(const ModelSpec& spec);

// The size of a primitive of `type` fitted to a mesh (equivalent-inertia box or bounding box),
// scaled by fitscale.
Vec3 fit_primitive(const CompiledMeshAsset& mesh, int type, double fitscale, bool fitaabb);

// The full path of an asset file: strippath, absolute paths, the compiler's directory setting
// (meshdir or texturedir), and the model's directory, as MuJoCo resolves them.
std::string resolve_asset_path(const std::string& file, const std::string& dir_setting, const ModelSpec& spec);

}  // namespace joco::compiler
