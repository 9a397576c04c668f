// Meshes in formats the compiler cannot read (COLLADA and the rest of what assimp reads) converted
// to Wavefront OBJ beside the output, for joco-urdf2mjcf. Built with assimp when CMake finds it;
// without it, available() is false and meshes in such formats are left out as before.
#pragma once

#include <set>
#include <string>

namespace joco::tools {

class MeshConverter {
 public:
  explicit MeshConverter(std::string dir) : dir_(std::move(dir)) {}
  static bool available();
  // UrdfOptions::convert_mesh: writes PATH's triangles as OBJ in the output's folder and returns
  // the OBJ's path (note: a line for the summary), or "" (note: why not).
  std::string operator()(const std::string& path, std::string& note);

 private:
  std::string dir_;
  std::set<std::string> written_;  // OBJ files written by this run
};

}  // namespace joco::tools
