#include "decode/png.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cstdlib>
#include <fstream>
#include <iterator>

#include "decode/inflate.h"
#include "joco/error.h"
#include "joco/validate.h"

namespace joco::compiler {

namespace {

class PngError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Largest decompressed image data accepted (2 GiB): beyond it sizes stop fitting the model's ints.
constexpr uint64_t kMaxRawBytes = uint64_t{1} << 31;

uint32_t be32(const uint8_t* p) {
  return (uint32_t{p[0]} << 24) | (uint32_t{p[1]} << 16) | (uint32_t{p[2]} << 8) | uint32_t{p[3]};
}

uint32_t crc32(const uint8_t* data, size_t size) {
  static const std::array<uint32_t, 256> table = [] {
    std::array<uint32_t, 256> t{};
    for (uint32_t n = 0; n < 256; ++n) {
      uint32_t c = n;
      for (int k = 0; k < 8; ++k) c = (c & 1) ? 0xedb88320u ^ (c >> 1) : c >> 1;
      t[n] = c;
    }
    return t;
  }();
  uint32_t c = 0xffffffffu;
  for (size_t i = 0; i < size; ++i) c = table[(c ^ data[i]) & 0xff] ^ (c >> 8);
  return c ^ 0xffffffffu;
}

struct Header {
  uint32_t width = 0, height = 0;
  int depth = 0, color = 0;
  bool interlaced = false;
};

int channels_of(int color) {
  switch (color) {
    case 0: return 1;
    case 2: return 3;
    case 3: return 1;
    case 4: return 2;
    case 6: return 4;
    default: return 0;
  }
}

bool depth_allowed(int color, int depth) {
  switch (color) {
    case 0: return depth == 1 || depth == 2 || depth == 4 || depth == 8 || depth == 16;
    case 3: return depth == 1 || depth == 2 || depth == 4 || depth == 8;
    case 2:
    case 4:
    case 6: return depth == 8 || depth == 16;
    default: return false;
  }
}

Header parse_header(const uint8_t* p, uint32_t length) {
  if (length != 13) throw PngError("IHDR chunk has length " + std::to_string(length) + ", not 13");
  Header h;
  h.width = be32(p);
  h.height = be32(p + 4);
  h.depth = p[8];
  h.color = p[9];
  if (h.width == 0 || h.height == 0) throw PngError("zero image width or height");
  if (h.width > 0x7fffffffu || h.height > 0x7fffffffu) {
    throw PngError("image width or height too large");
  }
  if (channels_of(h.color) == 0) throw PngError("invalid colour type " + std::to_string(h.color));
  if (!depth_allowed(h.color, h.depth)) {
    throw PngError("bit depth " + std::to_string(h.depth) + " is not allowed for colour type " +
                   std::to_string(h.color));
  }
  if (p[10] != 0) throw PngError("unknown compression method");
  if (p[11] != 0) throw PngError("unknown filter method");
  if (p[12] > 1) throw PngError("unknown interlace method");
  h.interlaced = p[12] == 1;
  return h;
}

// One reduced image: the whole image, or one Adam7 pass.
struct Pass {
  uint32_t x0, y0, dx, dy;
  uint64_t width, height;
};

std::vector<Pass> passes_of(const Header& h) {
  std::vector<Pass> passes;
  if (!h.interlaced) {
    passes.push_back({0, 0, 1, 1, h.width, h.height});
    return passes;
  }
  static constexpr std::array<std::array<uint32_t, 4>, 7> kAdam7 = {{{0, 0, 8, 8},
                                                                     {4, 0, 8, 8},
                                                                     {0, 4, 4, 8},
                                                                     {2, 0, 4, 4},
                                                                     {0, 2, 2, 4},
                                                                     {1, 0, 2, 2},
                                                                     {0, 1, 1, 2}}};
  for (const auto& [x0, y0, dx, dy] : kAdam7) {
    const uint64_t w = h.width > x0 ? (h.width - x0 + dx - 1) / dx : 0;
    const uint64_t hh = h.height > y0 ? (h.height - y0 + dy - 1) / dy : 0;
    passes.push_back({x0, y0, dx, dy, w, hh});
  }
  return passes;
}

uint8_t paeth(uint8_t a, uint8_t b, uint8_t c) {
  const int p = int{a} + int{b} - int{c};
  const int pa = std::abs(p - a), pb = std::abs(p - b), pc = std::abs(p - c);
  if (pa <= pb && pa <= pc) return a;
  return pb <= pc ? b : c;
}

// Undoes the filter of one scanline in place, given the unfiltered previous line (zeros for the
// first line of a pass) and the distance in bytes to the corresponding byte of the previous pixel.
void unfilter(int type, uint8_t* line, const uint8_t* prev, size_t n, size_t bpp) {
  switch (type) {
    case 0: return;
    case 1:
      for (size_t i = bpp; i < n; ++i) line[i] = static_cast<uint8_t>(line[i] + line[i - bpp]);
      return;
    case 2:
      for (size_t i = 0; i < n; ++i) line[i] = static_cast<uint8_t>(line[i] + prev[i]);
      return;
    case 3:
      for (size_t i = 0; i < n; ++i) {
        const int left = i >= bpp ? line[i - bpp] : 0;
        line[i] = static_cast<uint8_t>(line[i] + ((left + prev[i]) >> 1));
      }
      return;
    case 4:
      for (size_t i = 0; i < n; ++i) {
        const uint8_t left = i >= bpp ? line[i - bpp] : 0;
        const uint8_t upleft = i >= bpp ? prev[i - bpp] : 0;
        line[i] = static_cast<uint8_t>(line[i] + paeth(left, prev[i], upleft));
      }
      return;
    default: throw PngError("invalid filter type " + std::to_string(type));
  }
}

class Decoder {
 public:
  Decoder(const Header& h, const std::vector<uint8_t>& palette) : h_(h), palette_(palette) {
    channels_ = channels_of(h.color);
    bits_per_pixel_ = channels_ * h.depth;
  }

  uint64_t line_bytes(uint64_t width) const {
    return (width * static_cast<uint64_t>(bits_per_pixel_) + 7) / 8;
  }

  uint64_t raw_size() const {
    // The RGB texture (or height field) it makes cannot be larger than a model's largest array:
    // refused from the header, before inflating gigabytes a few megabytes of deflate can claim.
    if (uint64_t{3} * h_.width * h_.height > uint64_t{kMaxModelSize}) {
      throw PngError("image is too large: " + std::to_string(h_.width) + " x " +
                     std::to_string(h_.height) + " pixels, more than the " +
                     std::to_string(kMaxModelSize) + " bytes of RGB a model holds");
    }
    uint64_t total = 0;
    for (const Pass& p : passes_of(h_)) {
      if (p.width == 0 || p.height == 0) continue;
      total += p.height * (1 + line_bytes(p.width));
      if (total > kMaxRawBytes) throw PngError("image is too large");
    }
    return total;
  }

  RgbImage decode(std::vector<uint8_t>& raw) const {
    RgbImage image;
    image.width = static_cast<int>(h_.width);
    image.height = static_cast<int>(h_.height);
    image.rgb.assign(uint64_t{3} * h_.width * h_.height, 0);
    const size_t bpp = static_cast<size_t>(std::max(1, bits_per_pixel_ / 8));
    size_t at = 0;
    for (const Pass& p : passes_of(h_)) {
      if (p.width == 0 || p.height == 0) continue;
      const size_t n = static_cast<size_t>(line_bytes(p.width));
      std::vector<uint8_t> zero(n, 0);
      const uint8_t* prev = zero.data();
      for (uint64_t y = 0; y < p.height; ++y) {
        const int type = raw[at];
        uint8_t* line = raw.data() + at + 1;
        unfilter(type, line, prev, n, bpp);
        const uint64_t row = p.y0 + y * p.dy;
        for (uint64_t x = 0; x < p.width; ++x) {
          const uint64_t col = p.x0 + x * p.dx;
          pixel(line, static_cast<size_t>(x), image.rgb.data() + 3 * (row * h_.width + col));
        }
        prev = line;
        at += 1 + n;
      }
    }
    return image;
  }

 private:
  // Sample k of a scanline, reduced to 8 bits: 16-bit samples keep the high byte; low-depth samples
  // are returned unscaled (palette indices) and scaled by the caller where they are grey levels.
  int sample(const uint8_t* line, size_t k) const {
    switch (h_.depth) {
      case 8: return line[k];
      case 16: return line[2 * k];
      default: {
        const size_t bit = k * static_cast<size_t>(h_.depth);
        const int shift = 8 - h_.depth - static_cast<int>(bit % 8);
        return (line[bit / 8] >> shift) & ((1 << h_.depth) - 1);
      }
    }
  }

  void pixel(const uint8_t* line, size_t x, uint8_t* out) const {
    const size_t c = static_cast<size_t>(channels_);
    switch (h_.color) {
      case 0:
      case 4: {
        int g = sample(line, c * x);
        if (h_.depth < 8) g = g * 255 / ((1 << h_.depth) - 1);
        out[0] = out[1] = out[2] = static_cast<uint8_t>(g);
        return;
      }
      case 3: {
        const size_t index = static_cast<size_t>(sample(line, x));
        if (3 * index + 2 < palette_.size()) {
          std::copy_n(palette_.begin() + static_cast<std::ptrdiff_t>(3 * index), 3, out);
        }
        return;  // an index past the palette stays black
      }
      default:
        for (size_t k = 0; k < 3; ++k) out[k] = static_cast<uint8_t>(sample(line, c * x + k));
        return;
    }
  }

  Header h_;
  const std::vector<uint8_t>& palette_;
  int channels_ = 0, bits_per_pixel_ = 0;
};

RgbImage decode(const std::vector<uint8_t>& bytes) {
  static constexpr std::array<uint8_t, 8> kSignature = {137, 80, 78, 71, 13, 10, 26, 10};
  if (bytes.size() < kSignature.size() ||
      !std::equal(kSignature.begin(), kSignature.end(), bytes.begin())) {
    throw PngError("not a PNG file (bad signature)");
  }
  Header header;
  bool have_header = false, have_end = false;
  std::vector<uint8_t> palette, idat;
  size_t pos = kSignature.size();
  while (!have_end) {
    if (bytes.size() - pos < 12) throw PngError("file ends before the IEND chunk");
    const uint32_t length = be32(&bytes[pos]);
    const uint8_t* type = &bytes[pos + 4];
    const std::string name(reinterpret_cast<const char*>(type), 4);
    if (length > 0x7fffffffu || length > bytes.size() - pos - 12) {
      throw PngError("chunk '" + name + "' runs past the end of the file");
    }
    const uint8_t* data = type + 4;
    if (crc32(type, length + 4) != be32(data + length)) {
      throw PngError("CRC mismatch in chunk '" + name + "'");
    }
    if (!have_header && name != "IHDR") {
      throw PngError("the first chunk is '" + name + "', not IHDR");
    }
    if (name == "IHDR") {
      if (have_header) throw PngError("more than one IHDR chunk");
      header = parse_header(data, length);
      have_header = true;
    } else if (name == "PLTE") {
      if (length == 0 || length % 3 != 0 || length > 3 * 256) {
        throw PngError("invalid palette size");
      }
      palette.assign(data, data + length);
    } else if (name == "IDAT") {
      idat.insert(idat.end(), data, data + length);
    } else if (name == "IEND") {
      have_end = true;
    } else if ((type[0] & 0x20) == 0) {
      throw PngError("unknown critical chunk '" + name + "'");
    }
    pos += 12 + length;
  }
  if (header.color == 3 && palette.empty()) throw PngError("palette image without a PLTE chunk");
  if (idat.empty()) throw PngError("no image data (IDAT chunk)");
  const Decoder decoder(header, palette);
  const uint64_t expected = decoder.raw_size();
  std::vector<uint8_t> raw;
  try {
    raw = zlib_decompress(idat.data(), idat.size(), static_cast<size_t>(expected));
  } catch (const InflateError& e) {
    throw PngError(std::string("image data: ") + e.what());
  }
  if (raw.size() != expected) throw PngError("image data is shorter than the image");
  return decoder.decode(raw);
}

}  // namespace

RgbImage decode_png(const std::vector<uint8_t>& bytes, const std::string& name) {
  try {
    return decode(bytes);
  } catch (const PngError& e) {
    throw InputError(name + ": invalid PNG: " + e.what());
  }
}

bool has_png_extension(const std::string& path) {
  if (path.size() < 4) return false;
  std::string ext = path.substr(path.size() - 4);
  for (char& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return ext == ".png";
}

std::vector<uint8_t> read_binary_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path + ": cannot open file");
  std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)),
                             std::istreambuf_iterator<char>());
  if (in.bad()) throw InputError(path + ": cannot read file");
  return bytes;
}

}  // namespace joco::compiler
