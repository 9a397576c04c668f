#include "compiler/length_range.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "joco/data.h"
#include "joco/error.h"
#include "joco/forward.h"
#include "joco/smooth.h"
#include "math/vec.h"

namespace joco::compiler {

namespace {

bool selected(const Model& m, int i, int mode) {
  const bool muscle =
      m.actuator_gaintype[i] == kGainMuscle || m.actuator_biastype[i] == kBiasMuscle;
  const bool user = m.actuator_gaintype[i] == kGainUser || m.actuator_biastype[i] == kBiasUser;
  switch (mode) {
    case 1: return muscle;
    case 2: return muscle || user;
    case 3: return true;
    default: return false;
  }
}

// The limits of the joint or tendon the actuator drives, when it has them.
bool limits_of_target(const Model& m, int i, double* range) {
  const int id = m.actuator_trnid[2 * i];
  switch (m.actuator_trntype[i]) {
    case kTrnJoint:
    case kTrnJointInParent:
      if (!m.jnt_limited[id]) return false;
      range[0] = m.jnt_range[2 * id];
      range[1] = m.jnt_range[2 * id + 1];
      return true;
    case kTrnTendon:
      if (!m.tendon_limited[id]) return false;
      range[0] = m.tendon_range[2 * id];
      range[1] = m.tendon_range[2 * id + 1];
      return true;
    default: return false;
  }
}

// One side of the range: push the actuator's transmission with a force that accelerates the joints
// at `accel` (clamped to maxforce), damp the velocities with time constant timeconst, and return
// the extreme length over the last inteval seconds, with the spread seen there.
std::pair<double, double> push(const Model& m, Data& d, int i, double sign,
                               const CompilerSettings::LengthRange& lr) {
  reset_data(m, d);
  const double h = m.opt.timestep;
  const int steps = static_cast<int>(std::ceil(lr.inttotal / h));
  const int eval_from = static_cast<int>(std::floor((lr.inttotal - lr.inteval) / h));
  const double damping = std::exp(-h / std::max(0.01, lr.timeconst));
  double lo = std::numeric_limits<double>::infinity(), hi = -lo;
  std::vector<double> solved(static_cast<size_t>(m.nv));
  for (int t = 0; t < steps; ++t) {
    // The first half of a step (positions and velocities), then the pushing force from this
    // state's moment arms, then the rest of the step.
    fwd_position(m, d);
    fwd_velocity(m, d);
    if (t >= eval_from) {
      lo = std::min(lo, d.actuator_length[i]);
      hi = std::max(hi, d.actuator_length[i]);
    }
    const double* moment = d.actuator_moment + static_cast<ptrdiff_t>(i) * m.nv;
    solve_m(m, d, solved.data(), moment, 1);
    // (in mju_dot's rounding order: the chaotic simulations below can amplify it to 1e-9)
    const double norm = std::sqrt(math::dot(solved.data(), solved.data(), m.nv));
    double force = norm > kMinVal ? lr.accel / norm : 0;
    if (lr.maxforce > 0) force = std::min(force, lr.maxforce);
    for (int k = 0; k < m.nv; ++k) d.qfrc_applied[k] = sign * force * moment[k];
    fwd_actuation(m, d);
    fwd_acceleration(m, d);
    fwd_constraint(m, d);
    integrate(m, d);
    for (int k = 0; k < m.nv; ++k) d.qvel[k] *= damping;
  }
  return {sign < 0 ? lo : hi, hi - lo};
}

// An actuator whose range is found, from its target's limits or by simulating, and that range.
struct Found {
  int i;
  bool simulate;
  std::array<double, 2> range;
};

// Simulates the ranges of the actuators in `found` that need it.
void simulate_ranges(Model& m, const ModelSpec& spec, std::vector<Found>& found) {
  const CompilerSettings::LengthRange& lr = spec.compiler.lengthrange;
  // The simulation: joint and tendon limits only (no contacts, passive forces, gravity, friction
  // loss or actuation), with its own time step. It runs on m with these options, restored at the
  // end, rather than on a copy (which would hold the model's textures and meshes too), and writes
  // the ranges found at the end, so that every simulation sees the ranges as they came in.
  struct RestoreOptions {
    Model& m;
    const Option saved;
    ~RestoreOptions() { m.opt = saved; }
  } restore{m, m.opt};
  m.opt.disableflags |= kDisableContact | kDisablePassive | kDisableGravity | kDisableFrictionloss |
                        kDisableActuation;
  if (lr.timestep > 0) m.opt.timestep = lr.timestep;
  Data d(m);
  for (Found& f : found) {
    if (!f.simulate) continue;
    const int i = f.i;
    const std::string name = spec.actuators[static_cast<size_t>(i)].name;
    const Origin& origin = spec.actuators[static_cast<size_t>(i)].origin;
    // The simulation fails as the model's own would (a Data stack too small for it, say): a
    // fault of the model, reported as such (mjcf_fuzz found RuntimeError leaving the compiler).
    std::pair<double, double> low_push, high_push;
    try {
      low_push = push(m, d, i, -1, lr);
      high_push = push(m, d, i, 1, lr);
    } catch (const RuntimeError& e) {
      throw InputError(origin.describe(name) + ": length range computation failed: " + e.what());
    }
    const auto [low, low_spread] = low_push;
    const auto [high, high_spread] = high_push;
    const double width = high - low;
    if (!(width > 0) || !std::isfinite(width)) {
      throw InputError(origin.describe(name) +
                       ": length range computation found an empty or invalid range");
    }
    if (low_spread > lr.tolrange * width || high_spread > lr.tolrange * width) {
      throw InputError(
          origin.describe(name) +
          ": length range computation did not converge (the actuator may be unlimited: "
          "add joint or tendon limits, or adjust <compiler><lengthrange>)");
    }
    f.range = {low, high};
  }
}

}  // namespace

void compute_length_ranges(Model& m, const ModelSpec& spec) {
  const CompilerSettings::LengthRange& lr = spec.compiler.lengthrange;
  if (lr.mode == 0 || m.nu == 0) return;
  std::vector<Found> found;  // written into m at the end
  for (int i = 0; i < m.nu; ++i) {
    if (!selected(m, i, lr.mode)) continue;
    const double* range = m.actuator_lengthrange + 2 * i;
    if (lr.useexisting && range[0] < range[1]) continue;
    Found f{i, true, {}};
    f.simulate = !(lr.uselimit && limits_of_target(m, i, f.range.data()));
    found.push_back(f);
  }
  if (std::any_of(found.begin(), found.end(), [](const Found& f) { return f.simulate; })) {
    simulate_ranges(m, spec, found);
  }
  for (const Found& f : found) std::copy_n(f.range.data(), 2, m.actuator_lengthrange + 2 * f.i);
}

}  // namespace joco::compiler
