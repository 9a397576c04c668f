// Solves with the factorisation invert products with M.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "joco/smooth.h"
#include "support/random_tree.h"

namespace joco {
namespace {

class SolveM : public ::testing::TestWithParam<int> {};

TEST_P(SolveM, InvertsMulM) {
  const Model m = test::random_tree_model(GetParam());
  Data d(m);
  test::random_tree_state(m, d, GetParam());
  test::smooth_position_velocity(m, d);
  const int nv = m.nv, n = 3;
  std::vector<double> x(n * nv), y(n * nv), back(n * nv);
  for (int i = 0; i < n * nv; ++i) x[i] = std::sin(1.3 * i + 0.5);
  for (int v = 0; v < n; ++v) mul_m(m, d, y.data() + v * nv, x.data() + v * nv);
  solve_m(m, d, back.data(), y.data(), n);
  for (int i = 0; i < n * nv; ++i) EXPECT_NEAR(back[i], x[i], 1e-10 * (1 + std::abs(x[i])));
  // In place.
  solve_m(m, d, y.data(), y.data(), n);
  for (int i = 0; i < n * nv; ++i) EXPECT_EQ(y[i], back[i]);
}

// The half solve z = sqrt(inv(D)) inv(L') y has z'z = y' inv(M) y.
TEST_P(SolveM, HalfSolveSquaresToTheInverse) {
  const Model m = test::random_tree_model(GetParam());
  Data d(m);
  test::random_tree_state(m, d, GetParam());
  test::smooth_position_velocity(m, d);
  const int nv = m.nv;
  std::vector<double> y(nv), z(nv), full(nv);
  for (int i = 0; i < nv; ++i) y[i] = std::cos(0.7 * i);
  solve_m2(m, d, z.data(), y.data(), 1);
  solve_m(m, d, full.data(), y.data(), 1);
  double zz = 0, yx = 0;
  for (int i = 0; i < nv; ++i) {
    zz += z[i] * z[i];
    yx += y[i] * full[i];
  }
  EXPECT_NEAR(zz, yx, 1e-12 * yx);
}

// A y nonzero on a few dofs: solve_m_on_chain gives solve_m's numbers on the chain of those dofs
// and their ancestors, bit for bit, and leaves the other entries alone.
TEST_P(SolveM, OnTheChainOfANonzeroYAsTheFullSolve) {
  const Model m = test::random_tree_model(GetParam());
  Data d(m);
  test::random_tree_state(m, d, GetParam());
  test::smooth_position_velocity(m, d);
  const int nv = m.nv;
  ASSERT_GT(nv, 2);
  for (int last : {nv - 1, nv / 2, 0}) {
    std::vector<double> y(nv, 0.0), full(nv), x(nv, 7.0);
    y[last] = 1.5;
    y[last / 2] = -0.25;
    solve_m(m, d, full.data(), y.data(), 1);
    std::vector<int> chain;
    nonzero_dofs_and_ancestors(m, y.data(), chain);
    std::vector<bool> on_chain(nv, false);
    for (int k : chain) on_chain[k] = true;
    for (int i = 0; i < nv; ++i) {  // the chain: y's nonzeros and exactly their ancestors
      bool expected = false;
      for (int k : {last, last / 2}) {
        for (int j = k; j >= 0; j = m.dof_parentid[j]) expected |= j == i;
      }
      EXPECT_EQ(on_chain[i], expected) << "dof " << i;
    }
    for (size_t k = 1; k < chain.size(); ++k) EXPECT_LT(chain[k - 1], chain[k]);
    for (int k : chain) x[k] = y[k];
    solve_m_on_chain(m, d, x.data(), chain);
    for (int i = 0; i < nv; ++i) {
      if (on_chain[i]) {
        EXPECT_EQ(x[i], full[i]) << "dof " << i;
      } else {
        EXPECT_EQ(x[i], 7.0) << "dof " << i;
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Seeds, SolveM, ::testing::Range(0, 8));

}  // namespace
}  // namespace joco
