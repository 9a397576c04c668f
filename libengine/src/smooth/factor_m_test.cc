// The L'DL factorisation reproduces M, and a singular M is regularised with a warning.
#include <gtest/gtest.h>

#include <Eigen/Dense>

#include "joco/smooth.h"
#include "support/random_tree.h"

namespace joco {
namespace {

using Matrix = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

class FactorM : public ::testing::TestWithParam<int> {};

TEST_P(FactorM, ReproducesM) {
  const Model m = test::random_tree_model(GetParam());
  Data d(m);
  test::random_tree_state(m, d, GetParam());
  test::smooth_position_velocity(m, d);
  const int nv = m.nv;
  Matrix full(nv, nv), l = Matrix::Identity(nv, nv), diag = Matrix::Zero(nv, nv);
  full_m(m, full.data(), d.qM);
  for (int i = 0; i < nv; ++i) {
    int adr = m.dof_Madr[i];
    diag(i, i) = d.qLD[adr];
    EXPECT_NEAR(d.qLDiagInv[i] * d.qLD[adr], 1, 1e-15);
    EXPECT_NEAR(d.qLDiagSqrtInv[i] * d.qLDiagSqrtInv[i] * d.qLD[adr], 1, 1e-15);
    for (int j = m.dof_parentid[i]; j >= 0; j = m.dof_parentid[j]) l(i, j) = d.qLD[++adr];
  }
  const Matrix product = l.transpose() * diag * l;
  EXPECT_LT((product - full).norm(), 1e-13 * full.norm());
  EXPECT_EQ(d.warning[kWarnInertia].number, 0);
}

INSTANTIATE_TEST_SUITE_P(Seeds, FactorM, ::testing::Range(0, 8));

TEST(FactorMSingular, RaisesPivotsWithAWarning) {
  const Model m = test::random_tree_model(1);
  Data d(m);
  test::smooth_position_velocity(m, d);
  // Two dofs whose rows are equal: the second pivot vanishes.
  std::vector<double> mat(m.nM, 0.0);
  for (int i = 0; i < m.nv; ++i) mat[m.dof_Madr[i]] = 1;
  int child = -1;
  for (int i = 0; i < m.nv && child < 0; ++i) {
    if (m.dof_parentid[i] >= 0) child = i;
  }
  ASSERT_GE(child, 0);
  mat[m.dof_Madr[child] + 1] = 1;  // M(child, parent) = 1 = M(child, child) = M(parent, parent)
  std::vector<double> ld(m.nM), inv(m.nv);
  factor_ld(m, d, mat.data(), ld.data(), inv.data(), nullptr);
  EXPECT_EQ(d.warning[kWarnInertia].number, 1);
  EXPECT_EQ(d.warning[kWarnInertia].lastinfo, m.dof_parentid[child]);
  EXPECT_EQ(ld[m.dof_Madr[m.dof_parentid[child]]], kMinVal);
}

}  // namespace
}  // namespace joco
