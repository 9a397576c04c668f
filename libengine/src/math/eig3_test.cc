#include "math/eig3.h"

#include <gtest/gtest.h>

#include <random>

namespace joco::math {
namespace {

TEST(Eig3, ReconstructsRandomSymmetricMatrices) {
  std::mt19937 rng(3);
  std::uniform_real_distribution<double> u(-1, 1);
  for (int trial = 0; trial < 200; ++trial) {
    double a[9];
    for (int i = 0; i < 3; ++i) {
      for (int j = i; j < 3; ++j) a[3 * i + j] = a[3 * j + i] = u(rng);
    }
    double eig[3], q[4];
    eig3(eig, q, a);
    EXPECT_GE(eig[0], eig[1]);
    EXPECT_GE(eig[1], eig[2]);
    double r[9], tmp[9], back[9];
    quat_to_mat(r, q);
    const double d[9] = {eig[0], 0, 0, 0, eig[1], 0, 0, 0, eig[2]};
    mat_mat3(tmp, r, d);
    mat_mat_t3(back, tmp, r);
    // The iteration stops once the next rotation would be below ~1e-6 rad (as MuJoCo's does), so
    // the reconstruction is exact to that order times the eigenvalue spread, not to rounding.
    for (int i = 0; i < 9; ++i) EXPECT_NEAR(back[i], a[i], 1e-5) << "trial " << trial;
    EXPECT_NEAR(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3], 1, 1e-14);
  }
}

}  // namespace
}  // namespace joco::math
