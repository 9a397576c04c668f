// Texture files as MuJoCo 2.2.2 reads them: PNG when the name ends in .png (in any case), else
// MuJoCo's custom format (int32 width, int32 height, then width*height RGB bytes, nothing more).
#pragma once

#include <cstdint>
#include <string>

#include "decode/png.h"

namespace joco::compiler {

// Largest texture accepted, in bytes: tex_adr and ntexdata are ints.
constexpr uint64_t kMaxTextureBytes = 0x7fffffff;

// The image of a texture file, at most 2^31 - 1 bytes of RGB. Throws InputError starting with
// `where` (the element, for messages) when the file cannot be read or is not a valid texture file.
RgbImage read_texture_file(const std::string& path, const std::string& where);

}  // namespace joco::compiler
