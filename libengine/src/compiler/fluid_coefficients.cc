// Added mass and inertia of an ellipsoid in potential flow. With semi-axes r and
//   kappa_i = int_0^inf r_x r_y r_z / sqrt((r_i^2 + l)^3 (r_j^2 + l) (r_k^2 + l)) dl
//           = 2/3 r_x r_y r_z RD(r_j^2, r_k^2, r_i^2),
// the added masses are V kappa_i / (2 - kappa_i) and the added moments of inertia
// V/5 (r_j^2 - r_k^2)^2 (kappa_k - kappa_j) / (2 (r_j^2 - r_k^2) + (r_j^2 + r_k^2) (kappa_j -
// kappa_k)), V the volume, all per unit density (the fluid's density multiplies them at run time).
//
// MuJoCo 2.2.2 does not evaluate kappa exactly but by one 15-point Gauss-Kronrod rule, and its
// users' numbers are those; joco uses the same rule (identified from 2.2.2's outputs, see
// added_mass_kappa), which agrees with it to about 1e-15. The rule is 4e-7 off for a sphere and
// a few percent for geoms 1000 times flatter than wide; for flatter ones it can exceed 2, which no
// ellipsoid's kappa does (2.2.2 then stores a virtual mass 1e15 times the geom's volume), and there
// joco takes the exact values instead.
#include "compiler/fluid_coefficients.h"

#include <algorithm>
#include <cmath>

#include "joco/constants.h"
#include "joco/passive.h"

namespace joco::compiler {

double carlson_rd(double x, double y, double z) {
  // Duplication: RD(x, y, z) = 2 RD(x', y', z') + 3 / (sqrt(z) (z + l)) with l the sum of the
  // pairwise products of the square roots and x' = (x + l) / 4 etc., until the three arguments
  // agree to the precision where the fifth-order Taylor expansion about their mean is exact.
  double sum = 0, factor = 1;
  for (int iter = 0; iter < 100; ++iter) {
    const double mean = 0.2 * (x + y + 3 * z);
    const double dx = (mean - x) / mean, dy = (mean - y) / mean, dz = (mean - z) / mean;
    if (std::max({std::fabs(dx), std::fabs(dy), std::fabs(dz)}) < 1e-3) {
      // Carlson's expansion in the elementary symmetric functions of (dx, dy, dz, dz, dz).
      const double e2 = dx * dy - 6 * dz * dz;
      const double e3 = (3 * dx * dy - 8 * dz * dz) * dz;
      const double e4 = 3 * (dx * dy - dz * dz) * dz * dz;
      const double e5 = dx * dy * dz * dz * dz;
      const double series = 1 - 3.0 / 14 * e2 + 1.0 / 6 * e3 + 9.0 / 88 * e2 * e2 - 3.0 / 22 * e4 -
                            9.0 / 52 * e2 * e3 + 3.0 / 26 * e5;
      return 3 * sum + factor * series / (mean * std::sqrt(mean));
    }
    const double sx = std::sqrt(x), sy = std::sqrt(y), sz = std::sqrt(z);
    const double lambda = sx * (sy + sz) + sy * sz;
    sum += factor / (sz * (z + lambda));
    factor *= 0.25;
    x = 0.25 * (x + lambda);
    y = 0.25 * (y + lambda);
    z = 0.25 * (z + lambda);
  }
  return NAN;
}

double added_mass_kappa(double ri, double rj, double rk) {
  // The 15-point Gauss-Kronrod rule on [0, 1], abscissae and weights to 8 decimals as MuJoCo 2.2.2
  // has them (some differ from the correctly rounded values in the last digit).
  static constexpr double kAbscissa[15] = {
      0.00427231, 0.02544604, 0.06756779, 0.12923441, 0.20695638, 0.29707742, 0.39610752, 0.5,
      0.60389248, 0.70292258, 0.79304362, 0.87076559, 0.93243221, 0.97455396, 0.99572769};
  static constexpr double kWeight[15] = {0.02293532, 0.06309210, 0.10479002, 0.14065326,
                                         0.16900472, 0.19035058, 0.20443294, 0.20948214,
                                         0.20443294, 0.19035058, 0.16900472, 0.14065326,
                                         0.10479002, 0.06309210, 0.02293532};
  // l = s x^3 / (1 - x)^2 maps [0, 1) onto [0, inf); s = (r_i^3 r_j r_k)^(2/5) is where the
  // integrand's value at 0, 1 / r_i^2, meets its tail r_x r_y r_z l^(-5/2).
  const double s = std::pow(ri * ri * ri * rj * rk, 0.4);
  double sum = 0;
  for (int k = 0; k < 15; ++k) {
    const double x = kAbscissa[k], q = 1 - x;
    const double l = s * (x * x * x / (q * q));
    const double dl = s * (3 * x * x / (q * q) + 2 * x * x * x / (q * q * q));
    const double a = ri * ri + l, b = rj * rj + l, c = rk * rk + l;
    sum += 0.5 * kWeight[k] * dl / (std::pow(a, 1.5) * std::sqrt(b * c));
  }
  return ri * rj * rk * sum;
}

void fluid_coefficients(int geom_type, const double size[3], bool ellipsoid, const double coef[5],
                        double fluid[12]) {
  std::fill(fluid, fluid + kNFLUID, 0.0);
  if (!ellipsoid) return;
  fluid[0] = 1;
  std::copy(coef, coef + 5, fluid + 1);
  double r[3];
  fluid_semi_axes(geom_type, size, r);
  const double volume = 4.0 / 3.0 * kPi * r[0] * r[1] * r[2];
  double kappa[3];
  for (int i = 0; i < 3; ++i) kappa[i] = added_mass_kappa(r[i], r[(i + 1) % 3], r[(i + 2) % 3]);
  if (*std::max_element(kappa, kappa + 3) >= 2) {
    for (int i = 0; i < 3; ++i) {
      const double rj = r[(i + 1) % 3], rk = r[(i + 2) % 3];
      kappa[i] = 2.0 / 3.0 * r[0] * r[1] * r[2] * carlson_rd(rj * rj, rk * rk, r[i] * r[i]);
    }
  }
  for (int i = 0; i < 3; ++i) {
    fluid[6 + i] = volume * kappa[i] / std::max(2 - kappa[i], kMinVal);
    const int j = (i + 1) % 3, k = (i + 2) % 3;
    const double rj2 = r[j] * r[j], rk2 = r[k] * r[k];
    const double diff = rj2 - rk2;
    const double den = 2 * diff + (rj2 + rk2) * (kappa[j] - kappa[k]);
    // Equal axes j and k: no added inertia about i (the numerator vanishes faster).
    fluid[9 + i] =
        std::fabs(den) > kMinVal ? volume / 5 * diff * diff * (kappa[k] - kappa[j]) / den : 0;
  }
}

}  // namespace joco::compiler
