// Dense and sparse Cholesky factorisation with rank-one modifications. The sparse factor is the
// up-looking algorithm (each row of L from a triangular solve over the row's pattern, found by
// walking the elimination tree), and updates follow one path of the elimination tree (T. Davis,
// Direct Methods for Sparse Linear Systems, chapters 4 and 8).
#include "solver/cholesky.h"

#include <cmath>
#include <cstring>

#include "math/simd.h"

namespace joco::chol {

using math::Vec4;

// ---- dense --------------------------------------------------------------------------------------

// Row by row (dot products over the rows of L in the lower triangle), with each column of L also
// stored as a row of the upper triangle for the column-oriented solve and updates.
JOCO_AVX_CLONES int factor_dense(double* h, int n, double min_pivot, double* diag_inv) {
  int raised = 0;
  for (int j = 0; j < n; ++j) {
    double* lj = h + static_cast<size_t>(j) * n;
    double d = lj[j];
    for (int k = 0; k < j; ++k) d -= lj[k] * lj[k];
    if (d < min_pivot) {
      d = min_pivot;
      ++raised;
    }
    const double ljj = std::sqrt(d);
    lj[j] = ljj;
    const double inv = 1 / ljj;
    diag_inv[j] = inv;
    // four rows at a time, their L(i, k) read from the upper triangle's row k, where they lie side
    // by side (one vector); each sum keeps its order
    int i = j + 1;
    for (; i + 3 < n; i += 4) {
      double* li = h + static_cast<size_t>(i) * n;
      Vec4 s = {li[j], li[n + j], li[2 * n + j], li[3 * n + j]};
      for (int k = 0; k < j; ++k) {
        Vec4 uk;
        math::load4(uk, h + static_cast<size_t>(k) * n + i);
        s -= uk * lj[k];
      }
      for (int t = 0; t < 4; ++t) {
        const double lij = s[t] * inv;
        li[t * n + j] = lij;
        lj[i + t] = lij;
      }
    }
    for (; i + 1 < n; i += 2) {
      double* li = h + static_cast<size_t>(i) * n;
      double* li1 = li + n;
      double s = li[j], s1 = li1[j];
      for (int k = 0; k < j; ++k) {
        s -= li[k] * lj[k];
        s1 -= li1[k] * lj[k];
      }
      li[j] = s * inv;
      li1[j] = s1 * inv;
      lj[i] = li[j];
      lj[i + 1] = li1[j];
    }
    if (i < n) {
      double* li = h + static_cast<size_t>(i) * n;
      double s = li[j];
      for (int k = 0; k < j; ++k) s -= li[k] * lj[k];
      li[j] = s * inv;
      lj[i] = li[j];
    }
  }
  return raised;
}

JOCO_AVX_CLONES void solve_dense(const double* u, const double* diag_inv, int n, double* x,
                                 const double* b) {
  if (x != b) std::memcpy(x, b, sizeof(double) * static_cast<size_t>(n));
  // Each step of both substitutions waits for the one before: multiplying by the diagonal's
  // reciprocal instead of dividing by it shortens that chain by a division's latency (20 cycles
  // or more) per row. Both go four entries at a time, each entry's terms subtracted in the order
  // of the plain substitution (the same bits), so that the chains of four entries run side by side
  // and the memory holding x is read and written a quarter as often: 410 -> 265 ns at nv 27.
  //
  // L y = b by columns of L, in the order of the columns: a triangle of four entries, then their
  // four columns subtracted from the entries below in one pass.
  int k = 0;
  for (; k + 3 < n; k += 4) {
    const double* u0 = u + static_cast<size_t>(k) * n;
    const double* u1 = u0 + n;
    const double* u2 = u1 + n;
    const double* u3 = u2 + n;
    const double x0 = x[k] * diag_inv[k];
    const double x1 = (x[k + 1] - u0[k + 1] * x0) * diag_inv[k + 1];
    const double x2 = ((x[k + 2] - u0[k + 2] * x0) - u1[k + 2] * x1) * diag_inv[k + 2];
    const double x3 =
        (((x[k + 3] - u0[k + 3] * x0) - u1[k + 3] * x1) - u2[k + 3] * x2) * diag_inv[k + 3];
    x[k] = x0;
    x[k + 1] = x1;
    x[k + 2] = x2;
    x[k + 3] = x3;
    for (int i = k + 4; i < n; ++i) {
      x[i] = (((x[i] - u0[i] * x0) - u1[i] * x1) - u2[i] * x2) - u3[i] * x3;
    }
  }
  for (; k < n; ++k) {
    const double* uk = u + static_cast<size_t>(k) * n;
    const double xk = x[k] * diag_inv[k];
    x[k] = xk;
    for (int i = k + 1; i < n; ++i) x[i] -= uk[i] * xk;
  }
  // L' x = y by rows of L', each row's sum taken from its far end (the terms of a row but the
  // last need only entries found before the one below it, so they are summed while that one
  // finishes): four rows at a time, their sums over the entries found side by side, then the
  // triangle of the four.
  int i = n - 1;
  for (; i >= 3; i -= 4) {
    const double* r0 = u + static_cast<size_t>(i) * n;
    const double* r1 = r0 - n;
    const double* r2 = r1 - n;
    const double* r3 = r2 - n;
    double s0 = x[i], s1 = x[i - 1], s2 = x[i - 2], s3 = x[i - 3];
    for (int c = n - 1; c > i; --c) {
      const double xc = x[c];
      s0 -= r0[c] * xc;
      s1 -= r1[c] * xc;
      s2 -= r2[c] * xc;
      s3 -= r3[c] * xc;
    }
    const double x0 = s0 * diag_inv[i];
    s1 -= r1[i] * x0;
    const double x1 = s1 * diag_inv[i - 1];
    s2 -= r2[i] * x0;
    s2 -= r2[i - 1] * x1;
    const double x2 = s2 * diag_inv[i - 2];
    s3 -= r3[i] * x0;
    s3 -= r3[i - 1] * x1;
    s3 -= r3[i - 2] * x2;
    x[i] = x0;
    x[i - 1] = x1;
    x[i - 2] = x2;
    x[i - 3] = s3 * diag_inv[i - 3];
  }
  for (; i >= 0; --i) {
    const double* ui = u + static_cast<size_t>(i) * n;
    double s = x[i];
    for (int c = n - 1; c > i; --c) s -= ui[c] * x[c];
    x[i] = s * diag_inv[i];
  }
}

JOCO_AVX_CLONES bool update_dense(double* u, double* diag_inv, int n, double* w, bool plus) {
  int first = 0;
  while (first < n && w[first] == 0) ++first;
  for (int k = first; k < n; ++k) {
    double* uk = u + static_cast<size_t>(k) * n;  // column k of L
    const double lkk = uk[k];
    const double r2 = plus ? lkk * lkk + w[k] * w[k] : lkk * lkk - w[k] * w[k];
    if (!(r2 > 0)) return false;
    const double r = std::sqrt(r2);
    // one division a column, for the new diagonal's reciprocal (each column waits for the one
    // before: c, s and 1 / c from reciprocals are multiplications)
    const double inv_r = 1 / r;
    const double c = r * diag_inv[k], s = w[k] * diag_inv[k];
    const double inv_c = lkk * inv_r;
    uk[k] = r;
    diag_inv[k] = inv_r;
    if (plus) {
      for (int i = k + 1; i < n; ++i) {
        const double lik = (uk[i] + s * w[i]) * inv_c;
        uk[i] = lik;
        w[i] = c * w[i] - s * lik;
      }
    } else {
      for (int i = k + 1; i < n; ++i) {
        const double lik = (uk[i] - s * w[i]) * inv_c;
        uk[i] = lik;
        w[i] = c * w[i] - s * lik;
      }
    }
  }
  return true;
}

// ---- sparse -------------------------------------------------------------------------------------

void Sparse::analyse(const Pattern& p, StackFrame& frame) {
  int* parent = frame.ints(p.n);
  int* l_col_ptr = frame.ints(p.n + 1);
  analyse(p, parent, l_col_ptr, frame.ints(p.n));
  bind(p, parent, l_col_ptr, frame);
}

void Sparse::analyse(const Pattern& p, int* parent, int* l_col_ptr, int* work) {
  const int n = p.n;
  // elimination tree, with path compression through `work` as ancestors
  int* ancestor = work;
  for (int k = 0; k < n; ++k) {
    parent[k] = -1;
    ancestor[k] = -1;
    for (int q = p.col_ptr[k]; q < p.col_ptr[k + 1]; ++q) {
      int i = p.row_ind[q];
      while (i != -1 && i < k) {
        const int up = ancestor[i];
        ancestor[i] = k;
        if (up == -1) parent[i] = k;
        i = up;
      }
    }
  }

  // column counts: row k of L has the columns reached from column k's entries in the tree
  int* count = l_col_ptr + 1;
  int* mark = work;
  for (int k = 0; k < n; ++k) {
    count[k] = 1;
    mark[k] = -1;
  }
  for (int k = 0; k < n; ++k) {
    mark[k] = k;
    for (int q = p.col_ptr[k]; q < p.col_ptr[k + 1]; ++q) {
      for (int i = p.row_ind[q]; i < k && mark[i] != k; i = parent[i]) {
        mark[i] = k;
        ++count[i];
      }
    }
  }
  l_col_ptr[0] = 0;
  for (int k = 0; k < n; ++k) l_col_ptr[k + 1] += l_col_ptr[k];
}

void Sparse::bind(const Pattern& p, const int* parent, const int* l_col_ptr, StackFrame& frame) {
  n_ = p.n;
  a_ = p;
  const int n = n_;
  parent_ = parent;
  lp_ = l_col_ptr;
  next_ = frame.ints(n);
  stack_ = frame.ints(2 * n);
  mark_ = frame.ints(n);
  x_ = frame.doubles(n);
  std::memset(x_, 0, sizeof(double) * static_cast<size_t>(n));
  diag_inv_ = frame.doubles(n);
  nnz_ = lp_[n];
  li_ = frame.ints(nnz_);
  lx_ = frame.doubles(nnz_);
}

int Sparse::factor(const double* upper, const double* diag, double min_pivot) {
  const int n = n_;
  int raised = 0;
  for (int k = 0; k < n; ++k) {
    next_[k] = lp_[k];
    mark_[k] = -1;
  }
  int* s = stack_;  // output pattern, filled from the top
  int* path = stack_ + n;
  for (int k = 0; k < n; ++k) {
    // pattern of row k of L, in topological order, and x = column k of the upper triangle
    int top = n;
    mark_[k] = k;
    for (int q = a_.col_ptr[k]; q < a_.col_ptr[k + 1]; ++q) {
      int i = a_.row_ind[q];
      x_[i] = upper[q];
      int len = 0;
      for (; mark_[i] != k; i = parent_[i]) {
        path[len++] = i;
        mark_[i] = k;
      }
      while (len > 0) s[--top] = path[--len];
    }
    double d = diag[k];
    for (; top < n; ++top) {
      const int i = s[top];
      const double lki = x_[i] * diag_inv_[i];
      x_[i] = 0;
      for (int q = lp_[i] + 1; q < next_[i]; ++q) x_[li_[q]] -= lx_[q] * lki;
      d -= lki * lki;
      const int q = next_[i]++;
      li_[q] = k;
      lx_[q] = lki;
    }
    if (d < min_pivot) {
      d = min_pivot;
      ++raised;
    }
    const int q = next_[k]++;
    li_[q] = k;
    lx_[q] = std::sqrt(d);
    diag_inv_[k] = 1 / lx_[q];
  }
  return raised;
}

void Sparse::solve(double* x, const double* b) const {
  const int n = n_;
  if (x != b) std::memcpy(x, b, sizeof(double) * static_cast<size_t>(n));
  for (int j = 0; j < n; ++j) {
    const double xj = x[j] * diag_inv_[j];
    x[j] = xj;
    if (xj == 0) continue;
    for (int q = lp_[j] + 1; q < lp_[j + 1]; ++q) x[li_[q]] -= lx_[q] * xj;
  }
  // each column's rows (increasing) from the last: the nearest row, found last, comes last in
  // the sum (as in solve_dense)
  for (int j = n - 1; j >= 0; --j) {
    double s = x[j];
    for (int q = lp_[j + 1] - 1; q > lp_[j]; --q) s -= lx_[q] * x[li_[q]];
    x[j] = s * diag_inv_[j];
  }
}

bool Sparse::update(const int* idx, const double* val, int nnz, bool plus) {
  if (nnz == 0) return true;
  int f = idx[0];
  for (int k = 1; k < nnz; ++k) f = idx[k] < f ? idx[k] : f;
  for (int k = 0; k < nnz; ++k) x_[idx[k]] = val[k];
  const double sigma = plus ? 1 : -1;
  double beta = 1;
  bool ok = true;
  int j = f;
  for (; j != -1; j = parent_[j]) {
    int q = lp_[j];
    const double alpha = x_[j] * diag_inv_[j];
    double beta2 = beta * beta + sigma * alpha * alpha;
    if (!(beta2 > 0)) {
      ok = false;
      break;
    }
    beta2 = std::sqrt(beta2);
    const double delta = plus ? beta / beta2 : beta2 / beta;
    const double gamma = sigma * alpha / (beta2 * beta);
    lx_[q] = delta * lx_[q] + (plus ? gamma * x_[j] : 0);
    diag_inv_[j] = 1 / lx_[q];
    beta = beta2;
    for (++q; q < lp_[j + 1]; ++q) {
      const double w1 = x_[li_[q]];
      const double w2 = w1 - alpha * lx_[q];
      x_[li_[q]] = w2;
      lx_[q] = delta * lx_[q] + gamma * (plus ? w1 : w2);
    }
  }
  // the work vector is non-zero only on the path (and at idx when the update stopped early)
  for (int i = f; i != -1; i = parent_[i]) x_[i] = 0;
  for (int k = 0; k < nnz; ++k) x_[idx[k]] = 0;
  return ok;
}

}  // namespace joco::chol
