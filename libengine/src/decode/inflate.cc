#include "decode/inflate.h"

#include <algorithm>
#include <array>

namespace joco::compiler {

namespace {

// Reads a DEFLATE bit stream: bits are taken from each byte starting at its least significant bit.
// Bits past the end read as zero when peeked but cannot be consumed, so a decoder may look ahead
// freely and truncation is detected exactly where it matters.
class BitReader {
 public:
  BitReader(const uint8_t* data, size_t size) : data_(data), size_(size) {}

  // The next k <= 24 bits without consuming them.
  uint32_t peek(int k) {
    while (count_ < k) {
      const uint64_t byte = next_ < size_ ? data_[next_] : 0;
      ++next_;
      buffer_ |= byte << count_;
      count_ += 8;
    }
    return static_cast<uint32_t>(buffer_ & ((uint64_t{1} << k) - 1));
  }
  void consume(int k) {
    if (consumed_ + static_cast<uint64_t>(k) > 8 * static_cast<uint64_t>(size_)) {
      throw InflateError("compressed data ends early");
    }
    consumed_ += static_cast<uint64_t>(k);
    buffer_ >>= k;
    count_ -= k;
  }
  uint32_t bits(int k) {
    const uint32_t v = peek(k);
    consume(k);
    return v;
  }
  void align_to_byte() { consume(static_cast<int>((8 - consumed_ % 8) % 8)); }

 private:
  const uint8_t* data_;
  size_t size_;
  size_t next_ = 0;        // next byte to load into the buffer
  uint64_t buffer_ = 0;    // loaded, unconsumed bits
  int count_ = 0;          // number of bits in buffer_
  uint64_t consumed_ = 0;  // bits consumed so far
};

constexpr int kMaxCodeLength = 15;

// A canonical Huffman code given by its code lengths. Short codes decode through a table indexed
// by the next kFastBits stream bits; longer ones are decoded one bit at a time.
class Huffman {
 public:
  void build(const uint8_t* lengths, int n) {
    count_.fill(0);
    for (int s = 0; s < n; ++s) ++count_[lengths[s]];
    count_[0] = 0;
    int left = 1;  // codes still available at the current length
    for (int len = 1; len <= kMaxCodeLength; ++len) {
      left = 2 * left - count_[static_cast<size_t>(len)];
      if (left < 0) throw InflateError("over-subscribed Huffman code");
    }
    std::array<int, kMaxCodeLength + 2> offset{};
    for (int len = 1; len <= kMaxCodeLength; ++len) offset[len + 1] = offset[len] + count_[len];
    symbols_.assign(static_cast<size_t>(offset[kMaxCodeLength + 1]), 0);
    fast_.fill(0);
    std::array<int, kMaxCodeLength + 1> next_code{};
    int code = 0;
    for (int len = 1; len <= kMaxCodeLength; ++len) {
      code = (code + count_[static_cast<size_t>(len) - 1]) << 1;
      next_code[static_cast<size_t>(len)] = code;
    }
    for (int s = 0; s < n; ++s) {
      const int len = lengths[s];
      if (len == 0) continue;
      symbols_[static_cast<size_t>(offset[static_cast<size_t>(len)]++)] = static_cast<uint16_t>(s);
      const int c = next_code[static_cast<size_t>(len)]++;
      if (len > kFastBits) continue;
      int reversed = 0;  // the stream sends a code's most significant bit first
      for (int b = 0; b < len; ++b) reversed |= ((c >> b) & 1) << (len - 1 - b);
      for (int r = reversed; r < (1 << kFastBits); r += 1 << len) {
        fast_[static_cast<size_t>(r)] = static_cast<uint16_t>((s << 4) | len);
      }
    }
  }

  int decode(BitReader& in) const {
    const uint32_t ahead = in.peek(kMaxCodeLength);
    const uint16_t entry = fast_[ahead & ((1u << kFastBits) - 1)];
    if (entry != 0) {
      in.consume(entry & 15);
      return entry >> 4;
    }
    int code = 0, first = 0, index = 0;
    for (int len = 1; len <= kMaxCodeLength; ++len) {
      code |= static_cast<int>((ahead >> (len - 1)) & 1);
      const int count = count_[static_cast<size_t>(len)];
      if (code - first < count) {
        in.consume(len);
        return symbols_[static_cast<size_t>(index + code - first)];
      }
      index += count;
      first = (first + count) << 1;
      code <<= 1;
    }
    throw InflateError("invalid Huffman code");
  }

 private:
  static constexpr int kFastBits = 9;
  std::array<uint16_t, kMaxCodeLength + 1> count_{};
  std::vector<uint16_t> symbols_;
  std::array<uint16_t, 1 << kFastBits> fast_{};
};

// RFC 1951, section 3.2.5.
constexpr std::array<uint16_t, 29> kLengthBase = {3,  4,  5,  6,   7,   8,   9,   10,  11, 13,
                                                  15, 17, 19, 23,  27,  31,  35,  43,  51, 59,
                                                  67, 83, 99, 115, 131, 163, 195, 227, 258};
constexpr std::array<uint8_t, 29> kLengthExtra = {0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2,
                                                  2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0};
constexpr std::array<uint16_t, 30> kDistanceBase = {
    1,   2,   3,   4,   5,   7,    9,    13,   17,   25,   33,   49,   65,    97,    129,
    193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577};
constexpr std::array<uint8_t, 30> kDistanceExtra = {0, 0, 0,  0,  1,  1,  2,  2,  3,  3,
                                                    4, 4, 5,  5,  6,  6,  7,  7,  8,  8,
                                                    9, 9, 10, 10, 11, 11, 12, 12, 13, 13};
// The order in which a dynamic block sends the lengths of the code-length code.
constexpr std::array<uint8_t, 19> kCodeLengthOrder = {16, 17, 18, 0, 8,  7, 9,  6, 10, 5,
                                                      11, 4,  12, 3, 13, 2, 14, 1, 15};

class Inflater {
 public:
  Inflater(BitReader& in, size_t max_output, std::vector<uint8_t>& out)
      : in_(in), max_(max_output), out_(out) {}

  void run() {
    bool last = false;
    while (!last) {
      last = in_.bits(1) != 0;
      switch (in_.bits(2)) {
        case 0: stored_block(); break;
        case 1:
          fixed_tables();
          codes();
          break;
        case 2:
          dynamic_tables();
          codes();
          break;
        default: throw InflateError("invalid DEFLATE block type");
      }
    }
  }

 private:
  void stored_block() {
    in_.align_to_byte();
    const uint32_t len = in_.bits(16);
    const uint32_t nlen = in_.bits(16);
    if ((len ^ 0xffffu) != nlen) {
      throw InflateError("stored block length does not match its complement");
    }
    room(len);
    for (uint32_t i = 0; i < len; ++i) out_.push_back(static_cast<uint8_t>(in_.bits(8)));
  }

  void fixed_tables() {
    std::array<uint8_t, 288> lengths{};
    std::fill(lengths.begin(), lengths.begin() + 144, 8);
    std::fill(lengths.begin() + 144, lengths.begin() + 256, 9);
    std::fill(lengths.begin() + 256, lengths.begin() + 280, 7);
    std::fill(lengths.begin() + 280, lengths.end(), 8);
    literal_.build(lengths.data(), 288);
    lengths.fill(5);
    distance_.build(lengths.data(), 32);  // codes 30 and 31 exist but are invalid
  }

  void dynamic_tables() {
    const int nlit = static_cast<int>(in_.bits(5)) + 257;
    const int ndist = static_cast<int>(in_.bits(5)) + 1;
    const int ncode = static_cast<int>(in_.bits(4)) + 4;
    if (nlit > 286 || ndist > 30) throw InflateError("too many length or distance codes");
    std::array<uint8_t, 19> code_lengths{};
    for (int i = 0; i < ncode; ++i) {
      code_lengths[kCodeLengthOrder[static_cast<size_t>(i)]] = static_cast<uint8_t>(in_.bits(3));
    }
    Huffman code_length_code;
    code_length_code.build(code_lengths.data(), 19);

    std::array<uint8_t, 286 + 30> lengths{};
    int n = 0;
    while (n < nlit + ndist) {
      const int sym = code_length_code.decode(in_);
      if (sym < 16) {
        lengths[static_cast<size_t>(n++)] = static_cast<uint8_t>(sym);
        continue;
      }
      uint8_t value = 0;
      int repeat = 0;
      if (sym == 16) {
        if (n == 0) throw InflateError("length repeat with no previous length");
        value = lengths[static_cast<size_t>(n) - 1];
        repeat = 3 + static_cast<int>(in_.bits(2));
      } else if (sym == 17) {
        repeat = 3 + static_cast<int>(in_.bits(3));
      } else {
        repeat = 11 + static_cast<int>(in_.bits(7));
      }
      if (n + repeat > nlit + ndist) throw InflateError("code lengths overflow their table");
      for (int i = 0; i < repeat; ++i) lengths[static_cast<size_t>(n++)] = value;
    }
    if (lengths[256] == 0) throw InflateError("dynamic block without an end-of-block code");
    literal_.build(lengths.data(), nlit);
    distance_.build(lengths.data() + nlit, ndist);
  }

  void codes() {
    for (;;) {
      const int sym = literal_.decode(in_);
      if (sym < 256) {
        room(1);
        out_.push_back(static_cast<uint8_t>(sym));
        continue;
      }
      if (sym == 256) return;
      const size_t li = static_cast<size_t>(sym - 257);
      if (li >= kLengthBase.size()) throw InflateError("invalid length code");
      const size_t len = kLengthBase[li] + in_.bits(kLengthExtra[li]);
      const size_t di = static_cast<size_t>(distance_.decode(in_));
      if (di >= kDistanceBase.size()) throw InflateError("invalid distance code");
      const size_t dist = kDistanceBase[di] + in_.bits(kDistanceExtra[di]);
      if (dist > out_.size()) throw InflateError("distance reaches before the start of the data");
      room(len);
      const size_t from = out_.size() - dist;
      for (size_t i = 0; i < len; ++i) out_.push_back(out_[from + i]);  // may overlap itself
    }
  }

  void room(size_t n) {
    if (out_.size() + n > max_) throw InflateError("more decompressed data than expected");
  }

  BitReader& in_;
  size_t max_;
  std::vector<uint8_t>& out_;
  Huffman literal_, distance_;
};

uint32_t adler32(const std::vector<uint8_t>& data) {
  constexpr uint32_t kMod = 65521;
  constexpr size_t kBlock = 5552;  // the most bytes whose sums cannot overflow 32 bits
  uint32_t a = 1, b = 0;
  for (size_t start = 0; start < data.size(); start += kBlock) {
    const size_t end = std::min(data.size(), start + kBlock);
    for (size_t i = start; i < end; ++i) {
      a += data[i];
      b += a;
    }
    a %= kMod;
    b %= kMod;
  }
  return (b << 16) | a;
}

}  // namespace

std::vector<uint8_t> zlib_decompress(const uint8_t* data, size_t size, size_t max_output) {
  if (size < 2) throw InflateError("compressed data is too short");
  const unsigned cmf = data[0], flg = data[1];
  if ((cmf * 256 + flg) % 31 != 0) throw InflateError("invalid zlib header");
  if ((cmf & 15) != 8 || (cmf >> 4) > 7) throw InflateError("unsupported zlib compression method");
  if (flg & 0x20) throw InflateError("zlib preset dictionaries are not allowed");
  BitReader in(data + 2, size - 2);
  std::vector<uint8_t> out;
  // A DEFLATE stream expands at most about 1032 times; reserving more would trust a header.
  out.reserve(std::min(max_output, (size - 2) * 1032 + 64));
  Inflater(in, max_output, out).run();
  in.align_to_byte();
  uint32_t expected = 0;
  for (int i = 0; i < 4; ++i) expected = (expected << 8) | in.bits(8);
  if (adler32(out) != expected) throw InflateError("Adler-32 checksum mismatch in compressed data");
  return out;
}

}  // namespace joco::compiler
