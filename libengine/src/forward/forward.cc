#include "joco/forward.h"

#include <cstring>

#include "data/timer.h"
#include "forward/unchecked.h"
#include "joco/actuation.h"
#include "joco/collision.h"
#include "joco/constraint.h"
#include "joco/inverse.h"
#include "joco/jacobian.h"
#include "joco/passive.h"
#include "joco/sensor.h"
#include "joco/smooth.h"
#include "joco/solver.h"
#include "joco/tendon.h"

namespace joco {

namespace {

bool enabled(const Model& m, int flag) { return (m.opt.enableflags & flag) != 0; }
bool disabled(const Model& m, int flag) { return (m.opt.disableflags & flag) != 0; }

}  // namespace

void accumulate_xfrc(const Model& m, const Data& d, double* qfrc) {
  for (int b = 1; b < m.nbody; ++b) {
    const double* f = d.xfrc_applied + 6 * b;
    if (f[0] == 0 && f[1] == 0 && f[2] == 0 && f[3] == 0 && f[4] == 0 && f[5] == 0) continue;
    apply_force_torque(m, d, f, f + 3, d.xipos + 3 * b, b, qfrc);
  }
}

namespace {

// The stages, timed as stages of a run when given its mark (see StageRun).
void position_stage(const Model& m, Data& d, TimerMark* mark) {
  StageLaps laps(d, kTimerPosition, mark);
  kinematics(m, d);
  com_pos(m, d);
  camlight(m, d);
  tendon(m, d);
  laps.lap(kTimerPosKinematics);
  crb(m, d);
  factor_m(m, d);
  laps.lap(kTimerPosInertia);
  collision(m, d);
  laps.lap(kTimerPosCollision);
  // Adhesion transmissions read this step's contacts, so transmissions follow collision (and are
  // timed with the constraint rows).
  transmission(m, d);
  make_constraint(m, d);
  laps.lap(kTimerPosMake);
  project_constraint(m, d);
  laps.lap(kTimerPosProject);
}

void velocity_stage(const Model& m, Data& d, TimerMark* mark) {
  StageTimer timer(d, kTimerVelocity, mark);
  tendon_velocity(m, d);
  actuator_velocity(m, d);
  com_vel(m, d);
  passive(m, d);
  rne(m, d, false, d.qfrc_bias);
  reference_constraint(m, d);
}

void actuation_stage(const Model& m, Data& d, TimerMark* mark) {
  StageTimer timer(d, kTimerActuation, mark);
  actuation(m, d);
}

void acceleration_stage(const Model& m, Data& d, TimerMark* mark) {
  StageTimer timer(d, kTimerAcceleration, mark);
  for (int i = 0; i < m.nv; ++i) {
    d.qfrc_smooth[i] = d.qfrc_passive[i] - d.qfrc_bias[i] + d.qfrc_applied[i] + d.qfrc_actuator[i];
  }
  accumulate_xfrc(m, d, d.qfrc_smooth);
  solve_m(m, d, d.qacc_smooth, d.qfrc_smooth, 1);
}

void constraint_stage(const Model& m, Data& d, TimerMark* mark) {
  StageTimer timer(d, kTimerConstraint, mark);
  solve_constraint(m, d);
}

}  // namespace

void fwd_position(const Model& m, Data& d) { position_stage(m, d, nullptr); }
void fwd_velocity(const Model& m, Data& d) { velocity_stage(m, d, nullptr); }
void fwd_actuation(const Model& m, Data& d) { actuation_stage(m, d, nullptr); }
void fwd_acceleration(const Model& m, Data& d) { acceleration_stage(m, d, nullptr); }
void fwd_constraint(const Model& m, Data& d) { constraint_stage(m, d, nullptr); }

void unchecked::forward_skip(const Model& m, Data& d, Stage skip, bool skip_sensors) {
  // The stages run back to back and share the clock reads at their boundaries; the sensors and
  // energy between them are timed with forward only.
  StageRun run(d, kTimerForward);
  TimerMark* mark = &run.mark;
  const bool sensors = !skip_sensors && !disabled(m, kDisableSensor) && m.nsensor > 0;
  const bool energy = enabled(m, kEnableEnergy);
  auto untimed = [&](auto&& work) {
    work();
    mark->reset();
  };
  if (skip < kStagePos) {
    position_stage(m, d, mark);
    if (sensors) untimed([&] { sensor_pos(m, d); });
    if (energy) untimed([&] { energy_pos(m, d); });
  }
  if (skip < kStageVel) {
    velocity_stage(m, d, mark);
    if (sensors) untimed([&] { sensor_vel(m, d); });
    if (energy) untimed([&] { energy_vel(m, d); });
  }
  actuation_stage(m, d, mark);
  acceleration_stage(m, d, mark);
  constraint_stage(m, d, mark);
  if (sensors) untimed([&] { sensor_acc(m, d); });
}

void unchecked::step1_skip(const Model& m, Data& d, Stage skip, bool skip_sensors) {
  // A bad state is reset to the model's initial state (with a warning); simulation goes on from
  // there, with every stage recomputed.
  if (!check_pos(m, d) || !check_vel(m, d)) skip = kStageNone;
  unchecked::forward_skip(m, d, skip, skip_sensors);
  if (!check_acc(m, d)) unchecked::forward_skip(m, d, kStageNone, skip_sensors);
  if (enabled(m, kEnableFwdinv)) compare_fwd_inv(m, d);
}

void unchecked::integrate(const Model& m, Data& d) {
  switch (m.opt.integrator) {
    case kIntRK4: runge_kutta4(m, d); break;
    case kIntImplicit:
    case kIntImplicitFast: implicit(m, d); break;
    default: euler(m, d);
  }
}

// The public entry points: each checks the Data once, then runs unchecked.

void forward_skip(const Model& m, Data& d, Stage skip, bool skip_sensors) {
  check_data(m, d);
  unchecked::forward_skip(m, d, skip, skip_sensors);
}

void forward(const Model& m, Data& d) { forward_skip(m, d, kStageNone, false); }

void forward_without_sensors(const Model& m, Data& d) { forward_skip(m, d, kStageNone, true); }

void step1_skip(const Model& m, Data& d, Stage skip, bool skip_sensors) {
  check_data(m, d);
  unchecked::step1_skip(m, d, skip, skip_sensors);
}

void step1(const Model& m, Data& d) { step1_skip(m, d, kStageNone, false); }

void step2(const Model& m, Data& d) { integrate(m, d); }

void step(const Model& m, Data& d) {
  check_data(m, d);
  StageTimer timer(d, kTimerStep);
  unchecked::step1_skip(m, d, kStageNone, false);
  unchecked::integrate(m, d);
}

void integrate(const Model& m, Data& d) {
  check_data(m, d);
  unchecked::integrate(m, d);
}

}  // namespace joco
