// The skins composite objects generate: a surface through the element bodies (2D grids and cloth)
// or over the shell (box, cylinder, ellipsoid), bound to the bodies as bones.
#pragma once

#include <array>
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

}  // namespace joco::compiler
