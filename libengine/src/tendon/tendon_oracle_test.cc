// tendon and tendon_velocity against MuJoCo 2.2.2's mj_tendon and mj_fwdVelocity at seeded random
// states, on every test model with tendons, with dense and sparse Jacobians.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <ostream>
#include <string>
#include <vector>

#include "joco/tendon.h"
#include "oracle/random_state.h"

namespace joco {
namespace {

struct TendonParam {
  const char* model;
  bool sparse;  // force MuJoCo's sparse Jacobian mode (it then packs ten_J)
  // Tolerance of the fields that depend on where a path touches a geom from inside (wrap_xpos,
  // ten_J, ten_velocity): MuJoCo 2.2.2 stops its search for that point with a residual of up to
  // 4e-7 (joco's is at machine precision; the lengths agree to second order).
  double touch_tolerance = 1e-10;
};

// Shown by GoogleTest in place of the parameter's bytes.
std::ostream& operator<<(std::ostream& os, const TendonParam& c) {
  return os << c.model << (c.sparse ? " (sparse)" : "");
}

std::string Name(const ::testing::TestParamInfo<TendonParam>& info) {
  std::string name = info.param.model;
  for (char& c : name) {
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  }
  return name + (info.param.sparse ? "_sparse" : "_dense");
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
    const oracle::Tolerance touch{param.touch_tolerance};
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

const TendonParam kParams[] = {
    {"actuation/tendons.xml", false},
    {"actuation/tendons.xml", true},
    {"actuation/tendons_inside.xml", false, 1e-6},
    {"mujoco/model/tendon_arm/arm26.xml", false},
    {"mujoco/model/tendon_arm/arm26.xml", true},
    {"mujoco/model/flag/flag.xml", false},
    {"mujoco/model/adhesion/active_adhesion.xml", false},
    {"mujoco-tests/test__engine__testdata__activation.xml", false},
    {"mujoco-tests/test__engine__testdata__catenary.xml", false},
    {"mujoco-tests/test__testdata__model.xml", false},
    {"mujoco-tests/test__testdata__model.xml", true},
    {"mujoco-tests/"
     "test__engine__testdata__core_smooth__rne_post__weld__force_torque_free_rotated_tendon.xml",
     false},
    {"real/shadow_hand/right_hand.xml", false},
    {"real/shadow_hand/right_hand.xml", true},
    {"real/shadow_hand/scene_left.xml", false},
};

INSTANTIATE_TEST_SUITE_P(Models, TendonOracle, ::testing::ValuesIn(kParams), Name);

}  // namespace
}  // namespace joco
