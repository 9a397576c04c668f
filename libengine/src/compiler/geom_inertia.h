// Volume and inertia of primitive geoms (per unit density). Principal axes of composite inertias
// come from math/eig3.h. Shared by the MJCF compiler, composite expansion and the URDF converter.
#pragma once

#include "compiler/spec.h"

namespace joco::compiler {

struct GeomMassProperties {
  double volume = 0;  // or area, for shell inertia
  Vec3 inertia{};     // principal moments per unit density, in the geom frame
};

// For primitive types (sphere, capsule, ellipsoid, cylinder, box); planes and height fields have
// none. `shell` places the mass on the surface (then "volume" is the surface area).
GeomMassProperties primitive_mass_properties(int type, const Vec3& size, bool shell);

}  // namespace joco::compiler
