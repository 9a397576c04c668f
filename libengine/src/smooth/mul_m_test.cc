// Products with the sparse M against dense products, and mul_m2 as a square root of M.
#include <gtest/gtest.h>

#include <Eigen/Dense>

#include "joco/smooth.h"
#include "support/random_tree.h"

namespace joco {
namespace {

using Matrix = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

class MulM : public ::testing::TestWithParam<int> {};

TEST_P(MulM, MatchesDenseProduct) {
  const Model m = test::random_tree_model(GetParam());
  Data d(m);
  test::random_tree_state(m, d, GetParam());
  test::smooth_position_velocity(m, d);
  const int nv = m.nv;
  Matrix full(nv, nv);
  full_m(m, full.data(), d.qM);
  EXPECT_EQ((full - full.transpose()).norm(), 0);
  const Eigen::VectorXd x = Eigen::VectorXd::LinSpaced(nv, -1, 2);
  Eigen::VectorXd y(nv);
  mul_m(m, d, y.data(), x.data());
  EXPECT_LT((y - full * x).norm(), 1e-14 * (full * x).norm());
}

// B = sqrt(D) L satisfies B'B = M: column by column, B' (B e_i) = M e_i.
TEST_P(MulM, SquareRootFactor) {
  const Model m = test::random_tree_model(GetParam());
  Data d(m);
  test::random_tree_state(m, d, GetParam());
  test::smooth_position_velocity(m, d);
  const int nv = m.nv;
  Matrix full(nv, nv), b(nv, nv);
  full_m(m, full.data(), d.qM);
  Eigen::VectorXd e(nv), col(nv);
  for (int i = 0; i < nv; ++i) {
    e.setZero();
    e[i] = 1;
    mul_m2(m, d, col.data(), e.data());
    b.col(i) = col;
  }
  EXPECT_LT((b.transpose() * b - full).norm(), 1e-13 * full.norm());
}

INSTANTIATE_TEST_SUITE_P(Seeds, MulM, ::testing::Range(0, 6));

}  // namespace
}  // namespace joco
