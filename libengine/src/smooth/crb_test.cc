// The joint-space inertia from CRB against the one from recursive Newton-Euler: column i of M is
// rne with qacc = e_i minus rne without acceleration (rne leaves armature out).
#include <gtest/gtest.h>

#include <vector>

#include "joco/smooth.h"
#include "support/random_tree.h"

namespace joco {
namespace {

class Crb : public ::testing::TestWithParam<int> {};

TEST_P(Crb, MatchesNewtonEulerColumns) {
  const Model m = test::random_tree_model(GetParam());
  Data d(m);
  test::random_tree_state(m, d, GetParam());
  test::smooth_position_velocity(m, d);
  const int nv = m.nv;
  std::vector<double> dense(nv * nv), bias(nv), with(nv);
  full_m(m, dense.data(), d.qM);
  rne(m, d, false, bias.data());
  double scale = 0;
  for (double x : dense) scale = std::max(scale, std::abs(x));
  for (int i = 0; i < nv; ++i) {
    for (int k = 0; k < nv; ++k) d.qacc[k] = k == i ? 1 : 0;
    rne(m, d, true, with.data());
    for (int r = 0; r < nv; ++r) {
      const double column = with[r] - bias[r] + (r == i ? m.dof_armature[i] : 0);
      EXPECT_NEAR(dense[r * nv + i], column, 1e-12 * scale) << "M(" << r << ", " << i << ")";
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Seeds, Crb, ::testing::Range(0, 8));

}  // namespace
}  // namespace joco
