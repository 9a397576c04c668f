// The continuous-time derivatives against the scheme of MuJoCo's `derivative` sample run on MuJoCo
// 2.2.2 itself (mj_forwardSkip, mj_inverseSkip; reimplemented here on MuJoCo's API): the same
// states, eps, warm-up and solver settings (30 iterations, tolerance 0), on humanoid (with
// contacts) and arm26.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <iostream>
#include <string>
#include <vector>

#include "joco/derivative.h"
#include "joco/forward.h"
#include "joco/mjcf.h"
#include "oracle/oracle.h"
#include "support/test_support.h"

namespace joco {
namespace {

constexpr double kEps = 1e-6;
constexpr int kIterations = 30;
constexpr int kWarmup = 3;

// MuJoCo's derivatives by the sample's worker, all columns: deriv[k] for k = G0, G1, G2, F0, F1,
// F2, each nv x nv row-major (output row, input column).
std::vector<std::vector<double>> mujoco_derivatives(const mjModel* mj, const mjData* main) {
  const int nv = mj->nv;
  std::vector<std::vector<double>> deriv(6, std::vector<double>(static_cast<size_t>(nv * nv)));
  oracle::MjDataPtr owner = oracle::make_data(mj);
  mjData* d = owner.get();
  for (int isforward = 0; isforward < 2; ++isforward) {
    d->time = main->time;
    mju_copy(d->qpos, main->qpos, mj->nq);
    mju_copy(d->qvel, main->qvel, nv);
    mju_copy(d->act, main->act, mj->na);
    mju_copy(d->qacc, main->qacc, nv);
    mju_copy(d->qacc_warmstart, main->qacc_warmstart, nv);
    mju_copy(d->qfrc_applied, main->qfrc_applied, nv);
    mju_copy(d->xfrc_applied, main->xfrc_applied, 6 * mj->nbody);
    mju_copy(d->ctrl, main->ctrl, mj->nu);
    if (isforward) {
      mj_forward(mj, d);
      for (int rep = 1; rep < kWarmup; ++rep) mj_forwardSkip(mj, d, mjSTAGE_VEL, 1);
    } else {
      mj_inverse(mj, d);
    }
    const mjtNum* output = isforward ? d->qacc : d->qfrc_inverse;
    const std::vector<double> center(output, output + nv);
    const std::vector<double> warmstart(d->qacc_warmstart, d->qacc_warmstart + nv);
    auto evaluate = [&](int skip) {
      if (isforward) {
        mju_copy(d->qacc_warmstart, warmstart.data(), nv);
        mj_forwardSkip(mj, d, skip, 1);
      } else {
        mj_inverseSkip(mj, d, skip, 1);
      }
    };
    auto column = [&](int which, int i) {
      for (int j = 0; j < nv; ++j) {
        deriv[static_cast<size_t>(3 * isforward + which)][static_cast<size_t>(j * nv + i)] =
            (output[j] - center[static_cast<size_t>(j)]) / kEps;
      }
    };
    mjtNum* target = isforward ? d->qfrc_applied : d->qacc;
    const mjtNum* original = isforward ? main->qfrc_applied : main->qacc;
    for (int i = 0; i < nv; ++i) {
      target[i] += kEps;
      evaluate(mjSTAGE_VEL);
      target[i] = original[i];
      column(2, i);
    }
    for (int i = 0; i < nv; ++i) {
      d->qvel[i] += kEps;
      evaluate(mjSTAGE_POS);
      d->qvel[i] = main->qvel[i];
      column(1, i);
    }
    std::vector<double> dq(static_cast<size_t>(nv), 0.0);
    for (int i = 0; i < nv; ++i) {
      dq[static_cast<size_t>(i)] = 1;
      mj_integratePos(mj, d->qpos, dq.data(), kEps);
      dq[static_cast<size_t>(i)] = 0;
      evaluate(mjSTAGE_NONE);
      mju_copy(d->qpos, main->qpos, mj->nq);
      column(0, i);
    }
  }
  return deriv;
}

// Worst |a - b| / max(|a|, |b|, 1e-2 * largest |b|): entries below 1% of the matrix scale carry
// differencing noise (about 1e-16 |qacc| / eps) that differs between the engines.
double worst_error(const std::vector<double>& a, const std::vector<double>& b) {
  double scale = 0, worst = 0;
  for (double x : b) scale = std::max(scale, std::abs(x));
  for (size_t k = 0; k < a.size(); ++k) {
    worst = std::max(
        worst, oracle::element_error(a[k], b[k], scale, oracle::Tolerance{1e-6, 1e-2, 1e-300}));
  }
  return worst;
}

void check_model(const std::string& relative, int steps, double noise, bool inverse,
                 double tolerance) {
  std::string error;
  oracle::MjModelPtr mj = oracle::load(test::testdata(relative), &error);
  ASSERT_TRUE(mj) << error;
  oracle::MjDataPtr md = oracle::make_data(mj.get());
  Model m = compile_mjcf_file(test::testdata(relative));
  // The main simulation runs with the model's own solver settings, the differences with the
  // sample's.
  for (int t = 0; t < steps; ++t) {
    for (int j = 0; j < mj->nu; ++j) md->ctrl[j] = noise * (2 * mju_Halton(t, j + 2) - 1);
    mj_step(mj.get(), md.get());
  }
  mj->opt.iterations = kIterations;
  mj->opt.tolerance = 0;
  prepare_model_for_continuous_fd(m, kIterations);
  const std::vector<std::vector<double>> reference = mujoco_derivatives(mj.get(), md.get());

  Data state(m);
  oracle::copy_state(mj.get(), md.get(), m, state);
  std::copy(md->qacc, md->qacc + m.nv, state.qacc);
  std::vector<Data> workers;
  for (int t = 0; t < 2; ++t) workers.emplace_back(m);
  ContinuousOptions options;
  options.eps = kEps;
  options.nwarmup = kWarmup;
  options.inverse = inverse;
  options.forward = !inverse;
  const ContinuousDerivatives deriv = continuous_derivatives(m, state, workers, options);
  const char* names[6] = {"dqfrc/dqpos", "dqfrc/dqvel", "dqfrc/dqacc",
                          "dqacc/dqpos", "dqacc/dqvel", "dqacc/dqfrc"};
  const std::vector<double>* mine[6] = {&deriv.dqfrc_dqpos, &deriv.dqfrc_dqvel, &deriv.dqfrc_dqacc,
                                        &deriv.dqacc_dqpos, &deriv.dqacc_dqvel, &deriv.dqacc_dqfrc};
  std::cout << relative << " after " << steps << " steps (" << md->nefc << " constraint rows):";
  for (int k = inverse ? 0 : 3; k < (inverse ? 3 : 6); ++k) {
    const double err = worst_error(*mine[k], reference[static_cast<size_t>(k)]);
    std::cout << " " << names[k] << " " << err;
    EXPECT_LT(err, tolerance) << relative << " " << names[k];
  }
  std::cout << "\n";
}

TEST(ContinuousFdOracle, ForwardDerivativesMatchTheSampleOnMuJoCo) {
  check_model("mujoco/model/humanoid/humanoid.xml", 500, 0.0, false, 1e-6);
  check_model("mujoco/model/humanoid/humanoid.xml", 1000, 0.0, false, 1e-6);
  check_model("mujoco/model/tendon_arm/arm26.xml", 300, 0.5, false, 1e-6);
}

TEST(ContinuousFdOracle, InverseDerivativesMatchTheSampleOnMuJoCo) {
  check_model("mujoco/model/humanoid/humanoid.xml", 500, 0.0, true, 1e-6);
  check_model("mujoco/model/humanoid/humanoid.xml", 1000, 0.0, true, 1e-6);
  check_model("mujoco/model/tendon_arm/arm26.xml", 300, 0.5, true, 1e-6);
}

}  // namespace
}  // namespace joco
