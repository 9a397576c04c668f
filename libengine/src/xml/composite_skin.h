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

// The 16 cubic Hermite functions of a bicubic patch over [0, 1]^2 at (x, y), evaluated in power
// form (the sum of their x^i y^j terms, i outer, j inner). Function k = 4 * type + corner gives
// the weight of the value (type 0), x slope (1), y slope (2) or cross derivative (3) at corner
// (k & 1, (k >> 1) & 1).
std::array<double, 16> bicubic_hermite_basis(double x, double y);

}  // namespace joco::compiler
