// A PNG decoder for textures and height fields: every standard colour type (grey, grey+alpha, RGB,
// RGBA, palette) and bit depth (1, 2, 4, 8, 16), filters 0-4, Adam7 interlacing, CRC and Adler-32
// checks. Images come out as 8-bit RGB the way MuJoCo 2.2.2 sees them: 16-bit samples keep their
// high byte, low-depth grey is scaled to 0-255, alpha is dropped, and palette indices past the
// palette's end are black.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace joco::compiler {

struct RgbImage {
  int width = 0, height = 0;
  std::vector<uint8_t> rgb;  // row-major from the top row, 3 bytes a pixel
};

// Decodes PNG bytes. Throws InputError starting with `name` (a file name, for messages) when the
// data is not a valid PNG.
RgbImage decode_png(const std::vector<uint8_t>& bytes, const std::string& name);

// Whether a file name ends in ".png", in any case: MuJoCo reads such files as PNG.
bool has_png_extension(const std::string& path);

// Reads a whole file; throws InputError naming it when it cannot be read.
std::vector<uint8_t> read_binary_file(const std::string& path);

}  // namespace joco::compiler
