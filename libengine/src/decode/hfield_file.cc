#include "decode/hfield_file.h"

#include <cstring>

#include "decode/png.h"
#include "joco/error.h"

namespace joco::compiler {

// Height field data from MuJoCo's binary format: int32 nrow, int32 ncol, then nrow*ncol float32
// elevations, row by row, and nothing more.
std::vector<float> read_hfield_binary(const std::string& path, int& nrow, int& ncol,
                                      const std::string& where) {
  const std::vector<uint8_t> bytes = read_binary_file(path);
  int32_t header[2] = {0, 0};
  if (bytes.size() < sizeof(header)) {
    throw InputError(where + ": height field file '" + path + "' is too short");
  }
  std::memcpy(header, bytes.data(), sizeof(header));
  if (header[0] <= 0 || header[1] <= 0) {
    throw InputError(where + ": height field file '" + path + "' has non-positive dimensions");
  }
  const uint64_t n = static_cast<uint64_t>(header[0]) * static_cast<uint64_t>(header[1]);
  if (n > (uint64_t{1} << 28) || bytes.size() != sizeof(header) + 4 * n) {
    throw InputError(where + ": height field file '" + path +
                     "' does not hold nrow*ncol floats after its header");
  }
  nrow = header[0];
  ncol = header[1];
  std::vector<float> data(static_cast<size_t>(n));
  std::memcpy(data.data(), bytes.data() + sizeof(header), 4 * n);
  return data;
}

// Height field data from a PNG: the elevation is the red channel (the grey level of grey images),
// and the image's bottom row is the field's first row.
std::vector<float> read_hfield_png(const std::string& path, int& nrow, int& ncol,
                                   const std::string& where) {
  const RgbImage image = decode_png(read_binary_file(path), path);
  if (uint64_t{1} * static_cast<uint64_t>(image.width) * static_cast<uint64_t>(image.height) >
      (uint64_t{1} << 28)) {
    throw InputError(where + ": height field image '" + path + "' is too large");
  }
  nrow = image.height;
  ncol = image.width;
  std::vector<float> data(static_cast<size_t>(nrow) * static_cast<size_t>(ncol));
  for (size_t r = 0; r < static_cast<size_t>(nrow); ++r) {
    const size_t src_row = static_cast<size_t>(nrow) - 1 - r;
    for (size_t c = 0; c < static_cast<size_t>(ncol); ++c) {
      data[r * static_cast<size_t>(ncol) + c] =
          image.rgb[3 * (src_row * static_cast<size_t>(ncol) + c)];
    }
  }
  return data;
}

}  // namespace joco::compiler
