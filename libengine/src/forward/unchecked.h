// The pipeline's entry points without check_data, for calls from inside the pipeline: the public
// entry points (joco/forward.h) check the Data once and go on here, so that a step checks once
// (step, then step1, forward and integrate each checked it: three checks a step).
#pragma once

#include "joco/data.h"
#include "joco/model.h"

namespace joco::unchecked {

void forward_skip(const Model& m, Data& d, Stage skip, bool skip_sensors);
void step1_skip(const Model& m, Data& d, Stage skip, bool skip_sensors);
void integrate(const Model& m, Data& d);

}  // namespace joco::unchecked
