// The skins composite objects generate: a two-sided surface through the element bodies of 2D grids
// and cloth (optionally refined by bicubic interpolation), or over the shell of box, cylinder and
// ellipsoid objects, bound to the element bodies as bones.
#pragma once

#include <array>
#include <functional>
#include <string>

#include "compiler/spec.h"

namespace joco::compiler {

enum class CompositeType { kParticle, kGrid, kRope, kLoop, kCloth, kBox, kCylinder, kEllipsoid };

// The <skin> subelement of a composite.
struct CompositeSkin {
  bool given = false;
  bool texcoord = false;
  std::string material;
  std::array<double, 4> rgba = {1, 1, 1, 1};
  double inflate = 0;
  int subgrid = 0;
  int group = 0;
};

// The name of the element body at grid coordinates (two for 2D objects, three for shells).
using BodyNamer = std::function<std::string(int, int, int)>;

// The skin of a 2D grid or cloth with count[0] x count[1] elements `spacing` apart.
SkinSpec make_grid_skin(const CompositeSkin& skin, const std::array<int, 3>& count, double spacing,
                        const BodyNamer& body);

// The skin over the shell of a box, cylinder or ellipsoid: one vertex per element and face of the
// box (shared between faces where the surface is smooth: the sides of a cylinder, all of an
// ellipsoid).
SkinSpec make_shell_skin(const CompositeSkin& skin, CompositeType type,
                         const std::array<int, 3>& count, const BodyNamer& body);

// Catmull-Rom weights at t in [0, 1] of the samples at -1, 0, 1 and 2; at the ends of a grid, the
// missing sample is extrapolated linearly from its two neighbours (`first`: no sample at -1;
// `last`: none at 2), and its weight is folded into theirs.
std::array<double, 4> catmull_rom_weights(double t, bool first, bool last);

}  // namespace joco::compiler
