// Controls from inverse dynamics: for actuators affine in their controls, the joint force of the
// actuators is B ctrl + b0 with B = moment' diag(gain) and b0 = moment' bias, a linear
// least-squares problem in ctrl.
#include <Eigen/Dense>

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

int estimate_controls(const Model& m, const Data& d, const double* target, double* ctrl,
                      double* residual) {
  const int nu = m.nu, nv = m.nv;
  Eigen::MatrixXd B(nv, nu);
  Eigen::VectorXd rhs = Eigen::Map<const Eigen::VectorXd>(target, nv);
  for (int u = 0; u < nu; ++u) {
    double gain, bias;
    actuator_gain_bias(m, d, u, &gain, &bias);
    const double* moment = d.actuator_moment + static_cast<size_t>(u) * nv;
    for (int i = 0; i < nv; ++i) {
      B(i, u) = moment[i] * gain;
      rhs[i] -= moment[i] * bias;
    }
  }
  int rank = 0;
  Eigen::VectorXd x = Eigen::VectorXd::Zero(nu);
  if (nu > 0 && nv > 0) {
    Eigen::CompleteOrthogonalDecomposition<Eigen::MatrixXd> cod(B);
    rank = static_cast<int>(cod.rank());
    x = cod.solve(rhs);
  }
  for (int u = 0; u < nu; ++u) ctrl[u] = x[u];
  if (residual) {
    const Eigen::VectorXd r = rhs - B * x;
    for (int i = 0; i < nv; ++i) residual[i] = r[i];
  }
  return rank;
}

}  // namespace joco
