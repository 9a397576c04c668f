// The walk down a mesh's face hierarchy (ray_mesh_local) against the loop over every face
// (ray_mesh_faces): bit for bit the same nearest hit for every mesh of every testdata model, on
// rays from around and from inside the mesh, through its vertices, along and across its edges, in
// and nearly in the planes of its faces, and on a mesh with degenerate faces; and ray() the same
// distance and geom as a loop over every geom with every face.
#include "ray/ray_mesh.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <iostream>
#include <random>
#include <string>

#include "joco/forward.h"
#include "joco/mjcf.h"
#include "joco/ray.h"
#include "joco/urdf.h"
#include "model/derived.h"
#include "model/mesh_bvh.h"
#include "support/test_models.h"
#include "support/test_support.h"

namespace joco {
namespace {

Model compile_path(const std::string& path) {
  const std::string file = test::testdata(path);
  if (!test::features_of(path).urdf) return compile_mjcf_file(file);
  UrdfOptions options;
  options.base_dir = file.substr(0, file.find_last_of('/'));
  return compile_urdf(test::read_text(file), file, options);
}

double nearest(double a, double b) {
  if (a < 0) return b < 0 ? -1 : b;
  return b < 0 ? a : std::min(a, b);
}

constexpr int kKinds = 7;

// One ray of a given kind at mesh `mesh`, in its frame.
void random_ray(const Model& m, int mesh, int kind, std::mt19937_64& rng, double* p, double* v) {
  std::uniform_real_distribution<double> u(-1, 1);
  const float* vert = m.mesh_vert + 3 * m.mesh_vertadr[mesh];
  const int* faces = m.mesh_face + 3 * m.mesh_faceadr[mesh];
  // the mesh's box (its root node's, without the widening)
  double lo[3], hi[3], centre[3], half[3];
  for (int k = 0; k < 3; ++k) lo[k] = hi[k] = vert[k];
  for (int i = 0; i < m.mesh_vertnum[mesh]; ++i) {
    for (int k = 0; k < 3; ++k) {
      lo[k] = std::min(lo[k], double{vert[3 * i + k]});
      hi[k] = std::max(hi[k], double{vert[3 * i + k]});
    }
  }
  double size = 0;
  for (int k = 0; k < 3; ++k) {
    centre[k] = 0.5 * (lo[k] + hi[k]), half[k] = 0.5 * (hi[k] - lo[k]);
    size = std::max(size, half[k]);
  }
  // a face and its corners
  const int f = std::uniform_int_distribution<int>(0, m.mesh_facenum[mesh] - 1)(rng);
  double c[3][3];
  for (int j = 0; j < 3; ++j) {
    for (int k = 0; k < 3; ++k) c[j][k] = vert[3 * faces[3 * f + j] + k];
  }
  double e1[3], e2[3];
  for (int k = 0; k < 3; ++k) e1[k] = c[1][k] - c[0][k], e2[k] = c[2][k] - c[0][k];
  switch (kind) {
    case 0:  // from around the mesh towards a point of its box
      for (int k = 0; k < 3; ++k) {
        p[k] = centre[k] + 2 * (half[k] + 0.1 * size) * u(rng);
        v[k] = centre[k] + half[k] * u(rng) - p[k];
      }
      break;
    case 1:  // from inside the mesh's box (often inside the mesh), any direction
      for (int k = 0; k < 3; ++k) p[k] = centre[k] + 0.5 * half[k] * u(rng), v[k] = u(rng);
      break;
    case 2: {  // exactly towards a vertex
      for (int k = 0; k < 3; ++k) p[k] = centre[k] + 2 * size * u(rng), v[k] = c[0][k] - p[k];
      break;
    }
    case 3: {  // along an edge's line, from before its start
      const double s = 0.5 + u(rng);
      for (int k = 0; k < 3; ++k) p[k] = c[0][k] - s * e1[k], v[k] = e1[k];
      break;
    }
    case 4: {  // towards a point of an edge
      const double s = 0.5 + 0.5 * u(rng);
      for (int k = 0; k < 3; ++k) p[k] = centre[k] + 2 * size * u(rng);
      for (int k = 0; k < 3; ++k) v[k] = c[0][k] + s * e1[k] - p[k];
      break;
    }
    case 5: {  // in the face's plane (as far as rounding goes), through or beside it
      const double a = u(rng), b = u(rng);
      for (int k = 0; k < 3; ++k) {
        p[k] = c[0][k] + (0.3 + a) * e1[k] + (0.3 + b) * e2[k] - 3 * (e1[k] + e2[k]);
        v[k] = e1[k] + e2[k] + 0.2 * u(rng) * (e1[k] - e2[k]);
      }
      break;
    }
    default: {  // nearly in the face's plane, tilted by 10^-1 .. 10^-12 towards its normal
      double n[3] = {e1[1] * e2[2] - e1[2] * e2[1], e1[2] * e2[0] - e1[0] * e2[2],
                     e1[0] * e2[1] - e1[1] * e2[0]};
      const double nn = std::sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
      const double tilt = u(rng) * std::pow(10.0, -std::uniform_int_distribution<int>(1, 12)(rng));
      const double el = std::sqrt(e1[0] * e1[0] + e1[1] * e1[1] + e1[2] * e1[2]);
      for (int k = 0; k < 3; ++k) {
        const double dir = e1[k] + 0.5 * e2[k] + (nn > 0 ? tilt * el * n[k] / nn : 0);
        p[k] =
            c[0][k] + 0.3 * e1[k] + 0.3 * e2[k] - 2 * dir + (nn > 0 ? -tilt * el * n[k] / nn : 0);
        v[k] = dir;
      }
      break;
    }
  }
  const double length = std::exp(2 * u(rng));
  for (int k = 0; k < 3; ++k) v[k] *= length;
}

struct Counts {
  int rays = 0, hits = 0;
};

// Rays of every kind at every mesh of m: the walk's hit bit for bit the loop's, with and without a
// bound.
void check_meshes(const Model& m, int per_kind, const std::string& name, Counts* counts) {
  std::mt19937_64 rng(16);
  std::uniform_real_distribution<double> u(0, 1);
  for (int mesh = 0; mesh < m.nmesh; ++mesh) {
    if (m.mesh_facenum[mesh] == 0) continue;
    for (int i = 0; i < kKinds * per_kind; ++i) {
      const int kind = i % kKinds;
      double p[3], v[3];
      random_ray(m, mesh, kind, rng, p, v);
      const std::string where =
          name + " mesh " + std::to_string(mesh) + " ray " + std::to_string(i);
      const double expected = ray_mesh_faces(m, mesh, p, v);
      // bit for bit (a miss is -1 in both)
      ASSERT_EQ(ray_mesh_local(m, mesh, p, v, -1), expected) << where << " kind " << kind;
      ++counts[kind].rays;
      if (expected >= 0) ++counts[kind].hits;
      // a bound (a nearer geom's hit) may stop the walk, never change a nearest hit within it
      const double bound = expected >= 0 && u(rng) < 0.7 ? expected * (0.5 + u(rng)) : 3 * u(rng);
      ASSERT_EQ(nearest(bound, ray_mesh_local(m, mesh, p, v, bound)), nearest(bound, expected))
          << where << " kind " << kind << " bound " << bound;
    }
  }
}

void expect_hits(const Counts* counts) {
  for (int kind = 0; kind < kKinds; ++kind) {
    std::cout << "ray kind " << kind << ": " << counts[kind].rays << " rays, " << counts[kind].hits
              << " hits\n";
    EXPECT_GT(counts[kind].rays, 0) << kind;
  }
  // every kind but the in-plane ones mostly hits; the in-plane ones hit on some faces
  for (int kind : {0, 1, 2, 3, 4, 6}) EXPECT_GT(counts[kind].hits, counts[kind].rays / 10) << kind;
  EXPECT_GT(counts[5].hits, 0);
}

// Whether ray() may consider geom g (no filters given): visible, as ray() decides.
bool visible(const Model& m, int g) {
  const int mat = m.geom_matid[g];
  return (mat >= 0 ? m.mat_rgba[4 * mat + 3] : m.geom_rgba[4 * g + 3]) != 0;
}

// ray() against the loop over every geom, meshes through every face: the same distance and geom.
void check_scene(const Model& m, int rays, const std::string& name) {
  Data d(m);
  forward(m, d);
  std::mt19937_64 rng(17);
  std::uniform_real_distribution<double> u(-1, 1);
  int mesh_hits = 0, compared = 0, nmeshgeom = 0;
  for (int g = 0; g < m.ngeom; ++g) nmeshgeom += m.geom_type[g] == kGeomMesh;
  rays = std::max(3, std::min(rays, 300 / std::max(nmeshgeom, 1)));
  for (int g = 0; g < m.ngeom; ++g) {
    if (m.geom_type[g] != kGeomMesh) continue;
    const double* pos = d.geom_xpos + 3 * g;
    const double r = std::max(m.geom_rbound[g], 1e-3);
    for (int i = 0; i < rays; ++i) {
      double pnt[3], vec[3];
      for (int k = 0; k < 3; ++k) pnt[k] = pos[k] + 3 * r * u(rng);
      for (int k = 0; k < 3; ++k) vec[k] = pos[k] + 0.7 * r * u(rng) - pnt[k];
      double expected = -1;
      int expected_geom = -1;
      for (int h = 0; h < m.ngeom; ++h) {
        if (!visible(m, h)) continue;
        double x;
        if (m.geom_type[h] == kGeomMesh) {
          double p[3], v[3], dif[3];
          for (int k = 0; k < 3; ++k) dif[k] = pnt[k] - d.geom_xpos[3 * h + k];
          const double* mat = d.geom_xmat + 9 * h;
          for (int k = 0; k < 3; ++k) {
            p[k] = mat[k] * dif[0] + mat[3 + k] * dif[1] + mat[6 + k] * dif[2];
            v[k] = mat[k] * vec[0] + mat[3 + k] * vec[1] + mat[6 + k] * vec[2];
          }
          x = ray_mesh_faces(m, m.geom_dataid[h], p, v);
        } else if (m.geom_type[h] == kGeomHfield) {
          x = ray_hfield(m, d, h, pnt, vec);
        } else {
          x = ray_geom(d.geom_xpos + 3 * h, d.geom_xmat + 9 * h, m.geom_size + 3 * h, pnt, vec,
                       m.geom_type[h]);
        }
        if (x >= 0 && (expected < 0 || x < expected)) expected = x, expected_geom = h;
      }
      int geom = -2;
      const double actual = ray(m, d, pnt, vec, nullptr, true, -1, &geom);
      ASSERT_EQ(actual, expected) << name << " geom " << g << " ray " << i;
      ASSERT_EQ(geom, expected_geom) << name << " geom " << g << " ray " << i;
      ++compared;
      if (expected_geom >= 0 && m.geom_type[expected_geom] == kGeomMesh) ++mesh_hits;
    }
  }
  std::cout << name << ": " << compared << " rays through ray(), " << mesh_hits << " met a mesh\n";
  // (some meshes sit inside other geoms, which most rays meet first)
  if (compared > 0) {
    EXPECT_GT(mesh_hits, 0);
  }
}

class MeshBvhSweep : public ::testing::TestWithParam<std::string> {};

// Every mesh of the model: the walk against the loop; ray() against the loop over geoms.
TEST_P(MeshBvhSweep, SameHitAsEveryFace) {
  const Model m = compile_path(GetParam());
  ASSERT_GT(m.nmesh, 0);
  Counts counts[kKinds];
  check_meshes(m, 60, GetParam(), counts);
  if (HasFatalFailure()) return;
  int rays = 0;
  for (const Counts& c : counts) rays += c.rays;
  EXPECT_GT(rays, 0);
  check_scene(m, 30, GetParam());
}

// Every testdata model with meshes: the small ones (test::ModelFeatures::small) in the default
// suite, the larger robots (1 to 30 s each, mostly the loops over every face) in the long one.
std::vector<std::string> mesh_models(bool small) {
  return test::models_where(
      [small](const test::ModelFeatures& f) { return f.nmesh > 0 && f.small() == small; });
}
INSTANTIATE_TEST_SUITE_P(Models, MeshBvhSweep, ::testing::ValuesIn(mesh_models(true)),
                         test::param_name);
INSTANTIATE_TEST_SUITE_P(LongSweep, MeshBvhSweep, ::testing::ValuesIn(mesh_models(false)),
                         test::param_name);

// Over all the testdata meshes, each kind of ray hits (the sweep's rays are not vacuous): the
// quadruped's rocks, non-convex, with many rays.
TEST(MeshBvh, RocksEveryKindHits) {
  const Model m = compile_path("sensor/quadruped_mesh.xml");
  Counts counts[kKinds];
  check_meshes(m, 1500, "rocks", counts);
  expect_hits(counts);
}

// Faces of zero area (two corners the same, three corners on a line) and slivers: the walk still
// finds what the loop finds.
TEST(MeshBvh, DegenerateFaces) {
  Model m = compile_path("sensor/quadruped_mesh.xml");
  ASSERT_EQ(m.nmesh, 1);
  const int nface = m.mesh_facenum[0], nvert = m.mesh_vertnum[0];
  int* face = m.mesh_face + 3 * m.mesh_faceadr[0];
  float* vert = m.mesh_vert + 3 * m.mesh_vertadr[0];
  for (int f = 0; f < nface; f += 7) face[3 * f + 1] = face[3 * f];   // a corner twice
  for (int f = 3; f < nface; f += 11) face[3 * f + 2] = face[3 * f];  // the first corner twice
  for (int f = 5; f < nface; f += 13) {                               // three on a line
    const int* c = face + 3 * f;
    if (c[0] == c[1] || c[1] == c[2] || c[0] == c[2]) continue;
    for (int k = 0; k < 3; ++k)
      vert[3 * c[2] + k] = 0.5f * (vert[3 * c[0] + k] + vert[3 * c[1] + k]);
  }
  ASSERT_GT(nvert, 0);
  fill_derived(m);
  Counts counts[kKinds];
  check_meshes(m, 1000, "degenerate rocks", counts);
  expect_hits(counts);
}

// The hierarchy is what mesh_bvh.h says: every face in one leaf, children after their parents, a
// node's box holding its children's and its faces' corners, depth within the walk's stack.
TEST(MeshBvh, Structure) {
  for (const std::string path : {"sensor/quadruped_mesh.xml", "compiler/flat_mesh.xml"}) {
    const Model m = compile_path(path);
    for (int mesh = 0; mesh < m.nmesh; ++mesh) {
      const MeshBvh b = mesh_bvh(m, mesh);
      const float* vert = m.mesh_vert + 3 * m.mesh_vertadr[mesh];
      const int* faces = m.mesh_face + 3 * m.mesh_faceadr[mesh];
      std::vector<int> seen(b.nface, 0);
      int max_depth = 0;
      // (node, depth) from the root
      std::vector<std::pair<int, int>> todo = {{0, 1}};
      while (!todo.empty()) {
        const auto [n, depth] = todo.back();
        todo.pop_back();
        max_depth = std::max(max_depth, depth);
        ASSERT_LT(n, 2 * b.nface);
        const float* box = b.box + 6 * n;
        if (b.leaf(n)) {
          const int first = -b.child[2 * n], count = b.child[2 * n + 1];
          ASSERT_GT(count, 0);
          ASSERT_LE(count, kMeshBvhLeafFaces);
          for (int i = first; i < first + count; ++i) {
            ++seen[b.face[i]];
            for (int j = 0; j < 3; ++j) {
              for (int k = 0; k < 3; ++k) {
                const float x = vert[3 * faces[3 * b.face[i] + j] + k];
                EXPECT_LT(box[k], x);
                EXPECT_GT(box[3 + k], x);
              }
            }
          }
          continue;
        }
        for (int j = 0; j < 2; ++j) {
          const int c = b.child[2 * n + j];
          ASSERT_GT(c, n);
          for (int k = 0; k < 3; ++k) {
            EXPECT_LE(box[k], b.box[6 * c + k]);
            EXPECT_GE(box[3 + k], b.box[6 * c + 3 + k]);
          }
          todo.push_back({c, depth + 1});
        }
      }
      for (int f = 0; f < b.nface; ++f) ASSERT_EQ(seen[f], 1) << path << " face " << f;
      EXPECT_LE(max_depth, kMeshBvhMaxDepth);
      std::cout << path << " mesh " << mesh << ": " << b.nface << " faces, depth " << max_depth
                << "\n";
    }
  }
}

}  // namespace
}  // namespace joco
