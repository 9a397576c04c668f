#include "decode/texture_file.h"

#include <cstring>

#include "decode/png.h"
#include "joco/error.h"

namespace joco::compiler {

RgbImage read_texture_file(const std::string& path, const std::string& where) {
  RgbImage image;
  std::vector<uint8_t> bytes;
  try {  // file errors name the file; add the element
    bytes = read_binary_file(path);
    if (has_png_extension(path)) {
      RgbImage png = decode_png(bytes, path);
      image.width = png.width;
      image.height = png.height;
      image.rgb = std::move(png.rgb);
    }
  } catch (const InputError& e) {
    throw InputError(where + ": " + e.what());
  }
  if (!has_png_extension(path)) {
    int32_t size[2] = {0, 0};
    if (bytes.size() >= sizeof(size)) std::memcpy(size, bytes.data(), sizeof(size));
    const uint64_t n = size[0] > 0 && size[1] > 0 ? uint64_t{3} * static_cast<uint64_t>(size[0]) *
                                                        static_cast<uint64_t>(size[1])
                                                  : 0;
    if (n == 0 || n > kMaxTextureBytes || bytes.size() != sizeof(size) + n) {
      throw InputError(where + ": '" + path +
                       "' is not a PNG file (by its extension) and not a valid custom texture file "
                       "(int32 width, int32 height, then width*height RGB bytes)");
    }
    image.width = size[0];
    image.height = size[1];
    image.rgb.assign(bytes.begin() + sizeof(size), bytes.end());
  }
  if (uint64_t{3} * static_cast<uint64_t>(image.width) * static_cast<uint64_t>(image.height) >
      kMaxTextureBytes) {
    throw InputError(where + ": '" + path + "' is too large for a texture");
  }
  return image;
}

}  // namespace joco::compiler
