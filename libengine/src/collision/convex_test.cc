// The general convex collider's shortcuts against its full computation: the bounding-box test that
// skips MPR must never skip a pair MPR finds in contact.
#include "collision/convex.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "joco/forward.h"
#include "joco/mjcf.h"
#include "model/mesh_graph.h"
#include "support/test_support.h"

namespace joco {
namespace {

using namespace joco::math;
using narrow::ConvexObject;

// Two UR5 meshes and every primitive MPR handles, each free.
const char* const kShapes =
    "<mujoco><asset><mesh name='forearm' file='forearm.stl'/><mesh name='wrist' file='wrist1.stl'/>"
    "</asset><worldbody>"
    "<body><freejoint/><geom type='mesh' mesh='forearm'/></body>"
    "<body><freejoint/><geom type='mesh' mesh='wrist'/></body>"
    "<body><freejoint/><geom type='box' size='0.05 0.03 0.02'/></body>"
    "<body><freejoint/><geom type='capsule' size='0.02 0.05'/></body>"
    "<body><freejoint/><geom type='cylinder' size='0.03 0.04'/></body>"
    "<body><freejoint/><geom type='ellipsoid' size='0.03 0.04 0.05'/></body>"
    "<body><freejoint/><geom type='sphere' size='0.03'/></body>"
    "</worldbody></mujoco>";

TEST(BoxesApart, NeverSkipsAPairMprFindsInContact) {
  const Model m = compile_mjcf(kShapes, "<convex_test>", test::testdata("urdf/ur5"));
  Data d(m);
  std::mt19937 rng(15);
  std::uniform_real_distribution<double> pos(-0.25, 0.25), unit(-1, 1);
  int apart = 0, contact = 0, near_miss = 0;
  for (int trial = 0; trial < 400; ++trial) {
    for (int g = 0; g < m.ngeom; ++g) {
      double q[4] = {unit(rng), unit(rng), unit(rng), unit(rng)};
      quat_normalize(q);
      for (int k = 0; k < 3; ++k) d.geom_xpos[3 * g + k] = pos(rng);
      quat_to_mat(d.geom_xmat + 9 * g, q);
    }
    const double margin = trial % 2 ? 0.02 : 0;
    for (int g1 = 0; g1 < m.ngeom; ++g1) {
      for (int g2 = g1 + 1; g2 < m.ngeom; ++g2) {
        ConvexObject a, b;
        narrow::convex_object(&a, m, d, g1, margin);
        narrow::convex_object(&b, m, d, g2, margin);
        const bool skip = narrow::boxes_apart(a, b, margin);
        Contact c;
        const int hit = narrow::mpr_penetration(m, &a, &b, margin, &c);
        EXPECT_FALSE(skip && hit) << "geoms " << g1 << ", " << g2 << ", trial " << trial;
        apart += skip;
        contact += hit;
        near_miss += !skip && !hit;
      }
    }
  }
  // all three outcomes occur, so the test says something about the boundary
  EXPECT_GT(apart, 1000);
  EXPECT_GT(contact, 100);
  EXPECT_GT(near_miss, 100);
}

// The seven UR5 meshes (CAD meshes with flat faces: ties along axis directions), one geom each.
Model ur5_meshes() {
  std::string xml = "<mujoco><asset>";
  const char* const files[] = {"base",   "shoulder", "upperarm", "forearm",
                               "wrist1", "wrist2",   "wrist3"};
  for (const char* f : files) xml += std::string("<mesh file='") + f + ".stl'/>";
  xml += "</asset><worldbody>";
  for (const char* f : files) xml += std::string("<geom type='mesh' mesh='") + f + "'/>";
  xml += "</worldbody></mujoco>";
  return compile_mjcf(xml, "<convex_test>", test::testdata("urdf/ur5"));
}

// The hill climb's vector widths this processor runs: scalar, SSE2 and, where it runs, AVX.
std::vector<int> climb_widths() {
  std::vector<int> widths = {1, 2};
  if (narrow::mesh_climb_width() == 4) widths.push_back(4);
  return widths;
}

// The hill climb's vector paths (AVX where this processor runs it, SSE2, scalar) end at the same
// vertex for every direction, ties included (axis directions against the flat faces of CAD meshes),
// and that vertex has the largest projection of all the mesh's vertices.
TEST(MeshSupportVertex, VectorPathsAgree) {
  const Model m = ur5_meshes();
  ASSERT_EQ(m.nmesh, 7);
  const std::vector<int> widths = climb_widths();
  std::mt19937 rng(15);
  std::uniform_real_distribution<double> unit(-1, 1);
  int compared = 0;
  for (int mesh = 0; mesh < m.nmesh; ++mesh) {
    const float* vert = m.mesh_vert + 3 * m.mesh_vertadr[mesh];
    for (int trial = 0; trial < 2000; ++trial) {
      double dir[3] = {unit(rng), unit(rng), unit(rng)};
      if (trial < 27) {  // the axes and diagonals, where faces tie
        dir[0] = trial % 3 - 1;
        dir[1] = trial / 3 % 3 - 1;
        dir[2] = trial / 9 - 1;
      } else if (trial % 4 == 0) {  // rounded to a coarse grid: more ties
        for (double& c : dir) c = std::round(4 * c) / 4;
      }
      int last_ref = -2;
      const int ref = narrow::mesh_support_vertex(m, mesh, dir, &last_ref, 1);
      double best = -1e300;
      for (int v = 0; v < m.mesh_vertnum[mesh]; ++v) {
        const float* p = vert + 3 * v;
        best = std::max(best, p[0] * dir[0] + p[1] * dir[1] + p[2] * dir[2]);
      }
      const float* r = vert + 3 * ref;
      EXPECT_EQ(r[0] * dir[0] + r[1] * dir[1] + r[2] * dir[2], best) << "mesh " << mesh;
      for (int w : widths) {
        int last = -2;
        EXPECT_EQ(narrow::mesh_support_vertex(m, mesh, dir, &last, w), ref)
            << "mesh " << mesh << " width " << w << " trial " << trial;
        EXPECT_EQ(last, last_ref);
        ++compared;
      }
    }
  }
  EXPECT_EQ(compared, 7 * 2000 * static_cast<int>(widths.size()));
}

// libccd's MPR loops without a cap while discovering and refining its portal; the support budget
// ends them. Cut off at every possible point of the call (after k support points, k = 0, 1, ...),
// MPR still returns, with no contact or with exactly the contact it finds unlimited; with the
// default budget every pair gives the unlimited result.
TEST(MprSupportBudget, EndsMprAtAnyPointWithNoContactOrTheSameOne) {
  const Model m = compile_mjcf(kShapes, "<convex_test>", test::testdata("urdf/ur5"));
  Data d(m);
  std::mt19937 rng(16);
  std::uniform_real_distribution<double> pos(-0.05, 0.05), unit(-1, 1);
  int pairs = 0, cut_short = 0;
  for (int trial = 0; trial < 20; ++trial) {
    for (int g = 0; g < m.ngeom; ++g) {
      double q[4] = {unit(rng), unit(rng), unit(rng), unit(rng)};
      quat_normalize(q);
      for (int k = 0; k < 3; ++k) d.geom_xpos[3 * g + k] = pos(rng);
      quat_to_mat(d.geom_xmat + 9 * g, q);
    }
    for (int g1 = 0; g1 < m.ngeom; ++g1) {
      for (int g2 = g1 + 1; g2 < m.ngeom; ++g2) {
        ConvexObject a, b;
        narrow::convex_object(&a, m, d, g1, 0);
        narrow::convex_object(&b, m, d, g2, 0);
        Contact full;
        const int hit = narrow::mpr_penetration(m, &a, &b, 0, &full, -1);
        if (!hit) continue;
        ++pairs;
        Contact c;
        ASSERT_EQ(narrow::mpr_penetration(m, &a, &b, 0, &c), 1);
        EXPECT_EQ(c.dist, full.dist);
        for (int budget = 0; budget < 60; ++budget) {
          Contact cut;
          if (narrow::mpr_penetration(m, &a, &b, 0, &cut, budget)) {
            EXPECT_EQ(cut.dist, full.dist) << g1 << " " << g2 << " budget " << budget;
            EXPECT_EQ(cut.pos[0], full.pos[0]);
            EXPECT_EQ(cut.frame[2], full.frame[2]);
          } else {
            ++cut_short;
          }
        }
      }
    }
  }
  EXPECT_GT(pairs, 50);
  EXPECT_GT(cut_short, pairs);  // the small budgets did end calls early
}

// Geoms of absurd size (a .jmb's validated range allows any finite size): MPR ends.
TEST(MprSupportBudget, HugeGeomsEnd) {
  for (const char* type : {"box", "ellipsoid", "cylinder", "capsule"}) {
    const std::string xml =
        std::string("<mujoco><worldbody><geom type='") + type +
        "' size='9e43 9e43 9e43'/><body pos='0 0 1'><freejoint/>"
        "<geom type='ellipsoid' size='0.1 0.2 0.3'/></body>"
        "<body pos='1e43 0 1'><freejoint/><geom type='cylinder' size='0.1 0.2'/>"
        "</body></worldbody></mujoco>";
    const Model m = compile_mjcf(xml, "huge.xml", ".");
    Data d(m);
    int steps = 0;
    for (; steps < 20; ++steps) step(m, d);  // each step returns (diverging bodies are reset)
    EXPECT_EQ(steps, 20);
    for (int i = 0; i < m.nq; ++i) EXPECT_TRUE(std::isfinite(d.qpos[i])) << type << " " << i;
  }
}

// A climb started where an earlier one ended (the hint in *last) ends at the vertex the climb from
// vertex 0 finds, for every start, ties included: from the previous direction's end (MPR's pattern:
// the next direction is near the last) and from every graph vertex.
TEST(MeshSupportVertex, WarmStartEndsWhereTheClimbFromVertexZeroEnds) {
  const Model m = ur5_meshes();
  ASSERT_EQ(m.nmesh, 7);
  const std::vector<int> widths = climb_widths();
  std::mt19937 rng(16);
  std::uniform_real_distribution<double> unit(-1, 1);
  int compared = 0, warm = 0;
  for (int mesh = 0; mesh < m.nmesh; ++mesh) {
    HullGraph g;
    ASSERT_TRUE(hull_graph(m, mesh, &g));
    int previous = -1;
    for (int trial = 0; trial < 600; ++trial) {
      double dir[3] = {unit(rng), unit(rng), unit(rng)};
      if (trial < 27) {  // the axes and diagonals, where faces tie
        dir[0] = trial % 3 - 1;
        dir[1] = trial / 3 % 3 - 1;
        dir[2] = trial / 9 - 1;
      } else if (trial % 4 == 0) {  // rounded to a coarse grid: more ties
        for (double& c : dir) c = std::round(4 * c) / 4;
      }
      int end0 = -1;
      const int ref = narrow::mesh_support_vertex(m, mesh, dir, &end0, 1);
      for (int w : widths) {
        for (int start = -1; start < g.nvert; ++start) {
          int last = start < 0 ? previous : start;
          warm += last > 0;
          ASSERT_EQ(narrow::mesh_support_vertex(m, mesh, dir, &last, w), ref)
              << "mesh " << mesh << " width " << w << " trial " << trial << " start " << start;
          EXPECT_EQ(last, end0);
          ++compared;
        }
      }
      previous = end0;
    }
  }
  EXPECT_GT(compared, 7 * 600 * static_cast<int>(widths.size()));
  EXPECT_GT(warm, compared / 2);
}

// The separating axes and climb starts kept in Data from one test of a pair to the next
// (convex_convex) spare MPR calls and climb steps and change nothing: shapes moving in small steps,
// each pair's contacts with them kept equal, bit for bit, those of a Data whose axes and climb
// starts are cleared before every test.
TEST(SeparatingAxes, SpareMprCallsAndChangeNoContact) {
  const Model m = compile_mjcf(kShapes, "<convex_test>", test::testdata("urdf/ur5"));
  Data kept(m), cleared(m);
  std::mt19937 rng(17);
  std::uniform_real_distribution<double> pos(-0.12, 0.12), unit(-1, 1), step(-0.004, 0.004);
  std::vector<double> quat(4 * m.ngeom);
  for (int g = 0; g < m.ngeom; ++g) {
    for (int k = 0; k < 3; ++k) kept.geom_xpos[3 * g + k] = pos(rng);
    for (int k = 0; k < 4; ++k) quat[4 * g + k] = unit(rng);
  }
  int contacts = 0, apart = 0, axes_used = 0, starts_used = 0;
  for (int frame = 0; frame < 300; ++frame) {
    for (int g = 0; g < m.ngeom; ++g) {
      for (int k = 0; k < 3; ++k) kept.geom_xpos[3 * g + k] += step(rng);
      for (int k = 0; k < 4; ++k) quat[4 * g + k] += 4 * step(rng);
      quat_normalize(&quat[4 * g]);
      quat_to_mat(kept.geom_xmat + 9 * g, &quat[4 * g]);
    }
    std::copy(kept.geom_xpos, kept.geom_xpos + 3 * m.ngeom, cleared.geom_xpos);
    std::copy(kept.geom_xmat, kept.geom_xmat + 9 * m.ngeom, cleared.geom_xmat);
    const double margin = frame % 3 == 0 ? 0.01 : 0;
    for (int g1 = 0; g1 < m.ngeom; ++g1) {
      for (int g2 = g1 + 1; g2 < m.ngeom; ++g2) {
        std::fill(cleared.separating_axes, cleared.separating_axes + kSeparatingAxisSlots,
                  SeparatingAxis{});
        std::fill(cleared.climb_starts, cleared.climb_starts + cleared.climb_start_slots,
                  ClimbStarts{});
        Contact a[kMaxConPair], b[kMaxConPair];
        // the climbs of this pair's last test, kept (any climb start other than vertex 0)
        const bool starts_kept = [&] {
          for (int i = 0; i < kept.climb_start_slots; ++i) {
            const ClimbStarts& s = kept.climb_starts[i];
            if (s.geom1 != g1 || s.geom2 != g2) continue;
            for (int k = 0; k < kClimbStartCalls; ++k) {
              if (s.vertex[0][k] > 0 || s.vertex[1][k] > 0) return true;
            }
          }
          return false;
        }();
        const int slots_before = [&] {
          int n = 0;
          for (int i = 0; i < kSeparatingAxisSlots; ++i) {
            const SeparatingAxis& s = kept.separating_axes[i];
            n += s.geom1 == g1 && s.geom2 == g2;
          }
          return n;
        }();
        const int na = narrow::convex_convex(m, kept, a, g1, g2, margin);
        const int nb = narrow::convex_convex(m, cleared, b, g1, g2, margin);
        ASSERT_EQ(na, nb) << "frame " << frame << " geoms " << g1 << " " << g2;
        for (int i = 0; i < na; ++i) {
          EXPECT_EQ(a[i].dist, b[i].dist);
          for (int k = 0; k < 3; ++k) EXPECT_EQ(a[i].pos[k], b[i].pos[k]);
          for (int k = 0; k < 9; ++k) EXPECT_EQ(a[i].frame[k], b[i].frame[k]);
        }
        contacts += na;
        apart += na == 0;
        axes_used += na == 0 && slots_before > 0;
        starts_used += na > 0 && starts_kept;
      }
    }
  }
  ASSERT_EQ(kept.climb_start_slots, kClimbStartSlots);  // the model has mesh hull graphs
  EXPECT_GT(contacts, 100);
  EXPECT_GT(axes_used, 100);   // pairs a kept axis was there for
  EXPECT_GT(starts_used, 50);  // contacts of mesh pairs whose climbs started where they had ended
  EXPECT_GT(apart, axes_used);
}

// reset_state marks every climb-start slot empty, and a pair taking a slot again starts from a
// cleared one: the contacts after a reset are those of a fresh Data.
TEST(ClimbStarts, ResetMarksEverySlotEmpty) {
  const Model m = compile_mjcf(kShapes, "<convex_test>", test::testdata("urdf/ur5"));
  const double identity[4] = {1, 0, 0, 0}, turned[4] = {0.8, 0.2, 0.4, 0.4};
  // the two meshes overlapping: their pair takes a slot
  Data used(m);
  for (int g = 0; g < m.ngeom; ++g) quat_to_mat(used.geom_xmat + 9 * g, identity);
  used.geom_xpos[3] = 0.02;
  Contact con[kMaxConPair];
  ASSERT_GT(narrow::convex_convex(m, used, con, 0, 1, 0), 0);
  int taken = 0;
  for (int i = 0; i < used.climb_start_slots; ++i) taken += used.climb_starts[i].geom1 == 0;
  EXPECT_EQ(taken, 1);
  reset_state(m, used);
  for (int i = 0; i < used.climb_start_slots; ++i) EXPECT_EQ(used.climb_starts[i].geom1, -1);
  // a shifted pose, tested after the reset and in a fresh Data
  Data fresh(m);
  for (Data* d : {&used, &fresh}) {
    for (int g = 0; g < m.ngeom; ++g) {
      quat_to_mat(d->geom_xmat + 9 * g, turned);
    }
    for (int k = 0; k < 3 * m.ngeom; ++k) d->geom_xpos[k] = 0;
    d->geom_xpos[3] = 0.03;
  }
  Contact a[kMaxConPair], b[kMaxConPair];
  const int na = narrow::convex_convex(m, used, a, 0, 1, 0);
  ASSERT_EQ(na, narrow::convex_convex(m, fresh, b, 0, 1, 0));
  ASSERT_GT(na, 0);
  for (int i = 0; i < na; ++i) {
    EXPECT_EQ(a[i].dist, b[i].dist);
    for (int k = 0; k < 3; ++k) EXPECT_EQ(a[i].pos[k], b[i].pos[k]);
  }
}

}  // namespace
}  // namespace joco
