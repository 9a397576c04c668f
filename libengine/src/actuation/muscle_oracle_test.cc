// muscle_gain, muscle_bias and muscle_dynamics against MuJoCo 2.2.2's mju_muscleGain,
// mju_muscleBias and mju_muscleDynamics over seeded sweeps: every piece of the force-length,
// force-velocity and passive curves, peak force given or scaled by acc0, controls and activations
// inside and outside [0, 1].
#include <gtest/gtest.h>

#include <random>

#include "joco/muscle.h"
#include "oracle/oracle.h"

namespace joco {
namespace {

// A random parameter set: default-like shapes, sometimes extreme ones.
void random_parameters(std::mt19937_64& rng, double prm[9], double lengthrange[2], double* acc0) {
  std::uniform_real_distribution<double> u(0, 1);
  prm[0] = 0.5 + 0.4 * u(rng);  // range
  prm[1] = prm[0] + 0.1 + 0.5 * u(rng);
  prm[2] = u(rng) < 0.5 ? -1 : 10 + 500 * u(rng);  // force
  prm[3] = 50 + 300 * u(rng);                      // scale
  prm[4] = 0.2 + 0.6 * u(rng);                     // lmin
  prm[5] = 1.1 + 1.0 * u(rng);                     // lmax
  prm[6] = 0.5 + 2 * u(rng);                       // vmax
  prm[7] = 0.5 + 2 * u(rng);                       // fpmax
  prm[8] = 1.05 + 0.8 * u(rng);                    // fvmax
  lengthrange[0] = -1 + 2 * u(rng);
  lengthrange[1] = lengthrange[0] + 0.05 + u(rng);
  *acc0 = 0.1 + 100 * u(rng);
}

TEST(MuscleOracle, CurvesMatchMuJoCo) {
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> u(0, 1);
  double worst_gain = 0, worst_bias = 0;
  int nonzero_gain = 0, nonzero_bias = 0;
  for (int trial = 0; trial < 20000; ++trial) {
    double prm[9], lengthrange[2], acc0;
    random_parameters(rng, prm, lengthrange, &acc0);
    // Lengths over the whole normalised range [lmin - 0.2, lmax + 0.5], velocities over
    // [-1.5, 1.5] fvmax in units of L0 vmax.
    const double L0 = (lengthrange[1] - lengthrange[0]) / (prm[1] - prm[0]);
    const double L = prm[4] - 0.2 + (prm[5] - prm[4] + 0.7) * u(rng);
    const double len = lengthrange[0] + (L - prm[0]) * L0;
    const double vel = (-1.5 + 3 * prm[8] * u(rng)) * L0 * prm[6];
    const double gain = muscle_gain(len, vel, lengthrange, acc0, prm);
    const double bias = muscle_bias(len, lengthrange, acc0, prm);
    const double mj_gain = mju_muscleGain(len, vel, lengthrange, acc0, prm);
    const double mj_bias = mju_muscleBias(len, lengthrange, acc0, prm);
    const oracle::Tolerance tol;
    const double eg = oracle::element_error(gain, mj_gain, std::abs(mj_gain), tol);
    const double eb = oracle::element_error(bias, mj_bias, std::abs(mj_bias), tol);
    ASSERT_LE(eg, 1e-12) << "trial " << trial << " L " << L << " gain " << gain << " vs "
                         << mj_gain;
    ASSERT_LE(eb, 1e-12) << "trial " << trial << " L " << L << " bias " << bias << " vs "
                         << mj_bias;
    worst_gain = std::max(worst_gain, eg);
    worst_bias = std::max(worst_bias, eb);
    nonzero_gain += mj_gain != 0;
    nonzero_bias += mj_bias != 0;
  }
  // The sweep reaches every piece of the curves, zero and nonzero.
  EXPECT_GT(nonzero_gain, 10000);
  EXPECT_LT(nonzero_gain, 19500);
  EXPECT_GT(nonzero_bias, 5000);
  EXPECT_LT(nonzero_bias, 19500);
  std::cout << "muscle gain worst " << worst_gain << ", bias worst " << worst_bias << "\n";
}

TEST(MuscleOracle, DynamicsMatchMuJoCo) {
  std::mt19937_64 rng(8);
  std::uniform_real_distribution<double> u(0, 1);
  double worst = 0;
  for (int trial = 0; trial < 20000; ++trial) {
    const double prm[2] = {0.005 + 0.05 * u(rng), 0.01 + 0.1 * u(rng)};
    const double ctrl = -0.5 + 2 * u(rng);
    const double act = trial % 10 == 0 ? ctrl : -0.5 + 2 * u(rng);
    const double a = muscle_dynamics(ctrl, act, prm);
    const double b = mju_muscleDynamics(ctrl, act, prm);
    const double e = oracle::element_error(a, b, std::abs(b), {});
    ASSERT_LE(e, 1e-12) << "ctrl " << ctrl << " act " << act << ": " << a << " vs " << b;
    worst = std::max(worst, e);
  }
  std::cout << "muscle dynamics worst " << worst << "\n";
}

}  // namespace
}  // namespace joco
