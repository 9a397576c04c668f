// Jacobians against finite differences of the kinematics along each dof.
#include "joco/jacobian.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "joco/smooth.h"
#include "math/vec.h"
#include "support/random_tree.h"

namespace joco {
namespace {

using namespace math;

constexpr double kStep = 1e-6;

// Kinematics (and com_pos) at qpos (+) step * e_dof.
void perturbed(const Model& m, const Data& base, Data& d, int dof, double step) {
  std::vector<double> v(m.nv, 0.0);
  v[dof] = 1;
  for (int i = 0; i < m.nq; ++i) d.qpos[i] = base.qpos[i];
  integrate_pos(m, d.qpos, v.data(), step);
  kinematics(m, d);
  com_pos(m, d);
}

class Jacobian : public ::testing::TestWithParam<int> {};

TEST_P(Jacobian, ColumnsAreDerivativesOfPointsAndFrames) {
  const Model m = test::random_tree_model(GetParam());
  Data d(m);
  test::random_tree_state(m, d, GetParam());
  kinematics(m, d);
  com_pos(m, d);
  const int nv = m.nv;
  std::vector<double> jacp(3 * nv), jacr(3 * nv), jacs(3 * nv);
  Data plus = d, minus = d;
  for (int b = 0; b < m.nbody; ++b) {
    // A point fixed in the body, given in body coordinates and in global ones.
    const double local[3] = {0.1, -0.2, 0.15};
    double point[3];
    mat_vec3(point, d.xmat + 9 * b, local);
    add3(point, point, d.xpos + 3 * b);
    jac(m, d, jacp.data(), jacr.data(), point, b);
    jac_subtree_com(m, d, jacs.data(), b);
    for (int i = 0; i < nv; ++i) {
      perturbed(m, d, plus, i, kStep);
      perturbed(m, d, minus, i, -kStep);
      double pp[3], pm[3];
      mat_vec3(pp, plus.xmat + 9 * b, local);
      add3(pp, pp, plus.xpos + 3 * b);
      mat_vec3(pm, minus.xmat + 9 * b, local);
      add3(pm, pm, minus.xpos + 3 * b);
      // R+ R-' = I + 2 step [w]x to first order.
      double rel[9];
      mat_mat_t3(rel, plus.xmat + 9 * b, minus.xmat + 9 * b);
      const double w[3] = {(rel[7] - rel[5]) / (4 * kStep), (rel[2] - rel[6]) / (4 * kStep),
                           (rel[3] - rel[1]) / (4 * kStep)};
      for (int k = 0; k < 3; ++k) {
        EXPECT_NEAR(jacp[k * nv + i], (pp[k] - pm[k]) / (2 * kStep), 1e-8) << b << " " << i;
        EXPECT_NEAR(jacr[k * nv + i], w[k], 1e-8) << b << " " << i;
        const double com =
            (plus.subtree_com[3 * b + k] - minus.subtree_com[3 * b + k]) / (2 * kStep);
        EXPECT_NEAR(jacs[k * nv + i], com, 1e-8) << b << " " << i;
      }
    }
  }
}

// The shortcuts are jac at the body origin, body com, geom and site, and jac_point_axis crosses
// the rotational columns with the axis.
TEST_P(Jacobian, ShortcutsAgreeWithJac) {
  const Model m = test::random_tree_model(GetParam());
  Data d(m);
  test::random_tree_state(m, d, GetParam());
  kinematics(m, d);
  com_pos(m, d);
  const int nv = m.nv;
  std::vector<double> p(3 * nv), r(3 * nv), p2(3 * nv), r2(3 * nv);
  for (int s = 0; s < m.nsite; ++s) {
    const int b = m.site_bodyid[s];
    jac_site(m, d, p.data(), r.data(), s);
    jac(m, d, p2.data(), r2.data(), d.site_xpos + 3 * s, b);
    EXPECT_EQ(p, p2);
    EXPECT_EQ(r, r2);
    jac_body_com(m, d, p.data(), nullptr, b);
    jac(m, d, p2.data(), nullptr, d.xipos + 3 * b, b);
    EXPECT_EQ(p, p2);
    const double axis[3] = {0.3, -0.5, 0.8};
    jac_point_axis(m, d, p.data(), p2.data(), d.site_xpos + 3 * s, axis, b);
    for (int i = 0; i < nv; ++i) {
      const double w[3] = {r[i], r[nv + i], r[2 * nv + i]};
      double c[3];
      cross3(c, w, axis);
      for (int k = 0; k < 3; ++k) EXPECT_EQ(p2[k * nv + i], c[k]);
    }
  }
}

// A force and torque at a point act on the dofs as the transposed Jacobians of that point.
TEST_P(Jacobian, ApplyForceTorqueIsJacobianTransposed) {
  const Model m = test::random_tree_model(GetParam());
  Data d(m);
  test::random_tree_state(m, d, GetParam());
  kinematics(m, d);
  com_pos(m, d);
  const int nv = m.nv;
  std::vector<double> jacp(3 * nv), jacr(3 * nv), qfrc(nv);
  const double force[3] = {0.7, -1.1, 0.4}, torque[3] = {-0.3, 0.2, 0.9};
  int compared = 0;
  for (int b = 0; b < m.nbody; ++b) {
    double point[3];
    add3(point, d.xipos + 3 * b, force);  // any point taken as attached to b
    jac(m, d, jacp.data(), jacr.data(), point, b);
    for (int i = 0; i < nv; ++i) qfrc[i] = 1.0 + i;  // it adds
    apply_force_torque(m, d, force, torque, point, b, qfrc.data());
    for (int i = 0; i < nv; ++i) {
      double expected = 1.0 + i;
      for (int k = 0; k < 3; ++k)
        expected += jacp[k * nv + i] * force[k] + jacr[k * nv + i] * torque[k];
      EXPECT_NEAR(qfrc[i], expected, 1e-12) << "body " << b << ", dof " << i;
      ++compared;
    }
  }
  EXPECT_GT(compared, 0);
}

TEST(DofChain, ListsTheDofsThatMoveABody) {
  const Model m = test::random_tree_model(4);
  std::vector<int> chain(m.nv);
  for (int b = 0; b < m.nbody; ++b) {
    const int n = dof_chain(m, b, chain.data());
    // Exactly the dofs of the body and its ancestors, increasing.
    int expected = 0;
    for (int i = 0; i < m.nv; ++i) {
      bool ancestor = false;
      for (int a = b; a > 0 && !ancestor; a = m.body_parentid[a]) ancestor = m.dof_bodyid[i] == a;
      if (!ancestor) continue;
      ASSERT_LT(expected, n);
      EXPECT_EQ(chain[expected++], i);
    }
    EXPECT_EQ(n, expected);
    // dof_chain_before: the same chain, ending where asked, nothing written before it
    std::vector<int> room(m.nv + 1, -7);
    const int* start = dof_chain_before(m, b, room.data() + m.nv + 1);
    ASSERT_EQ(room.data() + m.nv + 1 - start, n);
    EXPECT_TRUE(std::equal(start, start + n, chain.begin()));
    for (const int* p = room.data(); p < start; ++p) EXPECT_EQ(*p, -7);
  }
}

INSTANTIATE_TEST_SUITE_P(Seeds, Jacobian, ::testing::Range(0, 4));

}  // namespace
}  // namespace joco
