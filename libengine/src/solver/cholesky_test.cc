// The Newton solver's factorisations: dense and sparse Cholesky solve random positive definite
// systems, and rank-one updates and downdates give the factor of a fresh factorisation.
#include "solver/cholesky.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

#include "joco/mjcf.h"
#include "support/test_support.h"

namespace joco {
namespace {

// A random symmetric positive definite n x n matrix B B' + I with B sparse: entries only inside
// the given cliques (sets of indices), so that the pattern is the union of the cliques.
std::vector<double> random_spd(int n, const std::vector<std::vector<int>>& cliques,
                               std::mt19937_64& rng) {
  std::uniform_real_distribution<double> u(-1, 1);
  std::vector<double> a(static_cast<size_t>(n) * n, 0.0);
  for (int i = 0; i < n; ++i) a[static_cast<size_t>(i) * n + i] = 1;
  for (const auto& c : cliques) {
    std::vector<double> b(c.size());
    for (double& x : b) x = u(rng);
    for (size_t p = 0; p < c.size(); ++p) {
      for (size_t q = 0; q < c.size(); ++q) a[static_cast<size_t>(c[p]) * n + c[q]] += b[p] * b[q];
    }
  }
  return a;
}

double residual(const std::vector<double>& a, int n, const double* x, const double* b) {
  double r = 0;
  for (int i = 0; i < n; ++i) {
    double s = -b[i];
    for (int j = 0; j < n; ++j) s += a[static_cast<size_t>(i) * n + j] * x[j];
    r = std::max(r, std::abs(s));
  }
  return r;
}

TEST(CholeskyDense, SolvesAndUpdates) {
  std::mt19937_64 rng(1);
  std::uniform_real_distribution<double> u(-1, 1);
  const int n = 12;
  std::vector<std::vector<int>> cliques;
  for (int k = 0; k < 8; ++k) {
    std::vector<int> c;
    for (int i = 0; i < n; ++i) {
      if (u(rng) > 0.3) c.push_back(i);
    }
    cliques.push_back(c);
  }
  std::vector<double> a = random_spd(n, cliques, rng);
  std::vector<double> l = a, b(n), x(n), inv(n);
  EXPECT_EQ(chol::factor_dense(l.data(), n, 1e-15, inv.data()), 0);
  for (double& v : b) v = u(rng);
  chol::solve_dense(l.data(), inv.data(), n, x.data(), b.data());
  EXPECT_LT(residual(a, n, x.data(), b.data()), 1e-12);

  // A + w w' by an update against a fresh factorisation, then back by a downdate (L' is in the
  // upper triangle)
  std::vector<double> w(n), w2(n);
  for (int i = 0; i < n; ++i) w[i] = i < 3 ? 0 : u(rng);  // (leading zeros are skipped)
  w2 = w;
  std::vector<double> updated = l, updated_inv = inv;
  ASSERT_TRUE(chol::update_dense(updated.data(), updated_inv.data(), n, w2.data(), true));
  std::vector<double> a_plus = a;
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < n; ++j) a_plus[static_cast<size_t>(i) * n + j] += w[i] * w[j];
  }
  std::vector<double> fresh = a_plus, fresh_inv(n);
  chol::factor_dense(fresh.data(), n, 1e-15, fresh_inv.data());
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j <= i; ++j) {
      EXPECT_NEAR(updated[static_cast<size_t>(j) * n + i], fresh[static_cast<size_t>(j) * n + i],
                  1e-12);
    }
    // the update keeps the reciprocals of the diagonal
    EXPECT_EQ(updated_inv[i], 1 / updated[static_cast<size_t>(i) * n + i]);
  }
  // the updated factor solves the updated system
  chol::solve_dense(updated.data(), updated_inv.data(), n, x.data(), b.data());
  EXPECT_LT(residual(a_plus, n, x.data(), b.data()), 1e-12);
  w2 = w;
  ASSERT_TRUE(chol::update_dense(updated.data(), updated_inv.data(), n, w2.data(), false));
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j <= i; ++j) {
      EXPECT_NEAR(updated[static_cast<size_t>(j) * n + i], l[static_cast<size_t>(j) * n + i],
                  1e-11);
    }
  }
  // a downdate that would make the matrix indefinite is refused
  std::vector<double> big(n, 0.0);
  big[n - 1] = 10 * std::sqrt(a[static_cast<size_t>(n) * n - 1]);
  std::vector<double> copy = l, copy_inv = inv;
  EXPECT_FALSE(chol::update_dense(copy.data(), copy_inv.data(), n, big.data(), false));
}

// The factor's rounding is that of the plain definition, every entry a dot product over a row of L
// subtracted term by term in increasing k, whatever order the entries are computed in (the
// Newton solver's results depend on it bit for bit). Sizes around the vector widths, a raised
// pivot included.
TEST(CholeskyDense, FactorRoundsAsRowDotProducts) {
  std::mt19937_64 rng(3);
  std::uniform_real_distribution<double> u(-1, 1);
  int compared = 0;
  for (int n : {1, 2, 3, 4, 5, 7, 8, 9, 16, 27, 31, 64}) {
    std::vector<std::vector<int>> cliques(6);
    for (auto& c : cliques) {
      for (int i = 0; i < n; ++i) {
        if (u(rng) > 0) c.push_back(i);
      }
    }
    std::vector<double> a = random_spd(n, cliques, rng);
    if (n > 4) {  // a raised pivot: row and column 3 zero but for a tiny diagonal
      for (int i = 0; i < n; ++i) a[static_cast<size_t>(i) * n + 3] = a[3 * n + i] = 0;
      a[static_cast<size_t>(n + 1) * 3] = 1e-30;
    }
    // the definition, row by row
    std::vector<double> ref = a;
    int ref_raised = 0;
    for (int j = 0; j < n; ++j) {
      double* lj = ref.data() + static_cast<size_t>(j) * n;
      double d = lj[j];
      for (int k = 0; k < j; ++k) d -= lj[k] * lj[k];
      if (d < 1e-15) {
        d = 1e-15;
        ++ref_raised;
      }
      lj[j] = std::sqrt(d);
      for (int i = j + 1; i < n; ++i) {
        double* li = ref.data() + static_cast<size_t>(i) * n;
        double s = li[j];
        for (int k = 0; k < j; ++k) s -= li[k] * lj[k];
        li[j] = s * (1 / lj[j]);
        lj[i] = li[j];
      }
    }
    std::vector<double> l = a, inv(n);
    EXPECT_EQ(chol::factor_dense(l.data(), n, 1e-15, inv.data()), ref_raised) << "n " << n;
    for (int j = 0; j < n; ++j) EXPECT_EQ(inv[j], 1 / ref[static_cast<size_t>(j) * n + j]);
    for (int i = 0; i < n; ++i) {
      for (int j = 0; j < n; ++j) {
        const size_t at = static_cast<size_t>(i) * n + j;
        EXPECT_EQ(l[at], ref[at]) << "n " << n << " at " << i << ", " << j;  // exact
        ++compared;
      }
    }
  }
  EXPECT_GT(compared, 0);
}

// The solve's rounding is that of the plain substitutions with the reciprocals of the diagonal:
// forward by columns, backward by rows summed from the far end, whatever blocking it uses. Sizes
// around the block of four.
TEST(CholeskyDense, SolveRoundsAsPlainSubstitution) {
  std::mt19937_64 rng(5);
  std::uniform_real_distribution<double> u(-1, 1);
  for (int n : {1, 2, 3, 4, 5, 6, 7, 8, 9, 13, 27, 31}) {
    std::vector<std::vector<int>> cliques(5);
    for (auto& c : cliques) {
      for (int i = 0; i < n; ++i) {
        if (u(rng) > 0) c.push_back(i);
      }
    }
    std::vector<double> l = random_spd(n, cliques, rng), inv(n), b(n), x(n);
    chol::factor_dense(l.data(), n, 1e-15, inv.data());
    for (double& v : b) v = u(rng);
    std::vector<double> ref = b;
    for (int k = 0; k < n; ++k) {
      ref[k] *= inv[k];
      for (int i = k + 1; i < n; ++i) ref[i] -= l[static_cast<size_t>(k) * n + i] * ref[k];
    }
    for (int i = n - 1; i >= 0; --i) {
      double s = ref[i];
      for (int k = n - 1; k > i; --k) s -= l[static_cast<size_t>(i) * n + k] * ref[k];
      ref[i] = s * inv[i];
    }
    chol::solve_dense(l.data(), inv.data(), n, x.data(), b.data());
    for (int i = 0; i < n; ++i) EXPECT_EQ(x[i], ref[i]) << "n " << n << " at " << i;  // exact
    std::vector<double> in_place = b;
    chol::solve_dense(l.data(), inv.data(), n, in_place.data(), in_place.data());
    EXPECT_EQ(in_place, x) << "n " << n;
  }
}

// The pattern of a matrix (rows r < k of each column k) from its dense form.
struct DensePattern {
  std::vector<int> col_ptr, row_ind;
  std::vector<double> upper, diag;
  chol::Pattern pattern(int n) const { return {n, col_ptr.data(), row_ind.data()}; }
};

DensePattern to_pattern(const std::vector<double>& a, int n) {
  DensePattern p;
  p.col_ptr.push_back(0);
  for (int k = 0; k < n; ++k) {
    for (int r = k - 1; r >= 0; --r) {  // (any order: decreasing here)
      const double v = a[static_cast<size_t>(r) * n + k];
      if (v != 0) {
        p.row_ind.push_back(r);
        p.upper.push_back(v);
      }
    }
    p.col_ptr.push_back(static_cast<int>(p.row_ind.size()));
    p.diag.push_back(a[static_cast<size_t>(k) * n + k]);
  }
  return p;
}

TEST(CholeskySparse, SolvesAndUpdatesLikeAFreshFactorisation) {
  // workspace: the stack of a small model's Data
  Model m = compile_mjcf("<mujoco><size nstack='200000'/><worldbody/></mujoco>", "x.xml", ".");
  Data data = make_data(m);
  std::mt19937_64 rng(2);
  std::uniform_real_distribution<double> u(-1, 1);
  for (int trial = 0; trial < 5; ++trial) {
    const int n = 40;
    // a forest (each index with a random parent above it, as dofs in reverse order) plus random
    // cliques, as M + J'J
    std::vector<std::vector<int>> cliques;
    for (int i = 0; i + 1 < n; ++i) {
      const int parent = i + 1 + static_cast<int>((n - i - 1) * 0.5 * (1 + u(rng))) % (n - i - 1);
      cliques.push_back({i, parent});
    }
    std::vector<int> update_set;
    for (int k = 0; k < 6; ++k) {
      std::vector<int> c;
      for (int i = 0; i < n; ++i) {
        if (u(rng) > 0.8) c.push_back(i);
      }
      cliques.push_back(c);
      if (k == 0) update_set = c;
    }
    const std::vector<double> a = random_spd(n, cliques, rng);
    DensePattern p = to_pattern(a, n);
    StackFrame frame(data);
    chol::Sparse s;
    s.analyse(p.pattern(n), frame);
    EXPECT_EQ(s.factor(p.upper.data(), p.diag.data(), 1e-15), 0);
    std::vector<double> b(n), x(n);
    for (double& v : b) v = u(rng);
    s.solve(x.data(), b.data());
    EXPECT_LT(residual(a, n, x.data(), b.data()), 1e-11) << "trial " << trial;

    // update with a vector on one clique (inside the pattern), against the updated matrix
    std::vector<double> w(update_set.size());
    for (double& v : w) v = u(rng);
    ASSERT_TRUE(s.update(update_set.data(), w.data(), static_cast<int>(w.size()), true));
    std::vector<double> a_plus = a;
    for (size_t i = 0; i < w.size(); ++i) {
      for (size_t j = 0; j < w.size(); ++j) {
        a_plus[static_cast<size_t>(update_set[i]) * n + update_set[j]] += w[i] * w[j];
      }
    }
    s.solve(x.data(), b.data());
    EXPECT_LT(residual(a_plus, n, x.data(), b.data()), 1e-10) << "trial " << trial;
    ASSERT_TRUE(s.update(update_set.data(), w.data(), static_cast<int>(w.size()), false));
    s.solve(x.data(), b.data());
    EXPECT_LT(residual(a, n, x.data(), b.data()), 1e-10) << "trial " << trial;
  }
}

}  // namespace
}  // namespace joco
