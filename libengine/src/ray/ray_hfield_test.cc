// The height field walk (ray_hfield_surface) against the exhaustive loop over every cell
// (ray_hfield_cell on each): bit for bit the same nearest hit, for random, grazing, vertical,
// edge-aligned and corner-crossing rays from above, below, outside and inside the field's box, on
// fields of several shapes with rough, smooth and flat (degenerate) elevations.
#include "ray/ray_hfield.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <string>

#include "joco/mjcf.h"

namespace joco {
namespace {

const char* const kFields = R"(
<mujoco>
  <asset>
    <hfield name="h0" nrow="2" ncol="2" size="0.5 0.4 0.3 0.1"/>
    <hfield name="h1" nrow="7" ncol="8" size="0.6 0.5 0.3 0.1"/>
    <hfield name="h2" nrow="40" ncol="25" size="2 1 0.5 0.2"/>
    <hfield name="h3" nrow="25" ncol="40" size="1 3 0.2 0.2"/>
    <hfield name="h4" nrow="101" ncol="101" size="5 5 1 0.1"/>
  </asset>
  <worldbody>
    <geom type="hfield" hfield="h0"/>
    <geom type="hfield" hfield="h1"/>
    <geom type="hfield" hfield="h2"/>
    <geom type="hfield" hfield="h3"/>
    <geom type="hfield" hfield="h4"/>
  </worldbody>
</mujoco>)";

// The nearest hit of every cell's triangles: the reference the walk must reproduce.
double exhaustive(const Model& m, int hf, const double* p, const double* v) {
  double best = -1;
  for (int r = 0; r + 1 < m.hfield_nrow[hf]; ++r) {
    for (int c = 0; c + 1 < m.hfield_ncol[hf]; ++c) {
      const double x = ray_hfield_cell(m, hf, p, v, r, c);
      if (x >= 0 && (best < 0 || x < best)) best = x;
    }
  }
  return best;
}

double nearest(double a, double b) {
  if (a < 0) return b < 0 ? -1 : b;
  return b < 0 ? a : std::min(a, b);
}

// Elevations: rough (random), smooth (hills), terraced (flat plateaus: rays in their planes).
void fill(Model& m, int hf, int kind, std::mt19937_64& rng) {
  std::uniform_real_distribution<float> u(0, 1);
  const int nrow = m.hfield_nrow[hf], ncol = m.hfield_ncol[hf];
  for (int r = 0; r < nrow; ++r) {
    for (int c = 0; c < ncol; ++c) {
      float h = u(rng);
      if (kind == 1) h = 0.5f + 0.5f * std::sin(0.3f * r) * std::cos(0.2f * c);
      if (kind == 2) h = std::floor(4 * (0.5f + 0.5f * std::sin(0.25f * (r + c)))) / 4;
      m.hfield_data[m.hfield_adr[hf] + r * ncol + c] = h;
    }
  }
}

struct Counts {
  int rays = 0, hits = 0;
};

// One ray of a random kind in the field's frame.
void random_ray(const Model& m, int hf, int kind, std::mt19937_64& rng, double* p, double* v) {
  std::uniform_real_distribution<double> u(-1, 1);
  const double* size = m.hfield_size + 4 * hf;
  const int nrow = m.hfield_nrow[hf], ncol = m.hfield_ncol[hf];
  const double dx = 2 * size[0] / (ncol - 1), dy = 2 * size[1] / (nrow - 1);
  // a grid point, computed as the cells' vertices are
  const int gc = std::uniform_int_distribution<int>(0, ncol - 1)(rng);
  const int gr = std::uniform_int_distribution<int>(0, nrow - 1)(rng);
  const double gx = -size[0] + gc * dx, gy = -size[1] + gr * dy;
  const double z = size[2] * (0.5 + 0.6 * u(rng));  // mostly within the surface's heights
  switch (kind) {
    case 0:  // anywhere around the field, any direction
      for (int k = 0; k < 2; ++k) p[k] = 1.5 * size[k] * u(rng);
      p[2] = 1.5 * size[2] * u(rng);
      for (double* x = v; x != v + 3; ++x) *x = u(rng);
      break;
    case 1: {  // grazing: from outside the box, nearly horizontal (or exactly)
      const double angle = 3.14159265358979 * u(rng);
      p[0] = 2 * size[0] * std::cos(angle);
      p[1] = 2 * size[1] * std::sin(angle);
      p[2] = z;
      v[0] = -p[0] + 0.3 * size[0] * u(rng);
      v[1] = -p[1] + 0.3 * size[1] * u(rng);
      const int e = std::uniform_int_distribution<int>(0, 12)(rng);
      v[2] = e == 12 ? 0 : u(rng) * std::pow(10.0, -e);
      break;
    }
    case 2:  // along a grid line of x or of y, at a height, in either direction
      if (u(rng) < 0) {
        p[0] = gx, p[1] = 1.3 * size[1] * u(rng), p[2] = z;
        v[0] = 0, v[1] = u(rng), v[2] = 0.1 * u(rng) * (u(rng) < 0);
      } else {
        p[0] = 1.3 * size[0] * u(rng), p[1] = gy, p[2] = z;
        v[0] = u(rng), v[1] = 0, v[2] = 0.1 * u(rng) * (u(rng) < 0);
      }
      break;
    case 3:  // through grid points: along the cells' diagonals from a vertex, or vertical on one
      p[0] = gx, p[1] = gy, p[2] = z + 0.3 * size[2];
      if (u(rng) < 0) {
        v[0] = dx * (u(rng) < 0 ? -1 : 1), v[1] = dy * (u(rng) < 0 ? -1 : 1), v[2] = -0.01 * dx;
      } else {
        v[0] = 0, v[1] = 0, v[2] = -1;
      }
      break;
    case 4:  // vertical or nearly, from above, below or inside
      p[0] = 1.1 * size[0] * u(rng), p[1] = 1.1 * size[1] * u(rng);
      p[2] = u(rng) < 0 ? z : (u(rng) < 0 ? 3 * size[2] : -2 * size[3]);
      v[0] = 1e-9 * u(rng) * (u(rng) < 0), v[1] = 1e-9 * u(rng) * (u(rng) < 0);
      v[2] = u(rng) < 0 ? -1 : 1;
      break;
    default:  // starting inside the field's box, any direction
      for (int k = 0; k < 2; ++k) p[k] = size[k] * u(rng);
      p[2] = z;
      for (double* x = v; x != v + 3; ++x) *x = u(rng);
      break;
  }
  const double length = std::exp(2 * u(rng));
  for (int k = 0; k < 3; ++k) v[k] *= length;
}

TEST(RayHfieldWalk, SameHitAsEveryCell) {
  Model m = compile_mjcf(kFields, "fields.xml", ".");
  std::mt19937_64 rng(15);
  std::uniform_real_distribution<double> u(0, 1);
  Counts counts[6];
  int bounded = 0;
  for (int hf = 0; hf < m.nhfield; ++hf) {
    for (int elevation = 0; elevation < 3; ++elevation) {
      fill(m, hf, elevation, rng);
      for (int i = 0; i < 500; ++i) {
        const int kind = i % 6;
        double p[3], v[3];
        random_ray(m, hf, kind, rng, p, v);
        const std::string where = "field " + std::to_string(hf) + " elevation " +
                                  std::to_string(elevation) + " ray " + std::to_string(i);
        const double expected = exhaustive(m, hf, p, v);
        const double walked = ray_hfield_surface(m, hf, p, v, -1);
        // bit for bit (a miss is -1 in both)
        ASSERT_EQ(walked, expected) << where;
        ++counts[kind].rays;
        if (expected >= 0) ++counts[kind].hits;
        // a bound (the base's or a side's hit) stops the walk, never changes the nearest
        const double bound = expected >= 0 && u(rng) < 0.7 ? expected * (0.5 + u(rng)) : 3 * u(rng);
        ASSERT_EQ(nearest(bound, ray_hfield_surface(m, hf, p, v, bound)), nearest(bound, expected))
            << where << " bound " << bound;
        ++bounded;
      }
    }
  }
  for (int kind = 0; kind < 6; ++kind) {
    std::cout << "ray kind " << kind << ": " << counts[kind].rays << " rays, " << counts[kind].hits
              << " hits\n";
    EXPECT_GT(counts[kind].hits, counts[kind].rays / 20) << kind;
  }
  EXPECT_EQ(bounded, 5 * 3 * 500);
}

// Rays that are not numbers, or far off the field: a miss (-1) or a hit, never a cell index
// out of range. A vertical ray at x = NaN passed the grid's bounds check (NaN compares false)
// and reached the cell index as NaN, converted to an int (undefined; in practice INT_MIN, a read
// far before the heights).
TEST(RayHfieldWalk, NonFiniteAndFarRaysStayOnTheGrid) {
  const Model m = compile_mjcf(kFields, "fields.xml", ".");
  const double nan = std::nan(""), inf = std::numeric_limits<double>::infinity();
  const double values[] = {nan, inf, -inf, 1e308, -1e308, 0.1, 0};
  int rays = 0;
  for (int hf = 0; hf < m.nhfield; ++hf) {
    for (const double x : values) {
      for (const double vx : {0.0, 1e-300, 1.0, nan}) {
        const double p[3] = {x, 0.05, 1}, v[3] = {vx, 0, -1};
        const double hit = ray_hfield_surface(m, hf, p, v, -1);
        EXPECT_TRUE(hit == -1 || (std::isfinite(hit) && hit >= 0)) << hf << " " << x << " " << vx;
        const double q[3] = {0.05, x, 1}, w[3] = {0, vx, -1};
        const double hit2 = ray_hfield_surface(m, hf, q, w, -1);
        EXPECT_TRUE(hit2 == -1 || (std::isfinite(hit2) && hit2 >= 0)) << hf << " " << x << " " << vx;
        rays += 2;
      }
    }
  }
  EXPECT_EQ(rays, 5 * 7 * 4 * 2);
  // a vertical ray through the middle of a finite field still hits it
  const double p[3] = {0.05, 0.05, 1}, v[3] = {0, 0, -1};
  EXPECT_GT(ray_hfield_surface(m, 0, p, v, -1), 0);
}

}  // namespace
}  // namespace joco
