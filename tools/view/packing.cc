#include "view/packing.h"

#include <zlib.h>

#include <bit>
#include <cstdlib>
#include <cstring>
#include <stdexcept>

namespace joco::tools::view {
namespace {

static_assert(std::endian::native == std::endian::little, "the page reads little-endian arrays");

void put_u32_be(std::vector<uint8_t>& out, uint32_t v) {
  for (int shift = 24; shift >= 0; shift -= 8) out.push_back(static_cast<uint8_t>(v >> shift));
}

// One PNG chunk: length, type, data, CRC of type and data.
void put_chunk(std::vector<uint8_t>& out, const char type[4], std::span<const uint8_t> data) {
  put_u32_be(out, static_cast<uint32_t>(data.size()));
  const size_t start = out.size();
  out.insert(out.end(), type, type + 4);
  out.insert(out.end(), data.begin(), data.end());
  const uLong crc = crc32(0L, out.data() + start, static_cast<uInt>(out.size() - start));
  put_u32_be(out, static_cast<uint32_t>(crc));
}

uint8_t paeth(int a, int b, int c) {
  const int p = a + b - c, pa = std::abs(p - a), pb = std::abs(p - b), pc = std::abs(p - c);
  return static_cast<uint8_t>(pa <= pb && pa <= pc ? a : pb <= pc ? b : c);
}

}  // namespace

std::string base64(std::span<const uint8_t> bytes) {
  static constexpr char kDigits[] =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  out.reserve((bytes.size() + 2) / 3 * 4);
  size_t i = 0;
  for (; i + 3 <= bytes.size(); i += 3) {
    const uint32_t v = uint32_t{bytes[i]} << 16 | uint32_t{bytes[i + 1]} << 8 | bytes[i + 2];
    out += kDigits[v >> 18];
    out += kDigits[(v >> 12) & 63];
    out += kDigits[(v >> 6) & 63];
    out += kDigits[v & 63];
  }
  if (i < bytes.size()) {
    const bool two = i + 1 < bytes.size();
    const uint32_t v = uint32_t{bytes[i]} << 16 | (two ? uint32_t{bytes[i + 1]} << 8 : 0);
    out += kDigits[v >> 18];
    out += kDigits[(v >> 12) & 63];
    out += two ? kDigits[(v >> 6) & 63] : '=';
    out += '=';
  }
  return out;
}

std::string base64_float32(std::span<const float> values) {
  return base64({reinterpret_cast<const uint8_t*>(values.data()), values.size_bytes()});
}

std::string base64_float32(std::span<const double> values) {
  std::vector<float> f(values.begin(), values.end());
  return base64_float32(std::span<const float>(f));
}

std::string base64_uint32(std::span<const uint32_t> values) {
  return base64({reinterpret_cast<const uint8_t*>(values.data()), values.size_bytes()});
}

std::vector<uint8_t> encode_png_rgb(std::span<const uint8_t> rgb, int width, int height) {
  const size_t stride = size_t(width) * 3;
  if (width <= 0 || height <= 0 || rgb.size() != stride * size_t(height)) {
    throw std::invalid_argument("encode_png_rgb: the image's size does not match its bytes");
  }
  // Filtered rows: a filter byte, then the row. Each row takes the filter (none, sub, up,
  // average, Paeth) whose bytes, read as signed, sum to the least magnitude.
  std::vector<uint8_t> filtered;
  filtered.reserve((stride + 1) * size_t(height));
  std::vector<uint8_t> trial(stride), best(stride);
  for (int y = 0; y < height; ++y) {
    const uint8_t* row = rgb.data() + size_t(y) * stride;
    const uint8_t* up = y > 0 ? row - stride : nullptr;
    long best_cost = -1;
    int best_filter = 0;
    for (int f = 0; f < 5; ++f) {
      long cost = 0;
      for (size_t x = 0; x < stride; ++x) {
        const int a = x >= 3 ? row[x - 3] : 0, b = up ? up[x] : 0, c = x >= 3 && up ? up[x - 3] : 0;
        const int predict = f == 0   ? 0
                            : f == 1 ? a
                            : f == 2 ? b
                            : f == 3 ? (a + b) / 2
                                     : paeth(a, b, c);
        trial[x] = static_cast<uint8_t>(row[x] - predict);
        cost += std::abs(static_cast<int8_t>(trial[x]));
      }
      if (best_cost < 0 || cost < best_cost) {
        best_cost = cost;
        best_filter = f;
        best.swap(trial);
      }
    }
    filtered.push_back(static_cast<uint8_t>(best_filter));
    filtered.insert(filtered.end(), best.begin(), best.end());
  }
  uLongf packed_size = compressBound(static_cast<uLong>(filtered.size()));
  std::vector<uint8_t> packed(packed_size);
  if (compress2(packed.data(), &packed_size, filtered.data(), static_cast<uLong>(filtered.size()),
                Z_BEST_COMPRESSION) != Z_OK) {
    throw std::runtime_error("encode_png_rgb: zlib failed");
  }
  packed.resize(packed_size);

  std::vector<uint8_t> png = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
  std::vector<uint8_t> header;
  put_u32_be(header, static_cast<uint32_t>(width));
  put_u32_be(header, static_cast<uint32_t>(height));
  header.insert(header.end(),
                {8, 2, 0, 0, 0});  // 8-bit RGB, deflate, adaptive filter, no interlace
  put_chunk(png, "IHDR", header);
  put_chunk(png, "IDAT", packed);
  put_chunk(png, "IEND", {});
  return png;
}

}  // namespace joco::tools::view
