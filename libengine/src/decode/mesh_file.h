// Readers of the mesh file formats MuJoCo 2.2.2 accepts: binary STL, Wavefront OBJ and MSH.
#pragma once

#include <string>
#include <vector>

namespace joco::mesh_file {

// Raw mesh data as read from a file, single precision like mjModel.
struct RawMesh {
  std::vector<float> vert;      // 3 per vertex
  std::vector<float> normal;    // 3 per vertex, or empty
  std::vector<float> texcoord;  // 2 per vertex, or empty
  std::vector<int> face;        // 3 per face
};

// Reads `path` by its extension (.stl, .obj, .msh; case-insensitive). `where` prefixes messages.
// STL data has its repeated vertices merged as MuJoCo 2.2.2 merges them (see merge_repeated in
// mesh_file.cc: a few copies stay apart), first occurrence kept, faces re-indexed.
RawMesh load(const std::string& path, const std::string& where);

// Whether load reads a file of this name: one ending in .stl, .obj or .msh, in any case.
bool readable(const std::string& path);

RawMesh load_stl(const std::string& bytes, const std::string& where);
RawMesh load_obj(const std::string& text, const std::string& where);
RawMesh load_msh(const std::string& bytes, const std::string& where);

}  // namespace joco::mesh_file
