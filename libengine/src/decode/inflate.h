// zlib decompression (RFC 1950 container, RFC 1951 DEFLATE data) for PNG files: stored, fixed
// Huffman and dynamic Huffman blocks, with the Adler-32 check.
#pragma once

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <vector>

namespace joco::compiler {

// Malformed compressed data. The message says what is wrong, not where it came from; callers
// add the file name.
class InflateError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Decompresses a zlib stream. Producing more than `max_output` bytes is an error, which bounds the
// memory a hostile stream can claim. Bytes after the Adler-32 trailer are ignored.
std::vector<uint8_t> zlib_decompress(const uint8_t* data, size_t size, size_t max_output);

}  // namespace joco::compiler
