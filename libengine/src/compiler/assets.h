// Compiled assets: meshes, skins, height fields, textures and materials, with the name-to-id maps
// the rest of the compiler resolves references through.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "compiler/mesh.h"
#include "compiler/spec.h"
#include "joco/model.h"

namespace joco::compiler {

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
  std::vector<CompiledMesh> meshes;
  std::vector<CompiledTexture> textures;
  std::vector<CompiledHfield> hfields;
  std::vector<SkinSpec> skins;  // the model's skins, those from files read
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

// The full path of an asset file: strippath, absolute paths, the compiler's directory setting
// (meshdir or texturedir), and the model's directory, as MuJoCo resolves them.
std::string resolve_asset_path(const std::string& file, const std::string& dir_setting,
                               const ModelSpec& spec);

}  // namespace joco::compiler
