#include "joco/inverse.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "inverse/least_squares.h"
#include "joco/actuation.h"
#include "joco/forward.h"
#include "joco/mjcf.h"
#include "joco/motion_differences.h"
#include "joco/smooth.h"
#include "support/test_support.h"

namespace joco {
namespace {

const char* const kRig = "inverse/rig.xml";

double norm(const std::vector<double>& x) {
  double s = 0;
  for (double v : x) s += v * v;
  return std::sqrt(s);
}

// qfrc_applied + J' xfrc_applied + qfrc_actuator: what the inverse must give back.
std::vector<double> applied_forces(const Model& m, const Data& d) {
  std::vector<double> f(static_cast<size_t>(m.nv));
  for (int i = 0; i < m.nv; ++i) f[i] = d.qfrc_applied[i] + d.qfrc_actuator[i];
  accumulate_xfrc(m, d, f.data());
  return f;
}

// The worst difference of two force vectors relative to the larger norm (and 1e-300).
double relative_error(const std::vector<double>& a, const double* b) {
  double diff = 0, scale = 0, sb = 0;
  for (size_t i = 0; i < a.size(); ++i) {
    diff = std::max(diff, std::abs(a[i] - b[i]));
    sb += b[i] * b[i];
  }
  scale = std::max({norm(a), std::sqrt(sb), 1e-300});
  return diff / scale;
}

void random_inputs(const Model& m, Data& d, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(-1, 1);
  for (int i = 0; i < m.nu; ++i) d.ctrl[i] = u(rng);
  for (int i = 0; i < m.nv; ++i) d.qfrc_applied[i] = 0.5 * u(rng);
  for (int i = 6; i < 6 * m.nbody; ++i) d.xfrc_applied[i] = 0.3 * u(rng);
}

// Runs the model `steps` steps from qpos0 with random inputs, so that contacts and limits are
// active.
void settle(const Model& m, Data& d, int steps, uint64_t seed) {
  for (int s = 0; s < steps; ++s) {
    if (s % 25 == 0) random_inputs(m, d, seed + s);
    step(m, d);
  }
}

// Forward dynamics solved to convergence, then inverse: the analytic constraint forces at the
// solver's qacc are the solver's, so qfrc_inverse gives back the applied forces.
TEST(Inverse, UndoesConvergedForwardDynamics) {
  for (const char* path :
       {kRig, "mujoco/model/humanoid/humanoid.xml", "mujoco/model/slider_crank/slider_crank.xml",
        "mujoco/model/tendon_arm/arm26.xml"}) {
    for (int cone : {kConePyramidal, kConeElliptic}) {
      Model m = compile_mjcf_file(test::testdata(path));
      m.opt.cone = cone;
      m.opt.solver = kSolverNewton;
      m.opt.tolerance = 1e-15;
      m.opt.iterations = 200;
      Data d = make_data(m);
      settle(m, d, 300, 7);
      random_inputs(m, d, 99);
      forward(m, d);
      const std::vector<double> efc_force(d.efc_force, d.efc_force + d.nefc);
      const std::vector<double> applied = applied_forces(m, d);
      inverse(m, d);
      const std::string where = std::string(path) + " cone " + std::to_string(cone);
      EXPECT_LT(relative_error(applied, d.qfrc_inverse), 1e-9) << where;
      for (int i = 0; i < d.nefc; ++i) {
        EXPECT_NEAR(d.efc_force[i], efc_force[i], 1e-7 * (1 + std::abs(efc_force[i])))
            << where << " row " << i;
      }
    }
  }
}

// The continuous-time acceleration of one step of each one-step integrator: integrate, take
// (qvel' - qvel) / h, and discrete_to_continuous must give forward's qacc back.
TEST(Inverse, DiscreteToContinuousUndoesEachIntegrator) {
  for (int integrator : {kIntEuler, kIntImplicit, kIntImplicitFast}) {
    Model m = compile_mjcf_file(test::testdata(kRig));
    m.opt.integrator = integrator;
    Data d = make_data(m);
    settle(m, d, 200, 3);
    random_inputs(m, d, 5);
    forward(m, d);
    const std::vector<double> qacc(d.qacc, d.qacc + m.nv);
    Data next = d;
    integrate(m, next);
    std::vector<double> a(static_cast<size_t>(m.nv));
    for (int i = 0; i < m.nv; ++i) a[i] = (next.qvel[i] - d.qvel[i]) / m.opt.timestep;
    // The step's acceleration is not the continuous one (damping, velocity derivatives)...
    EXPECT_GT(relative_error(qacc, a.data()), 1e-4) << "integrator " << integrator;
    discrete_to_continuous(m, d, m.opt.timestep, a.data());
    // ... until converted.
    EXPECT_LT(relative_error(qacc, a.data()), 1e-10) << "integrator " << integrator;
  }
}

// The inverse with discrete-time accelerations recovers the applied forces of a step exactly; the
// continuous inverse given the same accelerations does not. RK4 has no discrete form: the flag
// changes nothing.
TEST(Inverse, DiscreteInverseRecoversTheStepsForces) {
  for (int integrator : {kIntEuler, kIntImplicit, kIntImplicitFast, kIntRK4}) {
    Model m = compile_mjcf_file(test::testdata(kRig));
    m.opt.integrator = integrator;
    m.opt.tolerance = 1e-15;
    m.opt.iterations = 200;
    Data d = make_data(m);
    settle(m, d, 200, 11);
    random_inputs(m, d, 13);
    forward(m, d);
    const std::vector<double> applied = applied_forces(m, d);
    Data next = d;
    integrate(m, next);
    Data inv = d;
    for (int i = 0; i < m.nv; ++i) inv.qacc[i] = (next.qvel[i] - d.qvel[i]) / m.opt.timestep;
    const std::vector<double> given(inv.qacc, inv.qacc + m.nv);
    const std::string where = "integrator " + std::to_string(integrator);
    if (integrator == kIntRK4) {
      Data plain = inv;
      inverse(m, plain);
      inverse(m, inv, {.discrete = true});
      for (int i = 0; i < m.nv; ++i) EXPECT_EQ(inv.qfrc_inverse[i], plain.qfrc_inverse[i]);
      continue;
    }
    Data continuous = inv;
    inverse(m, continuous);
    EXPECT_GT(relative_error(applied, continuous.qfrc_inverse), 1e-3) << where;
    inverse(m, inv, {.discrete = true});
    EXPECT_LT(relative_error(applied, inv.qfrc_inverse), 1e-8) << where;
    for (int i = 0; i < m.nv; ++i) EXPECT_EQ(inv.qacc[i], given[i]) << "qacc is given back";
  }
}

// Positions alone: an Euler rollout's qpos, differenced as the step made them (kDiscrete), give
// back the applied forces of every interior row with the discrete inverse.
TEST(Inverse, DiscreteRoundTripFromPositions) {
  for (int integrator : {kIntEuler, kIntImplicitFast}) {
    Model m = compile_mjcf_file(test::testdata(kRig));
    m.opt.integrator = integrator;
    m.opt.tolerance = 1e-15;
    m.opt.iterations = 200;
    Data d = make_data(m);
    settle(m, d, 100, 17);
    const int rows = 60;
    std::vector<double> qpos, time, applied, ctrl;
    for (int t = 0; t < rows; ++t) {
      random_inputs(m, d, 1000 + t);
      for (int i = 0; i < m.nv; ++i) d.qfrc_applied[i] = 0;
      for (int i = 0; i < 6 * m.nbody; ++i) d.xfrc_applied[i] = 0;
      forward(m, d);
      qpos.insert(qpos.end(), d.qpos, d.qpos + m.nq);
      time.push_back(d.time);
      const std::vector<double> f = applied_forces(m, d);
      applied.insert(applied.end(), f.begin(), f.end());
      ctrl.insert(ctrl.end(), d.ctrl, d.ctrl + m.nu);
      integrate(m, d);
    }
    std::vector<double> qvel(static_cast<size_t>(rows) * m.nv), qacc(qvel.size());
    DifferenceOptions o;
    o.scheme = DifferenceScheme::kDiscrete;
    differentiate_positions(m, rows, time.data(), qpos.data(), o, nullptr, qvel.data(),
                            qacc.data());
    Data inv = make_data(m);
    double worst = 0;
    for (int t = 1; t < rows - 1; ++t) {
      std::copy_n(qpos.data() + t * m.nq, m.nq, inv.qpos);
      std::copy_n(qvel.data() + t * m.nv, m.nv, inv.qvel);
      std::copy_n(qacc.data() + t * m.nv, m.nv, inv.qacc);
      std::copy_n(ctrl.data() + t * m.nu, m.nu, inv.ctrl);  // implicitfast: D depends on ctrl
      inverse(m, inv, {.discrete = true});
      const std::vector<double> f(applied.begin() + t * m.nv, applied.begin() + (t + 1) * m.nv);
      worst = std::max(worst, relative_error(f, inv.qfrc_inverse));
    }
    EXPECT_LT(worst, 1e-8) << "integrator " << integrator;
    std::printf("integrator %d: discrete round trip from qpos, worst relative error %.2e\n",
                integrator, worst);
  }
}

// The fwdinv comparison against its definition: with PGS, qacc is M^-1 of the forces and the
// solver's constraint forces, so the two discrepancies are the same vector; the primal solvers
// make efc_force the analytic force at their qacc, so the constraint discrepancy vanishes.
TEST(Inverse, CompareFwdInvMeasuresTheRightThing) {
  for (int solver : {kSolverPGS, kSolverCG, kSolverNewton}) {
    Model m = compile_mjcf_file(test::testdata(kRig));
    m.opt.solver = solver;
    Data d = make_data(m);
    settle(m, d, 200, 23);
    // one iteration from a cold start: far from converged
    m.opt.iterations = 1;
    m.opt.disableflags |= kDisableWarmstart;
    forward(m, d);
    ASSERT_GT(d.nefc, 0);
    const std::vector<double> efc_force(d.efc_force, d.efc_force + d.nefc);
    const std::vector<double> qfrc_constraint(d.qfrc_constraint, d.qfrc_constraint + m.nv);
    const std::vector<int> efc_state(d.efc_state, d.efc_state + d.nefc);
    compare_fwd_inv(m, d);
    // forward's solution is left in place
    for (int i = 0; i < d.nefc; ++i) {
      EXPECT_EQ(d.efc_force[i], efc_force[i]);
      EXPECT_EQ(d.efc_state[i], efc_state[i]);
    }
    for (int i = 0; i < m.nv; ++i) EXPECT_EQ(d.qfrc_constraint[i], qfrc_constraint[i]);
    const double scale = norm(qfrc_constraint);
    const std::string where = "solver " + std::to_string(solver);
    if (solver == kSolverPGS) {
      EXPECT_GT(d.solver_fwdinv[0], 1e-6 * scale) << where;
      EXPECT_NEAR(d.solver_fwdinv[0], d.solver_fwdinv[1], 1e-9 * scale) << where;
    } else {
      EXPECT_LT(d.solver_fwdinv[0], 1e-12 * scale) << where;
      // (Newton's one step is exact when no constraint changes state, as here.)
      if (solver == kSolverCG) {
        EXPECT_GT(d.solver_fwdinv[1], 1e-6 * scale) << where;
      }
    }
    // Converging makes it vanish (to the solvers' accuracy: CG and PGS converge slowly).
    m.opt.iterations = 1000;
    m.opt.tolerance = 1e-15;
    forward(m, d);
    compare_fwd_inv(m, d);
    const double converged = std::max(d.solver_fwdinv[0], d.solver_fwdinv[1]);
    EXPECT_LT(converged, (solver == kSolverNewton ? 1e-9 : 1e-4) * scale) << where;
  }
}

// With the flag, step records the comparison and moves the state exactly as without it.
TEST(Inverse, FwdinvFlagLeavesTheTrajectoryAlone) {
  Model m = compile_mjcf_file(test::testdata(kRig));
  m.opt.iterations = 4;
  Model flagged = m;
  flagged.opt.enableflags |= kEnableFwdinv;
  Data a = make_data(m), b = make_data(flagged);
  random_inputs(m, a, 1);
  random_inputs(m, b, 1);
  double largest = 0;
  for (int s = 0; s < 200; ++s) {
    step(m, a);
    step(flagged, b);
    largest = std::max(largest, b.solver_fwdinv[1]);
  }
  for (int i = 0; i < m.nq; ++i) ASSERT_EQ(a.qpos[i], b.qpos[i]);
  for (int i = 0; i < m.nsensordata; ++i) ASSERT_EQ(a.sensordata[i], b.sensordata[i]);
  EXPECT_EQ(a.solver_fwdinv[0], 0);
  EXPECT_GT(largest, 0);
}

// inverse_skip keeps the stages before the one named: after a change of qacc alone, skipping the
// position and velocity stages gives what the whole inverse gives; after a change of qvel,
// skipping the position stage does.
TEST(Inverse, SkippingStagesGivesTheWholeInverse) {
  const Model m = compile_mjcf_file(test::testdata("mujoco/model/humanoid/humanoid.xml"));
  Data d = make_data(m);
  settle(m, d, 150, 3);
  forward(m, d);
  ASSERT_GT(d.ncon, 0);
  inverse(m, d);
  d.qacc[4] += 0.5;
  inverse_skip(m, d, kStageVel, false);
  const std::vector<double> skipped_acc(d.qfrc_inverse, d.qfrc_inverse + m.nv);
  d.qvel[7] -= 0.3;
  inverse_skip(m, d, kStagePos, false);
  const std::vector<double> skipped_vel(d.qfrc_inverse, d.qfrc_inverse + m.nv);
  inverse(m, d);
  EXPECT_LT(relative_error(skipped_vel, d.qfrc_inverse), 1e-14);
  d.qvel[7] += 0.3;
  inverse(m, d);
  EXPECT_LT(relative_error(skipped_acc, d.qfrc_inverse), 1e-14);
}

TEST(Inverse, NoHeapAllocation) {
  for (int integrator : {kIntEuler, kIntImplicit, kIntImplicitFast}) {
    Model m = compile_mjcf_file(test::testdata(kRig));
    m.opt.integrator = integrator;
    m.opt.enableflags |= kEnableFwdinv | kEnableEnergy;
    Data d = make_data(m);
    settle(m, d, 50, 29);
    test::AllocationCounter counter;
    for (int k = 0; k < 5; ++k) {
      step(m, d);
      forward(m, d);
      compare_fwd_inv(m, d);
      inverse(m, d);
      inverse(m, d, {.discrete = true});
      discrete_to_continuous(m, d, 0.001, d.qacc_warmstart);
    }
    EXPECT_EQ(counter.count(), 0) << "integrator " << integrator;
  }
}

// Controls from qfrc_inverse: for actuators affine in their controls, the least-squares controls
// of the joint force forward dynamics applied are the controls it applied.
TEST(Inverse, EstimatesTheControlsThatWereApplied) {
  Model m = compile_mjcf_file(test::testdata(kRig));
  ASSERT_TRUE(actuation_affine_in_control(m));
  m.opt.tolerance = 1e-15;
  m.opt.iterations = 200;
  Data d = make_data(m);
  settle(m, d, 150, 31);
  random_inputs(m, d, 37);
  for (int i = 0; i < m.nv; ++i) d.qfrc_applied[i] = 0;
  for (int i = 0; i < 6 * m.nbody; ++i) d.xfrc_applied[i] = 0;
  forward(m, d);
  inverse(m, d);
  std::vector<double> ctrl(static_cast<size_t>(m.nu)), residual(static_cast<size_t>(m.nv));
  EXPECT_EQ(estimate_controls(m, d, d.qfrc_inverse, ctrl.data(), residual.data()), m.nu);
  for (int u = 0; u < m.nu; ++u) EXPECT_NEAR(ctrl[u], d.ctrl[u], 1e-7) << "actuator " << u;
  EXPECT_LT(norm(residual),
            1e-7 * (1 + norm(std::vector<double>(d.qfrc_inverse, d.qfrc_inverse + m.nv))));

  // A force the actuators cannot make: the residual is what is left, orthogonal to every
  // actuator's joint force (the least-squares condition).
  std::vector<double> target(d.qfrc_inverse, d.qfrc_inverse + m.nv);
  for (int i = 0; i < m.nv; ++i) target[i] += 0.3 * std::sin(i + 1.0);
  estimate_controls(m, d, target.data(), ctrl.data(), residual.data());
  EXPECT_GT(norm(residual), 0.1);
  for (int u = 0; u < m.nu; ++u) {
    double dot = 0;
    for (int i = 0; i < m.nv; ++i) dot += d.actuator_moment[u * m.nv + i] * residual[i];
    EXPECT_NEAR(dot, 0, 1e-10) << "actuator " << u;
  }
}

// A ControlEstimator reused along a rollout gives estimate_controls's bits at every state: on the
// rig, whose affine-gain tendon actuator changes the matrix at every state (decomposed anew), and
// on the humanoid, whose joint motors keep it (the decomposition reused).
TEST(Inverse, ControlEstimatorGivesEstimateControlsBits) {
  for (const char* file : {kRig, "mujoco/model/humanoid/humanoid.xml"}) {
    SCOPED_TRACE(file);
    const Model m = compile_mjcf_file(test::testdata(file));
    ASSERT_TRUE(actuation_affine_in_control(m));
    Data d = make_data(m);
    ControlEstimator estimator(m);
    std::vector<double> target(static_cast<size_t>(m.nv)), ctrl(static_cast<size_t>(m.nu)),
        residual(static_cast<size_t>(m.nv)), ctrl_once(ctrl), residual_once(residual);
    int compared = 0;
    for (int k = 0; k < 40; ++k) {
      for (int u = 0; u < m.nu; ++u) d.ctrl[u] = 0.5 * std::sin(0.4 * k + u);
      step(m, d);
      inverse(m, d);
      for (int i = 0; i < m.nv; ++i) target[i] = d.qfrc_inverse[i] + 0.1 * std::cos(k + i);
      const int rank = estimator.estimate(m, d, target.data(), ctrl.data(), residual.data());
      EXPECT_EQ(rank,
                estimate_controls(m, d, target.data(), ctrl_once.data(), residual_once.data()));
      EXPECT_EQ(0, std::memcmp(ctrl.data(), ctrl_once.data(), sizeof(double) * ctrl.size()))
          << "state " << k;
      EXPECT_EQ(
          0, std::memcmp(residual.data(), residual_once.data(), sizeof(double) * residual.size()))
          << "state " << k;
      ++compared;
    }
    EXPECT_EQ(compared, 40);
  }
}

// The least-squares controls as defined, every matrix made anew: B = moment' diag(gain) and
// b0 = target - moment' bias column by column in actuator order, then the decomposition, and the
// solve and residual with Eigen's bits (least_squares_test.cc) for a B of full column rank.
void defined_estimate(const Model& m, const Data& d, const double* target, double* ctrl,
                      double* residual) {
  Eigen::MatrixXd B(m.nv, m.nu);
  std::vector<double> b0(target, target + m.nv);
  for (int u = 0; u < m.nu; ++u) {
    double gain, bias;
    actuator_gain_bias(m, d, u, &gain, &bias);
    for (int i = 0; i < m.nv; ++i) {
      const double moment = d.actuator_moment[u * m.nv + i];
      B(i, u) = moment * gain;
      b0[static_cast<size_t>(i)] -= moment * bias;
    }
  }
  const Eigen::CompleteOrthogonalDecomposition<Eigen::MatrixXd> cod(B);
  ASSERT_EQ(cod.rank(), m.nu);
  std::vector<double> c(static_cast<size_t>(m.nv)), y(static_cast<size_t>(m.nu));
  detail::solve_full_column_rank(cod, b0.data(), c.data(), y.data(), ctrl);
  detail::residual(B, b0.data(), ctrl, residual);
}

// The estimator makes the columns that are the same at every state (fixed gains on joint and
// fixed-tendon transmissions) once, and takes the bias-free ones' signed zeros out of the order
// of b0's sum: the bits stay those of the definition, the signs of zero forces included (targets
// of -0 and +0 beside a negative gear, a position actuator's bias, a site's moment that changes;
// as many actuators as dofs, full rank).
TEST(Inverse, ControlEstimatorGivesTheDefinitionsBits) {
  if (!detail::kEigenOrder) GTEST_SKIP() << "this build's Eigen is not SSE2 without FMA";
  const Model m = compile_mjcf(
      "<mujoco><worldbody><body><joint name='a' axis='0 1 0'/>"
      "<geom type='capsule' size='0.05' fromto='0 0 0 0.5 0 0'/>"
      "<body pos='0.5 0 0'><joint name='b' axis='0 1 0'/>"
      "<geom type='capsule' size='0.05' fromto='0 0 0 0.5 0 0'/>"
      "<body pos='0.5 0 0'><joint name='c' type='slide' axis='1 0 0'/>"
      "<joint name='e' axis='1 0 0'/><geom type='sphere' size='0.05'/>"
      "<site name='tip' pos='0 0.1 0.1'/></body></body></body></worldbody>"
      "<tendon><fixed name='t'><joint joint='a' coef='1'/><joint joint='e' coef='-0.5'/></fixed>"
      "</tendon><actuator><motor joint='a' gear='-2'/><position joint='b' kp='10'/>"
      "<motor tendon='t' gear='1.5'/><motor site='tip' gear='1 0 -1 0 0 0'/></actuator>"
      "</mujoco>",
      "fixed_columns.xml", ".");
  ASSERT_TRUE(actuation_affine_in_control(m));
  Data d = make_data(m);
  ControlEstimator estimator(m);
  const size_t nv = static_cast<size_t>(m.nv), nu = static_cast<size_t>(m.nu);
  std::vector<double> target(nv), ctrl(nu), residual(nv), ctrl_defined(nu), residual_defined(nv);
  for (int k = 0; k < 12; ++k) {
    for (int u = 0; u < m.nu; ++u) d.ctrl[u] = 0.5 * std::sin(0.4 * k + u);
    step(m, d);
    inverse(m, d);
    for (size_t i = 0; i < nv; ++i) {
      target[i] = k % 3 == 0 ? -0.0 : k % 3 == 1 ? 0.0 : d.qfrc_inverse[i];
    }
    estimator.estimate(m, d, target.data(), ctrl.data(), residual.data());
    defined_estimate(m, d, target.data(), ctrl_defined.data(), residual_defined.data());
    EXPECT_EQ(0, std::memcmp(ctrl.data(), ctrl_defined.data(), sizeof(double) * nu))
        << "state " << k;
    EXPECT_EQ(0, std::memcmp(residual.data(), residual_defined.data(), sizeof(double) * nv))
        << "state " << k;
  }
}

// Two motors on one joint: the minimum-norm split, each half.
TEST(Inverse, DependentActuatorsShareTheForce) {
  const Model m = compile_mjcf(
      "<mujoco><worldbody><body><joint name='j' axis='0 1 0'/><geom type='capsule' size='0.1' "
      "fromto='0 0 0 1 0 0'/></body></worldbody><actuator><motor joint='j' gear='2'/><motor "
      "joint='j' gear='2'/>"
      "</actuator></mujoco>",
      "two_motors.xml", ".");
  Data d = make_data(m);
  forward(m, d);
  const double target = 6;
  double ctrl[2], residual[1];
  EXPECT_EQ(estimate_controls(m, d, &target, ctrl, residual), 1);
  EXPECT_NEAR(ctrl[0], 1.5, 1e-12);
  EXPECT_NEAR(ctrl[1], 1.5, 1e-12);
  EXPECT_NEAR(residual[0], 0, 1e-12);
}

TEST(Inverse, AffineInControlOnlyWithoutActivationDynamics) {
  EXPECT_FALSE(actuation_affine_in_control(
      compile_mjcf_file(test::testdata("mujoco/model/tendon_arm/arm26.xml"))));  // muscles
  EXPECT_TRUE(actuation_affine_in_control(
      compile_mjcf_file(test::testdata("mujoco/model/humanoid/humanoid.xml"))));
  Model m = compile_mjcf_file(test::testdata("mujoco/model/humanoid/humanoid.xml"));
  m.opt.disableflags |= kDisableActuation;
  EXPECT_FALSE(actuation_affine_in_control(m));
}

}  // namespace
}  // namespace joco
