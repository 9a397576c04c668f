// Actuator length ranges found by simulation (MuJoCo's mj_setLengthRange, modeling chapter
// "Actuator length range"): for the selected actuators without a range, push the transmission both
// ways in a damped simulation with joint and tendon limits only, and record where it settles.
#pragma once

#include "compiler/spec.h"
#include "joco/model.h"

namespace joco::compiler {

// Fills actuator_lengthrange per <compiler><lengthrange>. Throws InputError when the simulation
// does not settle (typically an actuator without limits).
void compute_length_ranges(Model& m, const ModelSpec& spec);

}  // namespace joco::compiler
