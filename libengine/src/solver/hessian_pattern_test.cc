// The sparse Newton Hessian's pattern, built from its cross pairs and reused from the Data's cache,
// is the one the definition gives (every pair of each row's columns, M's rows first in each
// column, entries in the order the rows bring them), whether the cache has it, has another, is
// too small for it, or was filled for another model.
#include "solver/hessian_pattern.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <iterator>
#include <random>
#include <string>
#include <vector>

#include "joco/jacobian.h"
#include "joco/mjcf.h"
#include "support/random_tree.h"

namespace joco {
namespace {

struct Expected {
  std::vector<int> col_ptr, row_ind, parent, l_col_ptr;
};

// Straight from the definition, over all pairs of every row.
Expected expected_pattern(const Model& m, const Data& d) {
  const int nv = m.nv;
  std::vector<std::vector<int>> rows(nv);  // by original column j: rows q > j
  for (int q = 0; q < nv; ++q) {
    for (int j = m.dof_parentid[q]; j >= 0; j = m.dof_parentid[j]) rows[j].push_back(q);
  }
  for (auto& r : rows) std::sort(r.begin(), r.end());
  for (int i = 0; i < d.nefc; i += 1 + d.efc_J_rowsuper[i]) {
    const int* cols = d.efc_J_colind + d.efc_J_rowadr[i];
    for (int a = 0; a < d.efc_J_rownnz[i]; ++a) {
      for (int b = a + 1; b < d.efc_J_rownnz[i]; ++b) {
        std::vector<int>& r = rows[cols[a]];
        if (std::find(r.begin(), r.end(), cols[b]) == r.end()) r.push_back(cols[b]);
      }
    }
  }
  Expected e;
  for (int K = 0; K < nv; ++K) {
    e.col_ptr.push_back(static_cast<int>(e.row_ind.size()));
    for (int q : rows[nv - 1 - K]) e.row_ind.push_back(nv - 1 - q);
  }
  e.col_ptr.push_back(static_cast<int>(e.row_ind.size()));
  e.parent.resize(nv);
  e.l_col_ptr.resize(nv + 1);
  std::vector<int> work(nv);
  chol::Sparse::analyse({nv, e.col_ptr.data(), e.row_ind.data()}, e.parent.data(),
                        e.l_col_ptr.data(), work.data());
  return e;
}

void expect_pattern(const Model& m, Data& d, const std::string& what) {
  const Expected e = expected_pattern(m, d);
  StackFrame frame(d);
  const newton::HessianPattern h = newton::hessian_pattern(m, d, frame);
  const int nv = m.nv;
  ASSERT_EQ(h.pattern.n, nv) << what;
  EXPECT_EQ(std::vector<int>(h.pattern.col_ptr, h.pattern.col_ptr + nv + 1), e.col_ptr) << what;
  EXPECT_EQ(std::vector<int>(h.pattern.row_ind, h.pattern.row_ind + e.row_ind.size()), e.row_ind)
      << what;
  EXPECT_EQ(std::vector<int>(h.parent, h.parent + nv), e.parent) << what;
  EXPECT_EQ(std::vector<int>(h.l_col_ptr, h.l_col_ptr + nv + 1), e.l_col_ptr) << what;
  // qM by columns
  for (int j = 0; j < nv; ++j) {
    std::vector<int> descendants;
    for (int k = h.m_col_ptr[j]; k < h.m_col_ptr[j + 1]; ++k) {
      descendants.push_back(h.m_row[k]);
      int adr = m.dof_Madr[h.m_row[k]], up = h.m_row[k];
      while (up > j) {
        up = m.dof_parentid[up];
        ++adr;
      }
      EXPECT_EQ(h.m_adr[k], adr) << what << ", column " << j;
    }
    std::vector<int> expected;
    for (int q = j + 1; q < nv; ++q) {
      int up = m.dof_parentid[q];
      while (up > j) up = m.dof_parentid[up];
      if (up == j) expected.push_back(q);
    }
    EXPECT_EQ(descendants, expected) << what << ", column " << j;
  }
}

// Rows of J as contacts between random bodies make them: the union of the two bodies' dof chains,
// in supernodes of 1 to 4 rows with the same columns, up to njmax rows.
void random_rows(const Model& m, Data& d, std::mt19937_64& rng, int contacts) {
  std::uniform_int_distribution<int> body(1, m.nbody - 1), rows(1, 4);
  std::vector<int> chain1(m.nv), chain2(m.nv);
  d.nefc = 0;
  int adr = 0;
  for (int c = 0; c < contacts && d.nefc < m.njmax; ++c) {
    const int n1 = dof_chain(m, body(rng), chain1.data());
    const int n2 = dof_chain(m, body(rng), chain2.data());
    std::sort(chain1.begin(), chain1.begin() + n1);
    std::sort(chain2.begin(), chain2.begin() + n2);
    std::vector<int> cols;
    std::set_union(chain1.begin(), chain1.begin() + n1, chain2.begin(), chain2.begin() + n2,
                   std::back_inserter(cols));
    const int dim = std::min(rows(rng), m.njmax - d.nefc);
    for (int r = 0; r < dim; ++r) {
      const int i = d.nefc++;
      d.efc_J_rownnz[i] = static_cast<int>(cols.size());
      d.efc_J_rowadr[i] = adr;
      d.efc_J_rowsuper[i] = dim - 1 - r;
      std::copy(cols.begin(), cols.end(), d.efc_J_colind + adr);
      adr += static_cast<int>(cols.size());
    }
  }
}

TEST(HessianPattern, AsDefinedWhetherNewOrReused) {
  for (uint64_t seed = 1; seed <= 20; ++seed) {
    test::RandomTreeOptions options;
    options.nbody = 25;
    const Model m = test::random_tree_model(seed, options);
    Data d(m);
    std::mt19937_64 rng(seed);
    random_rows(m, d, rng, 6);
    expect_pattern(m, d, "first");
    expect_pattern(m, d, "same rows again");
    Data copy = d;
    expect_pattern(m, copy, "a copy of the Data");
    random_rows(m, d, rng, 4);
    expect_pattern(m, d, "other rows");
    d.nefc = 0;
    expect_pattern(m, d, "no rows");
    reset_data(m, d);
    random_rows(m, d, rng, 10);
    expect_pattern(m, d, "after reset_data");
  }
}

// A string of bodies on hinges, each a child of the world or of the body before it.
Model hinges(const std::vector<bool>& on_previous) {
  std::string xml = "<mujoco><worldbody>";
  std::string close;
  for (size_t b = 0; b < on_previous.size(); ++b) {
    if (!on_previous[b]) {
      xml += close;
      close.clear();
    }
    xml += "<body><joint type='hinge'/><geom size='0.1'/>";
    close += "</body>";
  }
  xml += close + "</worldbody></mujoco>";
  return compile_mjcf(xml, "hinges", ".");
}

// With every pair of 60 dofs coupled by J and none by M, the pattern exceeds the cache: it is
// analysed on the frame at every solve.
TEST(HessianPattern, TooLargeForTheCache) {
  const Model m = hinges(std::vector<bool>(60, false));
  Data d(m);
  d.nefc = 1;
  d.efc_J_rownnz[0] = m.nv;
  d.efc_J_rowadr[0] = 0;
  d.efc_J_rowsuper[0] = 0;
  for (int k = 0; k < m.nv; ++k) d.efc_J_colind[k] = k;
  expect_pattern(m, d, "all pairs");
  expect_pattern(m, d, "all pairs again");
  d.efc_J_rownnz[0] = 10;
  expect_pattern(m, d, "a smaller pattern");
  expect_pattern(m, d, "the smaller pattern again");
}

// Rows that couple other dofs in the same numbers per column.
TEST(HessianPattern, NoticesOtherPairsInEqualNumbers) {
  const Model m = hinges(std::vector<bool>(4, false));
  Data d(m);
  d.nefc = 1;
  d.efc_J_rownnz[0] = 2;
  d.efc_J_rowadr[0] = 0;
  d.efc_J_rowsuper[0] = 0;
  d.efc_J_colind[0] = 0;
  for (int other : {1, 2, 3, 1}) {
    d.efc_J_colind[1] = other;
    expect_pattern(m, d, "dofs 0 and " + std::to_string(other));
  }
}

// A Data used with another model of the same sizes but another dof tree.
TEST(HessianPattern, NoticesAnotherTree) {
  const Model first = hinges({false, true, false, false});   // 0-1, 2, 3
  const Model second = hinges({false, false, true, false});  // 0, 1-2, 3
  ASSERT_EQ(first.nM, second.nM);
  Data d(first);
  d.nefc = 1;
  d.efc_J_rownnz[0] = 4;
  d.efc_J_rowadr[0] = 0;
  d.efc_J_rowsuper[0] = 0;
  for (int k = 0; k < 4; ++k) d.efc_J_colind[k] = k;
  expect_pattern(first, d, "the first tree");
  expect_pattern(second, d, "the second tree");
  expect_pattern(first, d, "the first tree again");
}

}  // namespace
}  // namespace joco
