#include "urdf2mjcf/mesh_convert.h"

#include <cmath>
#include <filesystem>
#include <fstream>

#ifdef JOCO_HAVE_ASSIMP
#include <assimp/config.h>
#include <assimp/postprocess.h>
#include <assimp/scene.h>
#include <assimp/version.h>

#include <assimp/Importer.hpp>
#endif

#include <fmt/format.h>

#include "common/io.h"

namespace joco::tools {

namespace fs = std::filesystem;

bool MeshConverter::available() {
#ifdef JOCO_HAVE_ASSIMP
  return true;
#else
  return false;
#endif
}

#ifndef JOCO_HAVE_ASSIMP
std::string MeshConverter::operator()(const std::string&, std::string& note) {
  note = "joco-urdf2mjcf was built without assimp";
  return "";
}
#else
std::string MeshConverter::operator()(const std::string& path, std::string& note) {
  const std::string source = fs::path(path).filename().string();
  Assimp::Importer importer;
  // As ROS's URDF consumers (rviz, Gazebo) read COLLADA: the file's <unit> applies, its <up_axis>
  // does not (the vertices are taken in the link's frame as written; assimp would turn Z_UP files
  // to Y_UP).
  importer.SetPropertyBool(AI_CONFIG_IMPORT_COLLADA_IGNORE_UP_DIRECTION, true);
  const aiScene* scene = importer.ReadFile(
      path, aiProcess_Triangulate | aiProcess_JoinIdenticalVertices | aiProcess_SortByPType);
  if (!scene || !scene->mRootNode) {
    note = fmt::format("assimp cannot read it ({})", importer.GetErrorString());
    return "";
  }
  // The unit's scale, which the importer puts in the root node, for the note; then every node's
  // transformation applied to its meshes.
  const aiMatrix4x4& root = scene->mRootNode->mTransformation;
  const double scale = std::sqrt(root.a1 * root.a1 + root.b1 * root.b1 + root.c1 * root.c1);
  scene = importer.ApplyPostProcessing(aiProcess_PreTransformVertices);
  if (!scene) {
    note = fmt::format("assimp cannot read it ({})", importer.GetErrorString());
    return "";
  }

  std::string obj =
      fmt::format("# {} converted to OBJ by joco-urdf2mjcf (assimp {}.{}.{})\n", source,
                  aiGetVersionMajor(), aiGetVersionMinor(), aiGetVersionPatch());
  const std::string header = obj;
  size_t vertices = 0, triangles = 0;
  for (unsigned k = 0; k < scene->mNumMeshes; ++k) {
    const aiMesh* mesh = scene->mMeshes[k];
    if (!(mesh->mPrimitiveTypes & aiPrimitiveType_TRIANGLE)) continue;
    for (unsigned v = 0; v < mesh->mNumVertices; ++v) {
      const aiVector3D& p = mesh->mVertices[v];
      obj += fmt::format("v {} {} {}\n", p.x, p.y, p.z);
    }
    for (unsigned f = 0; f < mesh->mNumFaces; ++f) {
      const aiFace& face = mesh->mFaces[f];
      if (face.mNumIndices != 3) continue;
      obj += fmt::format("f {} {} {}\n", vertices + face.mIndices[0] + 1,
                         vertices + face.mIndices[1] + 1, vertices + face.mIndices[2] + 1);
      ++triangles;
    }
    vertices += mesh->mNumVertices;
  }
  if (triangles == 0) {
    note = "it has no triangles";
    return "";
  }
  // Beside the output: NAME.obj, unless a file of that name is there that this run wrote for
  // another mesh or that is not a conversion of the same file (not replaced): then NAME_2.obj, ...
  const std::string stem = fs::path(path).stem().string();
  fs::path out;
  for (int k = 1;; ++k) {
    out = fs::path(dir_) / (stem + (k == 1 ? "" : "_" + std::to_string(k)) + ".obj");
    if (written_.count(out.string())) continue;
    std::error_code ec;
    if (!fs::exists(out, ec)) break;
    std::ifstream in(out);
    std::string first;
    std::getline(in, first);
    if (first + "\n" == header) break;
  }
  write_output(out.string(), obj);
  written_.insert(out.string());
  note = fmt::format(
      "mesh '{}' converted to OBJ with assimp: {} ({} vertices, {} triangles{})", source,
      out.filename().string(), vertices, triangles,
      std::abs(scale - 1) > 1e-6 ? fmt::format(", scaled by {:g} for its unit", scale) : "");
  return fs::absolute(out).lexically_normal().string();
}
#endif

}  // namespace joco::tools
