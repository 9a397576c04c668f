// The per-geom parameters of the ellipsoid fluid model (geom_fluid), from fluidshape, fluidcoef and
// the geom's equivalent ellipsoid.
#pragma once

namespace joco::compiler {

// Carlson's symmetric elliptic integral of the second kind,
//   RD(x, y, z) = 3/2 int_0^inf dt / sqrt((t + x) (t + y) (t + z)^3),
// for x, y >= 0 (at most one zero) and z > 0, to machine precision.
double carlson_rd(double x, double y, double z);

// Tuckerman's coefficient of the ellipsoid with semi-axes ri (along i), rj and rk,
//   kappa_i = ri rj rk int_0^inf dl / sqrt((ri^2 + l)^3 (rj^2 + l) (rk^2 + l)),
// as MuJoCo 2.2.2 computes it: by one 15-point Gauss-Kronrod rule (within about 4e-7 of the exact
// value for round ellipsoids, a few percent off for very flat ones).
double added_mass_kappa(double ri, double rj, double rk);

// geom_fluid of one geom (kNFLUID numbers). For fluidshape="ellipsoid": 1, the five coefficients
// (blunt drag, slender drag, angular drag, Kutta lift, Magnus lift), the added masses and the
// added moments of inertia about the three semi-axes per unit fluid density (potential flow around
// the ellipsoid, Tuckerman's coefficients by added_mass_kappa, or exactly where that rule gives an
// impossible kappa of 2 or more). Otherwise all zero.
void fluid_coefficients(int geom_type, const double size[3], bool ellipsoid, const double coef[5],
                        double fluid[12]);

}  // namespace joco::compiler
