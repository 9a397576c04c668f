#include "joco/forward.h"

#include <cstring>

#include "forward/timer.h"
#include "joco/constraint.h"
#include "joco/jacobian.h"
#include "joco/smooth.h"
#include "joco/solver.h"

namespace joco {

namespace {

bool enabled(const Model& m, int flag) { return (m.opt.enableflags & flag) != 0; }

// Collision detection: the contact list d.contact[0..ncon). This is where the collision module's
// collision(m, d) (joco/collision.h, branch collision) is called once it is merged; until then no
// contacts are found.
void detect_contacts(const Model& m, Data& d) {
  (void)m;
  d.ncon = 0;
}

// qfrc += J' [force; torque] for every body's xfrc_applied, applied at its centre of mass.
void accumulate_xfrc(const Model& m, Data& d, double* qfrc) {
  StackFrame frame(d);
  double* jacp = nullptr;
  double* jacr = nullptr;
  for (int b = 1; b < m.nbody; ++b) {
    const double* f = d.xfrc_applied + 6 * b;
    if (f[0] == 0 && f[1] == 0 && f[2] == 0 && f[3] == 0 && f[4] == 0 && f[5] == 0) continue;
    if (!jacp) {
      jacp = frame.doubles(3 * m.nv);
      jacr = frame.doubles(3 * m.nv);
    }
    jac(m, d, jacp, jacr, d.xipos + 3 * b, b);
    for (int i = 0; i < m.nv; ++i) {
      qfrc[i] += jacp[i] * f[0] + jacp[m.nv + i] * f[1] + jacp[2 * m.nv + i] * f[2] +
                 jacr[i] * f[3] + jacr[m.nv + i] * f[4] + jacr[2 * m.nv + i] * f[5];
    }
  }
}

}  // namespace

void fwd_position(const Model& m, Data& d) {
  StageTimer timer(d, kTimerPosition);
  {
    StageTimer t(d, kTimerPosKinematics);
    kinematics(m, d);
    com_pos(m, d);
    camlight(m, d);
  }
  {
    StageTimer t(d, kTimerPosInertia);
    crb(m, d);
    factor_m(m, d);
  }
  {
    StageTimer t(d, kTimerPosCollision);
    detect_contacts(m, d);
  }
  {
    StageTimer t(d, kTimerPosMake);
    make_constraint(m, d);
  }
  {
    StageTimer t(d, kTimerPosProject);
    project_constraint(m, d);
  }
}

void fwd_velocity(const Model& m, Data& d) {
  StageTimer timer(d, kTimerVelocity);
  com_vel(m, d);
  std::memset(d.qfrc_passive, 0, sizeof(double) * static_cast<size_t>(m.nv));
  rne(m, d, false, d.qfrc_bias);
  reference_constraint(m, d);
}

void fwd_actuation(const Model& m, Data& d) {
  StageTimer timer(d, kTimerActuation);
  std::memset(d.qfrc_actuator, 0, sizeof(double) * static_cast<size_t>(m.nv));
}

void fwd_acceleration(const Model& m, Data& d) {
  StageTimer timer(d, kTimerAcceleration);
  for (int i = 0; i < m.nv; ++i) {
    d.qfrc_smooth[i] = d.qfrc_passive[i] - d.qfrc_bias[i] + d.qfrc_applied[i] + d.qfrc_actuator[i];
  }
  accumulate_xfrc(m, d, d.qfrc_smooth);
  solve_m(m, d, d.qacc_smooth, d.qfrc_smooth, 1);
}

void fwd_constraint(const Model& m, Data& d) {
  StageTimer timer(d, kTimerConstraint);
  solve_constraint(m, d);
}

void forward(const Model& m, Data& d) {
  StageTimer timer(d, kTimerForward);
  fwd_position(m, d);
  if (enabled(m, kEnableEnergy)) energy_pos(m, d);
  fwd_velocity(m, d);
  if (enabled(m, kEnableEnergy)) energy_vel(m, d);
  fwd_actuation(m, d);
  fwd_acceleration(m, d);
  fwd_constraint(m, d);
}

void step(const Model& m, Data& d) {
  StageTimer timer(d, kTimerStep);
  // A bad state is reset to the model's initial state (with a warning); simulation goes on from
  // there.
  if (check_pos(m, d)) check_vel(m, d);
  forward(m, d);
  if (!check_acc(m, d)) forward(m, d);
  integrate(m, d);
}

void integrate(const Model& m, Data& d) {
  switch (m.opt.integrator) {
    case kIntRK4: runge_kutta4(m, d); break;
    case kIntImplicit:
    case kIntImplicitFast: implicit(m, d); break;
    default: euler(m, d);
  }
}

}  // namespace joco
