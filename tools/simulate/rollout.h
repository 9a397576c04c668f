// One rollout of joco-simulate, streamed to its trajectory group row by row, and the numbers -v
// prints about rollouts and batches.
#pragma once

#include <cstdint>

#include "common/controls.h"
#include "common/progress.h"
#include "common/trajectory.h"
#include "joco/data.h"
#include "joco/model.h"
#include "simulate/inputs.h"
#include "simulate/options.h"
#include "simulate/record.h"

namespace joco::tools {

// What a rollout did, for the summaries.
struct RolloutStats {
  int64_t steps = 0;
  int64_t rows = 0;      // rows simulated (steps + 1), not only those written (--every)
  int64_t contacts = 0;  // summed over the rows simulated
  int64_t warnings = 0;

  RolloutStats& operator+=(const RolloutStats& o) {
    steps += o.steps;
    rows += o.rows;
    contacts += o.contacts;
    warnings += o.warnings;
    return *this;
  }
};

// One rollout of `steps` steps from `init` under `controls`: steps + 1 states, of which rows 0,
// every, 2 every, ... (o.every) are appended to `w` as they are made, each with the arrays of
// `record` (and the contact table with --contacts; a contact's row is the written row). w writes
// each chunk as it fills, so memory does not grow with the steps. --strict: RuntimeError at a
// divergence.
RolloutStats rollout(const Model& m, Data& d, const Options& o, const InitialState& init,
                     const ControlSource& controls, int64_t steps, const Recorder& record,
                     TrajectoryWriter& w, Progress* progress);

// -v's summary of a single rollout: the model, steps, wall time, steps/s, contacts per step.
void summarize_rollout(const Model& m, const Data& d, const RolloutStats& s, double seconds);
// -v's summary of a batch: rollouts, steps, wall time, steps/s in total and per thread, contacts
// per step, warnings.
void summarize_batch(const Model& m, int rollouts, int threads, const RolloutStats& s,
                     double seconds);

}  // namespace joco::tools
