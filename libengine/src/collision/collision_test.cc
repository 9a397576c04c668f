// Collision detection against analytic values and against itself: the dedicated pair functions
// versus closed-form geometry and versus the general convex (MPR) path, the driver's filters and
// parameter mixing, and the absence of heap allocation.
#include "joco/collision.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "collision/broadphase.h"
#include "joco/forward.h"
#include "joco/jmb.h"
#include "joco/mjcf.h"
#include "math/vec.h"
#include "support/test_support.h"

namespace joco {
namespace {

using namespace joco::math;

Model compile(const std::string& body) {
  return compile_mjcf("<mujoco>" + body + "</mujoco>", "<collision_test>", ".");
}

// Places geom g at pos with orientation quat (w, x, y, z).
void place(Data& d, int g, const double* pos, const double* quat) {
  double q[4] = {quat[0], quat[1], quat[2], quat[3]};
  quat_normalize(q);
  copy3(d.geom_xpos + 3 * g, pos);
  quat_to_mat(d.geom_xmat + 9 * g, q);
}

const double kIdentity[4] = {1, 0, 0, 0};

int run_pair(const Model& m, Data& d, Contact* con, int g1, int g2, double margin = 0) {
  return collision_function(m.geom_type[g1], m.geom_type[g2])(m, d, con, g1, g2, margin);
}

// Row-orthonormal, right-handed, normal first.
void expect_frame(const Contact& c) {
  const double* f = c.frame;
  for (int i = 0; i < 3; ++i) {
    EXPECT_NEAR(norm3(f + 3 * i), 1, 1e-12);
    for (int j = i + 1; j < 3; ++j) EXPECT_NEAR(dot3(f + 3 * i, f + 3 * j), 0, 1e-12);
  }
  double z[3];
  cross3(z, f, f + 3);
  for (int k = 0; k < 3; ++k) EXPECT_NEAR(z[k], f[6 + k], 1e-12);
}

const char* const kTwoSpheres =
    "<worldbody><body><freejoint/><geom type='sphere' size='0.3'/></body>"
    "<body><freejoint/><geom type='sphere' size='0.2'/></body></worldbody>";

TEST(SphereSphere, DistancePointAndNormal) {
  const Model m = compile(kTwoSpheres);
  Data d(m);
  const double p1[3] = {0.1, -0.2, 0.3}, dir[3] = {2, -1, 2};  // |dir| = 3
  for (const double gap : {-0.1, 0.0, 0.05}) {
    double p2[3];
    add_scaled3(p2, p1, dir, (0.5 + gap) / 3);
    place(d, 0, p1, kIdentity);
    place(d, 1, p2, kIdentity);
    Contact c[kMaxConPair];
    const int n = run_pair(m, d, c, 0, 1, 0.1);
    ASSERT_EQ(n, 1);
    EXPECT_NEAR(c[0].dist, gap, 1e-15);
    for (int k = 0; k < 3; ++k) {
      EXPECT_NEAR(c[0].frame[k], dir[k] / 3, 1e-15);  // from the first sphere to the second
      // midway between the surface points
      EXPECT_NEAR(c[0].pos[k], p1[k] + dir[k] / 3 * (0.3 + gap / 2), 1e-15);
    }
  }
  // beyond the margin: nothing
  double p2[3];
  add_scaled3(p2, p1, dir, (0.5 + 0.11) / 3);
  place(d, 1, p2, kIdentity);
  Contact c[kMaxConPair];
  EXPECT_EQ(run_pair(m, d, c, 0, 1, 0.1), 0);
}

TEST(PlaneBox, RestingBoxTouchesAtItsFourLowerCorners) {
  const Model m = compile(
      "<worldbody><geom type='plane' size='1 1 1'/>"
      "<body><freejoint/><geom type='box' size='0.2 0.1 0.05'/></body></worldbody>");
  Data d(m);
  const double origin[3] = {0, 0, 0}, pos[3] = {0.3, -0.1, 0.04};
  place(d, 0, origin, kIdentity);
  place(d, 1, pos, kIdentity);
  Contact c[kMaxConPair];
  ASSERT_EQ(run_pair(m, d, c, 0, 1), 4);
  for (int i = 0; i < 4; ++i) {
    EXPECT_NEAR(c[i].dist, -0.01, 1e-15);
    EXPECT_NEAR(c[i].pos[2], -0.005, 1e-15);
    EXPECT_NEAR(std::abs(c[i].pos[0] - 0.3), 0.2, 1e-15);
    EXPECT_NEAR(std::abs(c[i].pos[1] + 0.1), 0.1, 1e-15);
    EXPECT_DOUBLE_EQ(c[i].frame[2], 1);
  }
}

TEST(PlaneCylinder, UprightCylinderGivesThreeRimPoints) {
  const Model m = compile(
      "<worldbody><geom type='plane' size='1 1 1'/>"
      "<body><freejoint/><geom type='cylinder' size='0.1 0.2'/></body></worldbody>");
  Data d(m);
  const double origin[3] = {0, 0, 0}, pos[3] = {0, 0, 0.19};
  place(d, 0, origin, kIdentity);
  place(d, 1, pos, kIdentity);
  Contact c[kMaxConPair];
  ASSERT_EQ(run_pair(m, d, c, 0, 1), 3);
  for (int i = 0; i < 3; ++i) {
    EXPECT_NEAR(c[i].dist, -0.01, 1e-15);
    EXPECT_NEAR(std::hypot(c[i].pos[0], c[i].pos[1]), 0.1, 1e-15);  // on the rim
  }
}

TEST(CapsuleCapsule, ParallelCapsulesTouchAlongTheirOverlap) {
  const Model m = compile(
      "<worldbody><body><freejoint/><geom type='capsule' size='0.05 0.2'/></body>"
      "<body><freejoint/><geom type='capsule' size='0.05 0.2'/></body></worldbody>");
  Data d(m);
  const double p1[3] = {0, 0, 0}, p2[3] = {0.09, 0, 0.1};
  place(d, 0, p1, kIdentity);
  place(d, 1, p2, kIdentity);
  Contact c[kMaxConPair];
  ASSERT_EQ(run_pair(m, d, c, 0, 1), 2);
  EXPECT_NEAR(c[0].dist, -0.01, 1e-15);  // the upper end of the first, over the second
  EXPECT_NEAR(c[0].pos[2], 0.2, 1e-15);
  EXPECT_DOUBLE_EQ(c[0].frame[0], 1);
}

TEST(SphereBox, OutsideMatchesTheDistanceToTheNearestFeature) {
  const Model m = compile(
      "<worldbody><body><freejoint/><geom type='sphere' size='0.1'/></body>"
      "<body><freejoint/><geom type='box' size='0.3 0.2 0.1'/></body></worldbody>");
  Data d(m);
  const double origin[3] = {0, 0, 0};
  place(d, 1, origin, kIdentity);
  // near a corner: the nearest box point is the corner
  const double center[3] = {0.35, 0.25, 0.12};
  place(d, 0, center, kIdentity);
  Contact c[kMaxConPair];
  ASSERT_EQ(run_pair(m, d, c, 0, 1, 0.1), 1);
  const double corner[3] = {0.3, 0.2, 0.1};
  EXPECT_NEAR(c[0].dist, dist3(center, corner) - 0.1, 1e-15);
  // MuJoCo 2.2.2 reports minus the radius when the centre is inside the box
  const double inside[3] = {0.25, 0, 0};
  place(d, 0, inside, kIdentity);
  ASSERT_EQ(run_pair(m, d, c, 0, 1), 1);
  EXPECT_DOUBLE_EQ(c[0].dist, -0.1);
  EXPECT_DOUBLE_EQ(c[0].frame[0], -1);  // pushed out through the nearest face, +x
}

// The dedicated functions and the general convex collider agree where both apply (MPR is exact to
// its tolerance on smooth convex shapes).
TEST(DedicatedVersusConvex, SpheresAndCapsulesAgreeWithMpr) {
  const Model m = compile(
      "<option mpr_tolerance='1e-10'/>"
      "<worldbody><body><freejoint/><geom type='sphere' size='0.2'/></body>"
      "<body><freejoint/><geom type='capsule' size='0.1 0.3'/></body>"
      "<body><freejoint/><geom type='sphere' size='0.15'/></body></worldbody>");
  Data d(m);
  const CollisionFunction convex = collision_function(kGeomSphere, kGeomMesh);  // MPR
  const double p0[3] = {0, 0, 0}, p1[3] = {0.25, 0.1, 0.12}, p2[3] = {0.1, 0.26, -0.02};
  const double q1[4] = {0.9, 0.3, -0.2, 0.1};
  place(d, 0, p0, kIdentity);
  place(d, 1, p1, q1);
  place(d, 2, p2, kIdentity);
  for (const int other : {1, 2}) {
    Contact a[kMaxConPair], b[kMaxConPair];
    ASSERT_EQ(run_pair(m, d, a, 0, other), 1);
    ASSERT_EQ(convex(m, d, b, 0, other, 0), 1);
    EXPECT_NEAR(a[0].dist, b[0].dist, 1e-8);
    for (int k = 0; k < 3; ++k) EXPECT_NEAR(a[0].frame[k], b[0].frame[k], 1e-8);
    // (MPR's contact point is only roughly midway between the surfaces)
    EXPECT_NEAR(dist3(a[0].pos, b[0].pos), 0, 0.01);
  }
}

TEST(DedicatedVersusConvex, RoundEllipsoidOnAPlaneIsASphere) {
  const Model m = compile(
      "<worldbody><geom type='plane' size='1 1 1'/>"
      "<body><freejoint/><geom type='sphere' size='0.2'/></body>"
      "<body><freejoint/><geom type='ellipsoid' size='0.2 0.2 0.2'/></body></worldbody>");
  Data d(m);
  const double origin[3] = {0.1, 0, 0}, tilt[4] = {0.9, 0.2, 0.3, 0.1}, pos[3] = {0.3, 0.2, 0.15};
  const double quat[4] = {0.7, -0.3, 0.5, 0.2};
  place(d, 0, origin, tilt);
  place(d, 1, pos, kIdentity);
  place(d, 2, pos, quat);
  Contact a[kMaxConPair], b[kMaxConPair];
  ASSERT_EQ(run_pair(m, d, a, 0, 1), 1);
  ASSERT_EQ(run_pair(m, d, b, 0, 2), 1);
  EXPECT_NEAR(a[0].dist, b[0].dist, 1e-15);
  for (int k = 0; k < 3; ++k) EXPECT_NEAR(a[0].pos[k], b[0].pos[k], 1e-15);
}

TEST(ContactFrame, CompletesOrthonormalFrames) {
  for (const auto& n : {std::array<double, 3>{0, 0, 1}, std::array<double, 3>{0, 1, 0},
                        std::array<double, 3>{0.3, -0.4, 0.5}, std::array<double, 3>{-1, 0, 0}}) {
    Contact c;
    copy3(c.frame, n.data());
    make_contact_frame(c.frame);
    expect_frame(c);
  }
  // a tangent hint is kept, made orthogonal
  Contact c;
  c.frame[2] = 1;
  c.frame[3] = 1;
  c.frame[5] = 0.5;
  make_contact_frame(c.frame);
  expect_frame(c);
  EXPECT_DOUBLE_EQ(c.frame[3], 1);
}

const char* const kDriverModel =
    "<worldbody><geom name='floor' type='plane' size='2 2 1'/>"
    "<body name='a' pos='0 0 0.1'><freejoint/>"
    "  <geom name='a' type='sphere' size='0.1' condim='4' friction='0.5 0.01 0.001' "
    "        solref='0.03 1' solmix='3' margin='0.01' gap='0.002'/>"
    "  <body name='child' pos='0 0 0.15'><joint type='hinge'/>"
    "    <geom name='child' type='sphere' size='0.1'/></body></body>"
    "<body name='b' pos='0.15 0 0.1'><freejoint/>"
    "  <geom name='b' type='sphere' size='0.1' priority='1' condim='1' friction='0.9 0.02 0.003'/>"
    "</body>"
    "<body name='c' pos='-0.15 0 0.1'><freejoint/><geom name='c' type='sphere' size='0.1' "
    "  contype='2' conaffinity='2'/></body>"
    "</worldbody>"
    "<contact><exclude body1='b' body2='world'/></contact>";

// Geom frames at the bodies' initial positions (the model has no rotations).
Data placed_data(const Model& m) {
  Data d(m);
  const double pos[5][3] = {{0, 0, 0}, {0, 0, 0.1}, {0, 0, 0.25}, {0.15, 0, 0.1}, {-0.15, 0, 0.1}};
  for (int g = 0; g < 5; ++g) place(d, g, pos[g], kIdentity);
  return d;
}

// The broad phase's pairs against every pair of body boxes tested, with the contype/conaffinity
// test, sorted by comparison; returns how many there are.
size_t expect_broadphase_is_every_pair(const Model& m, Data& d) {
  StackFrame frame(d);
  int* signatures = nullptr;
  const int count = broadphase(m, d, frame, &signatures);
  std::vector<int> expected;
  auto box = [&](int b, double* lo, double* hi, int* contype, int* conaffinity) {
    bool any = false;
    *contype = *conaffinity = 0;
    for (int k = 0; k < 3; ++k) {
      lo[k] = INFINITY;
      hi[k] = -INFINITY;
    }
    for (int g = m.body_geomadr[b]; g < m.body_geomadr[b] + m.body_geomnum[b]; ++g) {
      if (!m.geom_contype[g] && !m.geom_conaffinity[g]) continue;
      any = true;
      *contype |= m.geom_contype[g];
      *conaffinity |= m.geom_conaffinity[g];
      const double half = m.geom_rbound[g] > 0 ? m.geom_rbound[g] + m.geom_margin[g] : INFINITY;
      for (int k = 0; k < 3; ++k) {
        lo[k] = std::min(lo[k], d.geom_xpos[3 * g + k] - half);
        hi[k] = std::max(hi[k], d.geom_xpos[3 * g + k] + half);
      }
    }
    return any;
  };
  for (int b1 = 0; b1 < m.nbody; ++b1) {
    double lo1[3], hi1[3];
    int type1, affinity1;
    if (!box(b1, lo1, hi1, &type1, &affinity1)) continue;
    for (int b2 = b1 + 1; b2 < m.nbody; ++b2) {
      double lo2[3], hi2[3];
      int type2, affinity2;
      if (!box(b2, lo2, hi2, &type2, &affinity2)) continue;
      if (!(type1 & affinity2) && !(type2 & affinity1)) continue;
      bool overlap = true;
      for (int k = 0; k < 3; ++k) overlap = overlap && !(lo1[k] > hi2[k] || lo2[k] > hi1[k]);
      if (overlap) expected.push_back(body_pair_signature(b1, b2));
    }
  }
  std::sort(expected.begin(), expected.end());
  EXPECT_EQ(std::vector<int>(signatures, signatures + count), expected);
  return expected.size();
}

TEST(Broadphase, SweepGivesEveryOverlappingPairSorted) {
  // 400 spheres, each overlapping dozens of others (the sweep and the counting sort of thousands
  // of signatures); one in three has bits that collide with none of the others.
  std::string xml = "<worldbody><geom type='plane' size='5 5 0.1'/>";
  for (int i = 0; i < 400; ++i) {
    const int x = i % 10, y = (i / 10) % 10, z = i / 100;
    const char* bits = i % 3 == 0 ? "contype='2' conaffinity='4'" : "";
    xml += "<body pos='" + std::to_string(0.05 * x) + " " + std::to_string(0.05 * y) + " " +
           std::to_string(0.2 + 0.05 * z) + "'><freejoint/><geom type='sphere' size='0.08' " +
           bits + "/></body>";
  }
  xml += "</worldbody>";
  const Model m = compile(xml);
  Data d(m);
  forward(m, d);
  EXPECT_GT(expect_broadphase_is_every_pair(m, d), 5000u);
}

TEST(Broadphase, LeavesOutPairsWhoseBitsNeverCollide) {
  // The soft box: 221 bodies whose boxes overlap in some 18,000 pairs, but whose particles'
  // capsules (contype 0, conaffinity 1) collide only with the floor: one pair a particle.
  const Model m = compile_mjcf_file(test::testdata("mujoco/model/composite/softbox.xml"));
  Data d(m);
  for (int t = 0; t < 300; ++t) step(m, d);
  forward(m, d);
  const size_t pairs = expect_broadphase_is_every_pair(m, d);
  EXPECT_GT(pairs, 64u);  // the counting sort
  EXPECT_LE(pairs, static_cast<size_t>(m.nbody - 1));
}

TEST(Collision, FiltersAndMixesParameters) {
  const Model m = compile(kDriverModel);
  Data d = placed_data(m);
  collision(m, d);
  // floor-a and a-b; a-child is filtered (parent and child), floor-b excluded, floor-child too far,
  // c collides with nothing (bitmask)
  ASSERT_EQ(d.ncon, 2);
  EXPECT_EQ(d.contact[0].geom1, 0);
  EXPECT_EQ(d.contact[0].geom2, 1);
  EXPECT_EQ(d.contact[1].geom1, 1);
  EXPECT_EQ(d.contact[1].geom2, 3);
  // floor-a: equal priorities: larger condim and friction, solmix-weighted solref, larger margin
  const Contact& fa = d.contact[0];
  EXPECT_EQ(fa.dim, 4);
  EXPECT_DOUBLE_EQ(fa.friction[0], 1);  // the floor's default friction wins
  EXPECT_DOUBLE_EQ(fa.friction[2], 0.01);
  const double mix = 1.0 / (1 + 3);  // floor solmix 1, a solmix 3
  EXPECT_DOUBLE_EQ(fa.solref[0], mix * 0.02 + (1 - mix) * 0.03);
  EXPECT_DOUBLE_EQ(fa.includemargin, 0.01 - 0.002);
  EXPECT_EQ(fa.exclude, 0);  // touching: below margin - gap
  expect_frame(fa);
  // a-b: b has priority, its parameters win
  const Contact& ab = d.contact[1];
  EXPECT_EQ(ab.dim, 1);
  EXPECT_DOUBLE_EQ(ab.friction[0], 0.9);
  EXPECT_DOUBLE_EQ(ab.friction[4], 0.003);
  EXPECT_NEAR(ab.dist, -0.05, 1e-15);
  EXPECT_EQ(ab.exclude, 0);
}

TEST(Collision, FilterparentFlagLetsParentAndChildCollide) {
  Model m = compile(kDriverModel);
  m.opt.disableflags |= kDisableFilterparent;
  Data d = placed_data(m);
  collision(m, d);
  bool found = false;
  for (int i = 0; i < d.ncon; ++i) found |= d.contact[i].geom1 == 1 && d.contact[i].geom2 == 2;
  EXPECT_TRUE(found);
}

TEST(Collision, DisabledContactsGiveNoContacts) {
  Model m = compile(kDriverModel);
  m.opt.disableflags |= kDisableContact;
  Data d = placed_data(m);
  collision(m, d);
  EXPECT_EQ(d.ncon, 0);
}

TEST(Collision, OverflowKeepsWhatFitsAndWarns) {
  const Model m = compile("<size nconmax='1'/>" + std::string(kDriverModel));
  Data d = placed_data(m);
  collision(m, d);
  EXPECT_EQ(d.ncon, 1);
  EXPECT_EQ(d.contact[0].geom2, 1);
  EXPECT_EQ(d.warning[kWarnContactFull].number, 1);
  EXPECT_EQ(d.warning[kWarnContactFull].lastinfo, 1);
}

TEST(Collision, MakesNoHeapAllocation) {
  const Model m = compile(
      "<option><flag multiccd='enable'/></option><worldbody><geom type='plane' size='2 2 1'/>"
      "<body><freejoint/><geom type='sphere' size='0.1'/></body>"
      "<body><freejoint/><geom type='capsule' size='0.05 0.1'/></body>"
      "<body><freejoint/><geom type='ellipsoid' size='0.1 0.07 0.05'/></body>"
      "<body><freejoint/><geom type='cylinder' size='0.08 0.06'/></body>"
      "<body><freejoint/><geom type='box' size='0.1 0.08 0.06'/></body>"
      "<body><freejoint/><geom type='box' size='0.07 0.05 0.09'/></body></worldbody>");
  Data d(m);
  // drop every free body onto the floor: many pair types in contact
  for (int g = 0; g < m.ngeom; ++g) {
    const double pos[3] = {0.05 * g, 0.03 * (g % 3), 0.06};
    const double quat[4] = {1, 0.1 * g, 0.05, 0};
    place(d, g, pos, quat);
  }
  collision(m, d);  // warm-up (logging of first warnings, if any)
  test::AllocationCounter counter;
  collision(m, d);
  EXPECT_GT(d.ncon, 10);
  EXPECT_EQ(counter.count(), 0);
}

// A fuzz finding (testdata/fuzz/README.md, collision/): a .jmb whose box geoms have quaternions off
// unit length (accepted: finite, and normalisable), so their axes are not orthonormal; the
// box-box routine took all three axes of such a box for the incident face's flat axes and wrote
// past its two edge vectors (AddressSanitizer: stack-buffer-overflow in box_box.cc).
TEST(BoxBox, AxesThatAreNotOrthonormalStayInBounds) {
  const std::string path = test::testdata("fuzz/collision/box_quaternions_not_unit.jmb");
  const Model m = read_jmb(test::read_file(path), path);
  Data d(m);
  forward(m, d);
  EXPECT_GE(d.ncon, 1);  // the boxes still touch
  for (int i = 0; i < 10; ++i) step(m, d);
}

}  // namespace
}  // namespace joco
