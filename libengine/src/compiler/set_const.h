// The compiler's last stage: quantities MuJoCo derives by evaluating the model at qpos0 (subtree
// masses, inverse weights, reference lengths, actuator gains per unit force, statistics, ...).
#pragma once

#include <array>
#include <span>

#include "compiler/spec.h"
#include "joco/model.h"

namespace joco::compiler {

// `springdamper` holds each joint's (time constant, damping ratio), in model order; (0, 0) where
// the joint has none.
void set_const(Model& m, const ModelSpec& spec,
               std::span<const std::array<double, 2>> springdamper);

// What set_const derives from the masses, inertias, armatures and gears, again, after a change to
// them (joco/parameters.h): subtree masses, dof_M0, the inverse weights, camera and light
// references to subtree centres of mass, the mass statistics (where the compiler derived them),
// actuator_length0 and actuator_acc0. Not re-derived, as mj_setConst does not: joint springdampers
// (the Model does not keep them) and actuator length ranges (the caller refuses the changes that
// would move a simulated one). `derived` says which mass statistics the compiler derived (told
// before the change by derived_statistics); those <statistic> gave stay.
struct DerivedStatistics {
  bool meaninertia = true, meanmass = true;
};
DerivedStatistics derived_statistics(const Model& m);
void recompute_constants(Model& m, DerivedStatistics derived);

}  // namespace joco::compiler
