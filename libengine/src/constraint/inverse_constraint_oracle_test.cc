// The analytic constraint forces against MuJoCo 2.2.2: constraint_update against
// mj_constraintUpdate at random jar = J qacc - aref (every zone of every row type: friction loss
// inside and beyond its bounds, one-sided rows on both sides, elliptic cones in all three zones
// with their Hessians), and inverse_constraint against mj_invConstraint at random accelerations.
#include <gtest/gtest.h>

#include <iostream>
#include <random>

#include "joco/constraint.h"
#include "oracle/constraint_cases.h"

namespace joco {
namespace {

using constraint_test::Options;

// Returns whether the state had constraint rows to compare.
bool check_state(oracle::OracleCase& c, uint64_t seed, const std::string& where,
                 oracle::WorstErrors& worst, int* states_seen) {
  const mjModel* mj = c.mj.get();
  mjData* md = c.md.get();
  Data& d = c.d;
  mj_forward(mj, md);
  if (md->nefc == 0) return false;
  constraint_test::copy_mujoco_data(mj, md, d);
  const int nefc = md->nefc, nv = mj->nv;

  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(-2, 2);
  std::vector<double> jar(nefc);
  for (int i = 0; i < nefc; ++i) {
    jar[i] = (std::abs(md->efc_b[i]) + std::abs(md->efc_aref[i]) + 1e-3) * u(rng);
  }
  double cost_mj = 0, cost = 0;
  mj_constraintUpdate(mj, md, jar.data(), &cost_mj, 1);
  constraint_update(c.m, d, jar.data(), &cost, true);

  oracle::Comparison cmp;
  cmp.fields.push_back(oracle::compare_arrays("efc_force", d.efc_force, md->efc_force, nefc));
  cmp.fields.push_back(
      oracle::compare_arrays("qfrc_constraint", d.qfrc_constraint, md->qfrc_constraint, nv));
  cmp.fields.push_back(oracle::compare_arrays("cost", &cost, &cost_mj, 1));
  {
    oracle::FieldResult r;
    r.name = "efc_state";
    r.count = nefc;
    for (int i = 0; i < nefc; ++i) {
      ++states_seen[d.efc_state[i]];
      if (d.efc_state[i] != md->efc_state[i]) {
        r.status = oracle::FieldResult::kDiffer;
        r.worst = i;
        r.joco_value = d.efc_state[i];
        r.mujoco_value = md->efc_state[i];
        r.error = INFINITY;
      }
    }
    cmp.fields.push_back(r);
  }
  // cone Hessians of the contacts in the cone state
  std::vector<double> h, mh;
  for (int k = 0; k < md->ncon; ++k) {
    const int adr = md->contact[k].efc_address;
    if (adr < 0 || md->efc_type[adr] != mjCNSTR_CONTACT_ELLIPTIC) continue;
    if (md->efc_state[adr] != mjCNSTRSTATE_CONE) continue;
    const int dim = md->contact[k].dim;
    h.insert(h.end(), d.contact[k].H, d.contact[k].H + dim * dim);
    mh.insert(mh.end(), md->contact[k].H, md->contact[k].H + dim * dim);
  }
  if (!h.empty()) {
    cmp.fields.push_back(
        oracle::compare_arrays("contact.H", h.data(), mh.data(), static_cast<int64_t>(h.size())));
  }

  // inverse dynamics at a random acceleration
  for (int i = 0; i < nv; ++i) md->qacc[i] = d.qacc[i] = md->qacc_smooth[i] + 5 * u(rng);
  mj_invConstraint(mj, md);
  inverse_constraint(c.m, d);
  oracle::FieldResult f =
      oracle::compare_arrays("inverse efc_force", d.efc_force, md->efc_force, nefc);
  cmp.fields.push_back(f);
  cmp.fields.push_back(oracle::compare_arrays("inverse qfrc_constraint", d.qfrc_constraint,
                                              md->qfrc_constraint, nv));
  oracle::expect_match(cmp, where);
  worst.add(where, cmp);
  return true;
}

class InverseConstraint : public ::testing::TestWithParam<std::string> {};

TEST_P(InverseConstraint, MatchesMuJoCo) {
  const std::string model = GetParam();
  oracle::WorstErrors worst;
  int states_seen[5] = {};
  int states = 0;  // states with constraint rows, compared
  const Options variants[] = {{mjCONE_PYRAMIDAL, mjJAC_DENSE, mjSOL_NEWTON},
                              {mjCONE_ELLIPTIC, mjJAC_SPARSE, mjSOL_NEWTON}};
  for (const Options& o : variants) {
    oracle::OracleCase c;
    if (!oracle::load_case(model, c)) return;
    constraint_test::set_options(c, o);
    // (seed 1 besides 7: arm26's rollout from seed 7 reaches no joint limit, leaving no rows)
    for (uint64_t seed : {7, 1}) {
      constraint_test::rollout(c.mj.get(), c.md.get(), seed, 300, 100, [&](int step) {
        const std::string where = model + " cone " + std::to_string(o.cone) + " seed " +
                                  std::to_string(seed) + " step " + std::to_string(step);
        states += check_state(c, 100 + step, where, worst, states_seen);
      });
    }
  }
  EXPECT_GT(states, 0) << model << ": no state with constraint rows";
  std::cout << model << " (states satisfied/quadratic/linear-/linear+/cone: " << states_seen[0]
            << "/" << states_seen[1] << "/" << states_seen[2] << "/" << states_seen[3] << "/"
            << states_seen[4] << "):\n"
            << worst.table();
}

INSTANTIATE_TEST_SUITE_P(Models, InverseConstraint, ::testing::ValuesIn(test::quick_models()),
                         test::param_name);
INSTANTIATE_TEST_SUITE_P(LongSweep, InverseConstraint, ::testing::ValuesIn(test::long_models()),
                         test::param_name);

}  // namespace
}  // namespace joco
