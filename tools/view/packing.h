// How joco-view packs arrays for the page (schemas/replay.md): little-endian float32 and uint32
// arrays as base64 text, and images as PNG files (for the model's textures).
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace joco::tools::view {

// RFC 4648 base64 (with '=' padding) of bytes.
std::string base64(std::span<const uint8_t> bytes);

// Values as little-endian float32 (rounded to nearest), in base64.
std::string base64_float32(std::span<const float> values);
std::string base64_float32(std::span<const double> values);
// Values as little-endian uint32, in base64.
std::string base64_uint32(std::span<const uint32_t> values);

// An 8-bit RGB image (rows of width * 3 bytes, top row first) as a PNG file: zlib-compressed, each
// row with the filter that makes it smallest by the usual sum-of-differences estimate.
std::vector<uint8_t> encode_png_rgb(std::span<const uint8_t> rgb, int width, int height);

}  // namespace joco::tools::view
