// Subtree com velocities against the subtree com Jacobian, angular momenta against direct sums.
#include <gtest/gtest.h>

#include <vector>

#include "joco/jacobian.h"
#include "joco/smooth.h"
#include "math/vec.h"
#include "support/random_tree.h"

namespace joco {
namespace {

using namespace math;

class SubtreeVel : public ::testing::TestWithParam<int> {};

TEST_P(SubtreeVel, MatchesDirectSums) {
  const Model m = test::random_tree_model(GetParam());
  Data d(m);
  test::random_tree_state(m, d, GetParam());
  test::smooth_position_velocity(m, d);
  subtree_vel(m, d);
  const int nv = m.nv;
  std::vector<double> jacp(3 * nv), jacr(3 * nv);
  // Each body's com velocity and angular velocity.
  std::vector<double> v(3 * m.nbody), w(3 * m.nbody);
  for (int b = 0; b < m.nbody; ++b) {
    jac_body_com(m, d, jacp.data(), jacr.data(), b);
    for (int k = 0; k < 3; ++k) {
      v[3 * b + k] = w[3 * b + k] = 0;
      for (int i = 0; i < nv; ++i) {
        v[3 * b + k] += jacp[k * nv + i] * d.qvel[i];
        w[3 * b + k] += jacr[k * nv + i] * d.qvel[i];
      }
    }
  }
  for (int b = 0; b < m.nbody; ++b) {
    jac_subtree_com(m, d, jacp.data(), b);
    double momentum[3] = {0, 0, 0};
    for (int k = 0; k < m.nbody; ++k) {
      bool inside = false;
      for (int a = k;; a = m.body_parentid[a]) {
        if (a == b) inside = true;
        if (inside || a == 0) break;
      }
      if (!inside) continue;
      // spin: ximat diag(I) ximat' w; orbit: m (x - c) x v
      double local[3], spin[3], arm[3], orbit[3];
      mat_t_vec3(local, d.ximat + 9 * k, w.data() + 3 * k);
      for (int c = 0; c < 3; ++c) local[c] *= m.body_inertia[3 * k + c];
      mat_vec3(spin, d.ximat + 9 * k, local);
      sub3(arm, d.xipos + 3 * k, d.subtree_com + 3 * b);
      cross3(orbit, arm, v.data() + 3 * k);
      add3(momentum, momentum, spin);
      add_scaled3(momentum, momentum, orbit, m.body_mass[k]);
    }
    for (int k = 0; k < 3; ++k) {
      double lin = 0;
      for (int i = 0; i < nv; ++i) lin += jacp[k * nv + i] * d.qvel[i];
      EXPECT_NEAR(d.subtree_linvel[3 * b + k], lin, 1e-13) << b;
      EXPECT_NEAR(d.subtree_angmom[3 * b + k], momentum[k], 1e-12) << b;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Seeds, SubtreeVel, ::testing::Range(0, 6));

}  // namespace
}  // namespace joco
