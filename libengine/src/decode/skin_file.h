// Skin files in MuJoCo's binary SKN format.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace joco::compiler {

// One bone of a skin file: the body it binds to, its bind pose, and the vertices it moves.
struct RawSkinBone {
  std::string body;
  std::array<double, 3> bindpos{};
  std::array<double, 4> bindquat{};
  std::vector<int> vertid;
  std::vector<double> vertweight;
};

// A skin file's data as the file has it (values widened from float32).
struct RawSkin {
  std::vector<double> vertex, texcoord;  // 3 and 2 per vertex
  std::vector<int> face;                 // 3 per face
  std::vector<RawSkinBone> bones;
};

// Reads a skin file. Errors are InputErrors starting with `where` (the element, for messages), or
// with the file's path when it cannot be read.
RawSkin read_skin_file(const std::string& path, const std::string& where);

// The same from the file's bytes; `file` names them in messages ("skin file 'a.skn'").
RawSkin parse_skin(const std::vector<uint8_t>& bytes, const std::string& file,
                   const std::string& where);

}  // namespace joco::compiler
