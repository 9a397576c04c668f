// Shared by the constraint and solver oracle tests (libengine/src/constraint, src/solver): states
// sampled from MuJoCo rollouts, and copying MuJoCo's position and velocity stages (with its contact
// list) into joco's Data so that the constraint stages run on exactly MuJoCo's inputs. Their models
// are test::quick_models() and test::long_models() (support/test_models.h).
#pragma once

#include <mujoco/mujoco.h>

#include <cmath>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "oracle/random_state.h"
#include "support/test_models.h"

namespace joco::constraint_test {

// Options of one run: cone, Jacobian and solver (MuJoCo's enum values), set on both models.
struct Options {
  int cone = mjCONE_PYRAMIDAL;
  int jacobian = mjJAC_DENSE;
  int solver = mjSOL_NEWTON;
};

inline void set_options(oracle::OracleCase& c, const Options& o) {
  c.mj->opt.cone = o.cone;
  c.mj->opt.jacobian = o.jacobian;
  c.mj->opt.solver = o.solver;
  c.m.opt.cone = o.cone;
  c.m.opt.jacobian = o.jacobian;
  c.m.opt.solver = o.solver;
}

// Runs MuJoCo from a seeded perturbation of qpos0 (joint positions and velocities, random extreme
// controls held for 50 steps) and calls visit() every `every` steps, at the state after the step
// (whose qacc_warmstart is the previous step's solution, as in a simulation).
inline void rollout(const mjModel* mj, mjData* md, uint64_t seed, int steps, int every,
                    const std::function<void(int step)>& visit) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(-1, 1);
  mj_resetData(mj, md);
  for (int j = 0; j < mj->njnt; ++j) {
    double* q = md->qpos + mj->jnt_qposadr[j];
    switch (mj->jnt_type[j]) {
      case mjJNT_FREE:
        for (int k = 0; k < 3; ++k) q[k] += 0.02 * u(rng);
        break;
      case mjJNT_BALL: {
        double dq[4] = {1, 0.2 * u(rng), 0.2 * u(rng), 0.2 * u(rng)};
        mju_normalize4(dq);
        mju_mulQuat(q, q, dq);
        break;
      }
      case mjJNT_SLIDE: q[0] += 0.05 * u(rng); break;
      default: q[0] += 0.3 * u(rng);
    }
  }
  for (int i = 0; i < mj->nv; ++i) md->qvel[i] = 0.5 * u(rng);
  for (int s = 1; s <= steps; ++s) {
    if ((s - 1) % 50 == 0) {
      // bang-bang controls drive the joints into their limits
      for (int i = 0; i < mj->nu; ++i) {
        const double* range = mj->actuator_ctrlrange + 2 * i;
        const bool high = u(rng) > 0;
        md->ctrl[i] = mj->actuator_ctrllimited[i] ? range[high ? 1 : 0] : (high ? 1 : -1);
      }
    }
    mj_step(mj, md);
    if (s % every == 0) visit(s);
  }
}

// MuJoCo's contact list into joco's.
inline void copy_contacts(const mjData* md, Data& d) {
  d.ncon = md->ncon;
  for (int i = 0; i < md->ncon; ++i) {
    const mjContact& a = md->contact[i];
    Contact& b = d.contact[i];
    b.dist = a.dist;
    for (int k = 0; k < 3; ++k) b.pos[k] = a.pos[k];
    for (int k = 0; k < 9; ++k) b.frame[k] = a.frame[k];
    b.includemargin = a.includemargin;
    for (int k = 0; k < 5; ++k) b.friction[k] = a.friction[k];
    for (int k = 0; k < kNREF; ++k) b.solref[k] = a.solref[k];
    for (int k = 0; k < kNIMP; ++k) b.solimp[k] = a.solimp[k];
    b.mu = a.mu;
    for (int k = 0; k < 36; ++k) b.H[k] = a.H[k];
    b.dim = a.dim;
    b.geom1 = a.geom1;
    b.geom2 = a.geom2;
    b.exclude = a.exclude;
    b.efc_address = a.efc_address;
  }
}

// Everything MuJoCo computed (oracle::copy_data) plus its contacts, with the tendon Jacobian in
// joco's convention (dense rows; MuJoCo packs them when the Jacobian is sparse), and so are dense
// constraint rows (each with a pattern, here every column: MuJoCo leaves none).
inline void copy_mujoco_data(const mjModel* mj, const mjData* md, Data& d) {
  oracle::copy_data(mj, md, d);
  copy_contacts(md, d);
  const int nv = mj->nv;
  if (!mj_isSparse(mj)) {
    for (int i = 0; i < md->nefc; ++i) {
      d.efc_J_rownnz[i] = nv;
      d.efc_J_rowadr[i] = i * nv;
      for (int k = 0; k < nv; ++k) d.efc_J_colind[static_cast<size_t>(i) * nv + k] = k;
    }
  }
  if (mj_isSparse(mj)) {
    std::fill(d.ten_J, d.ten_J + static_cast<size_t>(mj->ntendon) * nv, 0.0);
    for (int t = 0; t < mj->ntendon; ++t) {
      const int adr = md->ten_J_rowadr[t];
      for (int k = 0; k < md->ten_J_rownnz[t]; ++k) {
        d.ten_J[static_cast<size_t>(t) * nv + md->ten_J_colind[adr + k]] = md->ten_J[adr + k];
      }
    }
  }
}

// The nefc x nv Jacobian as a dense matrix, from either engine's storage.
inline std::vector<double> dense_jacobian(int nefc, int nv, bool sparse, const double* J,
                                          const int* rownnz, const int* rowadr, const int* colind) {
  std::vector<double> out(static_cast<size_t>(nefc) * nv, 0.0);
  for (int i = 0; i < nefc; ++i) {
    if (!sparse) {
      std::copy(J + static_cast<size_t>(i) * nv, J + static_cast<size_t>(i + 1) * nv,
                out.begin() + static_cast<long>(i) * nv);
      continue;
    }
    for (int k = 0; k < rownnz[i]; ++k) {
      out[static_cast<size_t>(i) * nv + colind[rowadr[i] + k]] = J[rowadr[i] + k];
    }
  }
  return out;
}

// Sets the named double arrays (and efc integer arrays) to NaN / -1 so the stages must write them.
inline void poison_constraint_outputs(Data& d) {
  oracle::poison(d, {"efc_J", "efc_JT", "efc_pos", "efc_margin", "efc_frictionloss",
                     "efc_diagApprox", "efc_KBIP", "efc_D", "efc_R", "efc_AR", "efc_vel",
                     "efc_aref", "efc_b", "efc_force", "qacc", "qfrc_constraint"});
  const auto fill = [](int* p, int64_t n) { std::fill(p, p + n, -1); };
  const ModelSizes& s = d.sizes();
  fill(d.efc_type, s.njmax);
  fill(d.efc_id, s.njmax);
  fill(d.efc_state, s.njmax);
  for (int i = 0; i < d.ncon; ++i) {
    d.contact[i].efc_address = -7;
    d.contact[i].mu = std::nan("");
  }
}

}  // namespace joco::constraint_test
