#include "compiler/assets.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <set>

#include "compiler/texture.h"
#include "decode/hfield_file.h"
#include "decode/png.h"
#include "decode/skin_file.h"
#include "joco/error.h"
#include "math/vec.h"

namespace joco::compiler {

namespace fs = std::filesystem;

namespace {

[[noreturn]] void fail(const Origin& origin, const std::string& name, const std::string& reason) {
  throw InputError(origin.describe(name) + ": " + reason);
}

// The name of an asset: its name attribute, else its file name without directory and extension.
std::string asset_name(const std::string& name, const std::string& file) {
  if (!name.empty() || file.empty()) return name;
  return fs::path(file).stem().string();
}

template <class Spec>
void register_names(const std::vector<Spec>& items, std::vector<std::string>& names,
                    std::map<std::string, int>& ids, const char* what, bool named_by_file) {
  for (size_t i = 0; i < items.size(); ++i) {
    std::string name = items[i].name;
    if constexpr (requires { items[i].file; }) {
      if (named_by_file) name = asset_name(name, items[i].file);
    }
    names.push_back(name);
    if (name.empty()) continue;
    if (!ids.emplace(name, static_cast<int>(i)).second) {
      fail(items[i].origin, name, std::string("repeated ") + what + " name '" + name + "'");
    }
  }
}

// A skin's data as MuJoCo 2.2.2 requires it: whole vertices, faces and texture coordinate pairs
// (one pair per vertex, or none); some vertices, faces and bones; faces and bones referring to
// vertices that exist; and a positive total bone weight at every vertex.
void check_skin_data(const SkinSpec& s) {
  if (s.vertex.size() % 3 || s.face.size() % 3 || s.texcoord.size() % 2) {
    fail(s.origin, s.name, "skin vertex, face or texcoord data has a wrong length");
  }
  const size_t nvert = s.vertex.size() / 3;
  if (!s.texcoord.empty() && s.texcoord.size() / 2 != nvert) {
    fail(s.origin, s.name, "a skin's texcoord must give one pair per vertex");
  }
  if (nvert == 0 || s.face.empty() || s.bones.empty())
    fail(s.origin, s.name, "a skin needs vertices, faces and bones");
  for (int v : s.face) {
    if (v < 0 || static_cast<size_t>(v) >= nvert)
      fail(s.origin, s.name, "skin face refers to a missing vertex");
  }
  std::vector<double> total(nvert, 0.0);
  for (const SkinBoneSpec& b : s.bones) {
    for (size_t k = 0; k < b.vertid.size(); ++k) {
      if (b.vertid[k] < 0 || static_cast<size_t>(b.vertid[k]) >= nvert)
        fail(b.origin, s.name, "bone vertex id out of range");
      total[static_cast<size_t>(b.vertid[k])] += static_cast<float>(b.vertweight[k]);
    }
  }
  for (size_t v = 0; v < nvert; ++v) {
    if (!(total[v] > 0)) {
      fail(s.origin, s.name,
           "skin vertex " + std::to_string(v) + " needs a positive total weight from its bones");
    }
  }
}

// Meshes used by a mesh geom that collides (contype or conaffinity set): those get convex hulls.
void collect_hull_meshes(const BodySpec& body, std::set<std::string>& out) {
  for (const GeomSpec& g : body.geoms) {
    if (g.type == kGeomMesh && !g.mesh.empty() && (g.contype || g.conaffinity)) out.insert(g.mesh);
  }
  for (const BodySpec& child : body.bodies) collect_hull_meshes(child, out);
}

std::set<std::string> meshes_needing_hulls(const BodySpec& world) {
  std::set<std::string> out;
  collect_hull_meshes(world, out);
  return out;
}

// Elevations to [0, 1] as MuJoCo 2.2.2 does it, in float: the minimum and maximum start at -+1e10
// and are updated so that a NaN propagates the way MuJoCo's comparisons do; the minimum is always
// subtracted, and the range divided by only when it exceeds 1e-15.
void normalize_elevations(std::vector<float>& data) {
  float lo = 1e10f, hi = -1e10f;
  for (float v : data) {
    lo = lo < v ? lo : v;
    hi = hi > v ? hi : v;
  }
  const float range = hi - lo;
  const bool divide = static_cast<double>(range) > 1e-15;
  for (float& v : data) {
    v -= lo;
    if (divide) v /= range;
  }
}

}  // namespace

std::string resolve_asset_path(const std::string& file, const std::string& dir_setting,
                               const ModelSpec& spec) {
  fs::path name(file);
  if (spec.compiler.strippath) name = name.filename();
  if (name.is_absolute()) return name.string();
  fs::path dir(dir_setting);
  if (!dir_setting.empty() && dir.is_absolute()) return (dir / name).string();
  return (fs::path(spec.base_dir) / dir / name).lexically_normal().string();
}

CompiledAssets compile_assets(const ModelSpec& spec) {
  CompiledAssets a;
  a.spec = &spec;
  register_names(spec.meshes, a.mesh_names, a.mesh_ids, "mesh", true);
  register_names(spec.skins, a.skin_names, a.skin_ids, "skin", true);
  register_names(spec.hfields, a.hfield_names, a.hfield_ids, "hfield", true);
  register_names(spec.textures, a.texture_names, a.texture_ids, "texture", true);
  register_names(spec.materials, a.material_names, a.material_ids, "material", false);

  const std::set<std::string> hulls = meshes_needing_hulls(spec.world);
  for (size_t i = 0; i < spec.meshes.size(); ++i) {
    const compiler::MeshSpec& mesh = spec.meshes[i];
    if (a.mesh_names[i].empty())
      fail(mesh.origin, "", "a mesh needs a name (or a file to take it from)");
    joco::MeshSpec in;
    in.name = a.mesh_names[i];
    if (!mesh.file.empty()) in.file = resolve_asset_path(mesh.file, spec.compiler.meshdir, spec);
    in.vertex = mesh.vertex;
    in.normal = mesh.normal;
    in.texcoord = mesh.texcoord;
    in.face = mesh.face;
    std::copy(mesh.scale.begin(), mesh.scale.end(), in.scale);
    std::copy(mesh.refpos.begin(), mesh.refpos.end(), in.refpos);
    std::copy(mesh.refquat.begin(), mesh.refquat.end(), in.refquat);
    in.smoothnormal = mesh.smoothnormal;
    in.density = mesh.class_geom_density;
    MeshOptions options;
    options.convexhull = spec.compiler.convexhull;
    options.exactmeshinertia = spec.compiler.exactmeshinertia;
    options.needhull = hulls.count(in.name) > 0;
    a.meshes.push_back(compile_mesh(in, options, mesh.origin.describe(in.name)));
  }
  MarkRandom random;  // one generator a compile, as MuJoCo seeds rand() once
  for (size_t i = 0; i < spec.textures.size(); ++i) {
    const TextureSpec& t = spec.textures[i];
    if (a.texture_names[i].empty() && t.type != kTextureSkybox) {
      fail(t.origin, "", "a texture needs a name (or a file to take it from), except a skybox");
    }
    a.textures.push_back(make_texture(t, spec, random));
  }
  for (const MaterialSpec& mat : spec.materials) {
    if (!mat.texture.empty() && !a.texture_ids.count(mat.texture)) {
      fail(mat.origin, mat.name, "unknown texture '" + mat.texture + "'");
    }
  }
  for (size_t i = 0; i < spec.hfields.size(); ++i) {
    const HfieldSpec& h = spec.hfields[i];
    if (a.hfield_names[i].empty()) {
      fail(h.origin, "", "a height field needs a name (or a file to take it from)");
    }
    CompiledHfield c;
    c.size = h.size;
    for (double s : h.size) {
      if (!(s > 0)) fail(h.origin, h.name, "height field sizes must be positive");
    }
    if (!h.file.empty()) {
      if (h.nrow != 0 || h.ncol != 0) {
        fail(h.origin, h.name,
             "a height field takes its size from its file; nrow and ncol must not be given");
      }
      const std::string path = resolve_asset_path(h.file, spec.compiler.meshdir, spec);
      try {  // file errors name the file; add the element
        c.data = has_png_extension(path)
                     ? read_hfield_png(path, c.nrow, c.ncol, h.origin.describe(h.name))
                     : read_hfield_binary(path, c.nrow, c.ncol, h.origin.describe(h.name));
      } catch (const InputError& e) {
        const std::string what = e.what();
        if (what.rfind(path, 0) == 0) fail(h.origin, h.name, what);
        throw;
      }
      normalize_elevations(c.data);
    } else {
      if (h.nrow <= 0 || h.ncol <= 0) {
        fail(h.origin, h.name, "a height field needs a file or positive nrow and ncol");
      }
      if (int64_t{h.nrow} * h.ncol > (int64_t{1} << 28)) {
        fail(h.origin, h.name, "height field is too large");
      }
      c.nrow = h.nrow;
      c.ncol = h.ncol;
      c.data.assign(static_cast<size_t>(h.nrow) * static_cast<size_t>(h.ncol), 0.0f);
    }
    a.hfields.push_back(std::move(c));
  }
  a.skins = spec.skins;
  for (SkinSpec& s : a.skins) {
    if (!s.file.empty()) {
      if (!s.vertex.empty() || !s.texcoord.empty() || !s.face.empty() || !s.bones.empty()) {
        fail(s.origin, s.name, "a skin with a file takes its vertices, faces and bones from it");
      }
      const std::string path = resolve_asset_path(s.file, spec.compiler.meshdir, spec);
      try {  // file errors name the file; add the element
        RawSkin raw = read_skin_file(path, s.origin.describe(s.name));
        s.vertex = std::move(raw.vertex);
        s.texcoord = std::move(raw.texcoord);
        s.face = std::move(raw.face);
        for (RawSkinBone& r : raw.bones) {
          SkinBoneSpec b;
          b.origin = s.origin;
          b.body = std::move(r.body);
          b.bindpos = r.bindpos;
          b.bindquat = r.bindquat;
          b.vertid = std::move(r.vertid);
          b.vertweight = std::move(r.vertweight);
          s.bones.push_back(std::move(b));
        }
      } catch (const InputError& e) {
        const std::string what = e.what();
        if (what.rfind(path, 0) == 0) fail(s.origin, s.name, what);
        throw;
      }
    }
    check_skin_data(s);
    if (!s.material.empty() && !a.material_ids.count(s.material)) {
      fail(s.origin, s.name, "unknown material '" + s.material + "'");
    }
  }
  return a;
}

void CompiledAssets::add_sizes(ModelSizes& s) const {
  s.nmesh = static_cast<int>(meshes.size());
  for (const CompiledMesh& m : meshes) {
    s.nmeshvert += static_cast<int>(m.vert.size() / 3);
    s.nmeshtexvert += static_cast<int>(m.texcoord.size() / 2);
    s.nmeshface += static_cast<int>(m.face.size() / 3);
    s.nmeshgraph += static_cast<int>(m.graph.size());
  }
  s.nskin = static_cast<int>(skins.size());
  for (const SkinSpec& k : skins) {
    s.nskinvert += static_cast<int>(k.vertex.size() / 3);
    s.nskintexvert += static_cast<int>(k.texcoord.size() / 2);
    s.nskinface += static_cast<int>(k.face.size() / 3);
    s.nskinbone += static_cast<int>(k.bones.size());
    for (const SkinBoneSpec& b : k.bones) s.nskinbonevert += static_cast<int>(b.vertid.size());
  }
  s.nhfield = static_cast<int>(hfields.size());
  for (const CompiledHfield& h : hfields) s.nhfielddata += h.nrow * h.ncol;
  s.ntex = static_cast<int>(textures.size());
  for (const CompiledTexture& t : textures) s.ntexdata += static_cast<int>(t.rgb.size());
  s.nmat = static_cast<int>(spec->materials.size());
}

// A height field geom is sized by its field: half extents in x and y, and the mean of the top
// elevation and base depth.
Vec3 CompiledAssets::hfield_geom_size(int id) const {
  const auto& size = hfields[static_cast<size_t>(id)].size;
  return {size[0], size[1], (size[2] + size[3]) / 2};
}

void CompiledAssets::fill(Model& m, const std::map<std::string, int>& body_ids,
                          const ModelSpec& model_spec) const {
  int vert = 0, texvert = 0, face = 0, graph = 0;
  for (int i = 0; i < m.nmesh; ++i) {
    const CompiledMesh& mesh = meshes[static_cast<size_t>(i)];
    const int nvert = static_cast<int>(mesh.vert.size() / 3);
    m.mesh_vertadr[i] = vert;
    m.mesh_vertnum[i] = nvert;
    m.mesh_faceadr[i] = face;
    m.mesh_facenum[i] = static_cast<int>(mesh.face.size() / 3);
    m.mesh_texcoordadr[i] = mesh.texcoord.empty() ? -1 : texvert;
    m.mesh_graphadr[i] = mesh.graph.empty() ? -1 : graph;
    std::copy(mesh.vert.begin(), mesh.vert.end(), m.mesh_vert + 3 * vert);
    std::copy(mesh.normal.begin(), mesh.normal.end(), m.mesh_normal + 3 * vert);
    std::copy(mesh.texcoord.begin(), mesh.texcoord.end(), m.mesh_texcoord + 2 * texvert);
    std::copy(mesh.face.begin(), mesh.face.end(), m.mesh_face + 3 * face);
    std::copy(mesh.graph.begin(), mesh.graph.end(), m.mesh_graph + graph);
    vert += nvert;
    texvert += static_cast<int>(mesh.texcoord.size() / 2);
    face += m.mesh_facenum[i];
    graph += static_cast<int>(mesh.graph.size());
  }

  int skinvert = 0, skintex = 0, skinface = 0, bone = 0, bonevert = 0;
  for (int i = 0; i < m.nskin; ++i) {
    const SkinSpec& s = skins[static_cast<size_t>(i)];
    m.skin_matid[i] = s.material.empty() ? -1 : material_ids.at(s.material);
    m.skin_group[i] = s.group;
    for (int k = 0; k < 4; ++k)
      m.skin_rgba[4 * i + k] = static_cast<float>(s.rgba[static_cast<size_t>(k)]);
    m.skin_inflate[i] = static_cast<float>(s.inflate);
    const int nvert = static_cast<int>(s.vertex.size() / 3);
    m.skin_vertadr[i] = skinvert;
    m.skin_vertnum[i] = nvert;
    m.skin_texcoordadr[i] = s.texcoord.empty() ? -1 : skintex;
    m.skin_faceadr[i] = skinface;
    m.skin_facenum[i] = static_cast<int>(s.face.size() / 3);
    m.skin_boneadr[i] = bone;
    m.skin_bonenum[i] = static_cast<int>(s.bones.size());
    for (size_t k = 0; k < s.vertex.size(); ++k)
      m.skin_vert[3 * skinvert + static_cast<int>(k)] = static_cast<float>(s.vertex[k]);
    for (size_t k = 0; k < s.texcoord.size(); ++k)
      m.skin_texcoord[2 * skintex + static_cast<int>(k)] = static_cast<float>(s.texcoord[k]);
    for (size_t k = 0; k < s.face.size(); ++k)
      m.skin_face[3 * skinface + static_cast<int>(k)] = s.face[k];
    for (const SkinBoneSpec& b : s.bones) {
      auto body = body_ids.find(b.body);
      if (body == body_ids.end()) fail(b.origin, s.name, "unknown body '" + b.body + "'");
      m.skin_bonebodyid[bone] = body->second;
      for (int k = 0; k < 3; ++k)
        m.skin_bonebindpos[3 * bone + k] = static_cast<float>(b.bindpos[static_cast<size_t>(k)]);
      // MuJoCo keeps the bind quaternion in float and normalises that.
      double quat[4];
      for (size_t k = 0; k < 4; ++k) quat[k] = static_cast<float>(b.bindquat[k]);
      math::quat_normalize(quat);
      for (int k = 0; k < 4; ++k) m.skin_bonebindquat[4 * bone + k] = static_cast<float>(quat[k]);
      m.skin_bonevertadr[bone] = bonevert;
      m.skin_bonevertnum[bone] = static_cast<int>(b.vertid.size());
      for (size_t k = 0; k < b.vertid.size(); ++k) {
        m.skin_bonevertid[bonevert] = b.vertid[k];
        m.skin_bonevertweight[bonevert] = static_cast<float>(b.vertweight[k]);
        ++bonevert;
      }
      ++bone;
    }
    skinvert += nvert;
    skintex += static_cast<int>(s.texcoord.size() / 2);
    skinface += m.skin_facenum[i];
  }

  int hdata = 0;
  for (int i = 0; i < m.nhfield; ++i) {
    const CompiledHfield& h = hfields[static_cast<size_t>(i)];
    for (int k = 0; k < 4; ++k) m.hfield_size[4 * i + k] = h.size[static_cast<size_t>(k)];
    m.hfield_nrow[i] = h.nrow;
    m.hfield_ncol[i] = h.ncol;
    m.hfield_adr[i] = hdata;
    std::copy(h.data.begin(), h.data.end(), m.hfield_data + hdata);
    hdata += h.nrow * h.ncol;
  }

  int texdata = 0;
  for (int i = 0; i < m.ntex; ++i) {
    const CompiledTexture& t = textures[static_cast<size_t>(i)];
    m.tex_type[i] = t.type;
    m.tex_width[i] = t.width;
    m.tex_height[i] = t.height;
    m.tex_adr[i] = texdata;
    std::copy(t.rgb.begin(), t.rgb.end(), m.tex_rgb + texdata);
    texdata += static_cast<int>(t.rgb.size());
  }

  for (int i = 0; i < m.nmat; ++i) {
    const MaterialSpec& s = model_spec.materials[static_cast<size_t>(i)];
    m.mat_texid[i] = s.texture.empty() ? -1 : texture_ids.at(s.texture);
    m.mat_texuniform[i] = s.texuniform;
    m.mat_texrepeat[2 * i] = static_cast<float>(s.texrepeat[0]);
    m.mat_texrepeat[2 * i + 1] = static_cast<float>(s.texrepeat[1]);
    m.mat_emission[i] = static_cast<float>(s.emission);
    m.mat_specular[i] = static_cast<float>(s.specular);
    m.mat_shininess[i] = static_cast<float>(s.shininess);
    m.mat_reflectance[i] = static_cast<float>(s.reflectance);
    for (int k = 0; k < 4; ++k)
      m.mat_rgba[4 * i + k] = static_cast<float>(s.rgba[static_cast<size_t>(k)]);
  }
}

}  // namespace joco::compiler
