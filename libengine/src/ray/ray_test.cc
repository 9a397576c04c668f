// Ray casting against analytic geometry: closed-form intersections, hit points on the surface with
// nothing crossed before them (checked against each shape's inside test along the ray), meshes of
// boxes against boxes, flat and sloped height fields against boxes and planes, and mj_ray's
// filters.
#include "joco/ray.h"

#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <random>

#include "joco/mjcf.h"
#include "joco/smooth.h"
#include "math/vec.h"

namespace joco {
namespace {

using math::dot3;

const double kIdentity[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};

TEST(RayGeom, ClosedForms) {
  const double origin[3] = {0, 0, 0};
  const double size[3] = {0.5, 0.3, 0.2};
  const double from_left[3] = {-5, 0, 0};
  const double right[3] = {2, 0, 0};  // |vec| = 2: distances in units of |vec|
  EXPECT_DOUBLE_EQ(ray_geom(origin, kIdentity, size, from_left, right, kGeomSphere), 4.5 / 2);
  EXPECT_DOUBLE_EQ(ray_geom(origin, kIdentity, size, from_left, right, kGeomEllipsoid), 4.5 / 2);
  EXPECT_DOUBLE_EQ(ray_geom(origin, kIdentity, size, from_left, right, kGeomBox), 4.5 / 2);
  EXPECT_DOUBLE_EQ(ray_geom(origin, kIdentity, size, from_left, right, kGeomCylinder), 4.5 / 2);
  EXPECT_DOUBLE_EQ(ray_geom(origin, kIdentity, size, from_left, right, kGeomCapsule), 4.5 / 2);
  // along the axis: the capsule's cap, the cylinder's disk
  const double below[3] = {0, 0, -5}, up[3] = {0, 0, 1};
  EXPECT_DOUBLE_EQ(ray_geom(origin, kIdentity, size, below, up, kGeomCapsule), 5 - 0.3 - 0.5);
  EXPECT_DOUBLE_EQ(ray_geom(origin, kIdentity, size, below, up, kGeomCylinder), 5 - 0.3);
  EXPECT_DOUBLE_EQ(ray_geom(origin, kIdentity, size, below, up, kGeomEllipsoid), 5 - 0.2);
  EXPECT_DOUBLE_EQ(ray_geom(origin, kIdentity, size, below, up, kGeomBox), 5 - 0.2);
  // from inside: the surface ahead
  EXPECT_DOUBLE_EQ(ray_geom(origin, kIdentity, size, origin, up, kGeomSphere), 0.5);
  EXPECT_DOUBLE_EQ(ray_geom(origin, kIdentity, size, origin, up, kGeomBox), 0.2);
  // pointing away: no hit
  const double left[3] = {-1, 0, 0};
  EXPECT_EQ(ray_geom(origin, kIdentity, size, from_left, left, kGeomSphere), -1);
  EXPECT_EQ(ray_geom(origin, kIdentity, size, from_left, left, kGeomBox), -1);
  // planes: seen from above only, bounded by their size unless it is zero
  const double plane[3] = {1, 2, 0.1}, infinite[3] = {0, 0, 0.1};
  const double above[3] = {0.5, 0.5, 3}, down[3] = {0, 0, -1}, far_above[3] = {4, 0, 3};
  EXPECT_DOUBLE_EQ(ray_geom(origin, kIdentity, plane, above, down, kGeomPlane), 3);
  EXPECT_EQ(ray_geom(origin, kIdentity, plane, far_above, down, kGeomPlane), -1);
  EXPECT_DOUBLE_EQ(ray_geom(origin, kIdentity, infinite, far_above, down, kGeomPlane), 3);
  const double under[3] = {0.5, 0.5, -3};
  EXPECT_EQ(ray_geom(origin, kIdentity, plane, under, up, kGeomPlane), -1);
  EXPECT_EQ(ray_geom(origin, kIdentity, size, from_left, right, kGeomMesh), -1);
}

// Inside tests of each shape in its own frame (size as for geoms).
bool inside(int type, const double* size, const double* p) {
  const double r2 = p[0] * p[0] + p[1] * p[1];
  switch (type) {
    case kGeomSphere: return dot3(p, p) < size[0] * size[0];
    case kGeomEllipsoid: {
      const double q[3] = {p[0] / size[0], p[1] / size[1], p[2] / size[2]};
      return dot3(q, q) < 1;
    }
    case kGeomBox:
      return std::abs(p[0]) < size[0] && std::abs(p[1]) < size[1] && std::abs(p[2]) < size[2];
    case kGeomCylinder: return r2 < size[0] * size[0] && std::abs(p[2]) < size[1];
    case kGeomCapsule: {
      const double z = std::clamp(p[2], -size[1], size[1]);
      return r2 + (p[2] - z) * (p[2] - z) < size[0] * size[0];
    }
    default: return false;
  }
}

// Random poses and rays: a reported hit lies on the surface (inside just beyond, outside just
// before, or the reverse from inside) and no sample before it changes side; a miss never does.
TEST(RayGeom, HitsAreTheFirstSurfaceCrossing) {
  std::mt19937_64 rng(3);
  std::uniform_real_distribution<double> u(-1, 1);
  std::normal_distribution<double> normal;
  int hits = 0;
  for (int type : {kGeomSphere, kGeomCapsule, kGeomEllipsoid, kGeomCylinder, kGeomBox}) {
    for (int trial = 0; trial < 3000; ++trial) {
      const double size[3] = {0.2 + 0.5 * std::abs(u(rng)), 0.2 + 0.5 * std::abs(u(rng)),
                              0.2 + 0.5 * std::abs(u(rng))};
      double pos[3] = {u(rng), u(rng), u(rng)},
             quat[4] = {normal(rng), normal(rng), normal(rng), normal(rng)};
      math::quat_normalize(quat);
      double mat[9];
      math::quat_to_mat(mat, quat);
      double pnt[3], vec[3];
      for (int k = 0; k < 3; ++k) pnt[k] = pos[k] + 1.5 * u(rng);
      for (int k = 0; k < 3; ++k) vec[k] = pos[k] + 0.5 * u(rng) - pnt[k];
      math::scale3(vec, vec, 0.3 + std::abs(u(rng)));
      const double x = ray_geom(pos, mat, size, pnt, vec, type);
      auto inside_at = [&](double t) {
        double g[3], l[3];
        math::add_scaled3(g, pnt, vec, t);
        math::sub3(g, g, pos);
        math::mat_t_vec3(l, mat, g);
        return inside(type, size, l);
      };
      const bool start = inside_at(0);
      const double length = math::norm3(vec);
      const double end = x >= 0 ? x : 6 / length;
      const int samples = 400;
      for (int s = 1; s < samples; ++s) {
        const double t = end * s / samples;
        if (x >= 0 && std::abs(t - x) * length < 1e-9) continue;
        ASSERT_EQ(inside_at(t), start)
            << "type " << type << " trial " << trial << " t " << t << " hit " << x;
      }
      if (x >= 0) {
        ++hits;
        const double eps = 1e-7 / length;
        EXPECT_NE(inside_at(x - eps), inside_at(x + eps)) << "type " << type << " trial " << trial;
      } else {
        EXPECT_FALSE(start) << "a ray from inside must meet the surface";
      }
    }
  }
  EXPECT_GT(hits, 5000);
}

const char* const kScene = R"(
<mujoco>
  <asset>
    <mesh name="brick" vertex="-0.1 -0.2 -0.3  0.1 -0.2 -0.3  0.1 0.2 -0.3  -0.1 0.2 -0.3
                               -0.1 -0.2 0.3  0.1 -0.2 0.3  0.1 0.2 0.3  -0.1 0.2 0.3"/>
    <hfield name="flat" nrow="3" ncol="4" size="0.5 0.4 0.3 0.1"/>
    <hfield name="slope" nrow="4" ncol="5" size="0.5 0.4 0.3 0.1"/>
    <material name="clear" rgba="1 1 1 0"/>
  </asset>
  <worldbody>
    <geom name="floor" type="plane" size="0 0 1" pos="0 0 -2"/>
    <geom name="flat" type="hfield" hfield="flat" pos="3 0 0" euler="10 20 30"/>
    <geom name="slope" type="hfield" hfield="slope" pos="-3 0 0" euler="-10 5 60"/>
    <body name="a" pos="0 3 0" euler="30 40 50">
      <freejoint/>
      <geom name="brick" type="mesh" mesh="brick"/>
    </body>
    <body name="b" pos="0 0 0">
      <freejoint/>
      <geom name="s1" type="sphere" size="0.2" pos="0 0 0.5" group="1"/>
      <geom name="s2" type="sphere" size="0.2" pos="0 0 1" group="2"/>
      <geom name="ghost" type="sphere" size="0.2" pos="0 0 0.2" material="clear"/>
    </body>
    <geom name="world_sphere" type="sphere" size="0.2" pos="0 0 1.5" group="3"/>
  </worldbody>
</mujoco>)";

struct Scene {
  Model m;
  Data d;
  Scene() : m(compile_mjcf(kScene, "scene.xml", ".")), d(m) {
    kinematics(m, d);
    com_pos(m, d);
  }
  int geom(const char* name) const { return m.name_to_id(kObjGeom, name); }
};

// A mesh of a box's triangles is met where the box is.
TEST(RayMesh, BoxMeshIsABox) {
  Scene s;
  const int g = s.geom("brick");
  const int mesh = s.m.geom_dataid[g];
  // the box's half sizes along the geom's axes (the compiler aligned the mesh with its principal
  // axes, which are the box's)
  double half[3] = {0, 0, 0};
  for (int v = 0; v < s.m.mesh_vertnum[mesh]; ++v) {
    for (int k = 0; k < 3; ++k) {
      half[k] =
          std::max(half[k], std::abs(double{s.m.mesh_vert[3 * (s.m.mesh_vertadr[mesh] + v) + k]}));
    }
  }
  std::mt19937_64 rng(5);
  std::uniform_real_distribution<double> u(-1, 1);
  int hits = 0;
  for (int trial = 0; trial < 5000; ++trial) {
    const double* center = s.d.geom_xpos + 3 * g;
    double pnt[3], vec[3];
    for (int k = 0; k < 3; ++k) pnt[k] = center[k] + (trial % 5 == 0 ? 0.05 : 0.8) * u(rng);
    for (int k = 0; k < 3; ++k) vec[k] = center[k] + 0.4 * u(rng) - pnt[k];
    const double expected = ray_geom(center, s.d.geom_xmat + 9 * g, half, pnt, vec, kGeomBox);
    const double actual = ray_mesh(s.m, s.d, g, pnt, vec);
    if (expected >= 0) ++hits;
    ASSERT_EQ(actual < 0, expected < 0) << trial;
    if (expected >= 0) {
      EXPECT_NEAR(actual, expected, 1e-6 * expected) << trial;  // float vertices
    }
  }
  EXPECT_GT(hits, 2000);
}

// A height field of constant elevation is a box from -size[3] to size[2] * elevation; a sloped one
// is a plane on top.
TEST(RayHfield, FlatAndSlopedFields) {
  Scene s;
  const int flat = s.geom("flat"), slope = s.geom("slope");
  const int hf_flat = s.m.geom_dataid[flat], hf_slope = s.m.geom_dataid[slope];
  for (int i = 0; i < 12; ++i) s.m.hfield_data[s.m.hfield_adr[hf_flat] + i] = 0.6f;
  const int ncol = s.m.hfield_ncol[hf_slope], nrow = s.m.hfield_nrow[hf_slope];
  for (int r = 0; r < nrow; ++r) {
    for (int c = 0; c < ncol; ++c) {
      s.m.hfield_data[s.m.hfield_adr[hf_slope] + r * ncol + c] = 0.25f * static_cast<float>(c);
    }
  }
  std::mt19937_64 rng(6);
  std::uniform_real_distribution<double> u(-1, 1);
  const double* size = s.m.hfield_size + 4 * hf_flat;
  int hits = 0, top_hits = 0;
  for (int trial = 0; trial < 5000; ++trial) {
    // flat: against the box, in the geom's frame
    const double* pos = s.d.geom_xpos + 3 * flat;
    const double* mat = s.d.geom_xmat + 9 * flat;
    double pnt[3], vec[3];
    for (int k = 0; k < 3; ++k) pnt[k] = pos[k] + 1.2 * u(rng);
    for (int k = 0; k < 3; ++k) vec[k] = pos[k] + 0.5 * u(rng) - pnt[k];
    const double top = size[2] * double{0.6f};
    // from inside, a ray meets the face z = 0 between the base box and the prisms on it (MuJoCo's
    // height field is their union, each seen from inside too): rays start outside
    double local[3], rel[3];
    math::sub3(rel, pnt, pos);
    math::mat_t_vec3(local, mat, rel);
    if (std::abs(local[0]) < size[0] && std::abs(local[1]) < size[1] && local[2] > -size[3] &&
        local[2] < top) {
      continue;
    }
    const double local_center[3] = {0, 0, 0.5 * (top - size[3])};
    double center[3];
    math::mat_vec3(center, mat, local_center);
    math::add3(center, center, pos);
    const double half[3] = {size[0], size[1], 0.5 * (top + size[3])};
    const double expected = ray_geom(center, mat, half, pnt, vec, kGeomBox);
    const double actual = ray_hfield(s.m, s.d, flat, pnt, vec);
    if (expected >= 0) ++hits;
    ASSERT_EQ(actual < 0, expected < 0) << trial;
    if (expected >= 0) {
      EXPECT_NEAR(actual, expected, 1e-6 * expected) << trial;
    }

    // sloped: rays from above meet the plane z = 0.25 * size[2] * (x + size[0]) / dx
    const double* spos = s.d.geom_xpos + 3 * slope;
    const double* smat = s.d.geom_xmat + 9 * slope;
    const double dx = 2 * size[0] / (ncol - 1);
    const double lp[3] = {0.4 * u(rng), 0.3 * u(rng), 1.0};
    const double lv[3] = {0.1 * u(rng), 0.1 * u(rng), -1.0};
    double gp[3], gv[3];
    math::mat_vec3(gp, smat, lp);
    math::add3(gp, gp, spos);
    math::mat_vec3(gv, smat, lv);
    // z(x) = k (x + size0) with k = 0.25 size2 / dx; solve lp + t lv on it
    const double k = 0.25 * size[2] / dx;
    const double t = (k * (lp[0] + size[0]) - lp[2]) / (lv[2] - k * lv[0]);
    const double hit_x = lp[0] + t * lv[0], hit_y = lp[1] + t * lv[1];
    if (std::abs(hit_x) < size[0] && std::abs(hit_y) < size[1]) {
      ++top_hits;
      EXPECT_NEAR(ray_hfield(s.m, s.d, slope, gp, gv), t, 1e-9) << trial;
    }
  }
  EXPECT_GT(hits, 1000);
  EXPECT_GT(top_hits, 2000);
}

// mj_ray's choices: the nearest geom, and its filters.
TEST(Ray, NearestGeomAndFilters) {
  Scene s;
  const double below[3] = {0, 0, -1}, up[3] = {0, 0, 1};
  int id = -2;
  // the ghost (invisible through its material) is skipped; s1 is next
  double x = ray(s.m, s.d, below, up, nullptr, true, -1, &id);
  EXPECT_EQ(id, s.geom("s1"));
  EXPECT_DOUBLE_EQ(x, 1.3);
  // excluding body b leaves the world's sphere
  x = ray(s.m, s.d, below, up, nullptr, true, s.m.name_to_id(kObjBody, "b"), &id);
  EXPECT_EQ(id, s.geom("world_sphere"));
  EXPECT_DOUBLE_EQ(x, 2.3);
  // ... unless static geoms are excluded
  x = ray(s.m, s.d, below, up, nullptr, false, s.m.name_to_id(kObjBody, "b"), &id);
  EXPECT_EQ(id, -1);
  EXPECT_EQ(x, -1);
  // group filters: group 1 off leaves s2 (group 2)
  const uint8_t groups[kNGroup] = {1, 0, 1, 1, 1, 1};
  ray(s.m, s.d, below, up, groups, true, -1, &id);
  EXPECT_EQ(id, s.geom("s2"));
  // the floor plane is seen whatever the groups, but not when static geoms are excluded
  const uint8_t none[kNGroup] = {0, 0, 0, 0, 0, 0};
  const double down[3] = {0.01, 0.02, -1}, high[3] = {0, 0, 3};
  ray(s.m, s.d, high, down, none, true, -1, &id);
  EXPECT_EQ(id, s.geom("floor"));
  ray(s.m, s.d, high, down, none, false, -1, &id);
  EXPECT_EQ(id, -1);
  EXPECT_EQ(ray(s.m, s.d, high, down, none, false, -1, nullptr), -1);
}

}  // namespace
}  // namespace joco
