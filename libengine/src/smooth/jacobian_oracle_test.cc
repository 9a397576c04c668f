// The Jacobians against MuJoCo 2.2.2's mj_jac family, for every body, geom and site, at random
// points, and for subtree centres of mass.
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "joco/jacobian.h"
#include "joco/smooth.h"
#include "oracle/random_state.h"
#include "support/test_models.h"

namespace joco {
namespace {

class JacobianOracle : public ::testing::TestWithParam<std::string> {};

TEST_P(JacobianOracle, MatchesMuJoCo) {
  oracle::StageCheck check;
  check.mujoco = [](const mjModel*, mjData*) {};
  check.joco = [](const Model&, Data&) {};
  check.extra = [](oracle::OracleCase& c, oracle::Comparison& cmp) {
    const mjModel* mj = c.mj.get();
    mjData* md = c.md.get();
    const Model& m = c.m;
    Data& d = c.d;
    const int n = 3 * m.nv;
    // Entries are lengths or unit axes: compared against at least the model's size (entries of
    // a Jacobian that is zero up to rounding are noise).
    const double extent = std::max(1.0, mj->stat.extent);
    std::vector<double> p(n), r(n), pm(n), rm(n);
    std::map<std::string, oracle::FieldResult> worst;
    auto keep = [&](const std::string& name, const double* a, const double* b, double floor) {
      const oracle::FieldResult f = oracle::compare_arrays(name, a, b, n, {}, floor);
      auto it = worst.find(name);
      if (it == worst.end() || f.error > it->second.error) worst[name] = f;
    };
    auto both = [&](const std::string& name) {
      keep(name + " p", p.data(), pm.data(), extent);
      keep(name + " r", r.data(), rm.data(), 1);
    };
    std::mt19937_64 rng(7);
    std::uniform_real_distribution<double> u(-1, 1);
    for (int b = 0; b < m.nbody; ++b) {
      mj_jacBody(mj, md, pm.data(), rm.data(), b);
      jac_body(m, d, p.data(), r.data(), b);
      both("jac_body");
      mj_jacBodyCom(mj, md, pm.data(), rm.data(), b);
      jac_body_com(m, d, p.data(), r.data(), b);
      both("jac_body_com");
      const double point[3] = {u(rng), u(rng), u(rng)};
      mj_jac(mj, md, pm.data(), rm.data(), point, b);
      jac(m, d, p.data(), r.data(), point, b);
      both("jac");
      jac(m, d, p.data(), nullptr, point, b);
      keep("jac p only", p.data(), pm.data(), extent);
      const double axis[3] = {u(rng), u(rng), u(rng)};
      mj_jacPointAxis(mj, md, pm.data(), rm.data(), point, axis, b);
      jac_point_axis(m, d, p.data(), r.data(), point, axis, b);
      both("jac_point_axis");
      mj_jacSubtreeCom(mj, md, pm.data(), b);
      jac_subtree_com(m, d, p.data(), b);
      keep("jac_subtree_com", p.data(), pm.data(), extent);
    }
    for (int g = 0; g < m.ngeom; ++g) {
      mj_jacGeom(mj, md, pm.data(), rm.data(), g);
      jac_geom(m, d, p.data(), r.data(), g);
      both("jac_geom");
    }
    for (int s = 0; s < m.nsite; ++s) {
      mj_jacSite(mj, md, pm.data(), rm.data(), s);
      jac_site(m, d, p.data(), r.data(), s);
      both("jac_site");
    }
    for (auto& [name, f] : worst) cmp.fields.push_back(f);
  };
  oracle::check_stage(GetParam(), check);
}

// The stage's own models and the small quick ones; every other model in the long sweep.
JOCO_INSTANTIATE_STAGE_SWEEP(JacobianOracle, "smooth/");

}  // namespace
}  // namespace joco
