// Differential tests of the sensor stages against MuJoCo 2.2.2 (test code only: includes MuJoCo).
//
// A state is made in MuJoCo (a seeded random state, or a step of a MuJoCo rollout) and carried
// through mj_forward with contacts; MuJoCo's whole mjData is copied into joco's Data; the outputs a
// stage may write (sensordata, and the subtree velocities, cacc, cfrc_int, cfrc_ext that the stages
// compute on demand) are filled with the same random numbers in both engines, so that writing an
// element the other engine leaves alone shows up; then both engines run the stage and sensordata is
// compared sensor by sensor, to 1e-10 relative (each sensor's own scale sets its floor).
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <iostream>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "joco/sensor.h"
#include "oracle/random_state.h"
#include "support/test_models.h"

namespace joco::sensor_oracle {

inline const char* type_name(int type) {
  static const char* names[] = {"touch",
                                "accelerometer",
                                "velocimeter",
                                "gyro",
                                "force",
                                "torque",
                                "magnetometer",
                                "rangefinder",
                                "jointpos",
                                "jointvel",
                                "tendonpos",
                                "tendonvel",
                                "actuatorpos",
                                "actuatorvel",
                                "actuatorfrc",
                                "ballquat",
                                "ballangvel",
                                "jointlimitpos",
                                "jointlimitvel",
                                "jointlimitfrc",
                                "tendonlimitpos",
                                "tendonlimitvel",
                                "tendonlimitfrc",
                                "framepos",
                                "framequat",
                                "framexaxis",
                                "frameyaxis",
                                "framezaxis",
                                "framelinvel",
                                "frameangvel",
                                "framelinacc",
                                "frameangacc",
                                "subtreecom",
                                "subtreelinvel",
                                "subtreeangmom",
                                "clock",
                                "user"};
  return type >= 0 && type <= kSensUser ? names[type] : "?";
}

// The worst error of each sensor type (and of the on-demand fields) over many states.
class SensorErrors {
 public:
  void add(const std::string& key, double error, const std::string& where, bool nonzero) {
    Entry& e = worst_[key];
    ++e.count;
    if (nonzero) ++e.nonzero;
    if (e.where.empty() || error > e.error) {
      e.error = error;
      e.where = where;
    }
  }
  double worst() const {
    double w = 0;
    for (const auto& [k, e] : worst_) w = std::max(w, e.error);
    return w;
  }
  std::string table() const {
    std::string out;
    char line[400];
    for (const auto& [name, e] : worst_) {
      std::snprintf(line, sizeof(line), "  %-16s %9.2e  (%d checks, %d nonzero)  %s\n",
                    name.c_str(), e.error, e.count, e.nonzero, e.where.c_str());
      out += line;
    }
    return out;
  }

 private:
  struct Entry {
    double error = 0;
    int count = 0;
    int nonzero = 0;
    std::string where;
  };
  std::map<std::string, Entry> worst_;
};

// The same random numbers in a MuJoCo array and the matching joco array.
inline void fill_same(double* mj, double* joco, int64_t n, std::mt19937_64& rng) {
  std::uniform_real_distribution<double> u(-2, 2);
  for (int64_t i = 0; i < n; ++i) mj[i] = joco[i] = u(rng);
}

// Fills every output a sensor stage may write with the same numbers in both engines.
inline void fill_outputs(oracle::OracleCase& c, std::mt19937_64& rng) {
  const int nbody = c.m.nbody;
  fill_same(c.md->sensordata, c.d.sensordata, c.m.nsensordata, rng);
  fill_same(c.md->subtree_linvel, c.d.subtree_linvel, 3 * nbody, rng);
  fill_same(c.md->subtree_angmom, c.d.subtree_angmom, 3 * nbody, rng);
  fill_same(c.md->cacc, c.d.cacc, 6 * nbody, rng);
  fill_same(c.md->cfrc_int, c.d.cfrc_int, 6 * nbody, rng);
  fill_same(c.md->cfrc_ext, c.d.cfrc_ext, 6 * nbody, rng);
}

// Compares sensordata sensor by sensor, and the on-demand fields, recording errors by sensor
// type (sensors of other stages than `stage` under one entry; kStageNone: all stages); fails the
// test at the first few mismatches.
//
// Each sensor's elements are compared relative to the larger of the two values, floored at 1e-3 of
// a scale: the largest MuJoCo value among the sensors of its type, and for force and torque sensors
// also the largest force acting on a body (cfrc_ext, cfrc_int). A force sensor on a free body
// reads the rounding noise of forces that cancel (its interaction force is zero), which is only
// meaningful against the size of those forces.
inline void compare_outputs(const oracle::OracleCase& c, const std::string& where,
                            SensorErrors& errors, int stage) {
  std::map<int, double> type_scale;
  for (int i = 0; i < c.m.nsensor; ++i) {
    double& scale = type_scale[c.m.sensor_type[i]];
    for (int k = 0; k < c.m.sensor_dim[i]; ++k) {
      scale = std::max(scale, std::abs(c.md->sensordata[c.m.sensor_adr[i] + k]));
    }
  }
  double force_scale = 0;
  for (int k = 0; k < 6 * c.m.nbody; ++k) {
    force_scale = std::max({force_scale, std::abs(c.md->cfrc_ext[k]), std::abs(c.md->cfrc_int[k])});
  }
  int reported = 0;
  for (int i = 0; i < c.m.nsensor; ++i) {
    const int adr = c.m.sensor_adr[i], dim = c.m.sensor_dim[i];
    const int type = c.m.sensor_type[i];
    double scale = type_scale[type];
    if (type == kSensForce || type == kSensTorque) scale = std::max(scale, force_scale);
    const oracle::FieldResult f = oracle::compare_arrays(
        "sensor", c.d.sensordata + adr, c.md->sensordata + adr, dim, oracle::Tolerance{}, scale);
    bool nonzero = false;
    for (int k = 0; k < dim; ++k) nonzero = nonzero || c.md->sensordata[adr + k] != 0;
    const bool this_stage = stage == kStageNone || c.m.sensor_needstage[i] == stage;
    std::string key = type_name(c.m.sensor_type[i]);
    if (!this_stage) key = "(other stages)";
    errors.add(key, f.error, where + " sensor " + std::to_string(i), nonzero);
    if (f.status != oracle::FieldResult::kMatch && reported++ < 5) {
      ADD_FAILURE() << where << ": sensor " << i << " (" << type_name(c.m.sensor_type[i])
                    << ", objtype " << c.m.sensor_objtype[i] << " id " << c.m.sensor_objid[i]
                    << ", reftype " << c.m.sensor_reftype[i] << " id " << c.m.sensor_refid[i]
                    << ") element " << f.worst << ": joco " << f.joco_value << ", MuJoCo "
                    << f.mujoco_value << " (error " << f.error << ")";
    }
  }
  const oracle::Comparison cmp = oracle::compare_data(
      c.d, c.md.get(), c.mj.get(),
      {"subtree_linvel", "subtree_angmom", "cacc", "cfrc_int", "cfrc_ext"}, oracle::Tolerance{});
  for (const oracle::FieldResult& f : cmp.fields)
    errors.add("[" + f.name + "]", f.error, where, true);
  oracle::expect_match(cmp, where);
}

struct SensorCheck {
  int stage = kStagePos;  // which stage to compare (the earlier ones run first in both engines)
  int seeds = 4;          // random states
  int rollout_steps = 0;  // when positive: states along a MuJoCo rollout from the initial state,
                          // every rollout_steps / seeds steps, instead of random states
  std::function<void(oracle::OracleCase&)> setup;  // changes to both models (options, hfields)
  std::function<void(oracle::OracleCase&)> after;  // called after each comparison
};

inline void run_stage(const oracle::OracleCase& c, int stage, bool mujoco) {
  auto& cc = const_cast<oracle::OracleCase&>(c);
  if (mujoco) {
    if (stage == kStagePos) mj_sensorPos(cc.mj.get(), cc.md.get());
    if (stage == kStageVel) mj_sensorVel(cc.mj.get(), cc.md.get());
    if (stage == kStageAcc) mj_sensorAcc(cc.mj.get(), cc.md.get());
  } else {
    if (stage == kStagePos) sensor_pos(cc.m, cc.d);
    if (stage == kStageVel) sensor_vel(cc.m, cc.d);
    if (stage == kStageAcc) sensor_acc(cc.m, cc.d);
  }
}

// Runs one stage in both engines at several states of a model and compares; returns the errors.
inline SensorErrors check_sensors(const std::string& model, const SensorCheck& check) {
  SensorErrors errors;
  oracle::OracleCase c;
  if (!oracle::load_case(model, c)) return errors;
  if (check.setup) check.setup(c);
  std::mt19937_64 rng(17);
  int steps_done = 0;
  for (int seed = 0; seed < check.seeds; ++seed) {
    if (check.rollout_steps > 0) {
      const int target = (seed + 1) * check.rollout_steps / check.seeds;
      for (; steps_done < target; ++steps_done) mj_step(c.mj.get(), c.md.get());
    } else {
      oracle::RandomStateOptions options;
      options.unnormalized_quaternions = seed % 2 == 1;
      oracle::randomize_state(c.mj.get(), c.md.get(), 2000 + seed, options);
      c.md->time = std::uniform_real_distribution<double>(0, 10)(rng);
    }
    mj_forward(c.mj.get(), c.md.get());
    oracle::copy_data(c.mj.get(), c.md.get(), c.d);
    fill_outputs(c, rng);
    const std::string where = model + (check.rollout_steps > 0 ? " step " : " seed ") +
                              std::to_string(check.rollout_steps > 0 ? steps_done : seed);
    run_stage(c, check.stage, true);
    run_stage(c, check.stage, false);
    compare_outputs(c, where, errors, check.stage);
    if (check.after) check.after(c);
  }
  std::cout << model << " (stage " << check.stage << ", ncon " << c.md->ncon << ", nefc "
            << c.md->nefc << "):\n"
            << errors.table();
  return errors;
}

// The models a stage's sensor test sweeps: every model with sensors computed at that stage, in the
// default suite one of each sensor type; not those with noise (sensor_noise_oracle_test compares
// noise). Kinds: the sensor types.
template <Stage stage>
bool has_stage_sensors(const test::ModelFeatures& f) {
  return test::ModelFeatures::has(f.sensor_stages, stage) && !f.sensor_noise;
}
inline uint64_t sensor_kinds(const test::ModelFeatures& f) { return f.sensor_types; }

}  // namespace joco::sensor_oracle
