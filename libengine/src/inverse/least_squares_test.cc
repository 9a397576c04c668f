#include "inverse/least_squares.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <random>
#include <vector>

namespace joco::detail {
namespace {

// The written-out solve and residual give the bits of Eigen's CompleteOrthogonalDecomposition
// solve and of `rhs - B * x`, on matrices of every shape up to 40 x 40 of full column rank: dense
// ones (every length of the dot products and every panel of the triangular solve), and sparse
// ones with one entry per column as joint motors give (reflectors with tau = 0, and zeros in the
// triangular solve), with right-hand sides holding zeros and negative zeros.
TEST(LeastSquares, WrittenOutSolveGivesEigensBits) {
  if (!kEigenOrder) GTEST_SKIP() << "this build's Eigen is not SSE2 without FMA";
  std::mt19937 random(15);
  std::uniform_real_distribution<double> value(-2, 2);
  int compared = 0;
  for (int rows = 1; rows <= 40; ++rows) {
    for (int cols = 1; cols <= rows; ++cols) {
      for (int kind = 0; kind < 3; ++kind) {
        Eigen::MatrixXd B = Eigen::MatrixXd::Zero(rows, cols);
        if (kind == 0) {
          for (int j = 0; j < cols; ++j)
            for (int i = 0; i < rows; ++i) B(i, j) = value(random);
        } else {
          // one entry per column, in distinct rows (a permutation), as a motor's gear
          std::vector<int> order(static_cast<size_t>(rows));
          for (int i = 0; i < rows; ++i) order[static_cast<size_t>(i)] = i;
          std::shuffle(order.begin(), order.end(), random);
          for (int j = 0; j < cols; ++j) B(order[static_cast<size_t>(j)], j) = value(random);
          if (kind == 2 && rows > 1) B(order[0], cols - 1) += value(random);  // one coupling
        }
        Eigen::VectorXd rhs(rows);
        for (int i = 0; i < rows; ++i) {
          const int pick = static_cast<int>(random() % 8);
          rhs[i] = pick == 0 ? 0.0 : pick == 1 ? -0.0 : value(random);
        }
        Eigen::CompleteOrthogonalDecomposition<Eigen::MatrixXd> cod(B);
        if (cod.rank() < cols) continue;
        const Eigen::VectorXd expected = cod.solve(rhs);
        Eigen::VectorXd expected_r(rows);
        expected_r.noalias() = rhs - B * expected;
        std::vector<double> c(static_cast<size_t>(rows)), y(static_cast<size_t>(cols)),
            x(static_cast<size_t>(cols)), r(static_cast<size_t>(rows));
        solve_full_column_rank(cod, rhs.data(), c.data(), y.data(), x.data());
        ASSERT_EQ(0, std::memcmp(x.data(), expected.data(), sizeof(double) * x.size()))
            << rows << " x " << cols << ", kind " << kind;
        if (rows >= 2) {
          residual(B, rhs.data(), expected.data(), r.data());
          ASSERT_EQ(0, std::memcmp(r.data(), expected_r.data(), sizeof(double) * r.size()))
              << rows << " x " << cols << ", kind " << kind;
        }
        ++compared;
      }
    }
  }
  EXPECT_GT(compared, 2000);
}

}  // namespace
}  // namespace joco::detail
