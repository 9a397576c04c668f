// Forward dynamics and time stepping: the simulation pipeline of the computation chapter.
//
//   step = step1, step2
//   step1 = check_pos, check_vel, forward, check_acc, (compare_fwd_inv when fwdinv is enabled)
//   step2 = integrate (the model's integrator)
//   forward = fwd_position, sensor_pos, fwd_velocity, sensor_vel, fwd_actuation, fwd_acceleration,
//             fwd_constraint, sensor_acc
//
// None of these allocate: temporaries come from the Data's stack. Each entry point refuses a Data
// made for another model (check_data).
#pragma once

#include "joco/data.h"
#include "joco/model.h"

namespace joco {

// Forward dynamics at the current state: everything from kinematics to qacc, no integration.
void forward(const Model& m, Data& d);

// forward without the sensor stages (MuJoCo's mj_forwardSkip(m, d, mjSTAGE_NONE, 1)): RK4's
// intermediate evaluations, so that sensordata stays that of the step's start as in MuJoCo.
void forward_without_sensors(const Model& m, Data& d);

// forward from the first stage not skipped, and without the sensor stages when skip_sensors
// (mj_forwardSkip): skip = kStagePos keeps the results of the position stage (and its sensors
// and energy), kStageVel those of the position and velocity stages, kStageNone recomputes all.
// Used to difference dynamics cheaply: the skipped stages' results must be those of the current
// inputs. Inputs by stage: qpos and mocap poses (position); qvel (velocity); ctrl, act,
// qfrc_applied, xfrc_applied (acceleration).
void forward_skip(const Model& m, Data& d, Stage skip, bool skip_sensors);

// One time step with the model's integrator (opt.integrator): step1 then step2.
void step(const Model& m, Data& d);

// step in two halves, split where a caller records what forward computed at the state the step
// starts from (joco-simulate writes a row there, joco-fwdinv-check takes its states): step1 runs
// the divergence checks (a bad qpos, qvel or qacc resets d to the model's initial state, and
// forward runs again from there), forward and, when fwdinv is enabled, compare_fwd_inv; step2
// integrates. step1 then step2 is step, bit for bit, with every integrator.
//
// Unlike MuJoCo's mj_step1, which stops after the velocity stage so that a controller can set the
// controls from its results (and whose mj_step2 then integrates with Euler whatever the
// integrator, since RK4 would need the control law at its intermediate points), step1 runs the
// whole of forward, and step2 keeps the model's integrator, RK4 included. So set ctrl and the
// applied forces before step1, as before step: changed between the halves, they reach only RK4's
// three later evaluations, and the next step.
void step1(const Model& m, Data& d);
void step2(const Model& m, Data& d);

// step1 with forward_skip's skip and skip_sensors (after a divergence reset nothing is skipped):
// with step2, MuJoCo's mj_stepSkip, the step of the transition derivatives.
void step1_skip(const Model& m, Data& d, Stage skip, bool skip_sensors);

// step2: advances the state with the results of a forward call at the current state, with the
// model's integrator.
void integrate(const Model& m, Data& d);

// The stages of forward, for callers that want to run part of the pipeline (finite differences,
// inverse dynamics). Each needs the stages before it.
void fwd_position(const Model& m, Data& d);      // kinematics ... contacts, constraint rows, efc_AR
void fwd_velocity(const Model& m, Data& d);      // velocities, passive and bias forces, aref
void fwd_actuation(const Model& m, Data& d);     // act_dot, actuator_force, qfrc_actuator
void fwd_acceleration(const Model& m, Data& d);  // qfrc_smooth, qacc_smooth
void fwd_constraint(const Model& m, Data& d);    // constraint solver: forces, qacc

// qfrc += J' [force; torque] for every body's xfrc_applied, applied at its centre of mass
// (mj_xfrcAccumulate).
void accumulate_xfrc(const Model& m, const Data& d, double* qfrc);

// Integrators: advance time, qvel, qpos and act from the results of forward.
void euler(const Model& m, Data& d);         // semi-implicit, with implicit joint damping
void runge_kutta4(const Model& m, Data& d);  // classic RK4 (calls forward three more times)
void implicit(const Model& m, Data& d);      // implicit in velocity (implicit, implicitfast)

// Divergence checks: a NaN, infinity or |value| > kMaxVal in qpos, qvel or qacc raises the matching
// warning and resets the Data to the model's initial state (MuJoCo's behaviour). They return false
// when they reset.
bool check_pos(const Model& m, Data& d);
bool check_vel(const Model& m, Data& d);
bool check_acc(const Model& m, Data& d);

}  // namespace joco
