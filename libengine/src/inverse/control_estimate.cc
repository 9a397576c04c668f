// Controls from inverse dynamics: for actuators affine in their controls, the joint force of the
// actuators is B ctrl + b0 with B = moment' diag(gain) and b0 = moment' bias, a linear
// least-squares problem in ctrl.
#include <Eigen/Dense>
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <vector>

#include "inverse/least_squares.h"
#include "joco/actuation.h"
#include "joco/inverse.h"

namespace joco {

namespace detail {
namespace {

// Eigen's dot product of two contiguous vectors (n >= 1), in SSE2 packets of two lanes: two packets
// of partial sums over blocks of four, then one packet over the next two, the two lanes added,
// then the odd last product.
using Packet = double __attribute__((vector_size(16)));
inline Packet load(const double* p) {
  Packet v;
  std::memcpy(&v, p, sizeof v);
  return v;
}
double eigen_dot(const double* a, const double* b, Eigen::Index n) {
  if (n < 2) return a[0] * b[0];
  const Eigen::Index end = n / 2 * 2, end4 = n / 4 * 4;
  Packet p = load(a) * load(b);
  if (end > 2) {
    Packet q = load(a + 2) * load(b + 2);
    for (Eigen::Index i = 4; i < end4; i += 4) {
      p += load(a + i) * load(b + i);
      q += load(a + i + 2) * load(b + i + 2);
    }
    p += q;
    if (end > end4) p += load(a + end4) * load(b + end4);
  }
  double sum = p[0] + p[1];
  if (end < n) sum += a[end] * b[end];
  return sum;
}

// The sums of Eigen's column-major matrix-vector product A v (A: rows x cols, column stride lda):
// each row's sum from zero, column by column (a column at a time over the rows, so that it
// vectorises, each row's order kept).
void eigen_gemv_sums(const double* A, Eigen::Index lda, Eigen::Index rows, Eigen::Index cols,
                     const double* v, double* __restrict sum) {
  std::fill_n(sum, rows, 0.0);
  for (Eigen::Index j = 0; j < cols; ++j) {
    const double* __restrict column = A + j * lda;
    const double vj = v[j];
    for (Eigen::Index i = 0; i < rows; ++i) sum[i] = column[i] * vj + sum[i];
  }
}

}  // namespace

void solve_full_column_rank(const Eigen::CompleteOrthogonalDecomposition<Eigen::MatrixXd>& cod,
                            const double* rhs, double* c, double* y, double* x) {
  const Eigen::MatrixXd& qtz = cod.matrixQTZ();
  const Eigen::Index n = qtz.rows(), nu = qtz.cols();
  const double* tau = cod.hCoeffs().data();
  // c = Q' rhs: reflector k on c's rows k.. (Eigen's applyHouseholderOnTheLeft).
  std::copy_n(rhs, n, c);
  for (Eigen::Index k = 0; k < nu; ++k) {
    double* ck = c + k;
    const Eigen::Index rows = n - k;
    if (rows == 1) {
      ck[0] *= 1.0 - tau[k];
      continue;
    }
    if (tau[k] == 0.0) continue;
    const double* v = qtz.data() + k * n + k + 1;  // the essential part, rows - 1 long
    double tmp = 0.0;
    tmp += eigen_dot(v, ck + 1, rows - 1);
    tmp += ck[0];
    ck[0] -= tau[k] * tmp;
    double* __restrict below = ck + 1;
    for (Eigen::Index i = 0; i < rows - 1; ++i) below[i] -= tmp * (tau[k] * v[i]);
  }
  // T y = c's first nu rows, T upper triangular (Eigen's triangular_solve_vector: panels of 8
  // columns from the last, each solved in place, then taken off the rows above).
  std::copy_n(c, nu, y);
  constexpr Eigen::Index kPanel = 8;
  for (Eigen::Index pi = nu; pi > 0; pi -= kPanel) {
    const Eigen::Index width = std::min(pi, kPanel), start = pi - width;
    for (Eigen::Index k = 0; k < width; ++k) {
      const Eigen::Index i = pi - k - 1;
      if (y[i] != 0.0) {
        y[i] /= qtz.data()[i + i * n];
        const double* col = qtz.data() + i * n;
        for (Eigen::Index q = start; q < i; ++q) y[q] -= y[i] * col[q];
      }
    }
    if (start > 0) {  // (c is free by now: the sums)
      eigen_gemv_sums(qtz.data() + start * n, n, start, width, y + start, c);
      for (Eigen::Index q = 0; q < start; ++q) y[q] -= c[q];
    }
  }
  const auto& permutation = cod.colsPermutation().indices();
  for (Eigen::Index i = 0; i < nu; ++i) x[permutation[i]] = y[i];
}

void residual(const Eigen::MatrixXd& B, const double* rhs, const double* x, double* r) {
  eigen_gemv_sums(B.data(), B.rows(), B.rows(), B.cols(), x, r);
  for (Eigen::Index i = 0; i < B.rows(); ++i) r[i] = rhs[i] - r[i];
}

}  // namespace detail

bool actuation_affine_in_control(const Model& m) {
  if (m.opt.disableflags & kDisableActuation) return false;
  for (int u = 0; u < m.nu; ++u) {
    if (m.actuator_dyntype[u] != kDynNone) return false;
    if (m.actuator_gaintype[u] == kGainUser || m.actuator_biastype[u] == kBiasUser) return false;
  }
  return true;
}

namespace {

// Whether actuator u's column of B, moment' gain, is the same at every state: a fixed gain on a
// transmission whose moment is constant (a hinge or slide joint: the gear; a fixed tendon: the
// gear times its coefficients).
bool state_independent_column(const Model& m, int u) {
  if (m.actuator_gaintype[u] != kGainFixed) return false;
  const int id = m.actuator_trnid[2 * u];
  switch (m.actuator_trntype[u]) {
    case kTrnJoint:
    case kTrnJointInParent: return m.jnt_type[id] == kJointHinge || m.jnt_type[id] == kJointSlide;
    case kTrnTendon: return m.tendon_num[id] > 0 && m.wrap_type[m.tendon_adr[id]] == kWrapJoint;
    default: return false;
  }
}

uint64_t bits_of(double v) {
  uint64_t bits;
  std::memcpy(&bits, &v, sizeof bits);
  return bits;
}

}  // namespace

// The matrices of one estimate, kept between estimates.
struct ControlEstimator::Impl {
  Eigen::MatrixXd B;  // the matrix decomposed (cod), kept while no column changes
  Eigen::VectorXd rhs, c, y, x, r;
  Eigen::CompleteOrthogonalDecomposition<Eigen::MatrixXd> cod;
  // The actuators whose columns or biases are made at every estimate: those whose column depends
  // on the state, and those with a bias. The others' columns are made by the first estimate only.
  std::vector<int> per_state;
  std::vector<char> column_per_state;  // by actuator
  // The bias-free state-independent columns' share of b0, b0 -= moment * 0 for each: signed
  // zeros, which change only b0's zeros' signs, as adding their fold does (made once).
  Eigen::VectorXd zero_shares;
  bool factored = false;
  int rank = 0;

  Impl(const Model& m)
      : B(m.nv, m.nu),
        rhs(m.nv),
        c(m.nv),
        y(m.nu),
        x(m.nu),
        r(m.nv),
        cod(m.nv, m.nu),
        column_per_state(static_cast<size_t>(m.nu)),
        zero_shares(m.nv) {
    for (int u = 0; u < m.nu; ++u) {
      const bool fixed = state_independent_column(m, u);
      column_per_state[static_cast<size_t>(u)] = !fixed;
      if (!fixed || m.actuator_biastype[u] != kBiasNone) per_state.push_back(u);
    }
  }

  // x = cod.solve(rhs): for a B of full column rank, Eigen's steps (c = Q' rhs, T y = c, x = P y)
  // written out on the kept vectors (detail::solve_full_column_rank, the same bits); a
  // rank-deficient B (Z' applied too) goes through Eigen's own solve.
  void solve() {
    if (rank < x.size() || !detail::kEigenOrder) {
      x = cod.solve(rhs);
      return;
    }
    detail::solve_full_column_rank(cod, rhs.data(), c.data(), y.data(), x.data());
  }

  // The first estimate: every column, and the fixed bias-free columns' zero_shares.
  void make_fixed_columns(const Model& m, const Data& d) {
    const int nv = m.nv;
    zero_shares.setConstant(-0.0);  // the identity of addition, -0 + -0 included
    for (int u = 0; u < m.nu; ++u) {
      if (column_per_state[static_cast<size_t>(u)]) continue;
      double gain, bias;
      actuator_gain_bias(m, d, u, &gain, &bias);
      const double* moment = d.actuator_moment + static_cast<size_t>(u) * nv;
      double* column = B.data() + static_cast<size_t>(u) * nv;
      for (int i = 0; i < nv; ++i) column[i] = moment[i] * gain;
      if (m.actuator_biastype[u] == kBiasNone) {
        for (int i = 0; i < nv; ++i) zero_shares[i] -= moment[i] * bias;
      }
    }
  }
};

ControlEstimator::ControlEstimator(const Model& m) : impl_(std::make_unique<Impl>(m)) {}
ControlEstimator::~ControlEstimator() = default;
ControlEstimator::ControlEstimator(ControlEstimator&&) noexcept = default;
ControlEstimator& ControlEstimator::operator=(ControlEstimator&&) noexcept = default;

int ControlEstimator::estimate(const Model& m, const Data& d, const double* target, double* ctrl,
                               double* residual) {
  Impl& e = *impl_;
  const int nu = m.nu, nv = m.nv;
  Eigen::MatrixXd& B = e.B;
  Eigen::VectorXd& rhs = e.rhs;
  const bool first = !e.factored;
  if (first) e.make_fixed_columns(m, d);
  // b0 = target - moment' bias over the actuators in order. A bias-free fixed column subtracts
  // signed zeros, which matter only where b0 is still a zero: taking them first, as their fold,
  // gives the same bits (a zero later in the sum is either kept or already +0).
  double* __restrict b0 = rhs.data();  // (restrict: the loops below vectorise)
  for (int i = 0; i < nv; ++i) b0[i] = target[i] + e.zero_shares[i];
  uint64_t changed = first ? 1 : 0;  // bits in which a per-state column differs from B's
  for (const int u : e.per_state) {
    double gain, bias;
    actuator_gain_bias(m, d, u, &gain, &bias);
    const double* __restrict moment = d.actuator_moment + static_cast<size_t>(u) * nv;
    if (e.column_per_state[static_cast<size_t>(u)]) {
      double* __restrict column = B.data() + static_cast<size_t>(u) * nv;
      for (int i = 0; i < nv; ++i) {
        const double value = moment[i] * gain;
        changed |= bits_of(value) ^ bits_of(column[i]);
        column[i] = value;
      }
    }
    for (int i = 0; i < nv; ++i) b0[i] -= moment[i] * bias;
  }
  Eigen::VectorXd& x = e.x;
  x.setZero();
  if (nu > 0 && nv > 0) {
    // The same matrix decomposes the same way: keep the decomposition while B is unchanged.
    if (changed) {
      e.cod.compute(B);
      e.rank = static_cast<int>(e.cod.rank());
    }
    if (e.rank > 0) e.solve();
  }
  e.factored = true;
  for (int u = 0; u < nu; ++u) ctrl[u] = x[u];
  if (residual) {
    if (nv >= 2 && detail::kEigenOrder) {
      detail::residual(B, rhs.data(), x.data(), residual);
    } else {
      e.r.noalias() = rhs - B * x;
      for (int i = 0; i < nv; ++i) residual[i] = e.r[i];
    }
  }
  return e.rank;
}

int estimate_controls(const Model& m, const Data& d, const double* target, double* ctrl,
                      double* residual) {
  return ControlEstimator(m).estimate(m, d, target, ctrl, residual);
}

}  // namespace joco
