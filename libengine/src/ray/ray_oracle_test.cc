// Ray casting against MuJoCo 2.2.2's mj_ray, mju_rayGeom, mj_rayMesh and mj_rayHfield: random rays
// (random directions, and rays aimed at each geom) through a scene with every geom type, at random
// states, with random group masks, static flags and excluded bodies.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <iostream>
#include <random>
#include <string>
#include <vector>

#include "joco/ray.h"
#include "oracle/random_state.h"

namespace joco {
namespace {

// Hit-or-miss disagreements and the worst relative distance error over many rays.
struct RayStats {
  int rays = 0;
  int hits = 0;
  int mismatched = 0;  // hit in one engine, miss (or another geom) in the other
  double worst = 0;
  std::string worst_where;

  void add(double joco, double mujoco, int joco_geom, int mujoco_geom, const std::string& where) {
    ++rays;
    oracle::count_compared();
    if (mujoco >= 0) ++hits;
    if ((joco < 0) != (mujoco < 0) || joco_geom != mujoco_geom) {
      if (mismatched++ < 5) {
        ADD_FAILURE() << where << ": joco " << joco << " (geom " << joco_geom << "), MuJoCo "
                      << mujoco << " (geom " << mujoco_geom << ")";
      }
      return;
    }
    if (mujoco < 0) return;
    const double err = std::abs(joco - mujoco) / std::max({std::abs(mujoco), std::abs(joco), 1e-9});
    if (err > worst) {
      worst = err;
      worst_where = where;
    }
  }
};

void random_unit(double* v, std::mt19937_64& rng) {
  std::normal_distribution<double> normal;
  double n = 0;
  do {
    for (int k = 0; k < 3; ++k) v[k] = normal(rng);
    n = std::sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
  } while (n < 1e-3);
  for (int k = 0; k < 3; ++k) v[k] /= n;
}

// A random ray: its origin in the scene's box or near a geom's centre (often inside it), its
// direction random or aimed near a random geom, its length random (distances are in units of
// |vec|).
void random_ray(const mjModel* m, const mjData* d, std::mt19937_64& rng, double* pnt, double* vec) {
  std::uniform_real_distribution<double> u(-1, 1);
  const double box[3] = {2.6, 2.2, 1.6};
  for (int k = 0; k < 3; ++k) pnt[k] = box[k] * u(rng);
  if (u(rng) < -0.6) {
    const int g = std::uniform_int_distribution<int>(0, m->ngeom - 1)(rng);
    const double reach = m->geom_rbound[g] > 0 ? 0.5 * m->geom_rbound[g] : 0.2;
    for (int k = 0; k < 3; ++k) pnt[k] = d->geom_xpos[3 * g + k] + reach * u(rng);
  }
  if (u(rng) < -0.3) {
    random_unit(vec, rng);
  } else {
    const int g = std::uniform_int_distribution<int>(0, m->ngeom - 1)(rng);
    const double reach = m->geom_rbound[g] > 0 ? m->geom_rbound[g] : 1.0;
    for (int k = 0; k < 3; ++k) vec[k] = d->geom_xpos[3 * g + k] + reach * u(rng) - pnt[k];
    const double n = std::sqrt(vec[0] * vec[0] + vec[1] * vec[1] + vec[2] * vec[2]);
    for (int k = 0; k < 3; ++k) vec[k] /= n;
  }
  const double length = std::exp(std::log(3.0) * u(rng));
  for (int k = 0; k < 3; ++k) vec[k] *= length;
}

void fill_hfields(mjModel* mj, Model& m, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<float> u(0, 1);
  for (int i = 0; i < mj->nhfielddata; ++i) mj->hfield_data[i] = m.hfield_data[i] = u(rng);
}

struct RayParam {
  const char* model;
  int rays;  // per state
};

class RayOracle : public ::testing::TestWithParam<RayParam> {};

TEST_P(RayOracle, MatchesMuJoCo) {
  oracle::OracleCase c;
  if (!oracle::load_case(GetParam().model, c)) return;
  fill_hfields(c.mj.get(), c.m, 7);
  RayStats all, geom_stats;
  std::vector<int> hits_per_geom(c.m.ngeom, 0);
  std::mt19937_64 rng(99);
  const int kRays = GetParam().rays;
  for (int seed = 0; seed < 3; ++seed) {
    oracle::randomize_state(c.mj.get(), c.md.get(), 500 + seed, {});
    mj_forward(c.mj.get(), c.md.get());
    oracle::copy_data(c.mj.get(), c.md.get(), c.d);
    for (int r = 0; r < kRays; ++r) {
      double pnt[3], vec[3];
      random_ray(c.mj.get(), c.md.get(), rng, pnt, vec);
      const std::string where = std::string(GetParam().model) + " seed " + std::to_string(seed) +
                                " ray " + std::to_string(r);
      // filters: all groups and bodies, then random ones
      mjtByte groups[kNGroup];
      for (mjtByte& g : groups) g = std::uniform_int_distribution<int>(0, 3)(rng) != 0;
      const bool filtered = r % 2 == 1;
      const mjtByte* group_mask = filtered ? groups : nullptr;
      const int include_static = filtered ? r % 4 == 1 : 1;
      const int exclude =
          filtered ? std::uniform_int_distribution<int>(-1, c.m.nbody - 1)(rng) : -1;
      int mj_geom = -1, joco_geom = -1;
      const double expected = mj_ray(c.mj.get(), c.md.get(), pnt, vec, group_mask,
                                     static_cast<mjtByte>(include_static), exclude, &mj_geom);
      const double actual =
          ray(c.m, c.d, pnt, vec, group_mask, include_static != 0, exclude, &joco_geom);
      all.add(actual, expected, joco_geom, mj_geom, where);
      if (mj_geom >= 0) ++hits_per_geom[mj_geom];
      // every geom on its own
      for (int g = 0; g < c.m.ngeom; ++g) {
        double e, a;
        const int type = c.m.geom_type[g];
        if (type == kGeomMesh) {
          e = mj_rayMesh(c.mj.get(), c.md.get(), g, pnt, vec);
          a = ray_mesh(c.m, c.d, g, pnt, vec);
        } else if (type == kGeomHfield) {
          e = mj_rayHfield(c.mj.get(), c.md.get(), g, pnt, vec);
          a = ray_hfield(c.m, c.d, g, pnt, vec);
        } else {
          e = mju_rayGeom(c.md->geom_xpos + 3 * g, c.md->geom_xmat + 9 * g, c.mj->geom_size + 3 * g,
                          pnt, vec, type);
          a = ray_geom(c.d.geom_xpos + 3 * g, c.d.geom_xmat + 9 * g, c.m.geom_size + 3 * g, pnt,
                       vec, type);
        }
        geom_stats.add(a, e, e >= 0 ? g : -1, e >= 0 ? g : -1,
                       where + " geom " + std::to_string(g) + " type " + std::to_string(type));
      }
    }
  }
  std::cout << GetParam().model << ": mj_ray " << all.rays << " rays, " << all.hits << " hits, "
            << all.mismatched << " disagreements, worst relative error " << all.worst << " ("
            << all.worst_where << ")\n  per geom: " << geom_stats.rays << " tests, "
            << geom_stats.hits << " hits, " << geom_stats.mismatched
            << " disagreements, worst relative error " << geom_stats.worst << " ("
            << geom_stats.worst_where << ")\n  nearest-hit counts per geom:";
  for (int g = 0; g < c.m.ngeom; ++g) std::cout << " " << hits_per_geom[g];
  std::cout << "\n";
  EXPECT_EQ(all.mismatched, 0);
  EXPECT_EQ(geom_stats.mismatched, 0);
  EXPECT_LE(all.worst, 1e-10);
  EXPECT_LE(geom_stats.worst, 1e-10);
}

INSTANTIATE_TEST_SUITE_P(Scenes, RayOracle,
                         ::testing::Values(RayParam{"sensor/ray_geoms.xml", 3000},
                                           RayParam{"real/franka_sim/franka_panda.xml", 60}));

}  // namespace
}  // namespace joco
