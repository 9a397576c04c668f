// Textures and height fields: the mark generator against the C library, builtin patterns against
// their defining properties and pixels observed in MuJoCo 2.2.2, cube faces cut from a grid image
// whose pixels encode their own cell, flips, and every texture and height field error.
#include "compiler/texture.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <numbers>
#include <string>

#include "decode/png.h"
#include "joco/error.h"
#include "joco/mjcf.h"
#include "support/errors.h"
#include "support/test_support.h"

namespace joco::compiler {
namespace {

using Bytes = std::vector<uint8_t>;

TextureSpec builtin(int type, int kind, int width, int height) {
  TextureSpec t;
  t.name = "t";
  t.type = type;
  t.builtin = kind;
  t.width = width;
  t.height = height;
  t.rgb1 = {1, 1, 1};
  t.rgb2 = {0, 0, 0};
  return t;
}

// Pixel (row, col) of a texture, as an RGB triple.
Bytes px(const CompiledTexture& c, int row, int col) {
  const auto at = c.rgb.begin() + 3 * (row * c.width + col);
  return Bytes(at, at + 3);
}

Model compile_text(const std::string& assets) {
  return compile_mjcf("<mujoco><asset>" + assets + "</asset><worldbody/></mujoco>", "test.xml",
                      test::testdata("textures"));
}

std::string compile_error(const std::string& assets) {
  return test::input_error([&] { compile_text(assets); });
}

#ifdef __GLIBC__
TEST(MarkRandom, IsTheCLibraryGenerator) {
  for (unsigned seed : {123u, 1u, 0u, 42u, 4000000000u}) {
    std::srand(seed);
    MarkRandom r(seed);
    for (int i = 0; i < 2000; ++i) {
      ASSERT_EQ(r.next(), std::rand()) << "seed " << seed << ", draw " << i;
    }
  }
  EXPECT_EQ(MarkRandom::kMax, RAND_MAX);
}
#endif

TEST(BuiltinTexture, SizesAndCubeLayout) {
  MarkRandom r;
  const CompiledTexture plane = builtin_texture(builtin(kTexture2D, 3, 5, 3), r);
  EXPECT_EQ(plane.width, 5);
  EXPECT_EQ(plane.height, 3);
  EXPECT_EQ(plane.rgb.size(), 45u);
  for (int type :
       {kTextureCube, kTextureSkybox}) {  // six square faces; height only has to be positive
    const CompiledTexture cube = builtin_texture(builtin(type, 3, 4, 1), r);
    EXPECT_EQ(cube.width, 4);
    EXPECT_EQ(cube.height, 24);
    EXPECT_EQ(cube.type, type);
  }
  for (auto [w, h] : {std::pair{0, 3}, {3, 0}, {-1, 2}}) {
    EXPECT_THROW(builtin_texture(builtin(kTexture2D, 1, w, h), r), InputError);
    EXPECT_THROW(builtin_texture(builtin(kTextureCube, 1, w, h), r), InputError);
  }
}

TEST(BuiltinTexture, ColoursTruncateAndWrapLikeMuJoCo) {
  // observed in MuJoCo 2.2.2: rgb (0.5, 0.25, 1) -> 7f 3f ff, (1.5, -0.2, 2) -> 7e cd fe,
  // (1.003, -0.003, 1.0039) -> ff 00 ff, (1.01, -0.01, -1.5) -> 01 fe 82
  MarkRandom r;
  const std::vector<std::pair<Vec3, Bytes>> cases = {{{0.5, 0.25, 1}, {0x7f, 0x3f, 0xff}},
                                                     {{1.5, -0.2, 2}, {0x7e, 0xcd, 0xfe}},
                                                     {{1.003, -0.003, 1.0039}, {0xff, 0x00, 0xff}},
                                                     {{1.01, -0.01, -1.5}, {0x01, 0xfe, 0x82}}};
  for (const auto& [colour, bytes] : cases) {
    TextureSpec t = builtin(kTexture2D, 3, 1, 1);
    t.rgb1 = colour;
    EXPECT_EQ(px(builtin_texture(t, r), 0, 0), bytes);
  }
}

TEST(BuiltinTexture, CheckerQuadrants) {
  // 5 x 7 observed in MuJoCo 2.2.2: rgb1 where (row < 3) == (col < 2)
  MarkRandom r;
  const CompiledTexture c = builtin_texture(builtin(kTexture2D, 2, 5, 7), r);
  for (int row = 0; row < 7; ++row) {
    for (int col = 0; col < 5; ++col) {
      const uint8_t v = (row < 3) == (col < 2) ? 255 : 0;
      EXPECT_EQ(px(c, row, col), Bytes(3, v)) << row << "," << col;
    }
  }
  // cube faces: the same pattern, inverted on the front and back faces (4 and 5)
  const CompiledTexture cube = builtin_texture(builtin(kTextureCube, 2, 4, 4), r);
  for (int face = 0; face < 6; ++face) {
    EXPECT_EQ(px(cube, 4 * face, 0), Bytes(3, face < 4 ? 255 : 0)) << face;
    EXPECT_EQ(px(cube, 4 * face + 3, 0), Bytes(3, face < 4 ? 0 : 255)) << face;
  }
}

TEST(BuiltinTexture, FlatCubeHasAnRgb2Bottom) {
  MarkRandom r;
  const CompiledTexture cube = builtin_texture(builtin(kTextureSkybox, 3, 2, 2), r);
  for (int row = 0; row < 12; ++row) {
    EXPECT_EQ(px(cube, row, 1), Bytes(3, row / 2 == 3 ? 0 : 255)) << row;
  }
}

TEST(BuiltinTexture, EdgeAndCrossMarks) {
  MarkRandom r;
  TextureSpec t = builtin(kTexture2D, 3, 6, 5);
  t.mark = 1;
  const CompiledTexture edge = builtin_texture(t, r);
  t.mark = 2;
  const CompiledTexture cross = builtin_texture(t, r);
  for (int row = 0; row < 5; ++row) {
    for (int col = 0; col < 6; ++col) {
      const bool on_edge = row == 0 || row == 4 || col == 0 || col == 5;
      const bool on_cross = row == 2 || col == 3;  // row height/2, column width/2
      EXPECT_EQ(px(edge, row, col), Bytes(3, on_edge ? 0 : 255)) << row << "," << col;
      EXPECT_EQ(px(cross, row, col), Bytes(3, on_cross ? 0 : 255)) << row << "," << col;
    }
  }
}

TEST(BuiltinTexture, RandomMarksFollowTheProbabilityAndShareOneGenerator) {
  TextureSpec t = builtin(kTexture2D, 3, 100, 100);
  t.mark = 3;
  t.random = 0.2;
  MarkRandom r;
  const CompiledTexture first = builtin_texture(t, r);
  const CompiledTexture second = builtin_texture(t, r);
  int marked = 0;
  for (size_t i = 0; i < first.rgb.size(); i += 3) marked += first.rgb[i] == 0;
  EXPECT_NEAR(marked / 10000.0, 0.2, 0.02);  // binomial: sd 0.004
  EXPECT_NE(first.rgb, second.rgb);          // the second texture continues the sequence
  MarkRandom fresh;
  EXPECT_EQ(builtin_texture(t, fresh).rgb, first.rgb);
  t.random = 0;
  EXPECT_EQ(builtin_texture(t, r).rgb, Bytes(30000, 255));
}

TEST(BuiltinTexture, PlaneGradientIsRadial) {
  MarkRandom r;
  TextureSpec t = builtin(kTexture2D, 1, 9, 5);
  t.rgb1 = {1, 0.5, 0};
  t.rgb2 = {0, 0.5, 1};
  const CompiledTexture g = builtin_texture(t, r);
  EXPECT_EQ(px(g, 2, 4), (Bytes{255, 127, 0}));                           // centre: rgb1
  for (int col : {0, 8}) EXPECT_EQ(px(g, 2, col), (Bytes{0, 127, 255}));  // distance 1: rgb2
  EXPECT_EQ(px(g, 0, 0), (Bytes{0, 127, 255}));                           // beyond distance 1
  EXPECT_EQ(px(g, 2, 2), (Bytes{127, 127, 127}));                         // distance 1/2: halfway
  for (int row = 0; row < 5; ++row) {
    for (int col = 0; col < 9; ++col) {
      EXPECT_EQ(px(g, row, col), px(g, 4 - row, col));  // symmetric
      EXPECT_EQ(px(g, row, col), px(g, row, 8 - col));
      if (col < 4) {
        EXPECT_LE(px(g, row, col)[0], px(g, row, col + 1)[0]);  // rising to the centre
      }
    }
  }
  // a single row or column has no centre: MuJoCo's arithmetic gives NaN, and black
  const CompiledTexture row = builtin_texture(builtin(kTexture2D, 1, 6, 1), r);
  EXPECT_EQ(row.rgb, Bytes(18, 0));
}

TEST(BuiltinTexture, CubeGradientFollowsElevation) {
  MarkRandom r;
  const CompiledTexture g = builtin_texture(builtin(kTextureCube, 1, 5, 5), r);
  EXPECT_EQ(px(g, 2 * 5 + 2, 2), Bytes(3, 255));  // up face centre: rgb1
  EXPECT_EQ(px(g, 3 * 5 + 2, 2), Bytes(3, 0));    // down face centre: rgb2
  for (int face : {0, 1, 4, 5}) {
    for (int col = 0; col < 5; ++col) {
      EXPECT_EQ(px(g, 5 * face + 2, col), Bytes(3, 127));  // the horizon
    }
    for (int row = 0; row < 5; ++row) {
      for (int col = 0; col < 5; ++col) {
        EXPECT_EQ(px(g, 5 * face + row, col), px(g, row, col));  // all sides alike
      }
    }
    EXPECT_EQ(px(g, 5 * face, 2), px(g, 2 * 5, 2));  // a side's top edge is the up face's edge
  }
}

// The cube gradient pixel by pixel from its definition (each face's elevation, its sigmoid, the
// blend of rgb1 and rgb2 as MuJoCo rounds them; faces 1, 4, 5 as face 0, face 3 as face 2
// negated), against builtin_texture, which computes a pixel once for the columns (and, on the up
// and down faces, rows) whose mirror squares to the same bits: every byte the same, for odd and
// even sizes, with and without marks.
TEST(BuiltinTexture, CubeGradientEveryPixelFromItsDefinition) {
  const auto to_byte = [](double v) {
    if (!(v > -2147483649.0 && v < 2147483648.0)) return uint8_t{0};
    return static_cast<uint8_t>(static_cast<int64_t>(v) & 0xff);
  };
  const auto sigmoid = [](double x) {
    const auto q = [](double t) { return t / std::sqrt(1 + t * t); };
    return 0.5 + 0.5 * q(x) / q(1);
  };
  const auto coordinate = [](int i, int n) {
    return n < 2 ? std::numeric_limits<double>::quiet_NaN() : 2 * (i / (n - 1.0) - 0.5);
  };
  constexpr double kQuarter = std::numbers::pi / 2;
  int compared = 0;
  for (int type : {kTextureCube, kTextureSkybox}) {
    for (int size : {1, 2, 3, 4, 7, 10, 31, 64, 99, 100, 127, 255, 512}) {
      for (int mark : {0, 1, 2}) {
        TextureSpec t = builtin(type, 1, size, 1);
        t.rgb1 = {0.3, 0.5, 0.7};
        t.rgb2 = {0.05, 0.9, 0.2};
        t.mark = mark;
        t.markrgb = {1, 0, 0};
        MarkRandom r;
        const CompiledTexture c = builtin_texture(t, r);
        ASSERT_EQ(c.rgb.size(), 3u * 6 * static_cast<size_t>(size * size));
        for (int face = 0; face < 6; ++face) {
          for (int row = 0; row < size; ++row) {
            for (int col = 0; col < size; ++col) {
              const double a = coordinate(row, size), b = coordinate(col, size);
              const double n = std::sqrt(b * b + 1 + a * a);
              const double up = 1 - std::acos(1 / n) / kQuarter;
              const double v = face == 2 ? up : face == 3 ? -up : -(std::asin(a / n) / kQuarter);
              const double w1 = sigmoid(v), w2 = 1 - w1;
              Bytes want(3);
              for (size_t k = 0; k < 3; ++k)
                want[k] = to_byte(255 * (w1 * t.rgb1[k] + w2 * t.rgb2[k]));
              const bool marked =
                  (mark == 1 && (row == 0 || row == size - 1 || col == 0 || col == size - 1)) ||
                  (mark == 2 && (row == size / 2 || col == size / 2));
              if (marked) want = {255, 0, 0};
              ASSERT_EQ(px(c, face * size + row, col), want)
                  << "size " << size << ", mark " << mark << ", face " << face << ", row " << row
                  << ", col " << col;
              ++compared;
            }
          }
        }
      }
    }
  }
  EXPECT_GT(compared, 0);
}

TEST(TextureFiles, TwoDimensionalWithFlips) {
  const RgbImage image =
      decode_png(test::read_file(test::testdata("textures/png/c2_d8.png")), "c2_d8.png");
  const Model m = compile_text(
      "<texture name='a' type='2d' file='png/c2_d8.png'/>"
      "<texture name='b' type='2d' file='png/c2_d8.png' hflip='true' vflip='true'/>");
  ASSERT_EQ(m.ntex, 2);
  const int w = image.width, h = image.height;
  EXPECT_EQ(m.tex_width[0], w);
  EXPECT_EQ(m.tex_height[0], h);
  for (int row = 0; row < h; ++row) {
    for (int col = 0; col < w; ++col) {
      for (int k = 0; k < 3; ++k) {
        const uint8_t v = image.rgb[static_cast<size_t>(3 * (row * w + col) + k)];
        EXPECT_EQ(m.tex_rgb[m.tex_adr[0] + 3 * (row * w + col) + k], v);
        EXPECT_EQ(m.tex_rgb[m.tex_adr[1] + 3 * ((h - 1 - row) * w + (w - 1 - col)) + k], v);
      }
    }
  }
}

TEST(TextureFiles, CubeFacesCutFromAGrid) {
  // cube_grid.png: 3 x 4 cells of 4 x 4 pixels; pixel (r, c) is (16 * cell row + cell column,
  // 16 * (r % 4) + c % 4, 200). Face order: right, left, up, down, front, back.
  const Model m = compile_text(
      "<texture name='g' type='cube' file='png/cube_grid.png' gridsize='3 4' "
      "gridlayout='RLU.R..D....' rgb1='0 0 1'/>");
  ASSERT_EQ(m.tex_width[0], 4);
  ASSERT_EQ(m.tex_height[0], 24);
  const int cell_of_face[6] = {4, 1, 2, -1, -1, -1};  // R twice: the last (cell 4) counts
  for (int face = 0; face < 6; ++face) {
    for (int r = 0; r < 4; ++r) {
      for (int c = 0; c < 4; ++c) {
        const uint8_t* p = m.tex_rgb + 3 * ((4 * face + r) * 4 + c);
        const int cell = face == 3 ? 7 : cell_of_face[face];
        if (cell < 0) {
          EXPECT_EQ(Bytes(p, p + 3), (Bytes{0, 0, 255})) << "missing face " << face << " is rgb1";
        } else {
          EXPECT_EQ(Bytes(p, p + 3), (Bytes{static_cast<uint8_t>(16 * (cell / 4) + cell % 4),
                                            static_cast<uint8_t>(16 * r + c), 200}))
              << "face " << face;
        }
      }
    }
  }
}

TEST(TextureFiles, CubeFromSeparateFacesAndCustomFormat) {
  const Model m = compile_text(
      "<texture name='f' type='cube' fileup='faces/up.png' filedown='faces/down.rgb'/>");
  ASSERT_EQ(m.tex_height[0], 24);
  // faces/*: face i has pixels (40 i, 16 r + c, 255 - 40 i); missing faces are rgb1 (0.8: 204)
  for (int face = 0; face < 6; ++face) {
    const uint8_t* p = m.tex_rgb + 3 * ((4 * face + 1) * 4 + 2);
    if (face == 2 || face == 3) {
      EXPECT_EQ(Bytes(p, p + 3), (Bytes{static_cast<uint8_t>(40 * face), 18,
                                        static_cast<uint8_t>(255 - 40 * face)}));
    } else {
      EXPECT_EQ(Bytes(p, p + 3), Bytes(3, 204));
    }
  }
}

TEST(TextureFiles, Errors) {
  const auto expect = [](const std::string& assets, const std::string& part) {
    const std::string e = compile_error(assets);
    EXPECT_NE(e.find(part), std::string::npos) << "expected '" << part << "' in '" << e << "'";
  };
  expect("<texture name='a' type='2d' file='png/none.png'/>", "none.png: cannot open");
  EXPECT_EQ(compile_error("<texture name='a' type='2d' file='png/c2_d8.rgb'/>"),
            "");  // custom format
  expect("<texture name='c' type='2d' file='hf/random.bin'/>", "not a valid custom texture");
  expect("<texture name='a' type='cube' file='png/c2_d8.png'/>", "square cells");
  expect(
      "<texture name='a' type='cube' file='png/cube_grid.png' gridsize='2 4' "
      "gridlayout='........'/>",
      "square cells");
  expect("<texture name='a' type='cube' file='png/cube_grid.png' gridsize='0 4'/>", "gridsize");
  expect("<texture name='a' type='cube' file='png/cube_grid.png' gridsize='3 5'/>", "gridsize");
  expect(
      "<texture name='a' type='cube' file='png/cube_grid.png' gridsize='3 4' "
      "gridlayout='...X........'/>",
      "'.RLUDFB'");
  expect(
      "<texture name='a' type='cube' file='png/cube_grid.png' gridsize='3 4' gridlayout='....'/>",
      "gridlayout");
  expect("<texture name='a' type='cube' fileup='png/c2_d8.png'/>", "not square");
  expect("<texture name='a' type='cube' fileup='faces/up.png' fileleft='faces/odd.png'/>",
         "differs in size");
  expect("<texture name='a' type='cube'/>", "needs builtin, file");
  expect("<texture name='a' type='2d' fileup='faces/up.png'/>", "2d texture needs builtin or file");
  expect("<texture type='2d' builtin='flat' width='2' height='2'/>", "needs a name");
  expect("<texture name='a' type='2d' builtin='flat' width='2'/>", "positive width and height");
  EXPECT_EQ(compile_error("<texture type='skybox' builtin='flat' width='2' height='2'/>"),
            "");  // skyboxes need none
}

TEST(HeightField, FromPngRowsFlippedAndNormalised) {
  // hf/grey8.png is 9 x 6; the field's first row is the image's bottom row
  const RgbImage image =
      decode_png(test::read_file(test::testdata("textures/hf/grey8.png")), "grey8.png");
  const Model m = compile_text("<hfield name='h' file='hf/grey8.png' size='1 1 1 1'/>");
  ASSERT_EQ(m.hfield_nrow[0], image.height);
  ASSERT_EQ(m.hfield_ncol[0], image.width);
  int lo = 255, hi = 0;
  for (size_t i = 0; i < image.rgb.size(); i += 3) {
    lo = std::min<int>(lo, image.rgb[i]);
    hi = std::max<int>(hi, image.rgb[i]);
  }
  ASSERT_LT(lo, hi);
  float minimum = 1, maximum = 0;
  for (int r = 0; r < image.height; ++r) {
    for (int c = 0; c < image.width; ++c) {
      const int grey =
          image.rgb[static_cast<size_t>(3 * ((image.height - 1 - r) * image.width + c))];
      const float v = m.hfield_data[r * image.width + c];
      EXPECT_NEAR(v, static_cast<double>(grey - lo) / (hi - lo), 1e-7);
      minimum = std::min(minimum, v);
      maximum = std::max(maximum, v);
    }
  }
  EXPECT_EQ(minimum, 0.0f);
  EXPECT_EQ(maximum, 1.0f);
  const Model flat = compile_text("<hfield name='h' file='hf/flat.png' size='1 1 1 1'/>");
  for (int i = 0; i < 12; ++i) EXPECT_EQ(flat.hfield_data[i], 0.0f);
}

TEST(HeightField, BinaryNormalisationEdgeCases) {
  // tiny_range.bin: 1e-20 2e-20 3e-20 1.5e-20; a range under 1e-15 is only shifted, not divided
  const Model tiny = compile_text("<hfield name='h' file='hf/tiny_range.bin' size='1 1 1 1'/>");
  EXPECT_FLOAT_EQ(tiny.hfield_data[0], 0.0f);
  EXPECT_FLOAT_EQ(tiny.hfield_data[2], 2e-20f);
  // beyond_1e10.bin: 2e10 3e10 5e10 4e10 2.5e10 6e10; MuJoCo's minimum starts at 1e10 and stays
  // there
  const Model big = compile_text("<hfield name='h' file='hf/beyond_1e10.bin' size='1 1 1 1'/>");
  EXPECT_FLOAT_EQ(big.hfield_data[0], 0.2f);  // (2e10 - 1e10) / (6e10 - 1e10)
  EXPECT_FLOAT_EQ(big.hfield_data[5], 1.0f);
}

TEST(HeightField, Errors) {
  const auto expect = [](const std::string& assets, const std::string& part) {
    const std::string e = compile_error(assets);
    EXPECT_NE(e.find(part), std::string::npos) << "expected '" << part << "' in '" << e << "'";
  };
  expect("<hfield name='h' file='hf/grey8.png' nrow='6' ncol='9' size='1 1 1 1'/>",
         "nrow and ncol must not");
  expect("<hfield name='h' nrow='3' size='1 1 1 1'/>", "positive nrow and ncol");
  expect("<hfield name='h' nrow='3' ncol='3' size='1 1 0 1'/>", "sizes must be positive");
  expect("<hfield nrow='3' ncol='3' size='1 1 1 1'/>", "needs a name");
  expect("<hfield name='h' file='png/c2_d8.rgb' size='1 1 1 1'/>", "nrow*ncol floats");
  expect("<hfield name='h' file='hf/none.bin' size='1 1 1 1'/>", "none.bin: cannot open");
}

}  // namespace
}  // namespace joco::compiler
