// Rays through the accelerated paths (the height field walk, the bounding-sphere skip of mj_ray)
// against MuJoCo 2.2.2: the quadruped's 20 rangefinders along MuJoCo rollouts over a 201x201
// height field and among non-convex mesh rocks, and many rays of hard kinds against the field and
// the rocks (grazing, along grid lines, through grid points, vertical, from below, from outside,
// starting inside the field's box).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <iostream>
#include <random>
#include <string>

#include "joco/ray.h"
#include "oracle/sensor_oracle_support.h"

namespace joco {
namespace {

// Rangefinders along a MuJoCo rollout (random controls): readings within the sensor tolerance.
void check_rangefinders(const char* model, int steps) {
  sensor_oracle::SensorCheck check;
  check.stage = kStagePos;
  check.seeds = 60;
  check.rollout_steps = steps;
  int compared = 0, hits = 0;
  std::mt19937_64 rng(3);
  check.after = [&](oracle::OracleCase& c) {
    for (int i = 0; i < c.m.nsensor; ++i) {
      ++compared;
      if (c.md->sensordata[c.m.sensor_adr[i]] >= 0) ++hits;
    }
    // new random controls for the next stretch of the rollout
    std::uniform_real_distribution<double> u(-1, 1);
    for (int i = 0; i < c.mj->nu; ++i) c.md->ctrl[i] = u(rng);
  };
  const sensor_oracle::SensorErrors errors = sensor_oracle::check_sensors(model, check);
  std::cout << model << ": " << compared << " rangefinder readings compared, " << hits << " hits\n";
  EXPECT_LE(errors.worst(), 1e-10);
  EXPECT_GT(compared, 0);
  EXPECT_GT(hits, compared / 4);
}

TEST(RangefinderAccelOracle, QuadrupedOverHfield) {
  check_rangefinders("sensor/quadruped_hfield.xml", 3000);
}
TEST(RangefinderAccelOracle, QuadrupedAmongMeshes) {
  check_rangefinders("sensor/quadruped_mesh.xml", 600);
}

// One ray of a hard kind, for a geom of half extent (sx, sy) in x, y and heights 0..sz, whose grid
// (for a height field) has spacing (dx, dy) from corner (-sx, -sy), in the geom's frame.
void hard_ray(int kind, const double* ext, const double* cell, std::mt19937_64& rng, double* p,
              double* v) {
  std::uniform_real_distribution<double> u(-1, 1);
  const double sx = ext[0], sy = ext[1], sz = ext[2];
  const int ncol = static_cast<int>(std::lround(2 * sx / cell[0])) + 1;
  const int nrow = static_cast<int>(std::lround(2 * sy / cell[1])) + 1;
  const double gx = -sx + std::uniform_int_distribution<int>(0, ncol - 1)(rng) * cell[0];
  const double gy = -sy + std::uniform_int_distribution<int>(0, nrow - 1)(rng) * cell[1];
  const double z = sz * (0.5 + 0.6 * u(rng));
  switch (kind) {
    case 0:  // grazing from outside
      p[0] = 1.5 * sx * u(rng), p[1] = (u(rng) < 0 ? -1.5 : 1.5) * sy, p[2] = z;
      if (u(rng) < 0) std::swap(p[0], p[1]);
      v[0] = 0.8 * sx * u(rng) - p[0], v[1] = 0.8 * sy * u(rng) - p[1];
      v[2] = u(rng) < -0.8
                 ? 0
                 : u(rng) * std::pow(10.0, -std::uniform_int_distribution<int>(1, 9)(rng));
      break;
    case 1:  // along a grid line, 1e-9 of a cell beside it (within the walk's margin): exactly on
             // it, 2.2.2 misses some hits on the shared edges that joco's triangle test takes
      if (u(rng) < 0) {
        p[0] = gx + 1e-9 * cell[0] * (u(rng) < 0 ? -1 : 1), p[1] = 1.2 * sy * u(rng), p[2] = z;
        v[0] = 0, v[1] = u(rng);
      } else {
        p[0] = 1.2 * sx * u(rng), p[1] = gy + 1e-9 * cell[1] * (u(rng) < 0 ? -1 : 1), p[2] = z;
        v[0] = u(rng), v[1] = 0;
      }
      v[2] = u(rng) < 0 ? 0 : 0.05 * u(rng);
      break;
    case 2:  // through grid points (1e-9 of a cell beside them, as above: exactly on a cell's
             // diagonal edge, joco's triangle test misses some hits 2.2.2 takes): diagonals and
             // verticals
      p[0] = gx + 1e-9 * cell[0] * (u(rng) < 0 ? -1 : 1), p[1] = gy, p[2] = z + 0.5 * sz;
      if (u(rng) < 0) {
        v[0] = (u(rng) < 0 ? -1 : 1) * cell[0], v[1] = (u(rng) < 0 ? -1 : 1) * cell[1];
        v[2] = -0.02 * cell[0];
      } else {
        v[0] = v[1] = 0, v[2] = -1;
      }
      break;
    case 3:  // vertical or nearly, from above or from below
      p[0] = 1.1 * sx * u(rng), p[1] = 1.1 * sy * u(rng), p[2] = u(rng) < 0 ? 2 * sz : -0.5 * sz;
      v[0] = 1e-7 * u(rng), v[1] = 1e-7 * u(rng), v[2] = p[2] > 0 ? -1 : 1;
      break;
    case 4:  // starting inside the box, any direction
      p[0] = sx * u(rng), p[1] = sy * u(rng), p[2] = z;
      for (int k = 0; k < 3; ++k) v[k] = u(rng);
      break;
    default:  // from anywhere around, any direction
      p[0] = 2 * sx * u(rng), p[1] = 2 * sy * u(rng), p[2] = 2 * sz * u(rng);
      for (int k = 0; k < 3; ++k) v[k] = u(rng);
      break;
  }
}

// Rays of each hard kind at each geom of `type` in the model (at its initial pose), through
// mj_rayHfield / mj_rayMesh and mj_ray against joco: same hit or miss, distances within 1e-10.
void check_rays(const char* model, int type, int per_kind) {
  oracle::OracleCase c;
  if (!oracle::load_case(model, c)) return;
  mj_forward(c.mj.get(), c.md.get());
  oracle::copy_data(c.mj.get(), c.md.get(), c.d);
  std::mt19937_64 rng(41);
  int compared = 0, hits = 0, mismatched = 0;
  double worst = 0;
  for (int g = 0; g < c.m.ngeom; ++g) {
    if (c.m.geom_type[g] != type) continue;
    double ext[3], cell[2];
    if (type == kGeomHfield) {
      const int hf = c.m.geom_dataid[g];
      const double* size = c.m.hfield_size + 4 * hf;
      ext[0] = size[0], ext[1] = size[1], ext[2] = size[2];
      cell[0] = 2 * size[0] / (c.m.hfield_ncol[hf] - 1);
      cell[1] = 2 * size[1] / (c.m.hfield_nrow[hf] - 1);
    } else {  // meshes: their bounding box, vertices on a grid of 10 cells
      for (int k = 0; k < 3; ++k) ext[k] = c.m.geom_size[3 * g + k];
      cell[0] = ext[0] / 5, cell[1] = ext[1] / 5;
    }
    for (int kind = 0; kind < 6; ++kind) {
      for (int i = 0; i < per_kind; ++i) {
        double pl[3], vl[3];
        hard_ray(kind, ext, cell, rng, pl, vl);
        if (type == kGeomMesh) pl[2] -= 0.5 * ext[2], pl[2] *= 2;  // heights -sz..sz
        // to the world: pnt = pos + mat pl, vec = mat vl
        const double* pos = c.md->geom_xpos + 3 * g;
        const double* mat = c.md->geom_xmat + 9 * g;
        double pnt[3], vec[3];
        for (int r = 0; r < 3; ++r) {
          pnt[r] = pos[r] + mat[3 * r] * pl[0] + mat[3 * r + 1] * pl[1] + mat[3 * r + 2] * pl[2];
          vec[r] = mat[3 * r] * vl[0] + mat[3 * r + 1] * vl[1] + mat[3 * r + 2] * vl[2];
        }
        const std::string where = std::string(model) + " geom " + std::to_string(g) + " kind " +
                                  std::to_string(kind) + " ray " + std::to_string(i);
        double expected, actual;
        if (type == kGeomHfield) {
          expected = mj_rayHfield(c.mj.get(), c.md.get(), g, pnt, vec);
          actual = ray_hfield(c.m, c.d, g, pnt, vec);
        } else {
          expected = mj_rayMesh(c.mj.get(), c.md.get(), g, pnt, vec);
          actual = ray_mesh(c.m, c.d, g, pnt, vec);
        }
        int mj_geom = -1, joco_geom = -1;
        const double mj_all = mj_ray(c.mj.get(), c.md.get(), pnt, vec, nullptr, 1, -1, &mj_geom);
        const double joco_all = ray(c.m, c.d, pnt, vec, nullptr, true, -1, &joco_geom);
        for (const auto& [a, e, ga, ge] : {std::tuple{actual, expected, 0, 0},
                                           std::tuple{joco_all, mj_all, joco_geom, mj_geom}}) {
          ++compared;
          oracle::count_compared();
          if ((a < 0) != (e < 0) || ga != ge) {
            if (mismatched++ < 5) {
              ADD_FAILURE() << where << ": joco " << a << " (geom " << ga << "), MuJoCo " << e
                            << " (geom " << ge << ")";
            }
            continue;
          }
          if (e < 0) continue;
          ++hits;
          const double err = std::abs(a - e) / std::max(std::abs(e), 1e-9);
          worst = std::max(worst, err);
        }
      }
    }
  }
  std::cout << model << ": " << compared << " rays compared, " << hits << " hits, " << mismatched
            << " disagreements, worst relative error " << worst << "\n";
  EXPECT_GT(compared, 0);
  EXPECT_GT(hits, compared / 5);
  EXPECT_EQ(mismatched, 0);
  EXPECT_LE(worst, 1e-10);
}

TEST(RayAccelOracle, LargeHfield) { check_rays("sensor/quadruped_hfield.xml", kGeomHfield, 600); }
TEST(RayAccelOracle, MeshRocks) { check_rays("sensor/quadruped_mesh.xml", kGeomMesh, 40); }

}  // namespace
}  // namespace joco
