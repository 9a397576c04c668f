// com_pos against direct sums over the bodies of random trees.
#include <gtest/gtest.h>

#include "joco/smooth.h"
#include "math/spatial.h"
#include "support/random_tree.h"

namespace joco {
namespace {

using namespace math;

class ComPos : public ::testing::TestWithParam<int> {};

TEST_P(ComPos, SubtreeComIsTheMassWeightedMean) {
  const Model m = test::random_tree_model(GetParam());
  Data d(m);
  test::random_tree_state(m, d, GetParam());
  kinematics(m, d);
  com_pos(m, d);
  for (int b = 0; b < m.nbody; ++b) {
    double sum[3] = {0, 0, 0}, mass = 0;
    for (int k = 0; k < m.nbody; ++k) {
      bool inside = false;
      for (int a = k; !inside; a = m.body_parentid[a]) {
        inside = a == b;
        if (a == 0) break;
      }
      if (!inside) continue;
      add_scaled3(sum, sum, d.xipos + 3 * k, m.body_mass[k]);
      mass += m.body_mass[k];
    }
    for (int k = 0; k < 3; ++k) EXPECT_NEAR(d.subtree_com[3 * b + k], sum[k] / mass, 1e-14);
  }
}

// cinert is the body's inertia about its tree's com: the kinetic energy 0.5 v' I v of any motion
// v equals 0.5 m |v_com|^2 + 0.5 w' I_com w.
TEST_P(ComPos, CinertGivesTheBodysKineticEnergy) {
  const Model m = test::random_tree_model(GetParam());
  Data d(m);
  test::random_tree_state(m, d, GetParam());
  kinematics(m, d);
  com_pos(m, d);
  for (int b = 1; b < m.nbody; ++b) {
    const double v[6] = {0.3, -0.2, 0.5, 1.1, -0.7, 0.4};
    double iv[6];
    inertia_mul_motion(iv, d.cinert + 10 * b, v);
    const double energy = 0.5 * dot6(v, iv);
    double at_com[6];
    motion_to_point(at_com, v, d.subtree_com + 3 * m.body_rootid[b], d.xipos + 3 * b);
    double local[3];
    mat_t_vec3(local, d.ximat + 9 * b, v);
    double spin = 0;
    for (int k = 0; k < 3; ++k) spin += m.body_inertia[3 * b + k] * local[k] * local[k];
    const double expected = 0.5 * m.body_mass[b] * dot3(at_com + 3, at_com + 3) + 0.5 * spin;
    EXPECT_NEAR(energy, expected, 1e-13 * (1 + expected));
  }
}

INSTANTIATE_TEST_SUITE_P(Seeds, ComPos, ::testing::Range(0, 6));

}  // namespace
}  // namespace joco
