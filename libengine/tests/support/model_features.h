// What each model in testdata/ contains, so that a test sweeping models can pick them by what its
// subject needs (models_where in test_models.h) instead of keeping a list of its own.
//
// The table is made at build time: support/gen/write_model_features.cc compiles every model of
// all_testdata_models() with the engine, runs forward once at qpos0 and writes one row per model
// (ModelFeatures below) into the build tree; the test binaries read nothing at run time.
#pragma once

#include <cstdint>
#include <string>

#include "joco/constants.h"
#include "joco/model.h"

namespace joco::test {

// The features besides the model's sizes (ModelSizes: nq, nv, nu, na, ntendon, neq, nsensor,
// nmesh, nhfield, nmocap, ...), as X(type, name, meaning).
#define JOCO_MODEL_FEATURES(X)                                             \
  X(int, loads, "1 when it compiles (0: every other feature is 0)")        \
  X(int, urdf, "1 for a URDF file (compiled through the URDF converter)")  \
  X(int, ncon, "contacts at qpos0 after forward")                          \
  X(int, nefc, "constraint rows at qpos0 after forward")                   \
  X(int, integrator, "opt.integrator (Integrator)")                        \
  X(int, cone, "opt.cone (Cone)")                                          \
  X(int, jacobian, "opt.jacobian (JacobianType)")                          \
  X(int, solver, "opt.solver (SolverType)")                                \
  X(int, fluid, "1 when opt.density or opt.viscosity is positive")         \
  X(int, stiffness, "1 when a joint or tendon has a spring")               \
  X(int, damping, "1 when a dof or tendon has damping")                    \
  X(int, frictionloss, "1 when a dof or tendon has friction loss")         \
  X(int, limited, "1 when a joint or tendon is limited")                   \
  X(uint64_t, joint_types, "bit JointType set for each type present")      \
  X(uint64_t, geom_types, "bit GeomType")                                  \
  X(uint64_t, sensor_types, "bit SensorType")                              \
  X(uint64_t, sensor_stages, "bit Stage of the sensors' sensor_needstage") \
  X(int, sensor_noise, "1 when a sensor has noise")                        \
  X(uint64_t, eq_types, "bit EqualityType")                                \
  X(uint64_t, wrap_types, "bit WrapType of the tendons' wrap objects")     \
  X(uint64_t, trn_types, "bit TransmissionType of the actuators")          \
  X(uint64_t, dyn_types, "bit DynType of the actuators")                   \
  X(uint64_t, gain_types, "bit GainType")                                  \
  X(uint64_t, bias_types, "bit BiasType")

struct ModelFeatures : ModelSizes {
  std::string path;  // relative to testdata/
#define JOCO_DECLARE_FEATURE(type, name, meaning) type name = 0;
  JOCO_MODEL_FEATURES(JOCO_DECLARE_FEATURE)
#undef JOCO_DECLARE_FEATURE

  // Whether a type is present, for the bit sets above: f.has(f.sensor_types, kSensorTouch).
  static bool has(uint64_t types, int type) { return (types >> type) & 1; }
  // Kinds, for picking one model of each (sweep_models in test_models.h): the actuators' types
  // (transmission, dynamics, gain, bias), the passive forces present (springs, dampers, fluid,
  // tendons among them).
  uint64_t actuator_kinds() const {
    return trn_types | dyn_types << 16 | gain_types << 32 | bias_types << 48;
  }
  uint64_t passive_kinds() const {
    return uint64_t(stiffness) | uint64_t(damping) << 1 | uint64_t(fluid) << 2 |
           uint64_t(ntendon > 0) << 3;
  }
  // Whether MuJoCo 2.2.2 loads it: it refuses the distance equality, which joco keeps (see
  // joco-compile(1)). Oracle sweeps leave such models out.
  bool mujoco_loads() const { return !has(eq_types, kEqDistance); }
  // Whether the model lies under a folder of testdata/ ("smooth/").
  bool in(const std::string& folder) const { return path.starts_with(folder); }
  // A model every stage test of the default suite can afford: at most 40 dofs and 20,000 mesh
  // vertices (measured: such a model's oracle stage test takes under 0.5 s, the larger robots 1 to
  // 4 s, mostly compiling their meshes).
  bool small() const { return nv <= 40 && nmeshvert <= 20000; }
};

}  // namespace joco::test
