// The stepping loop of one rollout, shared by joco-simulate and the Python module's rollout so
// that both take the same steps in the same order (and give the same bits).
#pragma once

#include <cstdint>

#include "joco/data.h"
#include "joco/forward.h"
#include "joco/model.h"

namespace joco::tools {

// steps + 1 rows: for t = 0 .. steps, inputs(t) sets d's inputs (controls, applied forces) for
// step t, step1 computes forward at the state step t starts from, row(t) sees its results, and
// step2 integrates (not after the last row, which only evaluates the final state).
template <class Inputs, class Row>
void rollout_steps(const Model& m, Data& d, int64_t steps, Inputs&& inputs, Row&& row) {
  for (int64_t t = 0; t <= steps; ++t) {
    inputs(t);
    step1(m, d);
    row(t);
    if (t < steps) step2(m, d);
  }
}

}  // namespace joco::tools
