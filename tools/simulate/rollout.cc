#include "simulate/rollout.h"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <string>
#include <vector>

#include "common/rollout_steps.h"
#include "joco/error.h"
#include "joco/forward.h"

namespace joco::tools {

namespace {

// The divergence checks' resets so far.
int resets(const Data& d) {
  return d.warning[kWarnBadQpos].number + d.warning[kWarnBadQvel].number +
         d.warning[kWarnBadQacc].number;
}

int64_t warnings(const Data& d) {
  int64_t n = 0;
  for (const WarningStat& w : d.warning) n += w.number;
  return n;
}

double per_second(double count, double seconds) { return seconds > 0 ? count / seconds : 0.0; }

}  // namespace

RolloutStats rollout(const Model& m, Data& d, const Options& o, const InitialState& init,
                     const ControlSource& controls, int64_t steps, const Recorder& record,
                     TrajectoryWriter& w, Progress* progress) {
  init.apply(m, d);
  if (o.contacts) w.enable_contacts();
  RolloutStats stats;
  stats.steps = steps;
  ForwardInputs before(m);
  std::vector<double> row(record.widest());  // one array's row on its way to w
  // The rows that start again from the initial state after a divergence check's reset (the
  // attribute resets, schemas/trajectory.md): the row written at the reset's step, or under
  // --every the next one written.
  std::vector<double> reset_rows;
  const int64_t last_row = steps / o.every;
  int resets_before = 0;
  double time_before = 0;
  rollout_steps(
      m, d, steps,
      [&](int64_t t) {
        controls.apply(m, d, static_cast<size_t>(t));
        resets_before = resets(d);
        time_before = d.time;  // the reset sets d.time back to the initial state's
        before.save(m, d);
      },
      [&](int64_t t) {
        if (resets(d) > resets_before) {
          if (o.strict) {
            throw RuntimeError(
                fmt::format("the simulation diverged at step {} (time {:g} s); --strict stops here",
                            t, time_before));
          }
          // A divergence check reset d: forward ran from the model's initial state.
          before.save(m, Data(m));
          const int64_t r = (t + o.every - 1) / o.every;
          if (r <= last_row &&
              (reset_rows.empty() || reset_rows.back() != static_cast<double>(r))) {
            reset_rows.push_back(static_cast<double>(r));
          }
        }
        if (t % o.every == 0) {
          record.append_row(d, before, w, row);
          if (o.contacts) {
            for (int i = 0; i < d.ncon; ++i) {
              const ContactRecord c = contact_record(m, d, i, t / o.every);
              w.append_contacts({&c, 1});
            }
          }
        }
        stats.contacts += d.ncon;
        ++stats.rows;
        if (progress) progress->advance();
      });
  if (!reset_rows.empty()) w.set_attribute("resets", reset_rows);
  stats.warnings = warnings(d);
  return stats;
}

void summarize_rollout(const Model& m, const Data& d, const RolloutStats& s, double seconds) {
  spdlog::info("model '{}': nq={} nv={} nu={} nbody={} ngeom={}", m.model_name(), m.nq, m.nv, m.nu,
               m.nbody, m.ngeom);
  spdlog::info(
      "{} steps of {} s to time {:.4f} s in {:.3f} s wall ({:.0f} steps/s), {:.2f} contacts per "
      "step",
      s.steps, m.opt.timestep, d.time, seconds, per_second(static_cast<double>(s.steps), seconds),
      static_cast<double>(s.contacts) / static_cast<double>(s.rows));
  if (s.warnings) spdlog::warn("{} warnings during the rollout", s.warnings);
}

void summarize_batch(const Model& m, int rollouts, int threads, const RolloutStats& s,
                     double seconds) {
  spdlog::info("model '{}': nq={} nv={} nu={} nbody={} ngeom={}", m.model_name(), m.nq, m.nv, m.nu,
               m.nbody, m.ngeom);
  const double steps_per_second = per_second(static_cast<double>(s.steps), seconds);
  spdlog::info(
      "{} rollouts, {} steps in all, on {} thread(s) in {:.3f} s wall: {:.0f} steps/s in total, "
      "{:.0f} per thread; {:.2f} contacts per step",
      rollouts, s.steps, threads, seconds, steps_per_second, steps_per_second / threads,
      s.rows ? static_cast<double>(s.contacts) / static_cast<double>(s.rows) : 0.0);
  if (s.warnings) spdlog::warn("{} warnings during the rollouts", s.warnings);
}

}  // namespace joco::tools
