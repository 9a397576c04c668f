// The solvers against each other on random convex problems: the equalities, friction loss and
// limits of a test model at random states plus random contacts of every dimension, pyramidal and
// elliptic. Newton (dense and sparse), CG and PGS must find the same constrained acceleration,
// which must make the reduced primal problem's gradient vanish. Also: no heap allocation.
#include "joco/solver.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "joco/constraint.h"
#include "joco/forward.h"
#include "joco/jmb.h"
#include "joco/mjcf.h"
#include "joco/smooth.h"
#include "math/vec.h"
#include "support/test_support.h"

namespace joco {
namespace {

// A random unit vector.
void random_direction(std::mt19937_64& rng, double* v) {
  std::normal_distribution<double> n;
  do {
    for (int k = 0; k < 3; ++k) v[k] = n(rng);
  } while (math::norm3(v) < 1e-3);
  math::normalize3(v);
}

// Random contacts between geoms of different bodies: point near geom 1, random frame (normal
// first), penetration or small gap, random friction and dimension.
void random_contacts(const Model& m, Data& d, std::mt19937_64& rng, int count) {
  std::uniform_real_distribution<double> u(0, 1);
  std::uniform_int_distribution<int> geom(0, m.ngeom - 1);
  const int dims[4] = {1, 3, 4, 6};
  d.ncon = 0;
  while (d.ncon < count) {
    int g1 = geom(rng), g2 = geom(rng);
    if (m.geom_bodyid[g1] == m.geom_bodyid[g2]) continue;
    if (g1 > g2) std::swap(g1, g2);
    Contact& c = d.contact[d.ncon++];
    c = Contact{};
    c.geom1 = g1;
    c.geom2 = g2;
    for (int k = 0; k < 3; ++k) c.pos[k] = d.geom_xpos[3 * g2 + k] + 0.1 * (u(rng) - 0.5);
    double n[3], t[3], b[3];
    random_direction(rng, n);
    random_direction(rng, t);
    math::cross3(b, n, t);
    math::normalize3(b);
    math::cross3(t, b, n);
    for (int k = 0; k < 3; ++k) {
      c.frame[k] = n[k];
      c.frame[3 + k] = t[k];
      c.frame[6 + k] = b[k];
    }
    c.dist = -0.01 + 0.012 * u(rng);
    c.includemargin = 0.001;
    c.friction[0] = c.friction[1] = 0.2 + u(rng);
    c.friction[2] = 0.01 * u(rng) + 0.001;
    c.friction[3] = c.friction[4] = 0.001 * u(rng) + 0.0001;
    c.solref[0] = 0.02;
    c.solref[1] = 1;
    const double solimp[kNIMP] = {0.9, 0.95, 0.001, 0.5, 2};
    for (int k = 0; k < kNIMP; ++k) c.solimp[k] = solimp[k];
    c.dim = dims[static_cast<int>(u(rng) * 4) % 4];
  }
}

// The constraint problem at a random state: smooth dynamics, rows, parameters, efc_AR (built for
// every solver here), reference and efc_b.
void random_problem(Model& m, Data& d, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(-1, 1);
  reset_data(m, d);
  for (int i = 0; i < m.nq; ++i) d.qpos[i] += 0.3 * u(rng);
  normalize_quat(m, d.qpos);
  for (int i = 0; i < m.nv; ++i) d.qvel[i] = u(rng);
  kinematics(m, d);
  com_pos(m, d);
  crb(m, d);
  factor_m(m, d);
  random_contacts(m, d, rng, 8);
  make_constraint(m, d);
  const int solver = m.opt.solver;
  m.opt.solver = kSolverPGS;  // efc_AR for every solver
  project_constraint(m, d);
  m.opt.solver = solver;
  com_vel(m, d);
  rne(m, d, false, d.qfrc_bias);
  reference_constraint(m, d);
  for (int i = 0; i < m.nv; ++i) d.qfrc_smooth[i] = 5 * u(rng) - d.qfrc_bias[i];
  solve_m(m, d, d.qacc_smooth, d.qfrc_smooth, 1);
  mul_jac_vec(m, d, d.efc_b, d.qacc_smooth);
  for (int i = 0; i < d.nefc; ++i) d.efc_b[i] -= d.efc_aref[i];
}

// Runs one solver from qacc_smooth (primal) or zero forces (dual) to convergence.
std::vector<double> solve(Model& m, Data& d, int solver, int pgs_iterations = 5000) {
  std::copy(d.qacc_smooth, d.qacc_smooth + m.nv, d.qacc);
  std::fill(d.efc_force, d.efc_force + d.nefc, 0.0);
  m.opt.tolerance = -1;  // fixed iteration counts
  switch (solver) {
    case kSolverNewton: solve_newton(m, d, 60); break;
    case kSolverCG: solve_cg(m, d, 3000); break;
    default: solve_pgs(m, d, pgs_iterations);
  }
  return std::vector<double>(d.qacc, d.qacc + m.nv);
}

double max_difference(const std::vector<double>& a, const std::vector<double>& b) {
  double e = 0, s = 1;
  for (size_t i = 0; i < a.size(); ++i) {
    e = std::max(e, std::abs(a[i] - b[i]));
    s = std::max(s, std::abs(b[i]));
  }
  return e / s;
}

// The dual cost 0.5 f' AR f + f' b of the current efc_force.
double dual_cost(const Data& d) {
  const int n = d.nefc;
  double c = 0;
  for (int i = 0; i < n; ++i) {
    double s = 0;
    for (int j = 0; j < n; ++j) s += d.efc_AR[static_cast<size_t>(i) * n + j] * d.efc_force[j];
    c += d.efc_force[i] * (0.5 * s + d.efc_b[i]);
  }
  return c;
}

// PGS minimises the dual cost, whose minimiser is the force of Newton's primal solution: PGS
// must come down to that cost (its forces converge slowly when AR is ill-conditioned, the cost
// quickly). The dense efc_AR is rebuilt for the cost.
void check_pgs(Model& m, Data& d, const std::vector<double>& newton, uint64_t seed) {
  const int jacobian = m.opt.jacobian;
  std::copy(newton.begin(), newton.end(), d.qacc);
  std::vector<double> jar(d.nefc);
  mul_jac_vec(m, d, jar.data(), d.qacc);
  for (int i = 0; i < d.nefc; ++i) jar[i] -= d.efc_aref[i];
  constraint_update(m, d, jar.data(), nullptr, false);
  const std::vector<double> newton_force(d.efc_force, d.efc_force + d.nefc);
  solve(m, d, kSolverPGS, 60000);
  const std::vector<double> pgs_force(d.efc_force, d.efc_force + d.nefc);
  // costs with a dense AR
  m.opt.jacobian = kJacDense;
  Data dense = make_data(m);
  random_problem(m, dense, seed);
  std::copy(newton_force.begin(), newton_force.end(), dense.efc_force);
  const double optimum = dual_cost(dense);
  std::copy(pgs_force.begin(), pgs_force.end(), dense.efc_force);
  const double pgs = dual_cost(dense);
  EXPECT_GT(pgs, optimum - 1e-9 * std::abs(optimum)) << "seed " << seed;
  EXPECT_LT(pgs, optimum + 1e-6 * std::abs(optimum)) << "seed " << seed;
  m.opt.jacobian = jacobian;
}

// (PGS with elliptic cones is compared with MuJoCo's in the oracle tests instead: its block update,
// as MuJoCo 2.2.2's, can stall short of the solution.)
TEST(Solvers, AgreeOnRandomProblems) {
  Model m = compile_mjcf_file(test::testdata("constraint/random_problems.xml"));
  for (int cone : {kConePyramidal, kConeElliptic}) {
    m.opt.cone = cone;
    for (uint64_t seed = 1; seed <= 6; ++seed) {
      Data d = make_data(m);
      m.opt.jacobian = kJacDense;
      random_problem(m, d, seed);
      ASSERT_GT(d.nefc, 10);
      const auto newton = solve(m, d, kSolverNewton);

      // optimality: the gradient M (qacc - qacc_smooth) - J' f of the primal cost vanishes
      std::vector<double> jar(d.nefc), dq(m.nv), mdq(m.nv);
      mul_jac_vec(m, d, jar.data(), d.qacc);
      for (int i = 0; i < d.nefc; ++i) jar[i] -= d.efc_aref[i];
      constraint_update(m, d, jar.data(), nullptr, false);
      for (int i = 0; i < m.nv; ++i) dq[i] = d.qacc[i] - d.qacc_smooth[i];
      mul_m(m, d, mdq.data(), dq.data());
      double gradient = 0, scale = 0;
      for (int i = 0; i < m.nv; ++i) {
        gradient = std::max(gradient, std::abs(mdq[i] - d.qfrc_constraint[i]));
        scale = std::max(scale, std::abs(d.qfrc_constraint[i]));
      }
      EXPECT_LT(gradient, 1e-9 * std::max(1.0, scale)) << "cone " << cone << " seed " << seed;

      EXPECT_LT(max_difference(solve(m, d, kSolverCG), newton), 1e-7)
          << "CG, cone " << cone << " seed " << seed;
      if (cone == kConePyramidal) check_pgs(m, d, newton, seed);

      // the same problem with the sparse Jacobian and Hessian
      Data ds = make_data(m);
      m.opt.jacobian = kJacSparse;
      random_problem(m, ds, seed);
      ASSERT_EQ(ds.nefc, d.nefc);
      EXPECT_LT(max_difference(solve(m, ds, kSolverNewton), newton), 1e-10)
          << "sparse Newton, cone " << cone << " seed " << seed;
      EXPECT_LT(max_difference(solve(m, ds, kSolverCG), newton), 1e-7)
          << "sparse CG, cone " << cone << " seed " << seed;
      if (cone == kConePyramidal) check_pgs(m, ds, newton, seed);
      m.opt.jacobian = kJacDense;
    }
  }
}

// Noslip keeps the normal forces and only lowers the friction forces' slip: it never increases
// the unregularised dual cost of the friction forces, and leaves normal forces as they were.
TEST(Solvers, NoslipHoldsNormalForces) {
  Model m = compile_mjcf_file(test::testdata("constraint/random_problems.xml"));
  for (int cone : {kConePyramidal, kConeElliptic}) {
    m.opt.cone = cone;
    Data d = make_data(m);
    random_problem(m, d, 11);
    solve(m, d, kSolverNewton);
    std::vector<double> normal;
    for (int c = 0; c < d.ncon; ++c) {
      const Contact& con = d.contact[c];
      if (con.efc_address < 0) continue;
      if (cone == kConeElliptic || con.dim == 1) {
        normal.push_back(d.efc_force[con.efc_address]);
      } else {
        double sum = 0;  // pyramid edges: the normal force is their sum
        for (int k = 0; k < 2 * (con.dim - 1); ++k) sum += d.efc_force[con.efc_address + k];
        normal.push_back(sum / (con.dim - 1));
      }
    }
    m.opt.noslip_tolerance = 1e-12;
    d.solver_iter = 0;
    solve_noslip(m, d, 200);
    size_t k = 0;
    for (int c = 0; c < d.ncon; ++c) {
      const Contact& con = d.contact[c];
      if (con.efc_address < 0) continue;
      double now = d.efc_force[con.efc_address];
      if (cone == kConePyramidal && con.dim > 1) {
        double sum = 0;
        for (int j = 0; j < 2 * (con.dim - 1); ++j) sum += d.efc_force[con.efc_address + j];
        now = sum / (con.dim - 1);
      }
      EXPECT_NEAR(now, normal[k], 1e-9 * std::max(1.0, std::abs(normal[k]))) << "contact " << c;
      ++k;
    }
    // (pyramids: each pair update is exact, so the cost never rises; elliptic cones take the
    // ellipse step capped at 20 Newton steps as MuJoCo 2.2.2, which may not be a descent)
    for (int it = 0; it < d.solver_iter && cone == kConePyramidal; ++it) {
      EXPECT_GE(d.solver[it].improvement, -1e-12) << "iteration " << it;
    }
    EXPECT_GT(d.solver_iter, 0);
  }
}

// The constraint stages and every solver run on the Data's preallocated memory only.
TEST(Solvers, NoHeapAllocation) {
  Model m = compile_mjcf_file(test::testdata("constraint/random_problems.xml"));
  for (int jacobian : {kJacDense, kJacSparse}) {
    for (int cone : {kConePyramidal, kConeElliptic}) {
      m.opt.jacobian = jacobian;
      m.opt.cone = cone;
      Data d = make_data(m);
      random_problem(m, d, 3);
      m.opt.tolerance = 1e-10;
      m.opt.noslip_iterations = 5;
      for (int solver : {kSolverPGS, kSolverCG, kSolverNewton}) {
        m.opt.solver = solver;
        test::AllocationCounter counter;
        make_constraint(m, d);
        project_constraint(m, d);
        reference_constraint(m, d);
        solve_constraint(m, d);
        inverse_constraint(m, d);
        EXPECT_EQ(counter.count(), 0)
            << "jacobian " << jacobian << " cone " << cone << " solver " << solver;
      }
      m.opt.noslip_iterations = 0;
    }
  }
}

// A fuzzed model (testdata/fuzz/solver/) whose constraint forces become NaN and that asks for
// 5,373,952 noslip iterations: every solver, and noslip after it, stops at the first iteration
// whose improvement is not a finite number, where it used to sweep on to its limit.
TEST(Solvers, StopWhenTheForcesAreNotNumbers) {
  const std::string path = test::testdata("fuzz/solver/nan_forces_many_noslip_iterations.jmb");
  Model m = read_jmb(test::read_file(path), path);
  ASSERT_EQ(m.opt.noslip_iterations, 5373952);
  m.opt.iterations = 100000;
  for (int solver : {kSolverPGS, kSolverCG, kSolverNewton}) {
    m.opt.solver = solver;
    Data d = make_data(m);
    forward(m, d);
    EXPECT_GT(d.solver_iter, 0) << "solver " << solver;
    EXPECT_LT(d.solver_iter, 1000) << "solver " << solver;
    bool finite = true;
    for (int i = 0; i < m.nv; ++i) finite = finite && std::isfinite(d.qacc[i]);
    EXPECT_FALSE(finite) << "solver " << solver << ": the state was meant to diverge";
  }
}

}  // namespace
}  // namespace joco
