// The per-geom parameters of the ellipsoid fluid model (geom_fluid), from fluidshape, fluidcoef and
// the geom's equivalent ellipsoid.
#pragma once

namespace joco::compiler {

// Carlson's symmetric elliptic integral of the second kind,
//   RD(x, y, z) = 3/2 int_0^inf dt / sqrt((t + x) (t + y) (t + z)^3),
// for x, y >= 0 (at most one zero) and z > 0, to machine precision.
double carlson_rd(double x, double y, double z);

// geom_fluid of one geom (kNFLUID numbers). For fluidshape="ellipsoid": 1, the five coefficients
// (blunt drag, slender drag, angular drag, Kutta lift, Magnus lift), the added masses and the
// added moments of inertia about the three semi-axes per unit fluid density (potential flow around
// the ellipsoid, Tuckerman's coefficients computed exactly). Otherwise all zero.
void fluid_coefficients(int geom_type, const double size[3], bool ellipsoid, const double coef[5],
                        double fluid[12]);

}  // namespace joco::compiler
