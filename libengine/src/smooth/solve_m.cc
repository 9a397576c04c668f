// Solves with the L'DL factorisation of the joint-space inertia by sparse substitution along the
// dof tree: M^-1 = L^-1 D^-1 L'^-1.
//
// Several right-hand sides are solved a block at a time, the vectors innermost: the walk along the
// dof tree (dof_Madr, dof_parentid, dof_simplenum) is then shared by the block, the vectors' chains
// of operations overlap, and every vector still sees the same operations in the same order as when
// solved alone.
#include <algorithm>
#include <cstring>

#include "joco/smooth.h"

namespace joco {

namespace {

// Vectors per block: enough to amortise the tree walk, few enough for the partial sums to stay in
// registers.
constexpr int kBlock = 4;

// The block of w <= kMaxW vectors at x, x + nv, ... (kMaxW a compile-time bound so that a single
// vector gets a loop-free kernel).
template <int kMaxW>
struct Block {
  double* x;
  int nv;
  int w;

  double& at(int v, int i) const { return x[static_cast<size_t>(v) * nv + i]; }
  int width() const { return kMaxW == 1 ? 1 : w; }
};

// x <- inv(L') x: from the leaves up, each solved x_i updates its ancestors.
template <int kMaxW>
void solve_lt(const Model& m, const Block<kMaxW>& b, const double* qld) {
  const int* madr = m.dof_Madr;
  const int* parent = m.dof_parentid;
  const int* simple = m.dof_simplenum;
  for (int i = m.nv - 1; i >= 0; --i) {
    if (simple[i] || parent[i] < 0) continue;
    double xi[kMaxW];
    bool any = false;
    for (int v = 0; v < b.width(); ++v) {
      xi[v] = b.at(v, i);
      any |= xi[v] != 0;
    }
    if (!any) continue;
    int adr = madr[i] + 1;
    for (int j = parent[i]; j >= 0; j = parent[j], ++adr) {
      const double lij = qld[adr];
      for (int v = 0; v < b.width(); ++v) b.at(v, j) -= lij * xi[v];
    }
  }
}

// x <- inv(L) x: from the roots down, each x_i takes its ancestors' final values.
template <int kMaxW>
void solve_l(const Model& m, const Block<kMaxW>& b, const double* qld) {
  const int* madr = m.dof_Madr;
  const int* parent = m.dof_parentid;
  const int* simple = m.dof_simplenum;
  for (int i = 0; i < m.nv; ++i) {
    if (simple[i]) {
      i += simple[i] - 1;  // a run of rows without off-diagonals
      continue;
    }
    // each term subtracted from x_i in turn, not summed first (MuJoCo's rounding)
    double xi[kMaxW];
    for (int v = 0; v < b.width(); ++v) xi[v] = b.at(v, i);
    int adr = madr[i] + 1;
    for (int j = parent[i]; j >= 0; j = parent[j], ++adr) {
      const double lij = qld[adr];
      for (int v = 0; v < b.width(); ++v) xi[v] -= lij * b.at(v, j);
    }
    for (int v = 0; v < b.width(); ++v) b.at(v, i) = xi[v];
  }
}

template <int kMaxW>
void scale(const Model& m, const Block<kMaxW>& b, const double* s) {
  for (int v = 0; v < b.width(); ++v) {
    for (int i = 0; i < m.nv; ++i) b.at(v, i) *= s[i];
  }
}

inline void copy_vectors(const Model& m, double* x, const double* y, int n) {
  if (x != y && m.nv > 0 && n > 0)  // memcpy of nothing from a null array is undefined
    std::memcpy(x, y, sizeof(double) * static_cast<size_t>(m.nv) * static_cast<size_t>(n));
}

// Calls f on x's n vectors as blocks: full blocks of kBlock, then the rest one by one.
template <typename F>
void for_each_block(const Model& m, double* x, int n, F&& f) {
  int v = 0;
  for (; v + kBlock <= n; v += kBlock) {
    f(Block<kBlock>{x + static_cast<size_t>(v) * m.nv, m.nv, kBlock});
  }
  for (; v < n; ++v) f(Block<1>{x + static_cast<size_t>(v) * m.nv, m.nv, 1});
}

}  // namespace

void solve_ld(const Model& m, double* x, const double* y, int n, const double* qld,
              const double* diag_inv) {
  copy_vectors(m, x, y, n);
  for_each_block(m, x, n, [&](const auto& b) {
    solve_lt(m, b, qld);
    scale(m, b, diag_inv);
    solve_l(m, b, qld);
  });
}

void solve_m(const Model& m, const Data& d, double* x, const double* y, int n) {
  solve_ld(m, x, y, n, d.qLD, d.qLDiagInv);
}

void nonzero_dofs_and_ancestors(const Model& m, const double* y, std::vector<int>& chain) {
  std::vector<char> on_chain(static_cast<size_t>(m.nv), 0);
  for (int i = m.nv - 1; i >= 0; --i) {
    if (y[i] == 0) continue;
    for (int j = i; j >= 0 && !on_chain[static_cast<size_t>(j)]; j = m.dof_parentid[j]) {
      on_chain[static_cast<size_t>(j)] = 1;
    }
  }
  chain.clear();
  for (int i = 0; i < m.nv; ++i) {
    if (on_chain[static_cast<size_t>(i)]) chain.push_back(i);
  }
}

// The operations of solve_lt, scale and solve_l on the chain's rows, in their order: outside the
// chain y is zero, which the leaves-up pass leaves zero (a nonzero x_i would need a nonzero
// descendant, which would put i on the chain) and which adds nothing to the chain's rows; the
// roots-down pass of a row reads only its ancestors, all on the chain.
void solve_m_on_chain(const Model& m, const Data& d, double* x, std::span<const int> chain) {
  const int* madr = m.dof_Madr;
  const int* parent = m.dof_parentid;
  const int* simple = m.dof_simplenum;
  const double* qld = d.qLD;
  for (size_t k = chain.size(); k-- > 0;) {
    const int i = chain[k];
    if (simple[i] || parent[i] < 0 || x[i] == 0) continue;
    int adr = madr[i] + 1;
    for (int j = parent[i]; j >= 0; j = parent[j], ++adr) x[j] -= qld[adr] * x[i];
  }
  for (int i : chain) x[i] *= d.qLDiagInv[i];
  for (int i : chain) {
    if (simple[i]) continue;
    double xi = x[i];
    int adr = madr[i] + 1;
    for (int j = parent[i]; j >= 0; j = parent[j], ++adr) xi -= qld[adr] * x[j];
    x[i] = xi;
  }
}

void solve_m2(const Model& m, const Data& d, double* x, const double* y, int n) {
  copy_vectors(m, x, y, n);
  for_each_block(m, x, n, [&](const auto& b) {
    solve_lt(m, b, d.qLD);
    scale(m, b, d.qLDiagSqrtInv);
  });
}

}  // namespace joco
