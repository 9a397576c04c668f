#include "compiler/mesh_file.h"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <map>
#include <sstream>
#include <tuple>

#include "joco/error.h"

namespace joco::mesh_file {
namespace {

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

bool ends_with(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

std::string read_file(const std::string& path, const std::string& kind, const std::string& where) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(where + ": could not open " + kind + " file '" + path + "'");
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

template <typename T>
T read_le(const std::string& bytes, size_t offset) {
  T value;
  std::memcpy(&value, bytes.data() + offset, sizeof(T));
  return value;
}

// Merges repeated vertices (exactly equal coordinates): the first occurrence keeps its place in
// the order of first appearance and faces are re-indexed.
void merge_repeated(RawMesh& mesh) {
  const int nvert = static_cast<int>(mesh.vert.size() / 3);
  std::map<std::tuple<float, float, float>, int> index;
  std::vector<int> redirect(nvert);
  std::vector<float> unique;
  unique.reserve(mesh.vert.size());
  for (int i = 0; i < nvert; ++i) {
    const float* v = &mesh.vert[3 * i];
    auto [it, inserted] = index.emplace(std::make_tuple(v[0], v[1], v[2]), static_cast<int>(unique.size() / 3));
    if (inserted) unique.insert(unique.end(), v, v + 3);
    redirect[i] = it->second;
  }
  for (int& f : mesh.face) f = redirect[f];
  mesh.vert = std::move(unique);
}

}  // namespace

RawMesh load_stl(const std::string& bytes, const std::string& where) {
  if (bytes.empty()) throw InputError(where + ": STL file is empty");
  if (bytes.size() < 84) throw InputError(where + ": invalid header in STL file");
  const uint32_t nface = read_le<uint32_t>(bytes, 80);
  if (nface < 1 || nface > 200000)
    throw InputError(where +
                     ": number of faces should be between 1 and 200000 in STL file; perhaps this is "
                     "an ASCII file?");
  if (bytes.size() != 84 + 50 * static_cast<size_t>(nface))
    throw InputError(where + ": STL file has wrong size; perhaps this is an ASCII file?");
  RawMesh mesh;
  mesh.vert.resize(9 * static_cast<size_t>(nface));
  mesh.face.resize(3 * static_cast<size_t>(nface));
  for (uint32_t f = 0; f < nface; ++f) {
    const size_t base = 84 + 50 * static_cast<size_t>(f) + 12;  // skip the facet normal
    for (int k = 0; k < 9; ++k) {
      const float v = read_le<float>(bytes, base + 4 * k);
      if (!std::isfinite(v)) throw InputError(where + ": STL file contains invalid vertices");
      if (std::fabs(v) > 1e10f)
        throw InputError(where + ": vertex coordinates in STL file exceed maximum bounds");
      mesh.vert[9 * f + k] = v;
    }
    for (int k = 0; k < 3; ++k) mesh.face[3 * f + k] = static_cast<int>(3 * f + k);
  }
  merge_repeated(mesh);
  return mesh;
}

RawMesh load_msh(const std::string& bytes, const std::string& where) {
  if (bytes.empty()) throw InputError(where + ": MSH file is empty");
  if (bytes.size() < 16) throw InputError(where + ": missing header in MSH file");
  const int32_t nvert = read_le<int32_t>(bytes, 0);
  const int32_t nnormal = read_le<int32_t>(bytes, 4);
  const int32_t ntexcoord = read_le<int32_t>(bytes, 8);
  const int32_t nface = read_le<int32_t>(bytes, 12);
  if (nvert < 4 || nnormal < 0 || ntexcoord < 0 || nface < 0 || (nnormal > 0 && nnormal != nvert) ||
      (ntexcoord > 0 && ntexcoord != nvert))
    throw InputError(where + ": invalid sizes in MSH file");
  const size_t expected = 16 + 12 * (static_cast<size_t>(nvert) + nnormal + nface) + 8 * static_cast<size_t>(ntexcoord);
  if (bytes.size() != expected) throw InputError(where + ": unexpected file size in MSH file");
  RawMesh mesh;
  size_t offset = 16;
  auto floats = [&](std::vector<float>& out, size_t n) {
    out.resize(n);
    if (n) std::memcpy(out.data(), bytes.data() + offset, 4 * n);
    offset += 4 * n;
  };
  floats(mesh.vert, 3 * static_cast<size_t>(nvert));
  floats(mesh.normal, 3 * static_cast<size_t>(nnormal));
  floats(mesh.texcoord, 2 * static_cast<size_t>(ntexcoord));
  mesh.face.resize(3 * static_cast<size_t>(nface));
  if (nface) std::memcpy(mesh.face.data(), bytes.data() + offset, 12 * static_cast<size_t>(nface));
  return mesh;
}

RawMesh load_obj(const std::string& text, const std::string& where) {
  RawMesh mesh;
  (void)text;
  throw InputError(where + ": OBJ not implemented yet");
  return mesh;
}

RawMesh load(const std::string& path, const std::string& where) {
  const std::string ext = lower(path);
  if (ends_with(ext, ".stl")) return load_stl(read_file(path, "STL", where), where + " (file '" + path + "')");
  if (ends_with(ext, ".msh")) return load_msh(read_file(path, "MSH", where), where + " (file '" + path + "')");
  if (ends_with(ext, ".obj")) return load_obj(read_file(path, "OBJ", where), where + " (file '" + path + "')");
  throw InputError(where + ": unknown mesh file type: " + path);
}

}  // namespace joco::mesh_file
