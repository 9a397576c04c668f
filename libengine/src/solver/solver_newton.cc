// Newton's method on the reduced primal problem (computation chapter, "Algorithms"): the search
// direction solves H dx = -grad with the exact Hessian H = M + J' diag(D_active) J (plus J_c' H_c
// J_c for contacts in the cone state of an elliptic cone), Cholesky-factorised; the factor follows
// rows entering and leaving the active set by rank-one updates and downdates, and is rebuilt when
// cone Hessians change or many rows change at once.
//
// With a sparse Jacobian the Hessian is sparse: the pattern of M (a dof and its ancestors) and of
// J'J, factorised in reverse dof order so that the tree part of M causes no fill.
#include <algorithm>
#include <cmath>
#include <cstring>

#include "joco/constraint.h"
#include "joco/smooth.h"
#include "joco/solver.h"
#include "math/simd.h"
#include "solver/cholesky.h"
#include "solver/hessian_pattern.h"
#include "solver/primal_problem.h"
#include "solver/stopping.h"

namespace joco {

namespace {

// Does row i (in the given state) contribute D J_i' J_i by itself? (Elliptic contacts in the cone
// state contribute through their cone Hessian instead.)
inline bool row_is_quadratic(int state) { return state == kCnstrStateQuadratic; }

// D_g J_g' J_g of G rows with the same non-zero columns (the rows of one pyramidal contact) into
// the lower triangle of the dense H, in one pass: each entry gets the rows' products added in
// turn, as G passes would add them. Over each row of H from the first non-zero column: adding
// the zero products leaves the sums' bits as they are, and the contiguous loop vectorises.
template <int G>
inline void add_rows(double* h, int nv, const double* const* rows, const double* D, const int* cols,
                     int n) {
  const int first = cols[0];
  for (int a = 0; a < n; ++a) {
    const int col = cols[a];
    double c[G];
    for (int g = 0; g < G; ++g) c[g] = D[g] * rows[g][col];
    double* __restrict x = h + static_cast<size_t>(col) * nv + first;
    const int len = col - first + 1;
    for (int k = 0; k < len; ++k) {
      double v = x[k];
      for (int g = 0; g < G; ++g) v += c[g] * rows[g][first + k];
      x[k] = v;
    }
  }
}

// D_i J_i' J_i of the quadratic rows i in [begin, end) into the lower triangle of the dense H, in
// row order; row_nnz and row_cols give each row's non-zero columns.
JOCO_AVX_CLONES void add_quadratic_rows(double* h, int nv, const Data& d, const int* row_nnz,
                                        const int* row_cols, int begin, int end) {
  auto cols_of = [&](int i) { return row_cols + static_cast<size_t>(i) * nv; };
  for (int i = begin; i < end;) {
    const int n = row_nnz[i];
    if (!row_is_quadratic(d.efc_state[i]) || n == 0) {
      ++i;
      continue;
    }
    const int* cols = cols_of(i);
    if (n == 1) {  // (joint limits and friction)
      const int col = cols[0];
      const double r = d.efc_J[static_cast<size_t>(i) * nv + col];
      h[static_cast<size_t>(col) * nv + col] += d.efc_D[i] * r * r;
      ++i;
      continue;
    }
    // the following quadratic rows with the same columns join, up to four
    int g = 1;
    while (g < 4 && i + g < end && row_is_quadratic(d.efc_state[i + g]) && row_nnz[i + g] == n &&
           std::equal(cols, cols + n, cols_of(i + g))) {
      ++g;
    }
    const double* rows[4];
    for (int k = 0; k < g; ++k) rows[k] = d.efc_J + static_cast<size_t>(i + k) * nv;
    const double* D = d.efc_D + i;
    switch (g) {
      case 1: add_rows<1>(h, nv, rows, D, cols, n); break;
      case 2: add_rows<2>(h, nv, rows, D, cols, n); break;
      case 3: add_rows<3>(h, nv, rows, D, cols, n); break;
      default: add_rows<4>(h, nv, rows, D, cols, n); break;
    }
    i += g;
  }
}

class Hessian {
 public:
  Hessian(const Model& m, Data& d, StackFrame& frame)
      : m_(m), d_(d), nv_(m.nv), nefc_(d.nefc), sparse_(is_sparse(m)) {
    w_ = frame.doubles(nv_);
    idx_ = frame.ints(nv_);
    if (sparse_) {
      analyse_sparse(frame);
    } else {
      h_ = frame.doubles(static_cast<int64_t>(nv_) * nv_);
      h_diag_inv_ = frame.doubles(nv_);
      full_ = frame.doubles(nv_);
      cols_ = frame.ints(nv_);
      cone_j_ = frame.doubles(6 * static_cast<int64_t>(nv_));
      // the non-zero columns of each row of J, which is fixed during the solve (found on the
      // row's pattern: outside it the row is zero)
      row_nnz_ = frame.ints(nefc_);
      row_cols_ = frame.ints(static_cast<int64_t>(nefc_) * nv_);
      for (int i = 0; i < nefc_; ++i) {
        const double* r = d_.efc_J + static_cast<size_t>(i) * nv_;
        const int* pattern = d_.efc_J_colind + d_.efc_J_rowadr[i];
        int* cols = row_cols_ + static_cast<size_t>(i) * nv_;
        int n = 0;
        const int nnz = d_.efc_J_rownnz[i];
        for (int k = 0; k < nnz; ++k) {
          // (written always, kept when non-zero: no branch on the values)
          cols[n] = pattern[k];
          n += r[pattern[k]] != 0;
        }
        row_nnz_[i] = n;
      }
      d_.solver_nnz = nv_ * nv_;
    }
  }

  // H from scratch at the current states, factorised.
  void rebuild() {
    if (sparse_) {
      assemble_sparse();
      chol_.factor(upper_, diag_, kMinVal);
    } else {
      assemble_dense();
      chol::factor_dense(h_, nv_, kMinVal, h_diag_inv_);
    }
  }

  // Follows the state changes from old_state to efc_state; returns the rank-one updates made
  // (or nv for a rebuild).
  int update(const int* old_state) {
    const Data& d = d_;
    int updates = 0;
    bool cones = false;
    for (int i = 0; i < nefc_; ++i) {
      const int was = old_state[i], is = d.efc_state[i];
      if (d.efc_type[i] == kCnstrContactElliptic &&
          (was == kCnstrStateCone || is == kCnstrStateCone)) {
        cones = true;
        break;
      }
      if (row_is_quadratic(was) != row_is_quadratic(is)) ++updates;
    }
    if (cones || updates > std::max(1, nv_ / 3)) {
      rebuild();
      return nv_;
    }
    for (int i = 0; i < nefc_; ++i) {
      const bool was = row_is_quadratic(old_state[i]), is = row_is_quadratic(d.efc_state[i]);
      if (was == is) continue;
      if (!rank_one(i, is)) {
        rebuild();
        return nv_;
      }
    }
    return updates;
  }

  // x = inv(H) b.
  void solve(double* x, const double* b) {
    if (!sparse_) {
      chol::solve_dense(h_, h_diag_inv_, nv_, x, b);
      return;
    }
    for (int k = 0; k < nv_; ++k) w_[k] = b[nv_ - 1 - k];
    chol_.solve(w_, w_);
    for (int j = 0; j < nv_; ++j) x[j] = w_[nv_ - 1 - j];
  }

 private:
  // Non-zeros of Jacobian row i: count, columns into idx_ (original order), values into vals.
  int row(int i, double* vals) {
    const Data& d = d_;
    if (sparse_) {
      const int adr = d.efc_J_rowadr[i], n = d.efc_J_rownnz[i];
      std::memcpy(idx_, d.efc_J_colind + adr, sizeof(int) * static_cast<size_t>(n));
      std::memcpy(vals, d.efc_J + adr, sizeof(double) * static_cast<size_t>(n));
      return n;
    }
    const double* r = d.efc_J + static_cast<size_t>(i) * nv_;
    const int* cols = row_cols_ + static_cast<size_t>(i) * nv_;
    const int n = row_nnz_[i];
    for (int k = 0; k < n; ++k) {
      idx_[k] = cols[k];
      vals[k] = r[cols[k]];
    }
    return n;
  }

  bool rank_one(int i, bool plus) {
    double* vals = w_;
    const int n = row(i, vals);
    const double s = std::sqrt(d_.efc_D[i]);
    if (sparse_) {
      for (int k = 0; k < n; ++k) {
        vals[k] *= s;
        idx_[k] = nv_ - 1 - idx_[k];
      }
      return chol_.update(idx_, vals, n, plus);
    }
    // dense: expand into a full vector
    double* full = full_;
    std::memset(full, 0, sizeof(double) * static_cast<size_t>(nv_));
    for (int k = 0; k < n; ++k) full[idx_[k]] = s * vals[k];
    return chol::update_dense(h_, h_diag_inv_, nv_, full, plus);
  }

  // ---- dense

  void assemble_dense() {
    const Data& d = d_;
    // M's lower triangle, straight from its tree-sparse rows (the lower triangle is all the
    // factorisation reads)
    for (int i = 0; i < nv_; ++i) {
      double* row = h_ + static_cast<size_t>(i) * nv_;
      std::memset(row, 0, sizeof(double) * static_cast<size_t>(i));
      int adr = m_.dof_Madr[i];
      row[i] = d.qM[adr++];
      for (int j = m_.dof_parentid[i]; j >= 0; j = m_.dof_parentid[j]) row[j] = d.qM[adr++];
    }
    for (int i = 0; i < nefc_;) {
      if (d.efc_type[i] == kCnstrContactElliptic && d.efc_state[i] == kCnstrStateCone) {
        const Contact& con = d.contact[d.efc_id[i]];
        // (the usual dimensions at compile time, so that the short loops unroll)
        switch (con.dim) {
          case 3: add_cone_dense<3>(i, con); break;
          case 4: add_cone_dense<4>(i, con); break;
          case 6: add_cone_dense<6>(i, con); break;
          default: add_cone_dense<0>(i, con); break;
        }
        i += con.dim;
        continue;
      }
      // the rows up to the next cone, in order
      int end = i + 1;
      while (end < nefc_ &&
             !(d.efc_type[end] == kCnstrContactElliptic && d.efc_state[end] == kCnstrStateCone)) {
        ++end;
      }
      add_quadratic_rows(h_, nv_, d, row_nnz_, row_cols_, i, end);
      i = end;
    }
  }

  // J_c' H_c J_c into the lower triangle, for the contact's dim rows at adr. Only the columns where
  // some row of J_c is non-zero are visited: elsewhere the products are exact zeros, which leave
  // H's bits as they are.
  template <int kDim>  // 0: con.dim at run time
  void add_cone_dense(int adr, const Contact& con) {
    const Data& d = d_;
    const int dim = kDim > 0 ? kDim : con.dim;
    const double* J = d.efc_J + static_cast<size_t>(adr) * nv_;
    // local copies (H_c, and J_c by columns) that the stores into h_ cannot alias
    double hc[36];
    for (int k = 0; k < dim * dim; ++k) hc[k] = con.H[k];
    double* jc = cone_j_;
    int ncol = 0;
    for (int a = 0; a < nv_; ++a) {
      double* col = jc + ncol * dim;
      bool any = false;
      for (int r = 0; r < dim; ++r) {
        col[r] = J[static_cast<size_t>(r) * nv_ + a];
        any = any || col[r] != 0;
      }
      if (any) cols_[ncol++] = a;
    }
    for (int ka = 0; ka < ncol; ++ka) {
      const int a = cols_[ka];
      const double* ja = jc + ka * dim;
      double ha[6];
      for (int r = 0; r < dim; ++r) {
        double s = 0;
        for (int q = 0; q < dim; ++q) s += hc[r * dim + q] * ja[q];
        ha[r] = s;
      }
      for (int kb = ka; kb < ncol; ++kb) {
        const double* jb = jc + kb * dim;
        double s = 0;
        for (int r = 0; r < dim; ++r) s += jb[r] * ha[r];
        h_[static_cast<size_t>(cols_[kb]) * nv_ + a] += s;
      }
    }
  }

  // ---- sparse

  // The pattern of M + J'J over all rows with its symbolic factorisation (reused from the last
  // solve when the rows couple the same dofs), and the numeric memory for it.
  void analyse_sparse(StackFrame& frame) {
    const Data& d = d_;
    const newton::HessianPattern h = newton::hessian_pattern(m_, d_, frame);
    col_ptr_ = h.pattern.col_ptr;
    row_ind_ = h.pattern.row_ind;
    m_col_ptr_ = h.m_col_ptr;
    m_row_ = h.m_row;
    m_adr_ = h.m_adr;
    upper_ = frame.doubles(col_ptr_[nv_]);
    cursor_ = frame.ints(nefc_);
    const int jnnz = nefc_ ? d.efc_J_rowadr[nefc_ - 1] + d.efc_J_rownnz[nefc_ - 1] : 0;
    hc_ = frame.doubles(jnnz);
    diag_ = frame.doubles(nv_);
    acc_ = frame.doubles(nv_);
    std::memset(acc_, 0, sizeof(double) * static_cast<size_t>(nv_));
    chol_.bind(h.pattern, h.parent, h.l_col_ptr, frame);
    d_.solver_nnz = chol_.nnz();
  }

  // Column by column (original column j), H(q, j) for q >= j accumulated in acc_, then gathered.
  void assemble_sparse() {
    const Model& m = m_;
    const Data& d = d_;
    const int nv = nv_;
    // H_c J_c of the contacts in the cone state, in their first row's slots of hc_ (the contact's
    // rows are consecutive and share one pattern)
    for (int i = 0; i < nefc_; ++i) {
      cursor_[i] = 0;
      if (d.efc_type[i] != kCnstrContactElliptic || d.efc_state[i] != kCnstrStateCone) continue;
      const Contact& con = d.contact[d.efc_id[i]];
      if (i != con.efc_address) continue;
      const int dim = con.dim, adr = d.efc_J_rowadr[i], n = d.efc_J_rownnz[i];
      for (int r = 0; r < dim; ++r) {
        for (int k = 0; k < n; ++k) {
          double s = 0;
          for (int q = 0; q < dim; ++q) s += con.H[r * dim + q] * d.efc_J[adr + q * n + k];
          hc_[adr + r * n + k] = s;
        }
      }
    }
    for (int j = 0; j < nv; ++j) {
      const int K = nv - 1 - j;
      acc_[j] = d.qM[m.dof_Madr[j]];
      for (int k = m_col_ptr_[j]; k < m_col_ptr_[j + 1]; ++k) acc_[m_row_[k]] += d.qM[m_adr_[k]];
      // rows of J touching column j; columns are visited in increasing order, so each row's
      // cursor is column j's position in it
      for (int t = d.efc_JT_rowadr[j]; t < d.efc_JT_rowadr[j] + d.efc_JT_rownnz[j]; ++t) {
        const int i = d.efc_JT_colind[t];
        const int kj = cursor_[i]++;
        const int state = d.efc_state[i];
        const int adr = d.efc_J_rowadr[i], n = d.efc_J_rownnz[i];
        const int* cols = d.efc_J_colind + adr;
        if (d.efc_type[i] == kCnstrContactElliptic && state == kCnstrStateCone) {
          const Contact& con = d.contact[d.efc_id[i]];
          if (i != con.efc_address) continue;  // once per contact, from its first row
          const int dim = con.dim;
          for (int k = kj; k < n; ++k) {
            double s = 0;
            for (int r = 0; r < dim; ++r) s += d.efc_J[adr + r * n + k] * hc_[adr + r * n + kj];
            acc_[cols[k]] += s;
          }
          continue;
        }
        if (!row_is_quadratic(state)) continue;
        const double* vals = d.efc_J + adr;
        // the following quadratic rows with this pattern (efc_J_rowsuper; next in column j's
        // list) join, up to four: each entry still gets the rows' products in row order
        int g = 1;
        while (g < 4 && g <= d.efc_J_rowsuper[i] && row_is_quadratic(d.efc_state[i + g])) ++g;
        for (int r = 1; r < g; ++r) ++cursor_[i + r];
        const double* v1 = d.efc_J + d.efc_J_rowadr[i + (g > 1)];
        const double* v2 = d.efc_J + d.efc_J_rowadr[i + (g > 2 ? 2 : 0)];
        const double* v3 = d.efc_J + d.efc_J_rowadr[i + (g > 3 ? 3 : 0)];
        const double dj = d.efc_D[i] * vals[kj];
        switch (g) {
          case 1:
            for (int k = kj; k < n; ++k) acc_[cols[k]] += dj * vals[k];
            break;
          case 2: {
            const double dj1 = d.efc_D[i + 1] * v1[kj];
            for (int k = kj; k < n; ++k) acc_[cols[k]] = acc_[cols[k]] + dj * vals[k] + dj1 * v1[k];
            break;
          }
          case 3: {
            const double dj1 = d.efc_D[i + 1] * v1[kj], dj2 = d.efc_D[i + 2] * v2[kj];
            for (int k = kj; k < n; ++k) {
              acc_[cols[k]] = acc_[cols[k]] + dj * vals[k] + dj1 * v1[k] + dj2 * v2[k];
            }
            break;
          }
          default: {
            const double dj1 = d.efc_D[i + 1] * v1[kj], dj2 = d.efc_D[i + 2] * v2[kj],
                         dj3 = d.efc_D[i + 3] * v3[kj];
            for (int k = kj; k < n; ++k) {
              acc_[cols[k]] =
                  acc_[cols[k]] + dj * vals[k] + dj1 * v1[k] + dj2 * v2[k] + dj3 * v3[k];
            }
            break;
          }
        }
        t += g - 1;
      }
      diag_[K] = acc_[j];
      acc_[j] = 0;
      for (int k = col_ptr_[K]; k < col_ptr_[K + 1]; ++k) {
        const int q = nv - 1 - row_ind_[k];
        upper_[k] = acc_[q];
        acc_[q] = 0;
      }
    }
  }

  const Model& m_;
  Data& d_;
  int nv_, nefc_;
  bool sparse_;
  double* w_ = nullptr;
  int* idx_ = nullptr;
  // dense
  double* h_ = nullptr;           // H (lower triangle), then its factor L' (upper triangle)
  double* h_diag_inv_ = nullptr;  // the reciprocals of the factor's diagonal
  double* full_ = nullptr;        // a row of J as a full vector
  int* cols_ = nullptr;           // the non-zero columns of a contact's rows
  double* cone_j_ = nullptr;      // a contact's rows of J at those columns, by columns
  int* row_nnz_ = nullptr;        // per row of J: its non-zero count
  int* row_cols_ = nullptr;       // and columns (nv per row)
  // sparse
  const int* col_ptr_ = nullptr;
  const int* row_ind_ = nullptr;
  double* upper_ = nullptr;
  double* diag_ = nullptr;
  double* acc_ = nullptr;
  int* cursor_ = nullptr;  // per row: the next entry of its pattern
  double* hc_ = nullptr;   // H_c J_c of cone contacts, laid out as efc_J
  const int* m_col_ptr_ = nullptr;
  const int* m_row_ = nullptr;
  const int* m_adr_ = nullptr;
  chol::Sparse chol_;
};

}  // namespace

void solve_newton(const Model& m, Data& d, int max_iterations, const primal::Start& start) {
  const int nv = m.nv;
  StackFrame frame(d);
  primal::Context c;
  primal::setup(c, m, d, frame, start);
  Hessian hessian(m, d, frame);

  primal::update_constraints(c, c.elliptic);
  hessian.rebuild();
  primal::update_gradient(c);
  hessian.solve(c.mgrad, c.grad);
  for (int i = 0; i < nv; ++i) c.search[i] = -c.mgrad[i];

  int iter = 0;
  while (iter < max_iterations) {
    const double old_cost = c.cost;
    // (a zero step still counts as an iteration: its improvement of 0 ends the loop)
    double alpha;
    if (!primal::line_search(c, m.opt.tolerance, &alpha)) break;
    primal::move(c, alpha);
    primal::update_constraints(c, c.elliptic);
    const int nupdate = hessian.update(c.old_state);
    primal::update_gradient(c);
    double gnorm2 = 0;
    for (int i = 0; i < nv; ++i) gnorm2 += c.grad[i] * c.grad[i];
    const double improvement = c.scale * (old_cost - c.cost);
    const double gradient = c.scale * std::sqrt(gnorm2);
    primal::record(c, iter, improvement, gradient, nupdate);
    ++iter;
    if (improvement_ends_iterations(improvement, m.opt.tolerance) || gradient < m.opt.tolerance ||
        iter >= max_iterations) {
      break;
    }
    // the next search direction (not made after the last iteration, which nothing would read)
    hessian.solve(c.mgrad, c.grad);
    for (int i = 0; i < nv; ++i) c.search[i] = -c.mgrad[i];
  }
  d.solver_iter = iter;
}

void solve_newton(const Model& m, Data& d, int max_iterations) {
  solve_newton(m, d, max_iterations, primal::Start{});
}

}  // namespace joco
