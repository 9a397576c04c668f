// Volume, surface area and inertia of primitive geoms (per unit density), and the principal-axes
// decomposition of a symmetric 3x3 inertia.
#pragma once

#include "compiler/spec.h"

namespace joco::compiler {

struct GeomMassProperties {
  double volume = 0;   // or area, for shell inertia
  Vec3 inertia{};      // principal moments per unit density, in the geom frame
};

// For primitive types (sphere, capsule, ellipsoid, cylinder, box); planes and height fields have
// none. `shell` places the mass on the surface (then "volume" is the surface area).
GeomMassProperties primitive_mass_properties(int type, const Vec3& size, bool shell);

// Eigen-decomposition of a symmetric 3x3 matrix (row-major): eigenvalues in decreasing order and
// the rotation (as a quaternion) whose columns are the matching eigenvectors.
void principal_axes(const double* matrix, double* eigenvalues, double* quat);

}  // namespace joco::compiler
