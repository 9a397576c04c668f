// The constraint rows, their parameters, the reference acceleration and efc_AR against MuJoCo
// 2.2.2, on states sampled from MuJoCo rollouts, with MuJoCo's contact list copied in: every
// model, pyramidal and elliptic cones, dense and sparse Jacobians.
#include <gtest/gtest.h>

#include <iostream>

#include "joco/constraint.h"
#include "oracle/constraint_cases.h"

namespace joco {
namespace {

using constraint_test::Options;

// The nefc x nefc efc_AR as a dense matrix from either engine.
std::vector<double> dense_ar(int nefc, bool sparse, const double* ar, const int* rownnz,
                             const int* rowadr, const int* colind) {
  std::vector<double> out(static_cast<size_t>(nefc) * nefc, 0.0);
  for (int i = 0; i < nefc; ++i) {
    if (!sparse) {
      std::copy(ar + static_cast<size_t>(i) * nefc, ar + static_cast<size_t>(i + 1) * nefc,
                out.begin() + static_cast<long>(i) * nefc);
      continue;
    }
    for (int k = 0; k < rownnz[i]; ++k)
      out[static_cast<size_t>(i) * nefc + colind[rowadr[i] + k]] = ar[rowadr[i] + k];
  }
  return out;
}

// Integer arrays must be equal over n elements.
oracle::FieldResult compare_ints(const std::string& name, const int* a, const int* b, int64_t n) {
  oracle::FieldResult r;
  r.name = name;
  r.count = n;
  for (int64_t i = 0; i < n; ++i) {
    if (a[i] != b[i]) {
      r.status = oracle::FieldResult::kDiffer;
      r.worst = i;
      r.joco_value = a[i];
      r.mujoco_value = b[i];
      r.error = INFINITY;
      break;
    }
  }
  return r;
}

void check_state(oracle::OracleCase& c, const std::string& where, oracle::WorstErrors& worst) {
  const mjModel* mj = c.mj.get();
  const mjData* md = c.md.get();
  const Model& m = c.m;
  Data& d = c.d;
  const bool sparse = mj_isSparse(mj);
  ASSERT_EQ(sparse, is_sparse(m));
  ASSERT_EQ(mj_isDual(mj) != 0, is_dual(m));

  constraint_test::copy_mujoco_data(mj, md, d);
  constraint_test::poison_constraint_outputs(d);
  d.ne = d.nf = d.nefc = -1;
  make_constraint(m, d);
  reference_constraint(m, d);
  project_constraint(m, d);

  oracle::Comparison cmp;
  cmp.fields.push_back(compare_ints("ne/nf/nefc", &d.ne, &md->ne, 1));
  const int dims[3] = {d.ne, d.nf, d.nefc}, mdims[3] = {md->ne, md->nf, md->nefc};
  cmp.fields.back() = compare_ints("ne/nf/nefc", dims, mdims, 3);
  if (d.nefc != md->nefc) {
    ADD_FAILURE() << where << ": nefc " << d.nefc << ", MuJoCo " << md->nefc;
    return;
  }
  const int nefc = d.nefc, nv = m.nv;
  cmp.fields.push_back(compare_ints("efc_type", d.efc_type, md->efc_type, nefc));
  cmp.fields.push_back(compare_ints("efc_id", d.efc_id, md->efc_id, nefc));
  std::vector<int> adr(d.ncon), madr(d.ncon);
  for (int i = 0; i < d.ncon; ++i) {
    adr[i] = d.contact[i].efc_address;
    madr[i] = md->contact[i].efc_address;
  }
  cmp.fields.push_back(compare_ints("efc_address", adr.data(), madr.data(), d.ncon));
  for (const char* name : {"efc_pos", "efc_margin", "efc_frictionloss", "efc_diagApprox",
                           "efc_KBIP", "efc_R", "efc_D", "efc_vel", "efc_aref"}) {
    cmp.fields.push_back(oracle::compare_data(d, md, mj, {name}, oracle::Tolerance{}).fields[0]);
  }
  {
    std::vector<double> mu(d.ncon), mmu(d.ncon);
    for (int i = 0; i < d.ncon; ++i) {
      mu[i] = d.contact[i].efc_address >= 0 ? d.contact[i].mu : 0;
      mmu[i] = md->contact[i].efc_address >= 0 ? md->contact[i].mu : 0;
    }
    cmp.fields.push_back(oracle::compare_arrays("contact.mu", mu.data(), mmu.data(), d.ncon));
  }
  const auto J = constraint_test::dense_jacobian(nefc, nv, sparse, d.efc_J, d.efc_J_rownnz,
                                                 d.efc_J_rowadr, d.efc_J_colind);
  const auto mJ = constraint_test::dense_jacobian(nefc, nv, sparse, md->efc_J, md->efc_J_rownnz,
                                                  md->efc_J_rowadr, md->efc_J_colind);
  cmp.fields.push_back(oracle::compare_arrays("efc_J", J.data(), mJ.data(), nefc * nv));
  if (sparse && nefc > 0) {  // (MuJoCo leaves the transpose as it was when there are no rows)
    cmp.fields.push_back(compare_ints("efc_J_rownnz", d.efc_J_rownnz, md->efc_J_rownnz, nefc));
    cmp.fields.push_back(compare_ints("efc_J_rowadr", d.efc_J_rowadr, md->efc_J_rowadr, nefc));
    cmp.fields.push_back(
        compare_ints("efc_J_rowsuper", d.efc_J_rowsuper, md->efc_J_rowsuper, nefc));
    const int nnz = nefc ? md->efc_J_rowadr[nefc - 1] + md->efc_J_rownnz[nefc - 1] : 0;
    cmp.fields.push_back(compare_ints("efc_J_colind", d.efc_J_colind, md->efc_J_colind, nnz));
    cmp.fields.push_back(compare_ints("efc_JT_rownnz", d.efc_JT_rownnz, md->efc_JT_rownnz, nv));
    cmp.fields.push_back(compare_ints("efc_JT_rowadr", d.efc_JT_rowadr, md->efc_JT_rowadr, nv));
    cmp.fields.push_back(
        compare_ints("efc_JT_rowsuper", d.efc_JT_rowsuper, md->efc_JT_rowsuper, nv));
    cmp.fields.push_back(compare_ints("efc_JT_colind", d.efc_JT_colind, md->efc_JT_colind, nnz));
    cmp.fields.push_back(oracle::compare_arrays("efc_JT", d.efc_JT, md->efc_JT, nnz));
  }
  if (is_dual(m) && nefc > 0) {
    const auto AR =
        dense_ar(nefc, sparse, d.efc_AR, d.efc_AR_rownnz, d.efc_AR_rowadr, d.efc_AR_colind);
    const auto mAR =
        dense_ar(nefc, sparse, md->efc_AR, md->efc_AR_rownnz, md->efc_AR_rowadr, md->efc_AR_colind);
    cmp.fields.push_back(oracle::compare_arrays("efc_AR", AR.data(), mAR.data(), nefc * nefc));
    if (sparse) {
      cmp.fields.push_back(compare_ints("efc_AR_rownnz", d.efc_AR_rownnz, md->efc_AR_rownnz, nefc));
      cmp.fields.push_back(compare_ints("efc_AR_rowadr", d.efc_AR_rowadr, md->efc_AR_rowadr, nefc));
    }
  }
  oracle::expect_match(cmp, where);
  worst.add(where, cmp);
}

class ConstraintRows : public ::testing::TestWithParam<std::string> {};

TEST_P(ConstraintRows, MatchMuJoCo) {
  const std::string model = GetParam();
  oracle::WorstErrors worst;
  int rows = 0;
  const Options variants[] = {
      {mjCONE_PYRAMIDAL, mjJAC_DENSE, mjSOL_PGS},
      {mjCONE_ELLIPTIC, mjJAC_DENSE, mjSOL_NEWTON},
      {mjCONE_PYRAMIDAL, mjJAC_SPARSE, mjSOL_NEWTON},
      {mjCONE_ELLIPTIC, mjJAC_SPARSE, mjSOL_PGS},
  };
  for (const Options& o : variants) {
    oracle::OracleCase c;
    if (!oracle::load_case(model, c)) return;
    constraint_test::set_options(c, o);
    for (uint64_t seed = 1; seed <= 2; ++seed) {
      constraint_test::rollout(c.mj.get(), c.md.get(), seed, 300, 100, [&](int step) {
        const std::string where = "cone " + std::to_string(o.cone) + " jac " +
                                  std::to_string(o.jacobian) + " seed " + std::to_string(seed) +
                                  " step " + std::to_string(step);
        mj_forward(c.mj.get(), c.md.get());
        rows += c.md->nefc;
        check_state(c, model + " " + where, worst);
      });
    }
  }
  std::cout << model << " (" << rows << " rows):\n" << worst.table();
}

// Options that change the rows: each disable flag (constraint, equality, friction loss, limit,
// contact), the contact override (o_solref, o_solimp), refsafe disabled (time constants below
// two steps kept), and a small njmax (rows beyond it dropped with a warning).
TEST(ConstraintRowsOptions, MatchMuJoCo) {
  struct Variant {
    const char* name;
    int disable = 0;
    int enable = 0;
    int njmax = -1;
  };
  const Variant variants[] = {
      {"constraint disabled", mjDSBL_CONSTRAINT},
      {"equality disabled", mjDSBL_EQUALITY},
      {"frictionloss disabled", mjDSBL_FRICTIONLOSS},
      {"limit disabled", mjDSBL_LIMIT},
      {"contact rows disabled", mjDSBL_CONTACT},
      {"refsafe disabled", mjDSBL_REFSAFE},
      {"override", 0, mjENBL_OVERRIDE},
      {"njmax 12", 0, 0, 12},
  };
  for (const char* model :
       {"constraint/friction_limits.xml", "constraint/equalities.xml", "constraint/contacts.xml"}) {
    for (const Variant& v : variants) {
      oracle::OracleCase c;
      if (!oracle::load_case(model, c)) return;
      // rollout with contacts (rows are made from MuJoCo's contact list, which the contact flag
      // would empty: the flag is set for the rows only)
      c.mj->opt.o_solref[0] = 0.005;  // (below two steps: refsafe matters here too)
      c.mj->opt.o_solref[1] = 0.7;
      const double o_solimp[5] = {0.8, 0.99, 0.02, 0.3, 3};
      for (int k = 0; k < 5; ++k) c.mj->opt.o_solimp[k] = o_solimp[k];
      c.m.opt.o_solref[0] = c.mj->opt.o_solref[0];
      c.m.opt.o_solref[1] = c.mj->opt.o_solref[1];
      for (int k = 0; k < 5; ++k) c.m.opt.o_solimp[k] = o_solimp[k];
      if (v.njmax >= 0) {
        c.mj->njmax = c.m.njmax = v.njmax;
        c.md.reset(mj_makeData(c.mj.get()));
        c.d = Data(c.m);
      }
      oracle::WorstErrors worst;
      constraint_test::rollout(c.mj.get(), c.md.get(), 3, 200, 100, [&](int step) {
        c.mj->opt.disableflags |= v.disable;
        c.mj->opt.enableflags |= v.enable;
        c.m.opt.disableflags |= v.disable;
        c.m.opt.enableflags |= v.enable;
        const int warnings = c.md->warning[mjWARN_CNSTRFULL].number;
        const int joco_warnings = c.d.warning[kWarnConstraintFull].number;
        // the position stage (collision included) with the flags, then joco's rows
        mj_fwdPosition(c.mj.get(), c.md.get());
        mj_fwdVelocity(c.mj.get(), c.md.get());
        constraint_test::copy_mujoco_data(c.mj.get(), c.md.get(), c.d);
        make_constraint(c.m, c.d);
        reference_constraint(c.m, c.d);
        const std::string where =
            std::string(model) + " " + v.name + " step " + std::to_string(step);
        ASSERT_EQ(c.d.nefc, c.md->nefc) << where;
        ASSERT_EQ(c.d.ne, c.md->ne) << where;
        ASSERT_EQ(c.d.nf, c.md->nf) << where;
        // (whether rows were dropped; MuJoCo counts its warnings per dropped row in some
        // categories and per category in others)
        EXPECT_EQ(c.d.warning[kWarnConstraintFull].number > joco_warnings,
                  c.md->warning[mjWARN_CNSTRFULL].number > warnings)
            << where;
        oracle::Comparison cmp;
        for (int i = 0; i < c.md->nefc; ++i) {
          if (c.d.efc_type[i] != c.md->efc_type[i] || c.d.efc_id[i] != c.md->efc_id[i]) {
            ADD_FAILURE() << where << ": row " << i;
            break;
          }
        }
        for (const char* name :
             {"efc_pos", "efc_margin", "efc_KBIP", "efc_R", "efc_D", "efc_aref"}) {
          cmp.fields.push_back(
              oracle::compare_data(c.d, c.md.get(), c.mj.get(), {name}, {}).fields[0]);
        }
        oracle::expect_match(cmp, where);
        worst.add(where, cmp);
        c.mj->opt.disableflags &= ~v.disable;
        c.mj->opt.enableflags &= ~v.enable;
        c.m.opt.disableflags &= ~v.disable;
        c.m.opt.enableflags &= ~v.enable;
      });
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Models, ConstraintRows, ::testing::ValuesIn(test::quick_models()),
                         test::param_name);
INSTANTIATE_TEST_SUITE_P(LongSweep, ConstraintRows, ::testing::ValuesIn(test::long_models()),
                         test::param_name);

}  // namespace
}  // namespace joco
