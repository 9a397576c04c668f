// The PNG decoder: the test images of testdata/textures (every colour type, bit depth, filter,
// interlacing and block type, written by make_testdata.py with the pixels they must decode to),
// every class of malformed file, and seeded random corruptions of real files (no crash, no hang,
// only InputError). JOCO_PNG_FUZZ=n runs n corruptions instead of the default.
#include "decode/png.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include "joco/error.h"
#include "support/errors.h"
#include "support/test_support.h"

namespace joco::compiler {
namespace {

using Bytes = std::vector<uint8_t>;

uint32_t crc(const uint8_t* p, size_t n) {  // bit by bit, independent of the decoder's table
  uint32_t c = 0xffffffffu;
  for (size_t i = 0; i < n; ++i) {
    c ^= p[i];
    for (int k = 0; k < 8; ++k) c = (c >> 1) ^ (0xedb88320u & (0u - (c & 1)));
  }
  return ~c;
}

void put32(Bytes& out, uint32_t v) {
  for (int s = 24; s >= 0; s -= 8) out.push_back(static_cast<uint8_t>(v >> s));
}

Bytes chunk(const std::string& type, const Bytes& data) {
  Bytes out;
  out.reserve(12 + data.size());
  put32(out, static_cast<uint32_t>(data.size()));
  for (char c : type) out.push_back(static_cast<uint8_t>(c));
  for (uint8_t v : data) out.push_back(v);
  put32(out, crc(out.data() + 4, data.size() + 4));
  return out;
}

Bytes ihdr(uint32_t w, uint32_t h, int depth, int color, int interlace = 0, int compression = 0,
           int filter = 0) {
  Bytes d;
  put32(d, w);
  put32(d, h);
  for (int v : {depth, color, compression, filter, interlace}) d.push_back(static_cast<uint8_t>(v));
  return chunk("IHDR", d);
}

// zlib data holding `raw` in one stored block.
Bytes zlib_stored(const Bytes& raw) {
  Bytes out = {0x78, 0x01, 0x01};
  const size_t n = raw.size();
  for (size_t v : {n, n >> 8, ~n, ~n >> 8}) out.push_back(static_cast<uint8_t>(v));
  out.insert(out.end(), raw.begin(), raw.end());
  uint32_t a = 1, b = 0;
  for (uint8_t v : raw) {
    a = (a + v) % 65521;
    b = (b + a) % 65521;
  }
  put32(out, (b << 16) | a);
  return out;
}

Bytes png(const std::vector<Bytes>& chunks) {
  Bytes out = {137, 80, 78, 71, 13, 10, 26, 10};
  for (const Bytes& c : chunks) out.insert(out.end(), c.begin(), c.end());
  return out;
}

// A valid 2 x 2 grey image: 10 20 / 30 40.
const Bytes kRaw = {0, 10, 20, 0, 30, 40};
Bytes valid() {
  return png({ihdr(2, 2, 8, 0), chunk("IDAT", zlib_stored(kRaw)), chunk("IEND", {})});
}

std::string error_of(const Bytes& bytes) {
  return test::input_error([&] { decode_png(bytes, "test.png"); });
}

void expect_error(const Bytes& bytes, const std::string& part) {
  const std::string e = error_of(bytes);
  EXPECT_EQ(e.rfind("test.png: ", 0), 0u)
      << "the message must start with the file name: '" << e << "'";
  EXPECT_NE(e.find(part), std::string::npos)
      << "expected an error containing '" << part << "', got '" << e << "'";
}

TEST(Png, DecodesEveryTestImageAsItsGeneratorDescribesIt) {
  int count = 0;
  for (const auto& entry : std::filesystem::directory_iterator(test::testdata("textures/png"))) {
    if (entry.path().extension() != ".png") continue;
    const std::string path = entry.path().string();
    const RgbImage image = decode_png(test::read_file(path), path);
    // The expected pixels, in MuJoCo's custom texture format: int32 width, int32 height, RGB bytes.
    const Bytes expected =
        test::read_file(entry.path().parent_path() / (entry.path().stem().string() + ".rgb"));
    ASSERT_GE(expected.size(), 8u);
    int32_t size[2];
    std::memcpy(size, expected.data(), 8);
    EXPECT_EQ(image.width, size[0]) << path;
    EXPECT_EQ(image.height, size[1]) << path;
    EXPECT_TRUE(image.rgb == Bytes(expected.begin() + 8, expected.end()))
        << path << ": pixels differ";
    ++count;
  }
  EXPECT_GE(count, 30);
}

TEST(Png, HandMadeImagesOfEachKind) {
  const RgbImage grey = decode_png(valid(), "test.png");
  EXPECT_EQ(grey.rgb, (Bytes{10, 10, 10, 20, 20, 20, 30, 30, 30, 40, 40, 40}));
  // 1-bit grey, 3 pixels wide: 1 0 1 -> 255 0 255; data past the last pixel of a row is ignored
  const RgbImage bits = decode_png(
      png({ihdr(3, 1, 1, 0), chunk("IDAT", zlib_stored({0, 0xbf})), chunk("IEND", {})}), "t");
  EXPECT_EQ(bits.rgb, (Bytes{255, 255, 255, 0, 0, 0, 255, 255, 255}));
  // palette: index 1, then index 2 which is past the palette's end (black)
  const RgbImage pal = decode_png(png({ihdr(2, 1, 8, 3), chunk("PLTE", {1, 2, 3, 4, 5, 6}),
                                       chunk("IDAT", zlib_stored({0, 1, 2})), chunk("IEND", {})}),
                                  "t");
  EXPECT_EQ(pal.rgb, (Bytes{4, 5, 6, 0, 0, 0}));
  // 16-bit RGBA with the Sub filter: high bytes kept, alpha dropped
  const Bytes rgba16 = {1, 0x12, 0x34, 0x56, 0x78, 0x9a, 0xbc, 0xde, 0xf0, 1, 1, 1, 1, 1, 1, 1, 1};
  const RgbImage wide = decode_png(
      png({ihdr(2, 1, 16, 6), chunk("IDAT", zlib_stored(rgba16)), chunk("IEND", {})}), "t");
  EXPECT_EQ(wide.rgb, (Bytes{0x12, 0x56, 0x9a, 0x13, 0x57, 0x9b}));
  // bytes after IEND are ignored, like ancillary chunks between IDATs
  Bytes trailing = valid();
  trailing.push_back(42);
  EXPECT_EQ(decode_png(trailing, "t").rgb, grey.rgb);
}

TEST(Png, EveryClassOfMalformedFileIsAnInputErrorNamingTheFile) {
  ASSERT_EQ(error_of(valid()), "");
  const Bytes idat = chunk("IDAT", zlib_stored(kRaw)), iend = chunk("IEND", {});
  expect_error({}, "signature");
  Bytes sig = valid();
  sig[1] = 'Q';
  expect_error(sig, "signature");
  Bytes cut = valid();
  cut.resize(cut.size() - 20);
  expect_error(cut, "past the end");
  expect_error(png({ihdr(2, 2, 8, 0), idat}), "ends before the IEND");
  Bytes bad_crc = valid();
  bad_crc[8 + 8 + 3] ^= 1;  // inside IHDR's width
  expect_error(bad_crc, "CRC mismatch in chunk 'IHDR'");
  Bytes bad_ancillary_crc = png({ihdr(2, 2, 8, 0), chunk("tEXt", {'a', 0, 'b'}), idat, iend});
  bad_ancillary_crc[33 + 12 + 1] ^= 1;
  expect_error(bad_ancillary_crc, "CRC mismatch in chunk 'tEXt'");
  Bytes huge_length = valid();
  huge_length[33] = 0x80;  // IDAT length >= 2^31
  expect_error(huge_length, "past the end");

  // the header
  expect_error(png({chunk("tEXt", {'a', 0, 'b'}), ihdr(2, 2, 8, 0), idat, iend}), "not IHDR");
  expect_error(png({chunk("IHDR", {0, 0, 0, 2, 0, 0, 0, 2, 8, 0, 0, 0}), idat, iend}), "length 12");
  expect_error(png({ihdr(2, 2, 8, 0), ihdr(2, 2, 8, 0), idat, iend}), "more than one IHDR");
  expect_error(png({ihdr(0, 2, 8, 0), idat, iend}), "zero image width");
  expect_error(png({ihdr(2, 0x80000000u, 8, 0), idat, iend}), "too large");
  expect_error(png({ihdr(2, 2, 8, 5), idat, iend}), "colour type 5");
  expect_error(png({ihdr(2, 2, 4, 2), idat, iend}), "bit depth 4");
  expect_error(png({ihdr(2, 2, 16, 3), idat, iend}), "bit depth 16");
  expect_error(png({ihdr(2, 2, 8, 0, 0, 1), idat, iend}), "compression method");
  expect_error(png({ihdr(2, 2, 8, 0, 0, 0, 1), idat, iend}), "filter method");
  expect_error(png({ihdr(2, 2, 8, 0, 2), idat, iend}), "interlace method");
  expect_error(png({ihdr(60000, 60000, 8, 2), idat, iend}),
               "too large");  // checked before inflating
  // An image whose RGB is larger than a model's largest array (kMaxModelSize bytes) is refused from
  // its header: a 2 MB deflate bomb declaring 26000 x 26000 pixels inflated 2 GB for 74 s before
  // the model's validation refused its texture (9500 x 9500, 0.26 MB: 9.7 s).
  expect_error(png({ihdr(9500, 9500, 8, 2), idat, iend}),
               "image is too large: 9500 x 9500 pixels, more than the 268435456 bytes");
  expect_error(png({ihdr(9459, 9459, 8, 2), idat, iend}), "image data");  // 3 w h fits

  // chunks
  expect_error(png({ihdr(2, 2, 8, 3), idat, iend}), "without a PLTE");
  expect_error(png({ihdr(2, 2, 8, 3), chunk("PLTE", {}), idat, iend}), "palette size");
  expect_error(png({ihdr(2, 2, 8, 3), chunk("PLTE", {1, 2}), idat, iend}), "palette size");
  expect_error(png({ihdr(2, 2, 8, 3), chunk("PLTE", Bytes(3 * 257, 1)), idat, iend}),
               "palette size");
  expect_error(png({ihdr(2, 2, 8, 0), chunk("QXYZ", {}), idat, iend}),
               "unknown critical chunk 'QXYZ'");
  expect_error(png({ihdr(2, 2, 8, 0), iend}), "no image data");

  // image data
  expect_error(png({ihdr(2, 2, 8, 0), chunk("IDAT", zlib_stored({0, 10, 20, 5, 30, 40})), iend}),
               "filter type 5");
  expect_error(png({ihdr(2, 2, 8, 0), chunk("IDAT", zlib_stored({0, 10, 20, 0, 30})), iend}),
               "shorter than the image");
  expect_error(
      png({ihdr(2, 2, 8, 0), chunk("IDAT", zlib_stored({0, 10, 20, 0, 30, 40, 50})), iend}),
      "more decompressed data");
  Bytes bad_adler = zlib_stored(kRaw);
  bad_adler.back() ^= 1;
  expect_error(png({ihdr(2, 2, 8, 0), chunk("IDAT", bad_adler), iend}), "Adler-32");
  expect_error(png({ihdr(2, 2, 8, 0), chunk("IDAT", {0x78, 0x01, 0x07}), iend}), "block type");
  expect_error(png({ihdr(2, 2, 8, 0), chunk("IDAT", {0x78}), iend}), "too short");
}

TEST(Png, ExtensionInAnyCase) {
  for (const char* name : {"a.png", "dir.x/b.PNG", "c.PnG", ".png"})
    EXPECT_TRUE(has_png_extension(name)) << name;
  for (const char* name : {"a.png.bin", "png", "a.pn", "a_png", ""})
    EXPECT_FALSE(has_png_extension(name)) << name;
}

TEST(Png, UnreadableFileIsAnInputErrorNamingIt) {
  const std::string path = test::testdata("textures/png/no_such_file.png");
  try {
    read_binary_file(path);
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find(path), std::string::npos) << e.what();
  }
}

// Rewrites every chunk's CRC so that corruption reaches the layers behind the CRC check.
void fix_crcs(Bytes& b) {
  size_t pos = 8;
  while (pos + 12 <= b.size()) {
    const uint32_t len = (uint32_t{b[pos]} << 24) | (uint32_t{b[pos + 1]} << 16) |
                         (uint32_t{b[pos + 2]} << 8) | b[pos + 3];
    if (len > b.size() - pos - 12) return;
    const uint32_t c = crc(b.data() + pos + 4, len + 4);
    for (int k = 0; k < 4; ++k) {
      b[pos + 8 + len + static_cast<size_t>(k)] = static_cast<uint8_t>(c >> (24 - 8 * k));
    }
    pos += 12 + len;
  }
}

TEST(Png, RandomCorruptionsGiveImagesOrInputErrorsOnly) {
  const char* env = std::getenv("JOCO_PNG_FUZZ");
  const int iterations = env ? std::atoi(env) : 3000;
  std::vector<Bytes> seeds;
  for (const char* name :
       {"c2_d8", "c0_d1", "c3_d4", "c6_d16", "adam7_rgb8", "adam7_grey1", "deflate_fixed",
        "deflate_dynamic", "deflate_stored", "idat_split", "filter4"}) {
    seeds.push_back(test::read_file(test::testdata(std::string("textures/png/") + name + ".png")));
  }
  std::mt19937 rng(12345);
  auto below = [&](size_t n) { return std::uniform_int_distribution<size_t>(0, n - 1)(rng); };
  int decoded = 0, rejected = 0;
  for (int it = 0; it < iterations; ++it) {
    Bytes b = seeds[below(seeds.size())];
    const int mutations = 1 + static_cast<int>(below(4));
    for (int m = 0; m < mutations && !b.empty(); ++m) {
      switch (below(5)) {
        case 0: b[below(b.size())] ^= static_cast<uint8_t>(1u << below(8)); break;
        case 1: b[below(b.size())] = static_cast<uint8_t>(below(256)); break;
        case 2: b.resize(below(b.size())); break;
        case 3: {  // duplicate a slice somewhere
          const size_t from = below(b.size()), n = std::min<size_t>(below(16) + 1, b.size() - from);
          const Bytes slice(b.begin() + static_cast<std::ptrdiff_t>(from),
                            b.begin() + static_cast<std::ptrdiff_t>(from + n));
          b.insert(b.begin() + static_cast<std::ptrdiff_t>(below(b.size())), slice.begin(),
                   slice.end());
          break;
        }
        default:  // corrupt behind the header and chunk framing: the compressed data
          if (b.size() > 50) b[40 + below(b.size() - 40)] ^= static_cast<uint8_t>(1 + below(255));
      }
    }
    if (below(4) != 0) fix_crcs(b);
    try {
      const RgbImage image = decode_png(b, "fuzz.png");
      ASSERT_EQ(image.rgb.size(),
                3u * static_cast<size_t>(image.width) * static_cast<size_t>(image.height));
      ++decoded;
    } catch (const InputError& e) {
      ASSERT_EQ(std::string(e.what()).rfind("fuzz.png: ", 0), 0u) << e.what();
      ++rejected;
    }
  }
  std::cout << iterations << " corruptions: " << decoded << " decoded, " << rejected
            << " rejected\n";
  EXPECT_GT(rejected, iterations / 2);
}

}  // namespace
}  // namespace joco::compiler
