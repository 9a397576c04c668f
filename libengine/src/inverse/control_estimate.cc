// Controls from inverse dynamics: for actuators affine in their controls, the joint force of the
// actuators is B ctrl + b0 with B = moment' diag(gain) and b0 = moment' bias, a linear
// least-squares problem in ctrl.
#include <Eigen/Dense>
#include <cstring>

#include "joco/actuation.h"
#include "joco/inverse.h"

namespace joco {

bool actuation_affine_in_control(const Model& m) {
  if (m.opt.disableflags & kDisableActuation) return false;
  for (int u = 0; u < m.nu; ++u) {
    if (m.actuator_dyntype[u] != kDynNone) return false;
    if (m.actuator_gaintype[u] == kGainUser || m.actuator_biastype[u] == kBiasUser) return false;
  }
  return true;
}

// The matrices of one estimate, kept between estimates.
struct ControlEstimator::Impl {
  Eigen::MatrixXd B, factored_B;
  Eigen::VectorXd rhs, c, y, x, r;
  Eigen::CompleteOrthogonalDecomposition<Eigen::MatrixXd> cod;
  bool factored = false;
  int rank = 0;

  Impl(int nv, int nu)
      : B(nv, nu), factored_B(nv, nu), rhs(nv), c(nv), y(nu), x(nu), r(nv), cod(nv, nu) {}

  // x = cod.solve(rhs), the steps of Eigen's CompleteOrthogonalDecomposition::solve (so the same
  // bits) on the kept vectors, which it would allocate: c = Q' rhs, T y = c (rank rows), x = P y.
  // A rank-deficient B (Z' applied too) goes through Eigen's own solve.
  void solve() {
    const Eigen::Index nu = x.size();
    if (rank < nu) {
      x = cod.solve(rhs);
      return;
    }
    c = rhs;
    cod.matrixQ().setLength(rank).adjoint().applyThisOnTheLeft(c);
    y = c.head(nu);
    cod.matrixT().topLeftCorner(nu, nu).template triangularView<Eigen::Upper>().solveInPlace(y);
    const auto& permutation = cod.colsPermutation().indices();
    for (Eigen::Index i = 0; i < nu; ++i) x[permutation[i]] = y[i];
  }
};

ControlEstimator::ControlEstimator(const Model& m) : impl_(std::make_unique<Impl>(m.nv, m.nu)) {}
ControlEstimator::~ControlEstimator() = default;
ControlEstimator::ControlEstimator(ControlEstimator&&) noexcept = default;
ControlEstimator& ControlEstimator::operator=(ControlEstimator&&) noexcept = default;

int ControlEstimator::estimate(const Model& m, const Data& d, const double* target, double* ctrl,
                               double* residual) {
  Impl& e = *impl_;
  const int nu = m.nu, nv = m.nv;
  Eigen::MatrixXd& B = e.B;
  Eigen::VectorXd& rhs = e.rhs;
  rhs = Eigen::Map<const Eigen::VectorXd>(target, nv);
  for (int u = 0; u < nu; ++u) {
    double gain, bias;
    actuator_gain_bias(m, d, u, &gain, &bias);
    const double* moment = d.actuator_moment + static_cast<size_t>(u) * nv;
    for (int i = 0; i < nv; ++i) {
      B(i, u) = moment[i] * gain;
      rhs[i] -= moment[i] * bias;
    }
  }
  Eigen::VectorXd& x = e.x;
  x.setZero();
  e.rank = 0;
  if (nu > 0 && nv > 0) {
    // The same matrix decomposes the same way: keep the decomposition while B is unchanged.
    const size_t bytes = sizeof(double) * static_cast<size_t>(nv) * static_cast<size_t>(nu);
    if (!e.factored || std::memcmp(B.data(), e.factored_B.data(), bytes) != 0) {
      e.cod.compute(B);
      e.factored_B = B;
      e.factored = true;
    }
    e.rank = static_cast<int>(e.cod.rank());
    if (e.rank > 0) e.solve();
  }
  for (int u = 0; u < nu; ++u) ctrl[u] = x[u];
  if (residual) {
    e.r.noalias() = rhs - B * x;
    for (int i = 0; i < nv; ++i) residual[i] = e.r[i];
  }
  return e.rank;
}

int estimate_controls(const Model& m, const Data& d, const double* target, double* ctrl,
                      double* residual) {
  return ControlEstimator(m).estimate(m, d, target, ctrl, residual);
}

}  // namespace joco
