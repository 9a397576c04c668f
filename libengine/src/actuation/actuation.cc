// Actuator forces and activation dynamics: each actuator is a scalar force generator, affine in its
// activation (or control) with gain and bias that may depend on the transmission's length and
// velocity, mapped to joint space by its moment arms.
#include "joco/actuation.h"

#include <algorithm>
#include <cmath>

#include "actuation/moment_support.h"
#include "joco/muscle.h"

namespace joco {

namespace {

inline double clamp(double x, const double range[2]) {
  return x < range[0] ? range[0] : (x > range[1] ? range[1] : x);
}

// NaN, infinite or beyond kMaxVal.
inline bool is_bad(double x) { return std::isnan(x) || x > kMaxVal || x < -kMaxVal; }

}  // namespace

void actuator_gain_bias(const Model& m, const Data& d, int u, double* gain, double* bias) {
  const double length = d.actuator_length[u], velocity = d.actuator_velocity[u];
  const double* gainprm = m.actuator_gainprm + kNGAIN * u;
  const double* biasprm = m.actuator_biasprm + kNBIAS * u;
  *gain = 1;
  switch (m.actuator_gaintype[u]) {
    case kGainFixed: *gain = gainprm[0]; break;
    case kGainAffine: *gain = gainprm[0] + gainprm[1] * length + gainprm[2] * velocity; break;
    case kGainMuscle:
      *gain = muscle_gain(length, velocity, m.actuator_lengthrange + 2 * u, m.actuator_acc0[u],
                          gainprm);
      break;
    default: break;
  }
  *bias = 0;
  switch (m.actuator_biastype[u]) {
    case kBiasAffine: *bias = biasprm[0] + biasprm[1] * length + biasprm[2] * velocity; break;
    case kBiasMuscle:
      *bias = muscle_bias(length, m.actuator_lengthrange + 2 * u, m.actuator_acc0[u], biasprm);
      break;
    default: break;
  }
}

void actuation(const Model& m, Data& d) {
  const int nu = m.nu, nv = m.nv;
  if (m.opt.disableflags & kDisableActuation) {
    for (int u = 0; u < nu; ++u) d.actuator_force[u] = 0;
    for (int i = 0; i < nv; ++i) d.qfrc_actuator[i] = 0;
    return;
  }

  StackFrame frame(d);
  double* ctrl = frame.doubles(nu);
  const bool clamp_ctrl = !(m.opt.disableflags & kDisableClampctrl);
  for (int u = 0; u < nu; ++u) {
    ctrl[u] = d.ctrl[u];
    if (clamp_ctrl && m.actuator_ctrllimited[u])
      ctrl[u] = clamp(ctrl[u], m.actuator_ctrlrange + 2 * u);
  }
  for (int u = 0; u < nu; ++u) {
    if (is_bad(ctrl[u])) {
      raise_warning(d, kWarnBadCtrl, u);
      for (int k = 0; k < nu; ++k) ctrl[k] = 0;
      break;
    }
  }

  // The activations belong to the last na actuators.
  const int first_stateful = nu - m.na;
  for (int u = first_stateful; u < nu; ++u) {
    const int a = u - first_stateful;
    const double* prm = m.actuator_dynprm + kNDYN * u;
    double rate = 0;
    switch (m.actuator_dyntype[u]) {
      case kDynIntegrator: rate = ctrl[u]; break;
      case kDynFilter: rate = (ctrl[u] - d.act[a]) / std::max(prm[0], kMinVal); break;
      case kDynMuscle: rate = muscle_dynamics(ctrl[u], d.act[a], prm); break;
      default: break;
    }
    d.act_dot[a] = rate;
  }

  for (int u = 0; u < nu; ++u) {
    double gain, bias;
    actuator_gain_bias(m, d, u, &gain, &bias);
    const double input = m.actuator_dyntype[u] == kDynNone ? ctrl[u] : d.act[u - first_stateful];
    double force = gain * input + bias;
    if (m.actuator_forcelimited[u]) force = clamp(force, m.actuator_forcerange + 2 * u);
    d.actuator_force[u] = force;
  }

  // qfrc_actuator = moment' force
  for (int i = 0; i < nv; ++i) d.qfrc_actuator[i] = 0;
  for (int u = 0; u < nu; ++u) {
    const double force = d.actuator_force[u];
    if (force == 0) continue;
    const double* moment = d.actuator_moment + static_cast<size_t>(u) * nv;
    for_each_moment_dof(m, u, [&](int i) { d.qfrc_actuator[i] += moment[i] * force; });
  }
}

}  // namespace joco
