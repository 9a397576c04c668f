// tendon and tendon_velocity against MuJoCo 2.2.2's mj_tendon and mj_fwdVelocity at seeded random
// states, on every test model with tendons, with dense and sparse Jacobians.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <iostream>
#include <ostream>
#include <random>
#include <string>
#include <vector>

#include "joco/constants.h"
#include "joco/mjcf.h"
#include "joco/smooth.h"
#include "joco/tendon.h"
#include "oracle/random_state.h"
#include "support/test_models.h"
#include "support/test_support.h"

namespace joco {
namespace {

struct TendonParam {
  std::string model;
  bool sparse;  // force MuJoCo's sparse Jacobian mode (it then packs ten_J)
};

// Shown by GoogleTest in place of the parameter's bytes.
std::ostream& operator<<(std::ostream& os, const TendonParam& c) {
  return os << c.model << (c.sparse ? " (sparse)" : "");
}

std::string Name(const ::testing::TestParamInfo<TendonParam>& info) {
  return test::test_name(info.param.model) + (info.param.sparse ? "_sparse" : "_dense");
}

class TendonOracle : public ::testing::TestWithParam<TendonParam> {};

// MuJoCo's sparse mode (mj_isSparse): chosen, or automatic for 60 dofs or more.
bool mujoco_sparse(const mjModel* mj) {
  return mj->opt.jacobian == mjJAC_SPARSE || (mj->opt.jacobian == mjJAC_AUTO && mj->nv >= 60);
}

// MuJoCo's ten_J as a dense matrix (packed rows in sparse mode).
std::vector<double> mujoco_dense_jacobian(const mjModel* mj, const mjData* md) {
  const bool sparse = mujoco_sparse(mj);
  const int nv = mj->nv;
  std::vector<double> dense(static_cast<size_t>(mj->ntendon) * nv, 0.0);
  for (int t = 0; t < mj->ntendon; ++t) {
    if (!sparse) {
      for (int i = 0; i < nv; ++i) dense[t * nv + i] = md->ten_J[t * nv + i];
      continue;
    }
    const int adr = md->ten_J_rowadr[t];
    for (int k = 0; k < md->ten_J_rownnz[t]; ++k) {
      dense[t * nv + md->ten_J_colind[adr + k]] = md->ten_J[adr + k];
    }
  }
  return dense;
}

TEST_P(TendonOracle, MatchesMuJoCo) {
  const TendonParam param = GetParam();
  oracle::StageCheck check;
  check.fields = {"ten_length", "ten_wrapadr", "ten_wrapnum"};
  check.mujoco = [](const mjModel* m, mjData* d) { mj_tendon(m, d); };
  check.joco = [](const Model& m, Data& d) { tendon(m, d); };
  check.extra = [&](oracle::OracleCase& c, oracle::Comparison& cmp) {
    const int nv = c.m.nv, ntendon = c.m.ntendon;
    const oracle::Tolerance touch;
    const double extent = std::max(1.0, c.mj->stat.extent);
    // The wrap points in use (the rest of MuJoCo's arrays is stale).
    int npoint = 0;
    for (int t = 0; t < ntendon; ++t) npoint += c.md->ten_wrapnum[t];
    std::vector<double> obj[2];
    for (int k = 0; k < npoint; ++k) {
      obj[0].push_back(c.d.wrap_obj[k]);
      obj[1].push_back(c.md->wrap_obj[k]);
    }
    cmp.fields.push_back(oracle::compare_arrays("wrap_obj", obj[0].data(), obj[1].data(), npoint));
    cmp.fields.push_back(oracle::compare_arrays("wrap_xpos", c.d.wrap_xpos, c.md->wrap_xpos,
                                                3 * npoint, touch, extent));
    const std::vector<double> theirs = mujoco_dense_jacobian(c.mj.get(), c.md.get());
    // Moment arms are lengths: compared against at least the model's extent.
    cmp.fields.push_back(oracle::compare_arrays("ten_J", c.d.ten_J, theirs.data(),
                                                static_cast<int64_t>(ntendon) * nv, touch, extent));
    // MuJoCo fills the sparsity pattern in sparse mode only.
    if (mujoco_sparse(c.mj.get())) {
      cmp.fields.push_back(
          oracle::compare_data(c.d, c.md.get(), c.mj.get(), {"ten_J_rownnz"}, {}).fields[0]);
      cmp.fields.push_back(
          oracle::compare_data(c.d, c.md.get(), c.mj.get(), {"ten_J_rowadr"}, {}).fields[0]);
      int nnz = 0;
      for (int t = 0; t < ntendon; ++t) nnz += c.md->ten_J_rownnz[t];
      std::vector<double> a(c.d.ten_J_colind, c.d.ten_J_colind + nnz),
          b(c.md->ten_J_colind, c.md->ten_J_colind + nnz);
      cmp.fields.push_back(oracle::compare_arrays("ten_J_colind", a.data(), b.data(), nnz));
    }
    // Velocities: MuJoCo's mj_fwdVelocity on the same state.
    mj_fwdVelocity(c.mj.get(), c.md.get());
    tendon_velocity(c.m, c.d);
    cmp.fields.push_back(oracle::compare_arrays("ten_velocity", c.d.ten_velocity,
                                                c.md->ten_velocity, ntendon, touch));
  };
  oracle::check_stage(param.model, check, [&](oracle::OracleCase& c) {
    if (param.sparse) {
      c.mj->opt.jacobian = mjJAC_SPARSE;
      c.m.opt.jacobian = kJacSparse;
    }
  });
}

// Each model in MuJoCo's dense and sparse Jacobian modes.
std::vector<TendonParam> both_modes(const std::vector<std::string>& models) {
  std::vector<TendonParam> params;
  for (const std::string& model : models) {
    params.push_back({model, false});
    params.push_back({model, true});
  }
  return params;
}

// Every model with tendons, one of each kind of wrap object, limit and passive force in the default
// suite.
bool has_tendons(const test::ModelFeatures& f) { return f.ntendon > 0; }
uint64_t tendon_kinds(const test::ModelFeatures& f) {
  return f.wrap_types | uint64_t(f.limited) << 16 | f.passive_kinds() << 20;
}

INSTANTIATE_TEST_SUITE_P(
    Models, TendonOracle,
    ::testing::ValuesIn(both_modes(test::sweep_models(has_tendons, tendon_kinds, "actuation/"))),
    Name);
INSTANTIATE_TEST_SUITE_P(LongSweep, TendonOracle,
                         ::testing::ValuesIn(both_modes(
                             test::long_sweep_models(has_tendons, tendon_kinds, "actuation/"))),
                         Name);

// Side sites inside the geom: the touch point wherever the ends are, and above all where the
// segment nearly grazes the geom (MuJoCo 2.2.2's search starts near tangency and gives up there).
TEST(TendonInsideWrap, TouchPointsMatchMuJoCoWhereverTheEndsAre) {
  oracle::OracleCase c;
  ASSERT_TRUE(oracle::load_compiled_case("actuation/inside_wrap_mocap.xml", c));
  auto& [path, mj, md, m, d] = c;
  mj_fwdPosition(mj.get(), md.get());
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> uniform(0, 1);
  double worst = 0;
  int grazing = 0;
  for (int trial = 0; trial < 2000; ++trial) {
    for (int g = 0; g < 2; ++g) {  // the sphere, then the cylinder
      const double r = mj->geom_size[3 * g];
      // In the geom's frame: the segment passes at r (1 + eps) from the centre (from the axis),
      // eps from 1e-9 to 1.
      const double eps = std::pow(10.0, -9 * uniform(rng));
      grazing += eps < 1e-6;
      const double a = 2 * kPi * uniform(rng), b = kPi * (uniform(rng) - 0.5);
      // the segment runs either way round the centre
      const double way = uniform(rng) < 0.5 ? 1 : -1;
      double n[3] = {std::cos(a), std::sin(a), 0};
      double t[3] = {-way * std::sin(a), way * std::cos(a), 0};
      if (g == 0) {  // tilt the sphere's case out of the xy plane
        for (double* v : {n, t}) v[2] = v[1] * std::sin(b), v[1] *= std::cos(b);
      }
      const double s[2] = {-0.05 - 0.4 * uniform(rng), 0.05 + 0.4 * uniform(rng)};
      for (int e = 0; e < 2; ++e) {
        double local[3];
        for (int k = 0; k < 3; ++k) local[k] = r * (1 + eps) * n[k] + s[e] * t[k];
        if (g == 1) local[2] = 0.3 * (uniform(rng) - 0.5);
        double* pos = md->mocap_pos + 3 * (2 * g + e);
        const double* xmat = md->geom_xmat + 9 * g;
        for (int k = 0; k < 3; ++k) {
          pos[k] = md->geom_xpos[3 * g + k];
          for (int j = 0; j < 3; ++j) pos[k] += xmat[3 * k + j] * local[j];
          d.mocap_pos[3 * (2 * g + e) + k] = pos[k];
        }
      }
    }
    mj_fwdPosition(mj.get(), md.get());
    kinematics(m, d);
    com_pos(m, d);
    tendon(m, d);
    oracle::count_compared(2 * m.ntendon);
    for (int i = 0; i < m.ntendon; ++i) {
      ASSERT_EQ(d.ten_wrapnum[i], md->ten_wrapnum[i]) << "trial " << trial << " tendon " << i;
      EXPECT_NEAR(d.ten_length[i], md->ten_length[i], 1e-12) << "trial " << trial;
    }
    for (int k = 0; k < 3 * md->ten_wrapadr[m.ntendon - 1] + 3 * md->ten_wrapnum[m.ntendon - 1];
         ++k) {
      worst = std::max(worst, std::fabs(d.wrap_xpos[k] - md->wrap_xpos[k]));
    }
  }
  std::cout << "worst |wrap_xpos - MuJoCo's| " << worst << " (" << grazing
            << " ends within 1e-6 r of grazing)\n";
  EXPECT_LT(worst, 1e-12);
}

}  // namespace
}  // namespace joco
