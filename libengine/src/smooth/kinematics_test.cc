// Forward kinematics against an analytic pendulum and geometric invariants on random trees.
#include <gtest/gtest.h>

#include <cmath>

#include "joco/smooth.h"
#include "joco/validate.h"
#include "math/vec.h"
#include "support/hand_models.h"
#include "support/random_tree.h"

namespace joco {
namespace {

using namespace math;

TEST(RandomTree, IsAValidModel) {
  for (uint64_t seed = 0; seed < 20; ++seed) {
    EXPECT_NO_THROW(validate_model(test::random_tree_model(seed), "random tree"));
  }
}

// The two-link pendulum of hand_models: link1 hangs from (0, 0, 2), link2 from 0.5 below it, both
// hinged about y; the tip site is 0.5 below link2's origin.
TEST(Kinematics, PendulumTipIsAnalytic) {
  const Model m = test::pendulum_model();
  Data d(m);
  const double a = 0.7, b = -0.4;
  d.qpos[0] = a;
  d.qpos[1] = b;
  kinematics(m, d);
  // A rotation by t about y takes (0, 0, -l) to (-l sin t, 0, -l cos t).
  const double expected_link2[3] = {-0.5 * std::sin(a), 0, 2 - 0.5 * std::cos(a)};
  const double expected_tip[3] = {expected_link2[0] - 0.5 * std::sin(a + b), 0,
                                  expected_link2[2] - 0.5 * std::cos(a + b)};
  for (int k = 0; k < 3; ++k) {
    EXPECT_NEAR(d.xpos[3 * 2 + k], expected_link2[k], 1e-15);
    EXPECT_NEAR(d.site_xpos[k], expected_tip[k], 1e-15);
  }
  // The free box is where its qpos puts it.
  for (int k = 0; k < 3; ++k) EXPECT_EQ(d.xpos[3 * 3 + k], d.qpos[2 + k]);
}

TEST(Kinematics, FramesAreRotationsMatchingTheirQuaternions) {
  const Model m = test::random_tree_model(3);
  Data d(m);
  test::random_tree_state(m, d, 1);
  kinematics(m, d);
  for (int b = 0; b < m.nbody; ++b) {
    const double* r = d.xmat + 9 * b;
    double rrt[9], fromquat[9];
    mat_mat_t3(rrt, r, r);
    quat_to_mat(fromquat, d.xquat + 4 * b);
    for (int k = 0; k < 9; ++k) {
      EXPECT_NEAR(rrt[k], k % 4 == 0 ? 1 : 0, 1e-14);
      EXPECT_NEAR(r[k], fromquat[k], 1e-15);
    }
  }
}

// A joint's anchor is where the frames before it put it, whatever the joint's own position; its
// rotation leaves the anchor in place.
TEST(Kinematics, JointsRotateAboutTheirAnchors) {
  const Model m = test::random_tree_model(5);
  Data d(m);
  test::random_tree_state(m, d, 2);
  kinematics(m, d);
  Data moved = d;
  for (int j = 0; j < m.njnt; ++j) {
    if (m.jnt_type[j] != kJointHinge) continue;
    moved.qpos[m.jnt_qposadr[j]] += 0.3;
  }
  kinematics(m, moved);
  int checked = 0;
  for (int j = 0; j < m.njnt; ++j) {
    const int b = m.jnt_bodyid[j];
    if (m.jnt_type[j] != kJointHinge || m.body_jntadr[b] + m.body_jntnum[b] - 1 != j) continue;
    // The last joint of its body: the body's image of the joint's position stays at the anchor.
    double p[3], pm[3];
    mat_vec3(p, d.xmat + 9 * b, m.jnt_pos + 3 * j);
    add3(p, p, d.xpos + 3 * b);
    mat_vec3(pm, moved.xmat + 9 * b, m.jnt_pos + 3 * j);
    add3(pm, pm, moved.xpos + 3 * b);
    for (int k = 0; k < 3; ++k) EXPECT_NEAR(p[k], pm[k], 1e-14);
    ++checked;
  }
  EXPECT_GT(checked, 0);
}

// kinematics leaves out the rotations of a joint offset of +0 (a joint at its body's origin): for
// any finite quaternion the rotation gives +0 in every component, and the anchor 0 + p, which is
// what it writes. Quaternions of every sign pattern, unnormalised ones, and -0 positions.
TEST(Kinematics, ZeroJointOffsetRotatesToPositiveZero) {
  const double zero[3] = {0, 0, 0};
  const double values[] = {0.0, -0.0, 0.3, -0.7, 1.0, -1e-300, 2.5};
  for (double w : values) {
    for (double x : values) {
      for (double y : values) {
        for (double z : values) {
          const double q[4] = {w, x, y, z};
          double r[3];
          quat_rotate(r, q, zero);
          const double p[3] = {-0.0, 1.25, -3.5};
          for (int k = 0; k < 3; ++k) {
            EXPECT_EQ(r[k], 0);
            EXPECT_FALSE(std::signbit(r[k])) << w << " " << x << " " << y << " " << z;
            const double with_rotation = r[k] + p[k], without = 0.0 + p[k];
            EXPECT_EQ(std::signbit(with_rotation), std::signbit(without));
            EXPECT_EQ(with_rotation, without);
          }
        }
      }
    }
  }
}

// The same through kinematics: with every joint at its body's origin, offsets of +0 (rotations
// left out) and of -0 (rotated as any offset) give the same frames.
TEST(Kinematics, JointsAtTheOriginSkipOnlyZeroRotations) {
  for (uint64_t seed = 0; seed < 10; ++seed) {
    Model skipped = test::random_tree_model(seed);
    Model rotated = test::random_tree_model(seed);
    for (int k = 0; k < 3 * skipped.njnt; ++k) {
      skipped.jnt_pos[k] = 0.0;
      rotated.jnt_pos[k] = -0.0;
    }
    Data a(skipped), b(rotated);
    test::random_tree_state(skipped, a, seed + 1);
    test::random_tree_state(rotated, b, seed + 1);
    kinematics(skipped, a);
    kinematics(rotated, b);
    auto same = [&](const char* name, const double* x, const double* y, int n) {
      for (int i = 0; i < n; ++i) EXPECT_EQ(x[i], y[i]) << name << " " << i << " seed " << seed;
    };
    same("xpos", a.xpos, b.xpos, 3 * skipped.nbody);
    same("xquat", a.xquat, b.xquat, 4 * skipped.nbody);
    same("xmat", a.xmat, b.xmat, 9 * skipped.nbody);
    same("xanchor", a.xanchor, b.xanchor, 3 * skipped.njnt);
    same("xaxis", a.xaxis, b.xaxis, 3 * skipped.njnt);
    same("geom_xpos", a.geom_xpos, b.geom_xpos, 3 * skipped.ngeom);
  }
}

TEST(Kinematics, NormalisesQuaternionsInPlace) {
  const Model m = test::random_tree_model(7);
  Data unit(m);
  test::random_tree_state(m, unit, 3);
  Data scaled = unit;
  for (int j = 0; j < m.njnt; ++j) {
    const int adr = m.jnt_qposadr[j] + (m.jnt_type[j] == kJointFree ? 3 : 0);
    if (m.jnt_type[j] == kJointFree || m.jnt_type[j] == kJointBall) {
      for (int k = 0; k < 4; ++k) scaled.qpos[adr + k] *= 1.7;
    }
  }
  for (int k = 0; k < 4 * m.nmocap; ++k) scaled.mocap_quat[k] *= 0.6;
  kinematics(m, unit);
  kinematics(m, scaled);
  for (int i = 0; i < m.nq; ++i) EXPECT_NEAR(scaled.qpos[i], unit.qpos[i], 1e-15);
  for (int i = 0; i < 4 * m.nmocap; ++i)
    EXPECT_NEAR(scaled.mocap_quat[i], unit.mocap_quat[i], 1e-15);
  for (int i = 0; i < 9 * m.nbody; ++i) EXPECT_NEAR(scaled.xmat[i], unit.xmat[i], 1e-14);
}

}  // namespace
}  // namespace joco
