// The compiler's last stage: quantities MuJoCo derives by evaluating the model at qpos0 (subtree
// masses, inverse weights, reference lengths, actuator gains per unit force, statistics, ...).
#pragma once

#include "compiler/spec.h"
#include "joco/model.h"

namespace joco::compiler {

void set_const(Model& m, const ModelSpec& spec);

}  // namespace joco::compiler
