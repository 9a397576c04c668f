// Seeded random states for differential tests of pipeline stages: the same model in MuJoCo and in
// joco (copied from MuJoCo's compiled model, so joco's compiler is not involved), a random state
// set in MuJoCo's data and copied to joco's, and comparison of plain arrays that are not Data
// fields.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "oracle/oracle.h"
#include "support/test_support.h"

namespace joco::oracle {

// A model loaded in both engines with a data for each.
struct OracleCase {
  std::string path;
  MjModelPtr mj;
  MjDataPtr md;
  Model m;
  Data d;
};

// Loads testdata/<relative> in MuJoCo and copies the compiled model into joco's Model; fails the
// current test (returning false) when MuJoCo cannot load it.
inline bool load_case(const std::string& relative, OracleCase& c) {
  std::string error;
  c.path = relative;
  c.mj = load(test::testdata(relative), &error);
  if (!c.mj) {
    ADD_FAILURE() << relative << ": " << error;
    return false;
  }
  c.md = make_data(c.mj.get());
  c.m = model_from_mujoco(c.mj.get());
  c.d = Data(c.m);
  return true;
}

struct RandomStateOptions {
  bool unnormalized_quaternions = false;  // scale quaternions in qpos and mocap_quat by [0.5, 2]
  bool forces = true;                     // random qacc, qfrc_applied and xfrc_applied
};

// A random unit quaternion, optionally scaled away from unit length.
inline void random_quat(double* q, std::mt19937_64& rng, bool unnormalized) {
  std::normal_distribution<double> normal;
  double n = 0;
  do {
    for (int k = 0; k < 4; ++k) q[k] = normal(rng);
    n = std::sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
  } while (n < 1e-3);
  double scale = 1 / n;
  if (unnormalized) scale *= std::uniform_real_distribution<double>(0.5, 2)(rng);
  for (int k = 0; k < 4; ++k) q[k] *= scale;
}

// Sets a random state in MuJoCo's data: joint positions around qpos0 (random orientations for free
// and ball joints), velocities, mocap poses and, optionally, accelerations and applied forces.
inline void randomize_state(const mjModel* m, mjData* d, uint64_t seed,
                            const RandomStateOptions& options = {}) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(-1, 1);
  for (int j = 0; j < m->njnt; ++j) {
    double* q = d->qpos + m->jnt_qposadr[j];
    const double* q0 = m->qpos0 + m->jnt_qposadr[j];
    switch (m->jnt_type[j]) {
      case mjJNT_FREE:
        for (int k = 0; k < 3; ++k) q[k] = q0[k] + u(rng);
        random_quat(q + 3, rng, options.unnormalized_quaternions);
        break;
      case mjJNT_BALL: random_quat(q, rng, options.unnormalized_quaternions); break;
      case mjJNT_SLIDE: q[0] = q0[0] + 0.5 * u(rng); break;
      default: q[0] = q0[0] + 1.5 * u(rng);
    }
  }
  for (int i = 0; i < m->nv; ++i) d->qvel[i] = 2 * u(rng);
  for (int i = 0; i < m->nmocap; ++i) {
    for (int k = 0; k < 3; ++k) d->mocap_pos[3 * i + k] = u(rng);
    random_quat(d->mocap_quat + 4 * i, rng, options.unnormalized_quaternions);
  }
  if (options.forces) {
    for (int i = 0; i < m->nv; ++i) d->qacc[i] = 5 * u(rng);
    for (int i = 0; i < m->nv; ++i) d->qfrc_applied[i] = 3 * u(rng);
    for (int i = 6; i < 6 * m->nbody; ++i) d->xfrc_applied[i] = 3 * u(rng);
  }
}

// Compares two plain arrays as compare_data compares fields (errors relative to the larger value,
// floored at a fraction of MuJoCo's largest element).
inline FieldResult compare_arrays(const std::string& name, const double* joco, const double* mujoco,
                                  int64_t count, const Tolerance& tol = {}) {
  FieldResult r;
  r.name = name;
  r.count = count;
  double scale = 0;
  for (int64_t i = 0; i < count; ++i) scale = std::max(scale, std::abs(mujoco[i]));
  for (int64_t i = 0; i < count; ++i) {
    double err = element_error(joco[i], mujoco[i], scale, tol);
    if (std::isnan(joco[i]) != std::isnan(mujoco[i])) err = INFINITY;
    if (r.worst < 0 || err > r.error) {
      r.error = err;
      r.worst = i;
      r.joco_value = joco[i];
      r.mujoco_value = mujoco[i];
    }
  }
  r.status = r.error > tol.rel ? FieldResult::kDiffer : FieldResult::kMatch;
  return r;
}

// The worst error of each field over many comparisons (several states, several models), for the
// summary printed by the tests.
class WorstErrors {
 public:
  void add(const std::string& where, const Comparison& c) {
    for (const FieldResult& f : c.fields) add(where, f);
  }
  void add(const std::string& where, const FieldResult& f) {
    if (f.status == FieldResult::kMissing) return;
    Entry& e = worst_[f.name];
    if (f.status == FieldResult::kShape) e.shape = true;
    if (e.where.empty() || f.error > e.error) {
      e.error = f.error;
      e.where = where;
    }
  }
  // One line per field: its worst error and where it happened.
  std::string table() const {
    std::string out;
    char line[400];
    for (const auto& [name, e] : worst_) {
      std::snprintf(line, sizeof(line), "  %-16s %s%9.2e  %s\n", name.c_str(),
                    e.shape ? "SHAPE " : "", e.error, e.where.c_str());
      out += line;
    }
    return out;
  }
  double worst(const std::string& name) const {
    auto it = worst_.find(name);
    return it == worst_.end() ? 0 : it->second.error;
  }

 private:
  struct Entry {
    double error = 0;
    bool shape = false;
    std::string where;
  };
  std::map<std::string, Entry> worst_;
};

// Expects every field of a comparison to match, naming the model and state when one does not.
inline void expect_match(const Comparison& c, const std::string& where) {
  EXPECT_TRUE(c.all_match()) << where << "\n" << c.table(true);
}

}  // namespace joco::oracle
