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

}  // namespace joco::compiler
