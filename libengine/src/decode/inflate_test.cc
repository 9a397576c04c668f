// zlib decompression: streams written by zlib itself (inside the test PNGs), hand-made streams of
// each block type, and every class of malformed stream.
#include "decode/inflate.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "support/errors.h"

namespace joco::compiler {
namespace {

using Bytes = std::vector<uint8_t>;

// Writes a DEFLATE bit stream: fields least significant bit first, Huffman codes most significant
// bit first (RFC 1951, 3.1.1).
class BitWriter {
 public:
  void bits(uint32_t value, int n) {
    for (int i = 0; i < n; ++i) put((value >> i) & 1);
  }
  void code(uint32_t code, int n) {
    for (int i = n - 1; i >= 0; --i) put((code >> i) & 1);
  }
  Bytes finish() { return bytes_; }

 private:
  void put(uint32_t bit) {
    if (count_ % 8 == 0) bytes_.push_back(0);
    bytes_.back() = static_cast<uint8_t>(bytes_.back() | (bit << (count_ % 8)));
    ++count_;
  }
  Bytes bytes_;
  int count_ = 0;
};

uint32_t adler(const Bytes& data) {
  uint32_t a = 1, b = 0;
  for (uint8_t v : data) {
    a = (a + v) % 65521;
    b = (b + a) % 65521;
  }
  return (b << 16) | a;
}

// A zlib stream around DEFLATE data, with the Adler-32 of `content`.
Bytes zlib(const Bytes& deflate, const Bytes& content) {
  Bytes out;
  out.reserve(deflate.size() + 6);
  out.push_back(0x78);
  out.push_back(0x01);
  for (uint8_t v : deflate) out.push_back(v);
  const uint32_t a = adler(content);
  for (int s = 24; s >= 0; s -= 8) out.push_back(static_cast<uint8_t>(a >> s));
  return out;
}

Bytes stored(const Bytes& content, bool final = true) {
  Bytes out = {static_cast<uint8_t>(final ? 1 : 0)};
  const size_t n = content.size();
  out.push_back(static_cast<uint8_t>(n));
  out.push_back(static_cast<uint8_t>(n >> 8));
  out.push_back(static_cast<uint8_t>(~n));
  out.push_back(static_cast<uint8_t>(~n >> 8));
  out.insert(out.end(), content.begin(), content.end());
  return out;
}

// The fixed Huffman code of a literal/length symbol (RFC 1951, 3.2.6).
void fixed_symbol(BitWriter& w, int sym) {
  if (sym < 144) {
    w.code(0x30 + static_cast<uint32_t>(sym), 8);
  } else if (sym < 256)
    w.code(0x190 + static_cast<uint32_t>(sym - 144), 9);
  else if (sym < 280)
    w.code(static_cast<uint32_t>(sym - 256), 7);
  else
    w.code(0xc0 + static_cast<uint32_t>(sym - 280), 8);
}

std::string error_of(const Bytes& stream, size_t max_output = 1000) {
  return test::error_message<InflateError>(
      [&] { zlib_decompress(stream.data(), stream.size(), max_output); });
}

TEST(Inflate, StoredBlocks) {
  const Bytes a = {1, 2, 3}, b = {4, 5};
  Bytes deflate = stored(a, false);
  const Bytes second = stored(b);
  deflate.insert(deflate.end(), second.begin(), second.end());
  const Bytes content = {1, 2, 3, 4, 5};
  EXPECT_EQ(zlib_decompress(zlib(deflate, content).data(), zlib(deflate, content).size(), 100),
            content);
}

TEST(Inflate, FixedBlockWithOverlappingMatch) {
  // "ab" then a match of length 6 at distance 2: "abababab"
  BitWriter w;
  w.bits(1, 1);
  w.bits(1, 2);
  fixed_symbol(w, 'a');
  fixed_symbol(w, 'b');
  fixed_symbol(w, 260);  // length 6
  w.code(1, 5);          // distance code 1: distance 2
  fixed_symbol(w, 256);
  const Bytes content = {'a', 'b', 'a', 'b', 'a', 'b', 'a', 'b'};
  const Bytes z = zlib(w.finish(), content);
  EXPECT_EQ(zlib_decompress(z.data(), z.size(), 100), content);
}

// Starts a dynamic block: header fields, then the code-length code's lengths in the order the
// format sends them (16 17 18 0 8 7 9 6 10 5 11 4 12 3 13 2 14 1 15).
void dynamic_header(BitWriter& w, int nlit, int ndist,
                    const std::vector<int>& code_lengths_in_order) {
  w.bits(1, 1);  // final
  w.bits(2, 2);  // dynamic
  w.bits(static_cast<uint32_t>(nlit - 257), 5);
  w.bits(static_cast<uint32_t>(ndist - 1), 5);
  w.bits(static_cast<uint32_t>(code_lengths_in_order.size() - 4), 4);
  for (int len : code_lengths_in_order) w.bits(static_cast<uint32_t>(len), 3);
}

TEST(Inflate, DynamicBlock) {
  // Code-length code: 18 -> "0", 0 -> "10", 1 -> "11". Literal 'x' (120) and end-of-block get
  // length 1 ('x' = "0", end = "1"), everything else 0.
  BitWriter w;
  dynamic_header(w, 257, 1, {0, 0, 1, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2});
  w.code(0, 1);  // 18: 11 + 109 zeros for literals 0..119
  w.bits(109, 7);
  w.code(3, 2);  // 1: 'x'
  w.code(0, 1);  // 18: 11 + 124 zeros for 121..255
  w.bits(124, 7);
  w.code(3, 2);  // 1: end of block
  w.code(2, 2);  // 0: the only distance code is unused
  for (int i = 0; i < 3; ++i) w.code(0, 1);
  w.code(1, 1);
  const Bytes content = {'x', 'x', 'x'};
  const Bytes z = zlib(w.finish(), content);
  EXPECT_EQ(zlib_decompress(z.data(), z.size(), 100), content);
}

// A fixed block: literals, then optionally one match, then end of block.
Bytes fixed_block(const std::vector<int>& symbols, int length_symbol = 0, int distance_code = 0) {
  BitWriter w;
  w.bits(1, 1);
  w.bits(1, 2);
  for (int s : symbols) fixed_symbol(w, s);
  if (length_symbol) {
    fixed_symbol(w, length_symbol);
    w.code(static_cast<uint32_t>(distance_code), 5);
  }
  fixed_symbol(w, 256);
  return w.finish();
}

TEST(Inflate, EveryClassOfMalformedStreamIsRejected) {
  const Bytes content = {1, 2, 3};
  ASSERT_EQ(error_of(zlib(stored(content), content)), "");

  auto expect_error = [](const Bytes& stream, const std::string& part, size_t max_output = 1000) {
    const std::string e = error_of(stream, max_output);
    EXPECT_NE(e.find(part), std::string::npos)
        << "expected an error containing '" << part << "', got '" << e << "'";
  };
  expect_error({0x78}, "too short");
  expect_error({0x78, 0x02, 0x01, 0, 0, 0xff, 0xff}, "header");
  expect_error({0x79, 0x18, 0x01, 0, 0, 0xff, 0xff}, "method");     // CM = 9
  expect_error({0x78, 0x20, 0x01, 0, 0, 0xff, 0xff}, "dictionar");  // FDICT set
  expect_error(zlib({0x07}, {}), "block type");                     // BTYPE = 3
  Bytes bad_nlen = stored(content);
  bad_nlen[3] ^= 1;
  expect_error(zlib(bad_nlen, content), "complement");
  Bytes cut = zlib(stored(content), content);
  cut.resize(cut.size() - 6);
  expect_error(cut, "ends early");
  expect_error(zlib(stored(content), {9, 9}), "Adler-32");
  expect_error(zlib(stored(content), content), "more decompressed data", 2);

  // Huffman codes
  BitWriter over;
  dynamic_header(over, 257, 1, std::vector<int>(19, 1));
  expect_error(zlib(over.finish(), {}), "over-subscribed");
  BitWriter no_previous;  // code-length code: 0 -> "0", 16 -> "1"; the first symbol repeats nothing
  dynamic_header(no_previous, 257, 1, {1, 0, 0, 1});
  no_previous.code(1, 1);
  no_previous.bits(0, 2);
  expect_error(zlib(no_previous.finish(), {}), "no previous length");
  BitWriter no_end;  // 1 -> "0", 18 -> "1": literal 0 and the distance get length 1, 256 does not
  dynamic_header(no_end, 257, 1, {0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1});
  no_end.code(0, 1);
  no_end.code(1, 1);
  no_end.bits(127, 7);  // 138 zeros
  no_end.code(1, 1);
  no_end.bits(107, 7);  // 118 zeros
  no_end.code(0, 1);
  expect_error(zlib(no_end.finish(), {}), "end-of-block");
  BitWriter too_many;
  too_many.bits(1, 1);
  too_many.bits(2, 2);
  too_many.bits(30, 5);  // 287 literal/length codes
  too_many.bits(0, 5);
  too_many.bits(0, 4);
  expect_error(zlib(too_many.finish(), {}), "too many");
  BitWriter overflow;  // 18 -> "0" only: 138 + 138 zeros overflow 258 lengths
  dynamic_header(overflow, 257, 1, {0, 0, 1, 0});
  for (int i = 0; i < 2; ++i) {
    overflow.code(0, 1);
    overflow.bits(127, 7);
  }
  expect_error(zlib(overflow.finish(), {}), "overflow");
  BitWriter incomplete;  // 18 -> "0" only: the bit string "1" is no code
  dynamic_header(incomplete, 257, 1, {0, 0, 1, 0});
  incomplete.code(1, 1);
  incomplete.bits(0, 16);
  expect_error(zlib(incomplete.finish(), {}), "invalid Huffman code");
  expect_error(zlib(fixed_block({1}, 286), {}), "invalid length code");
  expect_error(zlib(fixed_block({1}, 257, 30), {}), "invalid distance code");
  expect_error(zlib(fixed_block({1}, 257, 1), {}), "before the start");  // distance 2 after 1 byte
}

TEST(Inflate, OutputLimitStopsAHugeExpansion) {
  // One literal and a thousand matches of 258 bytes: about 258 kB from 300 bytes.
  BitWriter w;
  w.bits(1, 1);
  w.bits(1, 2);
  fixed_symbol(w, 7);
  for (int i = 0; i < 1000; ++i) {
    fixed_symbol(w, 285);
    w.code(0, 5);
  }
  fixed_symbol(w, 256);
  const Bytes content(258001, 7);
  const Bytes z = zlib(w.finish(), content);
  EXPECT_EQ(zlib_decompress(z.data(), z.size(), content.size()), content);
  EXPECT_NE(error_of(z, 100000).find("more decompressed data"), std::string::npos);
}

}  // namespace
}  // namespace joco::compiler
