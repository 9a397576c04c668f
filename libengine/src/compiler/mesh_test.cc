// Mesh compilation against analytic values and between equivalent inputs (file formats, inline
// data); the numbers MuJoCo 2.2.2 gives are checked in mesh_oracle_test.cc.
#include "compiler/mesh.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "compiler/convex_hull.h"
#include "decode/mesh_file.h"
#include "joco/constants.h"
#include "joco/error.h"
#include "math/eig3.h"
#include "math/vec.h"
#include "support/test_support.h"

namespace joco {
namespace {

MeshSpec inline_mesh(std::vector<double> vertex, std::vector<int> face = {}) {
  MeshSpec s;
  s.vertex = std::move(vertex);
  s.face = std::move(face);
  return s;
}

MeshSpec file_mesh(const std::string& relative) {
  MeshSpec s;
  s.file = test::testdata(relative);
  return s;
}

// A box with half sizes (a, b, c) centred at `c0`, as an 8-vertex point cloud.
std::vector<double> box_cloud(double a, double b, double c, const double c0[3]) {
  std::vector<double> v;
  for (int i = 0; i < 8; ++i) {
    v.push_back(c0[0] + ((i & 1) ? a : -a));
    v.push_back(c0[1] + ((i & 2) ? b : -b));
    v.push_back(c0[2] + ((i & 4) ? c : -c));
  }
  return v;
}

TEST(Mesh, BoxMassPropertiesAreAnalytic) {
  const double c0[3] = {0.3, -1.2, 2.0};
  const CompiledMesh m =
      compile_mesh(inline_mesh(box_cloud(0.5, 1.0, 1.5, c0)), MeshOptions{}, "box");
  const MeshMassFrame& f = m.mass[0];
  EXPECT_NEAR(f.volume, 6.0, 1e-12);
  for (int k = 0; k < 3; ++k) EXPECT_NEAR(f.pos[k], c0[k], 1e-6);
  // Principal axes sorted by decreasing moment: the long (z) axis has the smallest moment, so it
  // comes last, and the box sizes follow.
  std::vector<double> box(f.box, f.box + 3);
  std::sort(box.begin(), box.end());
  EXPECT_NEAR(box[0], 0.5, 1e-12);
  EXPECT_NEAR(box[1], 1.0, 1e-12);
  EXPECT_NEAR(box[2], 1.5, 1e-12);
  EXPECT_NEAR(f.box[2], 1.5, 1e-12);
  // Mesh geom: mass of the box, inertia of the box.
  const MeshGeom g = mesh_geom(m, MeshGeomSpec{}, "geom");
  EXPECT_NEAR(g.volume, 6.0, 1e-12);
  EXPECT_NEAR(g.unit_inertia[2], 6.0 * (0.25 + 1.0) / 3, 1e-9);
  // The vertices are centred and aligned: their extents are the half sizes.
  for (int k = 0; k < 3; ++k) EXPECT_NEAR(m.half_extent[k], f.box[k], 1e-6);
  EXPECT_NEAR(g.rbound, std::sqrt(0.25 + 1 + 2.25), 1e-6);
  // The faces come from the hull: 12 triangles.
  EXPECT_EQ(m.nface(), 12);
  EXPECT_EQ(m.graph[0], 8);
  EXPECT_EQ(m.graph[1], 12);
}

TEST(Mesh, TetrahedronVolumeAndCentroid) {
  const std::vector<double> v = {0.1, -0.2, 0.05, 1.3, 0.2, -0.1, 0.2, 0.9, 0.3, 0.4, 0.35, 1.7};
  for (bool exact : {false, true}) {
    MeshOptions o;
    o.exactmeshinertia = exact;
    const CompiledMesh m = compile_mesh(inline_mesh(v), o, "tetra");
    double e1[3], e2[3], e3[3], cr[3];
    math::sub3(e1, &v[3], &v[0]);
    math::sub3(e2, &v[6], &v[0]);
    math::sub3(e3, &v[9], &v[0]);
    math::cross3(cr, e1, e2);
    EXPECT_NEAR(m.mass[0].volume, std::fabs(math::dot3(cr, e3)) / 6, 1e-6);
    for (int k = 0; k < 3; ++k)
      EXPECT_NEAR(m.mass[0].pos[k], (v[k] + v[3 + k] + v[6 + k] + v[9 + k]) / 4, 1e-6);
  }
}

TEST(Mesh, NonConvexExactVolume) {
  // An L-shaped prism (volume 4): the legacy computation overestimates it, the exact one does not.
  const std::vector<double> v = {0, 0, 0, 2, 0, 0, 2, 1, 0, 1, 1, 0, 1, 3, 0, 0, 3, 0,
                                 0, 0, 1, 2, 0, 1, 2, 1, 1, 1, 1, 1, 1, 3, 1, 0, 3, 1};
  const std::vector<int> f = {0,  2, 1,  0,  3,  2, 0,  5, 3, 3, 5,  4, 6,  7,  8, 6, 8, 9, 6, 9,
                              11, 9, 10, 11, 0,  1, 7,  0, 7, 6, 1,  2, 8,  1,  8, 7, 2, 3, 9, 2,
                              9,  8, 3,  4,  10, 3, 10, 9, 4, 5, 11, 4, 11, 10, 5, 0, 6, 5, 6, 11};
  MeshOptions exact;
  exact.exactmeshinertia = true;
  const CompiledMesh m = compile_mesh(inline_mesh(v, f), exact, "L");
  EXPECT_NEAR(m.mass[0].volume, 4.0, 1e-7);
  EXPECT_NEAR(m.mass[0].pos[0], 0.75, 1e-7);  // (1 * 2 * 1 + 0.5 * 2) / 4
  EXPECT_NEAR(m.mass[0].pos[1], 1.25, 1e-7);
  EXPECT_NEAR(mesh_geom(m, MeshGeomSpec{}, "g").volume, 4.0, 1e-7);
  const CompiledMesh legacy = compile_mesh(inline_mesh(v, f), MeshOptions{}, "L");
  EXPECT_GT(legacy.mass[0].volume, 4.0 + 1e-3);
}

TEST(Mesh, ScaleRefposRefquat) {
  const std::vector<double> v = {0.1, -0.2, 0.05, 1.3, 0.2, -0.1, 0.2, 0.9, 0.3, 0.4, 0.35, 1.7};
  MeshSpec plain = inline_mesh(v);
  MeshSpec moved = plain;
  moved.refpos[0] = 0.3, moved.refpos[1] = -1.1, moved.refpos[2] = 0.25;
  moved.refquat[0] = std::cos(0.3), moved.refquat[3] = std::sin(0.3);  // 0.6 rad about z
  moved.scale[0] = 2;
  const CompiledMesh a = compile_mesh(plain, MeshOptions{}, "a");
  const CompiledMesh b = compile_mesh(moved, MeshOptions{}, "b");
  // Centre of mass: translated, rotated by the conjugate of refquat, then scaled.
  double p[3], r[3], q[4];
  math::sub3(p, a.mass[0].pos, moved.refpos);
  math::quat_conj(q, moved.refquat);
  math::quat_rotate(r, q, p);
  r[0] *= 2;
  for (int k = 0; k < 3; ++k) EXPECT_NEAR(b.mass[0].pos[k], r[k], 1e-6);
  // Volume scales with the determinant.
  EXPECT_NEAR(b.mass[0].volume, 2 * a.mass[0].volume, 1e-6);
}

TEST(Mesh, NormalsOfACubeAreAxisAligned) {
  // With faces given, sharp cube edges keep per-face normals out of the average: each corner's
  // normal is then left as computed from the remaining faces, always a unit vector.
  const double c0[3] = {0, 0, 0};
  const CompiledMesh m = compile_mesh(inline_mesh(box_cloud(1, 1, 1, c0)), MeshOptions{}, "cube");
  for (int i = 0; i < m.nvert(); ++i) {
    const float* n = &m.normal[3 * i];
    EXPECT_NEAR(std::sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]), 1.0, 1e-6);
  }
  // Smooth normals of a cube corner point diagonally outwards.
  MeshSpec smooth = inline_mesh(box_cloud(1, 1, 1, c0));
  smooth.smoothnormal = true;
  const CompiledMesh s = compile_mesh(smooth, MeshOptions{}, "smooth");
  for (int i = 0; i < s.nvert(); ++i) {
    const float* v = &s.vert[3 * i];
    const float* n = &s.normal[3 * i];
    EXPECT_GT((v[0] * n[0] + v[1] * n[1] + v[2] * n[2]) / std::sqrt(3.0), 0.5);
  }
}

TEST(Mesh, ConvexHullGraphIsConsistent) {
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> u(-1, 1);
  std::vector<float> pts(3 * 60);
  for (float& x : pts) x = u(rng);
  const std::vector<int> g = convex_hull_graph(pts, "cloud");
  const int nv = g[0], nf = g[1];
  ASSERT_EQ(static_cast<int>(g.size()), 2 + 3 * nv + 6 * nf);
  EXPECT_EQ(nf, 2 * nv - 4);  // Euler's formula for a triangulated sphere
  const int* edgeadr = &g[2];
  const int* globalid = &g[2 + nv];
  const int* edges = &g[2 + 2 * nv];
  const int* faces = &g[2 + 3 * nv + 3 * nf];
  std::set<std::pair<int, int>> adjacency;
  for (int v = 0; v < nv; ++v)
    for (int e = edgeadr[v]; edges[e] >= 0; ++e) adjacency.emplace(v, edges[e]);
  for (const auto& [a, b] : adjacency) EXPECT_TRUE(adjacency.count({b, a}));
  // Every face is counter-clockwise seen from outside: all points lie behind its plane.
  for (int f = 0; f < nf; ++f) {
    const float* a = &pts[3 * faces[3 * f]];
    const float* b = &pts[3 * faces[3 * f + 1]];
    const float* c = &pts[3 * faces[3 * f + 2]];
    const double e1[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]};
    const double e2[3] = {c[0] - a[0], c[1] - a[1], c[2] - a[2]};
    double n[3];
    math::cross3(n, e1, e2);
    for (int i = 0; i < 60; ++i) {
      const double d[3] = {pts[3 * i] - a[0], pts[3 * i + 1] - a[1], pts[3 * i + 2] - a[2]};
      EXPECT_LE(math::dot3(d, n), 1e-6);
    }
  }
  for (int v = 0; v < nv; ++v) EXPECT_TRUE(globalid[v] >= 0 && globalid[v] < 60);
}

TEST(Mesh, Eig3DiagonalisesSortedAndOrthonormal) {
  std::mt19937 rng(3);
  std::uniform_real_distribution<double> u(-1, 1);
  for (int trial = 0; trial < 50; ++trial) {
    double a[9];
    for (int i = 0; i < 3; ++i)
      for (int j = i; j < 3; ++j) a[3 * i + j] = a[3 * j + i] = u(rng) + (i == j ? 3 : 0);
    double eigval[3], quat[4], r[9], t[9], d[9];
    math::eig3(eigval, quat, a);
    EXPECT_GE(eigval[0], eigval[1]);
    EXPECT_GE(eigval[1], eigval[2]);
    math::quat_to_mat(r, quat);
    math::mat_t_mat3(t, r, a);
    math::mat_mat3(d, t, r);
    // The iteration stops once the next rotation would be below ~1.4e-6 rad (MuJoCo's criterion,
    // which the principal axes must reproduce), so off-diagonal terms of that relative size remain.
    const double tol = 2e-6 * (eigval[0] - eigval[2]) + 1e-12;
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) EXPECT_NEAR(d[3 * i + j], i == j ? eigval[i] : 0, tol);
  }
}

TEST(MeshFile, StlMergesRepeatedVerticesInOrderOfAppearance) {
  const CompiledMesh m = compile_mesh(file_mesh("mesh/tet.stl"), MeshOptions{}, "stl");
  EXPECT_EQ(m.nvert(), 4);
  EXPECT_EQ(m.nface(), 4);
  const mesh_file::RawMesh raw = mesh_file::load(test::testdata("mesh/tet.stl"), "stl");
  // The first triangle's corners are the first three vertices.
  EXPECT_EQ(raw.face[0], 0);
  EXPECT_EQ(raw.face[1], 1);
  EXPECT_EQ(raw.face[2], 2);
}

// A binary STL of the given triangles (facet normals zero).
std::string binary_stl(const std::vector<std::array<float, 9>>& triangles) {
  std::string bytes(80, '\0');
  const uint32_t n = static_cast<uint32_t>(triangles.size());
  bytes.append(reinterpret_cast<const char*>(&n), 4);
  for (const auto& t : triangles) {
    bytes.append(12, '\0');
    bytes.append(reinterpret_cast<const char*>(t.data()), 36);
    bytes.append(2, '\0');
  }
  return bytes;
}

TEST(MeshFile, StlKeepsCopiesApartWhenAnotherVertexSortsBetweenThem) {
  // a = (0, 1, 0) and b = (0.01, 0, 0) have the same sort key x + 0.01 y + 0.0001 z, so the copies
  // of a (corners 0 and 3) are not neighbours in MuJoCo 2.2.2's order and stay two vertices; the
  // copies of c (corners 2 and 4) are merged. MuJoCo 2.2.2 gives 5 vertices for this file.
  const float a[3] = {0, 1, 0}, b[3] = {0.01f, 0, 0}, c[3] = {5, 5, 5}, d[3] = {7, 0, 0};
  auto tri = [](const float* p, const float* q, const float* r) {
    return std::array<float, 9>{p[0], p[1], p[2], q[0], q[1], q[2], r[0], r[1], r[2]};
  };
  const mesh_file::RawMesh m = mesh_file::load_stl(binary_stl({tri(a, b, c), tri(a, c, d)}), "stl");
  EXPECT_EQ(m.vert.size(), 15u);
  EXPECT_EQ(m.face, (std::vector<int>{0, 1, 2, 3, 2, 4}));
}

TEST(MeshFile, MirroringScaleReversesTheFacesOfFilesOnly) {
  MeshSpec plain = file_mesh("mesh/tet.stl");
  MeshSpec mirrored = plain;
  mirrored.scale[1] = -1;
  const CompiledMesh a = compile_mesh(plain, MeshOptions{}, "plain");
  const CompiledMesh b = compile_mesh(mirrored, MeshOptions{}, "mirrored");
  ASSERT_EQ(a.face.size(), b.face.size());
  for (size_t f = 0; f < a.face.size(); f += 3) {
    EXPECT_EQ(b.face[f], a.face[f]);
    EXPECT_EQ(b.face[f + 1], a.face[f + 2]);
    EXPECT_EQ(b.face[f + 2], a.face[f + 1]);
  }
  // Inline faces are kept as given.
  MeshSpec inl =
      inline_mesh({0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1}, {0, 2, 1, 0, 1, 3, 0, 3, 2, 1, 2, 3});
  inl.scale[0] = -1;
  EXPECT_EQ(compile_mesh(inl, MeshOptions{}, "inline").face, inl.face);
}

TEST(MeshFile, AsciiStlReadsLikeBinary) {
  const mesh_file::RawMesh a = mesh_file::load(test::testdata("mesh/tet_ascii.stl"), "ascii");
  const mesh_file::RawMesh b = mesh_file::load(test::testdata("mesh/tet.stl"), "binary");
  EXPECT_EQ(a.vert, b.vert);
  EXPECT_EQ(a.face, b.face);
}

TEST(MeshFile, MshMatchesInlineData) {
  const mesh_file::RawMesh raw = mesh_file::load(test::testdata("mesh/tetra.msh"), "msh");
  ASSERT_EQ(raw.vert.size(), 12u);
  ASSERT_EQ(raw.texcoord.size(), 8u);
  EXPECT_TRUE(raw.normal.empty());
  MeshSpec inl = inline_mesh({0.1, -0.2, 0.05, 1.3, 0.2, -0.1, 0.2, 0.9, 0.3, 0.4, 0.35, 1.7},
                             {0, 2, 1, 0, 1, 3, 0, 3, 2, 1, 2, 3});
  const CompiledMesh a = compile_mesh(file_mesh("mesh/tetra.msh"), MeshOptions{}, "msh");
  const CompiledMesh b = compile_mesh(inl, MeshOptions{}, "inline");
  EXPECT_EQ(a.vert, b.vert);
  EXPECT_EQ(a.face, b.face);
  EXPECT_EQ(a.graph, b.graph);
  EXPECT_FLOAT_EQ(a.texcoord[6], 0.7f);
}

TEST(MeshFile, ObjSplitsQuadsUnrollsCornersAndFlipsTexcoords) {
  const std::string obj =
      "v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nvt 0.25 0.75\nvn 0 0 1\n"
      "f 1/1/1 2/1/1 3/1/1 4/1/1\nf -4/-1/-1 -2/1/1 -1/1/1\n";
  const mesh_file::RawMesh m = mesh_file::load_obj(obj, "obj");
  ASSERT_EQ(m.face.size(), 9u);  // two triangles from the quad, one more
  ASSERT_EQ(m.vert.size(), 27u);
  const float expect_first[9] = {0, 0, 0, 1, 0, 0, 1, 1, 0};
  const float expect_second[9] = {0, 0, 0, 1, 1, 0, 0, 1, 0};
  for (int k = 0; k < 9; ++k) EXPECT_EQ(m.vert[k], expect_first[k]);
  for (int k = 0; k < 9; ++k) EXPECT_EQ(m.vert[9 + k], expect_second[k]);
  EXPECT_FLOAT_EQ(m.texcoord[0], 0.25f);
  EXPECT_FLOAT_EQ(m.texcoord[1], 0.25f);  // 1 - 0.75
  EXPECT_FLOAT_EQ(m.normal[2], 1.0f);
  for (int i = 0; i < 9; ++i) EXPECT_EQ(m.face[i], i);
}

TEST(MeshFile, RejectsBadInput) {
  EXPECT_THROW(mesh_file::load_obj("v 0 0 0\nf 1 2 3\n", "obj"), InputError);
  EXPECT_THROW(mesh_file::load_obj("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 0 2\n", "obj"), InputError);
  EXPECT_THROW(mesh_file::load(test::testdata("mesh/pentagon.obj"), "obj"), InputError);
  EXPECT_THROW(mesh_file::load(test::testdata("mesh/truncated.stl"), "stl"), InputError);
  EXPECT_THROW(mesh_file::load(test::testdata("mesh/missing.stl"), "stl"), InputError);
  EXPECT_THROW(mesh_file::load(test::testdata("mesh/README.md"), "md"), InputError);
  EXPECT_THROW(mesh_file::load_msh(std::string(20, '\0'), "msh"), InputError);
}

TEST(Mesh, RejectsBadMeshes) {
  const std::vector<double> tetra = {0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1};
  EXPECT_THROW(compile_mesh(inline_mesh({0, 0, 0, 1, 0, 0, 0, 1, 0}), MeshOptions{}, "m"),
               InputError);
  EXPECT_THROW(
      compile_mesh(inline_mesh(tetra, {0, 2, 1, 0, 1, 3, 0, 3, 2, 1, 2, -1}), MeshOptions{}, "m"),
      InputError);
  EXPECT_THROW(
      compile_mesh(inline_mesh(tetra, {0, 1, 2, 0, 1, 3, 0, 3, 2, 1, 2, 3}), MeshOptions{}, "m"),
      InputError);
  EXPECT_THROW(compile_mesh(inline_mesh({0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 1, 0}), MeshOptions{}, "m"),
               InputError);
  MeshGeomSpec plane;
  plane.type = kGeomPlane;
  const CompiledMesh m = compile_mesh(inline_mesh(tetra), MeshOptions{}, "m");
  EXPECT_THROW(mesh_geom(m, plane, "g"), InputError);
  MeshGeomSpec shell_box;
  shell_box.type = kGeomBox;
  shell_box.shellinertia = true;
  EXPECT_THROW(mesh_geom(m, shell_box, "g"), InputError);
}

// A mesh without volume compiles as MuJoCo 2.2.2 compiles it (scaled, not centred, no mass frames);
// only using its mass is an error (compiler/flat_mesh.xml compares every field with MuJoCo's).
TEST(Mesh, FlatMeshCompilesWithoutMassFrames) {
  MeshSpec spec = inline_mesh({0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1});
  spec.scale[0] = 0;
  spec.scale[2] = 2;
  const CompiledMesh m = compile_mesh(spec, MeshOptions{}, "m");
  const std::vector<float> scaled = {0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 2};
  EXPECT_EQ(m.vert, scaled);
  EXPECT_FALSE(m.mass[0].valid);
  EXPECT_FALSE(m.mass[1].valid);
  const MeshGeom g = mesh_geom(m, MeshGeomSpec{}, "g");
  EXPECT_NE(g.error.find("volume is too small"), std::string::npos);
  EXPECT_EQ(g.size[0], 0);
  MeshGeomSpec sphere;
  sphere.type = kGeomSphere;
  EXPECT_THROW(mesh_geom(m, sphere, "g"), InputError);
}

TEST(Mesh, FittedPrimitivesEncloseTheAabb) {
  const double c0[3] = {0.2, 0.1, -0.3};
  const CompiledMesh m =
      compile_mesh(inline_mesh(box_cloud(0.5, 1.0, 1.5, c0)), MeshOptions{}, "box");
  MeshGeomSpec g;
  g.fitaabb = true;
  g.type = kGeomBox;
  const MeshGeom box = mesh_geom(m, g, "g");
  for (int k = 0; k < 3; ++k) EXPECT_NEAR(box.size[k], m.aabb_half[k], 1e-12);
  g.type = kGeomSphere;
  EXPECT_NEAR(mesh_geom(m, g, "g").size[0], std::sqrt(0.25 + 1 + 2.25), 1e-6);
  g.type = kGeomCylinder;
  const MeshGeom cyl = mesh_geom(m, g, "g");
  EXPECT_NEAR(cyl.size[0], std::sqrt(0.25 + 1), 1e-6);
  EXPECT_NEAR(cyl.size[1], 1.5, 1e-6);
  g.type = kGeomCapsule;
  const MeshGeom cap = mesh_geom(m, g, "g");
  EXPECT_NEAR(cap.size[0], cyl.size[0], 1e-12);
  EXPECT_LE(cap.size[1], 1.5);
  // Every vertex lies inside the capsule (distance to its segment at most the radius).
  for (int i = 0; i < m.nvert(); ++i) {
    double d[3];
    for (int k = 0; k < 3; ++k) d[k] = m.vert[3 * i + k] - m.aabb_center[k];
    const double z = std::clamp(d[2], -cap.size[1], cap.size[1]);
    EXPECT_LE(std::sqrt(d[0] * d[0] + d[1] * d[1] + (d[2] - z) * (d[2] - z)), cap.size[0] + 1e-6);
  }
  g.fitscale = 2;
  EXPECT_NEAR(mesh_geom(m, g, "g").size[0], 2 * cap.size[0], 1e-12);
}

}  // namespace
}  // namespace joco
