#include "decode/skin_file.h"

#include <algorithm>
#include <cstring>

#include "decode/png.h"
#include "joco/error.h"

namespace joco::compiler {

// A skin from MuJoCo's binary SKN format (XMLreference, skin): int32 nvertex, ntexcoord, nface,
// nbone; float32 vertices and texture coordinates; int32 faces; then per bone a 40-byte body name,
// float32 bindpos[3] and bindquat[4], int32 vertex count, its int32 vertex ids and float32
// weights; and nothing more.
RawSkin read_skin_file(const std::string& path, const std::string& where) {
  return parse_skin(read_binary_file(path), "skin file '" + path + "'", where);
}

RawSkin parse_skin(const std::vector<uint8_t>& bytes, const std::string& file,
                   const std::string& where) {
  RawSkin s;
  size_t at = 0;
  // `n` 4-byte values (or `n` bytes) at the read position, or an error naming `what`.
  auto take = [&](size_t n, const std::string& what, size_t size = 4) -> const uint8_t* {
    if (n > (bytes.size() - at) / size)
      throw InputError(where + ": " + file + " ends inside " + what);
    const uint8_t* p = bytes.data() + at;
    at += size * n;
    return p;
  };
  auto int_at = [](const uint8_t* p, size_t k) {
    int32_t v;
    std::memcpy(&v, p + 4 * k, 4);
    return v;
  };
  auto float_at = [](const uint8_t* p, size_t k) {
    float v;
    std::memcpy(&v, p + 4 * k, 4);
    return static_cast<double>(v);
  };
  const uint8_t* head = take(4, "its header (4 int32 counts)");
  const int32_t nvertex = int_at(head, 0), ntexcoord = int_at(head, 1), nface = int_at(head, 2),
                nbone = int_at(head, 3);
  if (nvertex < 0 || ntexcoord < 0 || nface < 0 || nbone < 0)
    throw InputError(where + ": " + file + " has a negative count in its header");
  if (ntexcoord != 0 && ntexcoord != nvertex) {
    throw InputError(where + ": " + file + " has " + std::to_string(ntexcoord) +
                     " texture coordinates for " + std::to_string(nvertex) +
                     " vertices (must be 0 or as many)");
  }
  const uint8_t* vert = take(3 * static_cast<size_t>(nvertex), "the vertex data");
  const uint8_t* tex = take(2 * static_cast<size_t>(ntexcoord), "the texture coordinates");
  const uint8_t* face = take(3 * static_cast<size_t>(nface), "the face data");
  for (size_t k = 0; k < 3 * static_cast<size_t>(nvertex); ++k)
    s.vertex.push_back(float_at(vert, k));
  for (size_t k = 0; k < 2 * static_cast<size_t>(ntexcoord); ++k)
    s.texcoord.push_back(float_at(tex, k));
  for (size_t k = 0; k < 3 * static_cast<size_t>(nface); ++k) s.face.push_back(int_at(face, k));
  for (int32_t i = 0; i < nbone; ++i) {
    const std::string bone = "bone " + std::to_string(i);
    RawSkinBone b;
    // A name of 40 characters loses its last, as in MuJoCo, which keeps a terminating 0.
    const char* name = reinterpret_cast<const char*>(take(40, bone + "'s body name", 1));
    b.body.assign(name, std::find(name, name + 39, '\0'));
    const uint8_t* bind = take(7, bone + "'s bind pose");
    for (size_t k = 0; k < 3; ++k) b.bindpos[k] = float_at(bind, k);
    for (size_t k = 0; k < 4; ++k) b.bindquat[k] = float_at(bind, 3 + k);
    const int32_t count = int_at(take(1, bone + "'s vertex count"), 0);
    if (count <= 0) throw InputError(where + ": " + file + ": " + bone + " has no vertices");
    const uint8_t* ids = take(static_cast<size_t>(count), bone + "'s vertex ids");
    const uint8_t* weights = take(static_cast<size_t>(count), bone + "'s vertex weights");
    for (size_t k = 0; k < static_cast<size_t>(count); ++k) {
      b.vertid.push_back(int_at(ids, k));
      b.vertweight.push_back(float_at(weights, k));
    }
    s.bones.push_back(std::move(b));
  }
  if (at != bytes.size()) {
    throw InputError(where + ": " + file + " has " + std::to_string(bytes.size() - at) +
                     " bytes after its last bone");
  }
  return s;
}

}  // namespace joco::compiler
