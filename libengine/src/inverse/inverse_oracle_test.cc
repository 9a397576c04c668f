// Inverse dynamics against MuJoCo 2.2.2: joco's inverse (its whole position and velocity pipeline,
// collision included, then the analytic constraint forces) against mj_inverse at states sampled
// from MuJoCo rollouts, with qvel and a perturbed qacc given; and the fwdinv comparison inside step
// against MuJoCo's solver_fwdinv, with converged and with starved solvers.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <iostream>
#include <random>

#include "joco/actuation.h"
#include "joco/collision.h"
#include "joco/constraint.h"
#include "joco/forward.h"
#include "joco/inverse.h"
#include "oracle/constraint_cases.h"

namespace joco {
namespace {

const std::vector<std::string>& inverse_models() {
  static const std::vector<std::string> models = {
      "mujoco/model/humanoid/humanoid.xml",
      "mujoco/model/tendon_arm/arm26.xml",
      "mujoco/model/slider_crank/slider_crank.xml",
      "real/anybotics_anymal_c/scene.xml",
      "real/franka_sim/franka_panda.xml",
      "real/franka_sim/bi-franka_panda.xml",
      "real/shadow_hand/scene_right.xml",
      "real/shadow_hand/scene_left.xml",
      "real/wonik_allegro/scene_left.xml",
      "real/wonik_allegro/scene_right.xml",
      "inverse/rig.xml",
      "sensor/all_sensors.xml",
  };
  return models;
}

struct Variant {
  int cone;
  int jacobian;
};
constexpr Variant kVariants[] = {{mjCONE_PYRAMIDAL, mjJAC_DENSE}, {mjCONE_ELLIPTIC, mjJAC_SPARSE}};

void set_variant(oracle::OracleCase& c, const Variant& v) {
  c.mj->opt.cone = c.m.opt.cone = v.cone;
  c.mj->opt.jacobian = c.m.opt.jacobian = v.jacobian;
}

double norm(const double* x, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i) s += x[i] * x[i];
  return std::sqrt(s);
}

// Whether joco's contact list is MuJoCo's: the same pairs and dimensions at the same places
// (distance, point and frame within 1e-10; rounding differs by ~1e-16).
bool same_contact_list(const mjData* md, const Data& d) {
  if (md->ncon != d.ncon) return false;
  for (int i = 0; i < md->ncon; ++i) {
    const mjContact& a = md->contact[i];
    const Contact& b = d.contact[i];
    if (a.geom1 != b.geom1 || a.geom2 != b.geom2 || a.dim != b.dim ||
        std::abs(a.dist - b.dist) > 1e-10) {
      return false;
    }
    for (int k = 0; k < 3; ++k) {
      if (std::abs(a.pos[k] - b.pos[k]) > 1e-10) return false;
    }
    for (int k = 0; k < 9; ++k) {
      if (std::abs(a.frame[k] - b.frame[k]) > 1e-10) return false;
    }
  }
  return true;
}

// Whether joco's collision found MuJoCo's contacts, with the same constraint rows.
bool same_contacts(const mjData* md, const Data& d) {
  if (md->nefc != d.nefc || !same_contact_list(md, d)) return false;
  for (int i = 0; i < md->ncon; ++i) {
    if (md->contact[i].efc_address != d.contact[i].efc_address) return false;
  }
  return true;
}

// The scale of rounding in the comparison at a forward solution: the forces of the equations of
// motion, plus the constraint forces' sensitivity to rounding of J qacc - aref (stiff rows multiply
// it by efc_D), |D_i (|J_i qacc| + |aref_i|)| |J_i| summed in quadrature.
double rounding_scale(const mjModel* mj, const mjData* md) {
  const int nv = mj->nv, nefc = md->nefc;
  double scale = norm(md->qfrc_constraint, nv) + norm(md->qfrc_bias, nv) +
                 norm(md->qfrc_actuator, nv) + norm(md->qfrc_passive, nv);
  const std::vector<double> J = constraint_test::dense_jacobian(
      nefc, nv, mj_isSparse(mj), md->efc_J, md->efc_J_rownnz, md->efc_J_rowadr, md->efc_J_colind);
  double sum = 0;
  for (int i = 0; i < nefc; ++i) {
    double jq = 0, jn = 0;
    for (int k = 0; k < nv; ++k) {
      jq += J[static_cast<size_t>(i) * nv + k] * md->qacc[k];
      jn += J[static_cast<size_t>(i) * nv + k] * J[static_cast<size_t>(i) * nv + k];
    }
    const double f = md->efc_D[i] * (std::abs(jq) + std::abs(md->efc_aref[i])) * std::sqrt(jn);
    sum += f * f;
  }
  return scale + std::sqrt(sum);
}

class Inverse : public ::testing::TestWithParam<std::string> {};

// qfrc_inverse within 1e-8 of mj_inverse (relative, elements far below the field's largest
// compared against a thousandth of it), and every other field the inverse writes. Where joco's
// collision detection finds other contacts than MuJoCo's, or the same ones elsewhere (only from
// rounding in the geom poses, checked), the inverse is run again on MuJoCo's contact list, so that
// every state is compared.
TEST_P(Inverse, MatchesMjInverse) {
  const std::string model = GetParam();
  oracle::WorstErrors worst;
  int states = 0, rows = 0, other_contacts = 0;
  for (const Variant& v : kVariants) {
    oracle::OracleCase c;
    if (!oracle::load_case(model, c)) return;
    set_variant(c, v);
    const mjModel* mj = c.mj.get();
    mjData* md = c.md.get();
    std::mt19937_64 rng(31 + v.cone);
    std::uniform_real_distribution<double> u(-1, 1);
    constraint_test::rollout(mj, md, 11 + v.cone, 300, 50, [&](int step) {
      const std::string where =
          model + " cone " + std::to_string(v.cone) + " step " + std::to_string(step);
      // Forward in both first, so that what inverse leaves alone (actuator_force, read by the
      // actuatorfrc sensors) is the same.
      mj_forward(mj, md);
      oracle::copy_state(mj, md, c.m, c.d);
      forward(c.m, c.d);
      for (int i = 0; i < mj->nv; ++i) {
        md->qacc[i] += 0.2 * (std::abs(md->qacc[i]) + 1) * u(rng);
        c.d.qacc[i] = md->qacc[i];
      }
      mj_inverse(mj, md);
      inverse(c.m, c.d);
      if (!same_contacts(md, c.d)) {
        ++other_contacts;
        // the difference must come from the geom poses, whose rounding MPR's 1e-6 tolerance can
        // magnify (the left Shadow hand: a cylinder-box point 7e-8 away): from MuJoCo's poses
        // joco's collision finds MuJoCo's contacts
        Data at_mujoco_poses(c.m);
        std::copy(md->geom_xpos, md->geom_xpos + 3 * mj->ngeom, at_mujoco_poses.geom_xpos);
        std::copy(md->geom_xmat, md->geom_xmat + 9 * mj->ngeom, at_mujoco_poses.geom_xmat);
        collision(c.m, at_mujoco_poses);
        EXPECT_TRUE(same_contact_list(md, at_mujoco_poses)) << where;
        constraint_test::copy_contacts(md, c.d);
        transmission(c.m, c.d);
        make_constraint(c.m, c.d);
        project_constraint(c.m, c.d);
        inv_velocity(c.m, c.d);
        inv_acceleration(c.m, c.d);
      }
      ++states;
      rows += md->nefc;
      oracle::Tolerance tol;
      tol.rel = 1e-8;
      const oracle::Comparison cmp =
          oracle::compare_data(c.d, md, mj,
                               {"qfrc_inverse", "qfrc_constraint", "efc_force", "qfrc_bias",
                                "qfrc_passive", "efc_aref", "sensordata"},
                               tol);
      oracle::expect_match(cmp, where);
      worst.add(where, cmp);
    });
  }
  EXPECT_GT(states, 0) << model;
  std::cout << model << " (" << states << " states, " << rows << " constraint rows; "
            << other_contacts << " states on MuJoCo's contacts):\n"
            << worst.table();
}

INSTANTIATE_TEST_SUITE_P(Models, Inverse, ::testing::ValuesIn(inverse_models()), test::param_name);

// solver_fwdinv of joco against MuJoCo's, relative to the larger of the two, with values below 1e-9
// of the state's rounding scale (a converged solver leaves only rounding noise) compared against
// that floor. Tallies the worst error overall and among the values above the floor.
struct FwdinvTally {
  double worst = 0, worst_real = 0;
  std::string worst_where;
  int compared = 0, nonzero = 0;

  void add(const double* joco, const double* mujoco, double scale, const std::string& where) {
    for (int k = 0; k < 2; ++k) {
      const double a = joco[k], b = mujoco[k];
      const double err =
          std::abs(a - b) / std::max({std::abs(a), std::abs(b), 1e-9 * scale, 1e-300});
      EXPECT_LE(err, 1e-6) << where << " solver_fwdinv[" << k << "]: joco " << a << ", MuJoCo "
                           << b;
      if (err > worst) {
        worst = err;
        worst_where = where;
      }
      ++compared;
      oracle::count_compared();
      if (b > 1e-9 * scale) {
        ++nonzero;
        worst_real = std::max(worst_real, err);
      }
    }
  }

  // Prints the tally and checks that the starved solvers gave real discrepancies to compare.
  void report(const char* what) const {
    std::printf(
        "%s: %d values compared (%d above the noise floor, worst error among them %.2e), worst "
        "error %.2e at %s\n",
        what, compared, nonzero, worst_real, worst, worst_where.c_str());
    EXPECT_GT(nonzero, compared / 4);
  }
};

// The states the FwdInv tests compare at: for each model, variant, solver and iteration count (0:
// the model's own) that `wanted` keeps, the states of a short MuJoCo rollout. `check` gets the
// case (c.m with the solver set), MuJoCo's model flagged to compare forward and inverse, joco's
// model flagged alike, and where the state is.
struct FwdinvState {
  oracle::OracleCase& c;
  mjModel* flagged_mj;
  const Model& flagged;
  const std::string& where;
};

void for_each_fwdinv_state(const std::vector<std::string>& models,
                           const std::function<bool(int solver, int iterations)>& wanted,
                           const std::function<void(FwdinvState&)>& check) {
  for (const std::string& model : models) {
    for (const Variant& v : kVariants) {
      oracle::OracleCase c;
      if (!oracle::load_case(model, c)) return;
      set_variant(c, v);
      mjModel* mj = c.mj.get();
      mjData* md = c.md.get();
      for (int solver : {mjSOL_PGS, mjSOL_CG, mjSOL_NEWTON}) {
        for (int iterations : {0, 1, 3}) {
          if (!wanted(solver, iterations)) continue;
          mj->opt.solver = c.m.opt.solver = solver;
          oracle::MjModelPtr flagged(mj_copyModel(nullptr, mj));
          Model m = c.m;
          flagged->opt.enableflags |= mjENBL_FWDINV;
          m.opt.enableflags |= kEnableFwdinv;
          if (iterations > 0) flagged->opt.iterations = m.opt.iterations = iterations;
          constraint_test::rollout(mj, md, 5, 150, 50, [&](int at) {
            const std::string where = model + " cone " + std::to_string(v.cone) + " solver " +
                                      std::to_string(solver) + " iterations " +
                                      std::to_string(iterations) + " step " + std::to_string(at);
            FwdinvState state{c, flagged.get(), m, where};
            check(state);
          });
        }
      }
    }
  }
}

// The comparison itself: MuJoCo's forward solution (mj_forward at the state mj_step starts from)
// copied into joco's Data, compare_fwd_inv against the solver_fwdinv MuJoCo's step records, for
// every solver at the default settings and starved of iterations. Values are compared relative to
// the larger of the two, and values below 1e-9 of the state's rounding scale (rounding_scale: a
// converged solver leaves only rounding noise) against that floor.
TEST(FwdInv, ComparisonMatchesMuJoCo) {
  const std::vector<std::string> models = {
      "mujoco/model/humanoid/humanoid.xml", "inverse/rig.xml", "real/anybotics_anymal_c/scene.xml",
      "mujoco/model/slider_crank/slider_crank.xml", "real/shadow_hand/scene_right.xml"};
  FwdinvTally tally;
  for_each_fwdinv_state(
      models, [](int, int) { return true; },
      [&](FwdinvState& s) {
        oracle::OracleCase& c = s.c;
        const mjModel* mj = c.mj.get();
        oracle::MjDataPtr stepped(mj_copyData(nullptr, mj, c.md.get()));
        mj_step(s.flagged_mj, stepped.get());
        oracle::MjDataPtr forwarded(mj_copyData(nullptr, mj, c.md.get()));
        mj_forward(s.flagged_mj, forwarded.get());
        constraint_test::copy_mujoco_data(mj, forwarded.get(), c.d);
        c.d.solver_fwdinv[0] = c.d.solver_fwdinv[1] = -1;
        compare_fwd_inv(c.m, c.d);
        const double scale = rounding_scale(mj, forwarded.get());
        tally.add(c.d.solver_fwdinv, stepped->solver_fwdinv, scale, s.where);
      });
  tally.report("compare_fwd_inv");
}

// End to end: joco's step with the flag (its own pipeline and solver) against MuJoCo's, for the
// solvers that follow MuJoCo iteration for iteration (PGS, Newton), converged and starved, and CG
// starved to one iteration (CG's early stops amplify rounding differences). Same measure as above.
TEST(FwdInv, StepMatchesMuJoCo) {
  const std::vector<std::string> models = {"mujoco/model/humanoid/humanoid.xml", "inverse/rig.xml",
                                           "real/anybotics_anymal_c/scene.xml",
                                           "mujoco/model/slider_crank/slider_crank.xml"};
  FwdinvTally tally;
  for_each_fwdinv_state(
      models, [](int solver, int iterations) { return solver != mjSOL_CG || iterations == 1; },
      [&](FwdinvState& s) {
        oracle::OracleCase& c = s.c;
        const mjModel* mj = c.mj.get();
        oracle::MjDataPtr copy(mj_copyData(nullptr, mj, c.md.get()));
        oracle::copy_state(mj, c.md.get(), s.flagged, c.d);
        mj_step(s.flagged_mj, copy.get());
        step(s.flagged, c.d);
        if (copy->ncon != c.d.ncon) return;  // another contact set: not this test's subject
        const double scale = rounding_scale(mj, copy.get());
        tally.add(c.d.solver_fwdinv, copy->solver_fwdinv, scale, s.where);
      });
  tally.report("step with fwdinv");
}

// Like MuJoCo 2.2.2, forward alone leaves solver_fwdinv as it was; only step computes it.
TEST(FwdInv, ForwardAloneDoesNotCompare) {
  oracle::OracleCase c;
  if (!oracle::load_case("mujoco/model/humanoid/humanoid.xml", c)) return;
  c.mj->opt.enableflags |= mjENBL_FWDINV;
  c.m.opt.enableflags |= kEnableFwdinv;
  constraint_test::rollout(c.mj.get(), c.md.get(), 3, 100, 100, [&](int) {
    oracle::copy_state(c.mj.get(), c.md.get(), c.m, c.d);
    ASSERT_GT(c.md->nefc, 0);
    c.md->solver_fwdinv[0] = c.d.solver_fwdinv[0] = -7;
    mj_forward(c.mj.get(), c.md.get());
    forward(c.m, c.d);
    EXPECT_EQ(c.md->solver_fwdinv[0], -7);
    EXPECT_EQ(c.d.solver_fwdinv[0], -7);
    mj_step(c.mj.get(), c.md.get());
    step(c.m, c.d);
    EXPECT_GE(c.md->solver_fwdinv[0], 0);
    EXPECT_GE(c.d.solver_fwdinv[0], 0);
    oracle::count_compared(2);  // the behaviour of forward and of step
  });
}

}  // namespace
}  // namespace joco
