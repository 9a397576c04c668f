#include "compiler/texture.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <numbers>
#include <vector>

#include "decode/png.h"
#include "decode/texture_file.h"
#include "joco/error.h"

namespace joco::compiler {

namespace {

using Rgb = std::array<uint8_t, 3>;

[[noreturn]] void fail(const TextureSpec& t, const std::string& reason) {
  throw InputError(t.origin.describe(t.name) + ": " + reason);
}

// A colour component in [0, 1] to a byte the way MuJoCo converts it: 255 * value truncated to an
// int, wrapped modulo 256, and 0 where the int conversion overflows or the value is NaN.
uint8_t to_byte(double v) {
  if (!(v > -2147483649.0 && v < 2147483648.0)) return 0;
  return static_cast<uint8_t>(static_cast<int64_t>(v) & 0xff);
}

Rgb to_rgb(const Vec3& c) {
  return {to_byte(255 * c[0]), to_byte(255 * c[1]), to_byte(255 * c[2])};
}

// Pixel i of n mapped to [-1, 1], ends included (NaN for a single pixel, as in MuJoCo, whose
// gradient then comes out black).
double unit_coordinate(int i, int n) {
  if (n < 2) return std::numeric_limits<double>::quiet_NaN();
  return 2 * (i / (n - 1.0) - 0.5);
}

// The gradient's sigmoid: the algebraic sigmoid x / sqrt(1 + x^2), rescaled to map [-1, 1] onto
// [0, 1]. The expression's evaluation order matters: MuJoCo's bytes depend on its last bits.
double sigmoid(double x) {
  const auto q = [](double t) { return t / std::sqrt(1 + t * t); };
  return 0.5 + 0.5 * q(x) / q(1);
}

// Weights of rgb1 and rgb2 at a pixel of a 2d gradient: rgb1 at the centre, fading radially to
// rgb2 at distance 1 (the middle of the edges) and beyond.
std::array<double, 2> plane_gradient(int row, int col, int width, int height) {
  const double x = unit_coordinate(col, width), y = unit_coordinate(row, height);
  double d = std::sqrt(x * x + y * y);
  if (d > 1) d = 1;
  const double w2 = sigmoid(2 * d - 1);
  return {1 - w2, w2};
}

// A cube's gradient, rgb1 at the top (+Y, the up face 2) fading to rgb2 at the bottom, by the
// elevation in [-1, 1] of each pixel's direction from the cube's centre; `rgb` holds the six faces
// of `size` x `size` pixels. Faces 0, 1, 4 and 5 share one formula (face 0 is computed and copied
// to the others) and face 3 (down) has face 2's elevation negated. Within a row, a pixel's
// elevation depends on its column only through the norm of its direction, whose bits repeat
// (neighbouring columns, mirrored columns): a pixel whose norm has the bits of its left
// neighbour's or of its mirror column's takes that pixel's bytes instead of the trigonometry again,
// and on the up and down faces a row whose a * a has the bits of its mirror row's is that row. The
// same bytes with 45% of the arc sines and 40% of the arc cosines: the humanoid's 512-pixel skybox
// was most of its start-up.
void cube_gradient(const TextureSpec& t, int size, uint8_t* rgb) {
  const size_t n = static_cast<size_t>(size), line = 3 * n, face_bytes = line * n;
  std::vector<double> coordinate(n), square(n), norm(n);
  for (size_t i = 0; i < n; ++i) {
    coordinate[i] = unit_coordinate(static_cast<int>(i), size);
    square[i] = coordinate[i] * coordinate[i];
  }
  // The column (or row) whose pixel has the bits of pixel i, computed before it; i if none.
  const auto same_as = [n](const std::vector<double>& x, size_t i) {
    if (i > 0 && x[i - 1] == x[i]) return i - 1;
    if (n - 1 - i < i && x[n - 1 - i] == x[i]) return n - 1 - i;
    return i;
  };
  // A pixel's three bytes, copied inline (std::copy_n of 3 bytes is a call to memcpy).
  const auto copy = [](const uint8_t* from, uint8_t* to) {
    to[0] = from[0];
    to[1] = from[1];
    to[2] = from[2];
  };
  const auto blend = [&t](double w1, uint8_t* px) {
    const double w2 = 1 - w1;
    for (size_t k = 0; k < 3; ++k) px[k] = to_byte(255 * (w1 * t.rgb1[k] + w2 * t.rgb2[k]));
  };
  constexpr double kQuarter = std::numbers::pi / 2;
  uint8_t *side = rgb, *up = rgb + 2 * face_bytes, *down = rgb + 3 * face_bytes;
  for (size_t r = 0; r < n; ++r) {
    const double a = coordinate[r], aa = square[r];  // rows run downwards
    for (size_t c = 0; c < n; ++c) norm[c] = std::sqrt(square[c] + 1 + aa);
    uint8_t* row = side + r * line;
    for (size_t c = 0; c < n; ++c) {
      if (const size_t from = same_as(norm, c); from != c) {
        copy(row + 3 * from, row + 3 * c);
      } else {
        blend(sigmoid(-(std::asin(a / norm[c]) / kQuarter)), row + 3 * c);
      }
    }
    uint8_t *up_row = up + r * line, *down_row = down + r * line;
    if (n - 1 - r < r && square[n - 1 - r] == aa) {
      std::copy_n(up + (n - 1 - r) * line, line, up_row);
      std::copy_n(down + (n - 1 - r) * line, line, down_row);
      continue;
    }
    for (size_t c = 0; c < n; ++c) {
      if (const size_t from = same_as(norm, c); from != c) {
        copy(up_row + 3 * from, up_row + 3 * c);
        copy(down_row + 3 * from, down_row + 3 * c);
      } else {
        const double v = 1 - std::acos(1 / norm[c]) / kQuarter;
        blend(sigmoid(v), up_row + 3 * c);
        blend(sigmoid(-v), down_row + 3 * c);
      }
    }
  }
  for (const size_t face : {size_t{1}, size_t{4}, size_t{5}}) {
    std::memcpy(rgb + face * face_bytes, side, face_bytes);
  }
}

constexpr const char* kFaceLetters = "RLUDFB";  // right, left, up, down, front, back

using Image = RgbImage;

void flip(Image& image, bool hflip, bool vflip) {
  const size_t w = static_cast<size_t>(image.width), h = static_cast<size_t>(image.height);
  uint8_t* p = image.rgb.data();
  if (hflip) {
    for (size_t r = 0; r < h; ++r) {
      for (size_t c = 0; c < w / 2; ++c) {
        std::swap_ranges(p + 3 * (r * w + c), p + 3 * (r * w + c) + 3, p + 3 * (r * w + w - 1 - c));
      }
    }
  }
  if (vflip) {
    for (size_t r = 0; r < h / 2; ++r) {
      std::swap_ranges(p + 3 * r * w, p + 3 * (r + 1) * w, p + 3 * (h - 1 - r) * w);
    }
  }
}

Image load(const TextureSpec& t, const std::string& file, const ModelSpec& spec) {
  Image image = read_texture_file(resolve_asset_path(file, spec.compiler.texturedir, spec),
                                  t.origin.describe(t.name));
  flip(image, t.hflip, t.vflip);
  return image;
}

// Six square faces of `size`, stacked vertically, filled with rgb1 (the colour of missing faces).
CompiledTexture empty_cube(const TextureSpec& t, int size) {
  CompiledTexture c;
  c.type = t.type;
  c.width = size;
  c.height = 6 * size;
  const Rgb fill = to_rgb(t.rgb1);
  c.rgb.resize(uint64_t{3} * static_cast<uint64_t>(size) * static_cast<uint64_t>(c.height));
  for (size_t i = 0; i < c.rgb.size(); i += 3) {
    std::copy(fill.begin(), fill.end(), c.rgb.begin() + static_cast<std::ptrdiff_t>(i));
  }
  return c;
}

// A cube or skybox from one image: the image itself as every face (grid 1 x 1, stored once), or
// faces cut from a grid of square cells as gridlayout says.
CompiledTexture cube_from_file(const TextureSpec& t, const ModelSpec& spec) {
  const int rows = t.gridsize[0], cols = t.gridsize[1];
  if (rows <= 0 || cols <= 0 || rows * cols > 12) {
    fail(t, "gridsize must be positive with at most 12 cells");
  }
  for (int i = 0; i < rows * cols && i < static_cast<int>(t.gridlayout.size()); ++i) {
    if (t.gridlayout[static_cast<size_t>(i)] != '.' &&
        !std::strchr(kFaceLetters, t.gridlayout[static_cast<size_t>(i)])) {
      fail(t, "gridlayout may only contain the characters '.RLUDFB'");
    }
  }
  const Image image = load(t, t.file, spec);
  if (image.width % cols != 0 || image.height % rows != 0 ||
      image.width / cols != image.height / rows) {
    fail(t, "the size of '" + t.file + "' (" + std::to_string(image.width) + " x " +
                std::to_string(image.height) + ") is not a grid of " + std::to_string(rows) +
                " x " + std::to_string(cols) + " square cells");
  }
  const int size = image.width / cols;
  if (rows == 1 && cols == 1) {
    CompiledTexture c;
    c.type = t.type;
    c.width = c.height = size;
    c.rgb = image.rgb;
    return c;
  }
  CompiledTexture c = empty_cube(t, size);
  const size_t line = 3 * static_cast<size_t>(size);
  for (int i = 0; i < rows * cols && i < static_cast<int>(t.gridlayout.size()); ++i) {
    const char letter = t.gridlayout[static_cast<size_t>(i)];
    if (letter == '.') continue;
    const size_t face = static_cast<size_t>(std::strchr(kFaceLetters, letter) - kFaceLetters);
    const size_t cell_row = static_cast<size_t>(i / cols), cell_col = static_cast<size_t>(i % cols);
    for (size_t r = 0; r < static_cast<size_t>(size); ++r) {
      const size_t src =
          3 * ((cell_row * static_cast<size_t>(size) + r) * static_cast<size_t>(image.width) +
               cell_col * static_cast<size_t>(size));
      std::copy_n(image.rgb.begin() + static_cast<std::ptrdiff_t>(src), line,
                  c.rgb.begin() +
                      static_cast<std::ptrdiff_t>((face * static_cast<size_t>(size) + r) * line));
    }
  }
  return c;
}

// A cube or skybox from up to six files, one square face each; missing faces are rgb1.
CompiledTexture cube_from_files(const TextureSpec& t, const ModelSpec& spec) {
  std::array<Image, 6> faces;
  int size = 0;
  for (size_t f = 0; f < 6; ++f) {
    if (t.cubefiles[f].empty()) continue;
    faces[f] = load(t, t.cubefiles[f], spec);
    if (faces[f].width != faces[f].height) fail(t, "'" + t.cubefiles[f] + "' is not square");
    if (size != 0 && faces[f].width != size) {
      fail(t, "'" + t.cubefiles[f] + "' differs in size from the other faces");
    }
    size = faces[f].width;
  }
  if (size == 0) {
    fail(t,
         "a cube or skybox texture needs builtin, file, or at least one of fileright, fileleft, "
         "fileup, filedown, filefront, fileback");
  }
  CompiledTexture c = empty_cube(t, size);
  const size_t face_bytes = 3 * static_cast<size_t>(size) * static_cast<size_t>(size);
  for (size_t f = 0; f < 6; ++f) {
    if (!faces[f].rgb.empty()) {
      std::copy(faces[f].rgb.begin(), faces[f].rgb.end(),
                c.rgb.begin() + static_cast<std::ptrdiff_t>(f * face_bytes));
    }
  }
  return c;
}

}  // namespace

CompiledTexture builtin_texture(const TextureSpec& t, MarkRandom& random) {
  if (t.width <= 0 || t.height <= 0) fail(t, "builtin textures need positive width and height");
  const bool cube = t.type != kTexture2D;
  const int width = t.width;
  const int face_height = cube ? width : t.height;  // cube faces are square; height is unused
  const int nface = cube ? 6 : 1;
  if (uint64_t{3} * static_cast<uint64_t>(width) * static_cast<uint64_t>(face_height) *
          static_cast<uint64_t>(nface) >
      kMaxTextureBytes) {
    fail(t, "texture is too large");
  }
  CompiledTexture c;
  c.type = t.type;
  c.width = width;
  c.height = face_height * nface;
  c.rgb.resize(uint64_t{3} * static_cast<uint64_t>(width) * static_cast<uint64_t>(c.height));
  const Rgb rgb1 = to_rgb(t.rgb1), rgb2 = to_rgb(t.rgb2), mark = to_rgb(t.markrgb);
  const auto blend = [&t](double w1, double w2, uint8_t* px) {
    for (size_t k = 0; k < 3; ++k) px[k] = to_byte(255 * (w1 * t.rgb1[k] + w2 * t.rgb2[k]));
  };
  if (cube && t.builtin == 1) {
    cube_gradient(t, width, c.rgb.data());
  } else {
    uint8_t* px = c.rgb.data();
    for (int face = 0; face < nface; ++face) {
      for (int r = 0; r < face_height; ++r) {
        for (int col = 0; col < width; ++col, px += 3) {
          if (t.builtin == 1) {
            const auto [w1, w2] = plane_gradient(r, col, width, face_height);
            blend(w1, w2, px);
          } else if (t.builtin == 2) {
            // 2 x 2 squares; the front and back faces of a cube start with rgb2
            const bool first = ((r < face_height / 2) == (col < width / 2)) != (face >= 4);
            std::copy_n((first ? rgb1 : rgb2).begin(), 3, px);
          } else {
            std::copy_n((cube && face == 3 ? rgb2 : rgb1).begin(), 3,
                        px);  // flat; a cube's bottom is rgb2
          }
        }
      }
    }
  }
  // The marks over what is drawn: edges or a cross on every face, or random pixels.
  if (t.mark == 1 || t.mark == 2) {
    uint8_t* px = c.rgb.data();
    for (int face = 0; face < nface; ++face) {
      for (int r = 0; r < face_height; ++r) {
        for (int col = 0; col < width; ++col, px += 3) {
          const bool marked = t.mark == 1
                                  ? r == 0 || r == face_height - 1 || col == 0 || col == width - 1
                                  : r == face_height / 2 || col == width / 2;
          if (marked) std::copy_n(mark.begin(), 3, px);
        }
      }
    }
  }
  if (t.mark == 3) {
    // one draw per pixel, in storage order, whether or not the pixel is marked
    for (size_t i = 0; i < c.rgb.size(); i += 3) {
      if (static_cast<double>(random.next()) / MarkRandom::kMax < t.random) {
        std::copy_n(mark.begin(), 3, c.rgb.begin() + static_cast<std::ptrdiff_t>(i));
      }
    }
  }
  return c;
}

CompiledTexture make_texture(const TextureSpec& t, const ModelSpec& spec, MarkRandom& random) {
  if (t.builtin != 0) return builtin_texture(t, random);
  if (!t.file.empty()) {
    if (t.type != kTexture2D) return cube_from_file(t, spec);
    Image image = load(t, t.file, spec);
    CompiledTexture c;
    c.type = t.type;
    c.width = image.width;
    c.height = image.height;
    c.rgb = std::move(image.rgb);
    return c;
  }
  if (t.type == kTexture2D) {
    fail(t, "a 2d texture needs builtin or file (it cannot come from separate face files)");
  }
  return cube_from_files(t, spec);
}

}  // namespace joco::compiler
