// Seeded random states for differential tests of pipeline stages: the same model in MuJoCo and in
// joco (copied from MuJoCo's compiled model, so joco's compiler is not involved), a random state
// set in MuJoCo's data and copied to joco's, and comparison of plain arrays that are not Data
// fields.
#pragma once

#include <gtest/gtest.h>
#include <mujoco/mjxmacro.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <functional>
#include <iostream>
#include <limits>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "joco/mjcf.h"
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

// Loads testdata/<relative> in MuJoCo with a data (c.mj, c.md); fails the current test (returning
// false) when MuJoCo cannot load it.
inline bool load_mujoco_case(const std::string& relative, OracleCase& c) {
  std::string error;
  c.path = relative;
  c.mj = load(test::testdata(relative), &error);
  if (!c.mj) {
    ADD_FAILURE() << relative << ": " << error;
    return false;
  }
  c.md = make_data(c.mj.get());
  return true;
}

// The same, compiled by joco's own compiler too (end-to-end tests: compiler and pipeline).
inline bool load_compiled_case(const std::string& relative, OracleCase& c) {
  if (!load_mujoco_case(relative, c)) return false;
  c.m = compile_mjcf_file(test::testdata(relative));
  c.d = Data(c.m);
  return true;
}

// Loads testdata/<relative> in MuJoCo and copies the compiled model into joco's Model; fails the
// current test (returning false) when MuJoCo cannot load it.
inline bool load_case(const std::string& relative, OracleCase& c) {
  if (!load_mujoco_case(relative, c)) return false;
  c.m = model_from_mujoco(c.mj.get());
  // MuJoCo sizes the stack for its constraint solvers (up to 500 MB here); the smooth stages need
  // a few doubles per body, and a smaller allocation keeps the tests fast.
  c.m.nstack = std::min(c.m.nstack, 1 << 22);
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

// Copies every array joco's Data shares with MuJoCo's (same name, type and size), and the sizes
// of the current step (ne, nf, nefc, ncon), so that a stage can be tested on exactly MuJoCo's
// inputs, independently of the stages before it.
inline void copy_data(const mjModel* m, const mjData* md, Data& d) {
  struct Source {
    const void* data;
    size_t bytes;
  };
  std::map<std::string, Source> theirs;
  MJDATA_POINTERS_PREAMBLE(m)
#define X(type, name, nr, nc)                                                     \
  if constexpr (!std::is_same_v<type, mjContact>) {                               \
    theirs[#name] = {md->name, sizeof(type) * static_cast<size_t>(m->nr) * (nc)}; \
  }
  MJDATA_POINTERS
#undef X
  for (const ArrayField& f : d.arrays()) {
    auto it = theirs.find(f.name);
    if (it != theirs.end() && it->second.bytes == f.bytes() && f.bytes() > 0) {
      std::memcpy(f.data, it->second.data, f.bytes());
    }
  }
  for (int i = 0; i < md->ncon && i < m->nconmax; ++i) {
    const mjContact& a = md->contact[i];
    Contact& b = d.contact[i];
    b.dist = a.dist;
    std::memcpy(b.pos, a.pos, sizeof(b.pos));
    std::memcpy(b.frame, a.frame, sizeof(b.frame));
    b.includemargin = a.includemargin;
    std::memcpy(b.friction, a.friction, sizeof(b.friction));
    std::memcpy(b.solref, a.solref, sizeof(b.solref));
    std::memcpy(b.solimp, a.solimp, sizeof(b.solimp));
    b.mu = a.mu;
    std::memcpy(b.H, a.H, sizeof(b.H));
    b.dim = a.dim;
    b.geom1 = a.geom1;
    b.geom2 = a.geom2;
    b.exclude = a.exclude;
    b.efc_address = a.efc_address;
  }
  d.ne = md->ne;
  d.nf = md->nf;
  d.nefc = md->nefc;
  d.ncon = md->ncon;
  d.time = md->time;
  d.energy[0] = md->energy[0];
  d.energy[1] = md->energy[1];
}

// Fills the named double arrays of joco's Data with NaN, so that a stage must write every element
// to match MuJoCo.
inline void poison(Data& d, const std::vector<std::string>& names) {
  for (const ArrayField& f : d.arrays()) {
    if (f.type != ScalarType::kFloat64) continue;
    if (std::find(names.begin(), names.end(), f.name) == names.end()) continue;
    double* p = static_cast<double*>(f.data);
    for (int64_t i = 0; i < f.count(); ++i) p[i] = std::numeric_limits<double>::quiet_NaN();
  }
}

// Compares two plain arrays as compare_data compares fields (errors relative to the larger value,
// floored at a fraction of MuJoCo's largest element). `scale_floor` is the least scale of the
// array, for quantities whose natural size is known (a Jacobian whose entries are all rounding
// noise around zero is compared against the model's size, not against its own largest entry).
inline FieldResult compare_arrays(const std::string& name, const double* joco, const double* mujoco,
                                  int64_t count, const Tolerance& tol = {},
                                  double scale_floor = 0) {
  FieldResult r;
  r.name = name;
  r.count = count;
  double scale = scale_floor;
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

// A differential test of one stage. For each seed a random state is set in MuJoCo and carried
// through mj_forward (contacts disabled unless asked for: the smooth stages do not see them), the
// whole of MuJoCo's data is copied to joco's, the stage's outputs are poisoned, and both engines
// run the stage on the same inputs. Returns the worst error of each compared field.
struct StageCheck {
  std::vector<std::string> fields;                      // Data fields the stage writes
  std::function<void(const mjModel*, mjData*)> mujoco;  // the stage in MuJoCo
  std::function<void(const Model&, Data&)> joco;        // the stage in joco
  // Extra comparisons after both ran (arrays that are not Data fields); may be empty.
  std::function<void(OracleCase&, Comparison&)> extra;
  RandomStateOptions options;
  int seeds = 4;
  bool contacts = false;  // keep contacts enabled in mj_forward
};

inline WorstErrors check_stage(const std::string& model, const StageCheck& check,
                               const std::function<void(OracleCase&)>& setup = {}) {
  WorstErrors worst;
  OracleCase c;
  if (!load_case(model, c)) return worst;
  if (!check.contacts) {
    c.mj->opt.disableflags |= mjDSBL_CONTACT;
    c.m.opt.disableflags |= kDisableContact;
  }
  if (setup) setup(c);
  for (int seed = 0; seed < check.seeds; ++seed) {
    RandomStateOptions options = check.options;
    if (seed % 2 == 1) options.unnormalized_quaternions = true;
    randomize_state(c.mj.get(), c.md.get(), 1000 + seed, options);
    mj_forward(c.mj.get(), c.md.get());
    copy_data(c.mj.get(), c.md.get(), c.d);
    poison(c.d, check.fields);
    check.mujoco(c.mj.get(), c.md.get());
    check.joco(c.m, c.d);
    Comparison cmp;  // (compare_data with no names would compare every field)
    if (!check.fields.empty()) {
      cmp = compare_data(c.d, c.md.get(), c.mj.get(), check.fields, Tolerance{});
    }
    if (check.extra) check.extra(c, cmp);
    const std::string where = model + " seed " + std::to_string(seed);
    expect_match(cmp, where);
    worst.add("seed " + std::to_string(seed), cmp);
  }
  std::cout << model << ":\n" << worst.table();
  return worst;
}

}  // namespace joco::oracle
