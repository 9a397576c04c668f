// The general convex collider's shortcuts against its full computation: the bounding-box test that
// skips MPR must never skip a pair MPR finds in contact.
#include "collision/convex.h"

#include <gtest/gtest.h>

#include <random>

#include "joco/mjcf.h"
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

}  // namespace
}  // namespace joco
