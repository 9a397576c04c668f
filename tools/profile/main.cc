// joco-profile MODEL [--steps N] [--threads T] [--ctrl-noise S] [--timer-overhead | --no-timers]
//              [--json]
// joco-profile MODEL --states TRAJ.h5[:/group] --call CALL [--repeat R] [--from-row K] [--json]
//
// Where the time goes, the way mujoco-testspeed reports it so the two can be read side by side:
// every thread simulates N steps from the model's initial state (keyframe "test" when there is
// one) with testspeed's Halton control noise; printed are steps per second (per thread and in
// total), the realtime factor, contacts, constraints and solver iterations per step, and the
// milliseconds per step of every pipeline stage from the built-in stage timers (--no-timers: with
// the timers off and no stage table, as testspeed without its profiler).
//
// With --states: the bare engine call a per-row tool makes (step, forward, fwdinv, inverse,
// inverse-discrete, derivatives, derivatives-continuous) timed over the rows of a trajectory held
// in memory, in microseconds per call: what a per-row tool's time per row is compared with.
#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "common/controls.h"
#include "common/model_input.h"
#include "common/parallel.h"
#include "common/report.h"
#include "common/tool.h"
#include "common/trajectory.h"
#include "joco/derivative.h"
#include "joco/error.h"
#include "joco/forward.h"
#include "joco/inverse.h"
#include "joco/state.h"

namespace joco::tools {
namespace {

struct Options {
  std::string model;
  int64_t steps = 10000;
  int threads = 1;
  double ctrl_noise = 0.01;
  bool json = false;
  bool timer_overhead = false;
  bool no_timers = false;
  std::string states, call;
  int repeat = 1;
  int64_t from_row = 0;
};

// MuJoCo's timer names, in the order of joco::Timer.
constexpr const char* kTimerNames[kNTimer] = {
    "step",          "forward",      "inverse",    "position",       "velocity",
    "actuation",     "acceleration", "constraint", "pos_kinematics", "pos_inertia",
    "pos_collision", "pos_make",     "pos_project"};

// What one thread measured.
struct ThreadResult {
  double seconds = 0;
  int64_t contacts = 0;
  int64_t constraints = 0;
  int64_t solver_iterations = 0;
  int min_iterations = std::numeric_limits<int>::max();
  int max_iterations = 0;
  int64_t steps_at_limit = 0;  // steps whose solver stopped at opt.iterations
  int warnings = 0;
  TimerStat timer[kNTimer];
};

// testspeed's initial state: the model's, or keyframe "test".
void initial_state(const Model& m, Data& d) {
  const int key = m.name_to_id(kObjKey, "test");
  if (key >= 0) {
    reset_to_keyframe(m, d, key);
  } else {
    reset_data(m, d);
  }
}

ThreadResult simulate(const Model& m, const Options& o, bool timers) {
  Data d(m);
  // One evaluation before the clock starts: the timers calibrate their clock on first use.
  forward(m, d);
  initial_state(m, d);
  d.timers_enabled = timers;
  ThreadResult r;
  const auto start = std::chrono::steady_clock::now();
  for (int64_t i = 0; i < o.steps; ++i) {
    if (o.ctrl_noise > 0) control_noise(m, o.ctrl_noise, 0, i, d.ctrl);
    step(m, d);
    r.contacts += d.ncon;
    r.constraints += d.nefc;
    r.solver_iterations += d.solver_iter;
    r.min_iterations = std::min(r.min_iterations, d.solver_iter);
    r.max_iterations = std::max(r.max_iterations, d.solver_iter);
    r.steps_at_limit += d.nefc > 0 && d.solver_iter >= m.opt.iterations;
  }
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  for (const WarningStat& w : d.warning) r.warnings += w.number;
  for (int t = 0; t < kNTimer; ++t) r.timer[t] = d.timer[t];
  if (r.min_iterations == std::numeric_limits<int>::max()) r.min_iterations = 0;
  return r;
}

// The engine calls a per-row tool makes, by --call name.
constexpr const char* kCalls[] = {"step",
                                  "forward",
                                  "fwdinv",
                                  "inverse",
                                  "inverse-discrete",
                                  "derivatives",
                                  "derivatives-continuous"};

// --states: every row's state held in memory (as TrajectoryStates puts it into a Data), then
// `repeat` passes over the rows, each row set as the tools set it (reset_state, set_state; for
// the inverse, qacc as forward dynamics finds it at the row) and the call made. Prints the
// microseconds per call, the set included (a tool cannot do less per row).
int profile_states(const Options& o) {
  const Model loaded = load_model(o.model);
  const std::string call = o.call;
  Model m = loaded;
  if (call == "derivatives") {
    m.nstack = static_cast<int>(std::min<int64_t>(std::numeric_limits<int>::max(),
                                                  int64_t{m.nstack} + transition_fd_stack(m)));
  } else if (call == "derivatives-continuous") {
    prepare_model_for_continuous_fd(m);  // as joco-derivatives --continuous
  }
  Trajectory t = TrajectoryInput::open(o.states).single();
  const TrajectoryStates file(loaded, t);
  const size_t rows = file.rows();
  if (rows == 0) throw InputError(t.where() + ": no rows");
  const size_t first = static_cast<size_t>(o.from_row);
  if (first >= rows) {
    throw InputError(t.where() + ": --from-row " + std::to_string(first) + ", but it has " +
                     std::to_string(rows) + " rows");
  }
  const size_t width = static_cast<size_t>(state_size(m, kStateAll)), nv = size_t(m.nv);
  std::vector<double> states(rows * width), qacc(rows * nv);
  Data d(m);
  for (size_t r = 0; r < rows; ++r) {
    file.load(m, d, r);
    get_state(m, d, states.data() + r * width, kStateAll);
    if (call == "inverse" || call == "inverse-discrete") {
      forward(m, d);
      std::copy_n(d.qacc, nv, qacc.data() + r * nv);
    }
  }
  const int nx = 2 * m.nv + m.na, ns = m.nsensordata;
  std::vector<double> a, b, c, dd;
  if (call == "derivatives") {
    a.resize(size_t(nx) * size_t(nx)), b.resize(size_t(nx) * size_t(m.nu));
    c.resize(size_t(ns) * size_t(nx)), dd.resize(size_t(ns) * size_t(m.nu));
  } else if (call == "derivatives-continuous") {
    a.resize(6 * nv * nv);
  }
  InverseOptions discrete;
  discrete.discrete = true;
  const auto run_row = [&](size_t r) {
    reset_state(m, d);
    set_state(m, d, states.data() + r * width, kStateAll);
    if (call == "step") {
      step(m, d);
    } else if (call == "forward") {
      forward(m, d);
    } else if (call == "fwdinv") {
      forward(m, d);
      compare_fwd_inv(m, d);
    } else if (call == "inverse" || call == "inverse-discrete") {
      std::copy_n(qacc.data() + r * nv, nv, d.qacc);
      inverse(m, d, call == "inverse" ? InverseOptions{} : discrete);
    } else if (call == "derivatives") {
      transition_fd(m, d, 1e-6, false, a.data(), b.data(), ns ? c.data() : nullptr,
                    ns ? dd.data() : nullptr);
    } else {
      // As joco-derivatives --continuous on one thread: forward at the state, then the forward
      // and the inverse derivatives.
      forward(m, d);
      ContinuousOptions fwd;
      fwd.inverse = false;
      forward_dynamics_fd(m, d, fwd, 0, m.nv, a.data(), a.data() + nv * nv, a.data() + 2 * nv * nv);
      ContinuousOptions inv;
      inv.forward = false;
      inverse_dynamics_fd(m, d, inv, 0, m.nv, a.data() + 3 * nv * nv, a.data() + 4 * nv * nv,
                          a.data() + 5 * nv * nv);
    }
  };
  run_row(first);  // the timers calibrate their clock on first use
  const auto start = std::chrono::steady_clock::now();
  for (int k = 0; k < o.repeat; ++k) {
    for (size_t r = first; r < rows; ++r) run_row(r);
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const double calls = static_cast<double>(rows - first) * o.repeat;
  const double us = 1e6 * seconds / calls;
  if (o.json) {
    JsonWriter j;
    j.begin_object(JsonWriter::Layout::kInline);
    j.key("model").value(m.model_name());
    j.key("states").value(t.where());
    j.key("call").value(call);
    j.key("rows").value(static_cast<int64_t>(rows - first));
    j.key("from_row").value(static_cast<int64_t>(first));
    j.key("repeat").value(o.repeat);
    j.key("time_s").number(seconds, 6);
    j.key("time_per_call_us").number(us, 6);
    j.end_object();
    std::fputs(j.text().c_str(), stdout);
  } else {
    std::fputs(fmt::format("\nModel '{}': {} {} times over {} rows of {}\n\n Time           : "
                           "{:.3f} s\n Time per call  : {:.3f} us\n\n",
                           m.model_name(), call, o.repeat, rows - first, t.where(), seconds, us)
                   .c_str(),
               stdout);
  }
  return kExitOk;
}

int profile(const Options& o, const ToolContext& ctx) {
  const Model m = load_model(o.model);
  const int threads = std::max(1, o.threads);
  std::vector<ThreadResult> results(static_cast<size_t>(threads));
  const auto start = std::chrono::steady_clock::now();
  run_threads(threads,
              [&](int t) { results[static_cast<size_t>(t)] = simulate(m, o, !o.no_timers); });
  const double total_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  // What leaving the timers on costs: the same run on one thread with the timers on and off,
  // alternately, kRepeats times each; the fastest of each kind is compared (the least disturbed
  // by the rest of the machine).
  std::optional<ThreadResult> untimed;
  double timed_best = results[0].seconds;
  if (o.timer_overhead) {
    constexpr int kRepeats = 5;
    for (int k = 0; k < kRepeats; ++k) {
      ThreadResult off = simulate(m, o, false);
      if (!untimed || off.seconds < untimed->seconds) untimed = off;
      timed_best = std::min(timed_best, simulate(m, o, true).seconds);
    }
  }

  const ThreadResult& r = results[0];
  const double steps = static_cast<double>(o.steps);
  const double h = m.opt.timestep;
  const double nsteps_total = steps * threads;
  auto per_step = [&](int64_t x) { return static_cast<double>(x) / steps; };
  const double step_ms = r.timer[kTimerStep].duration / steps * 1000;
  if (r.warnings > 0) spdlog::warn("{} warnings during the run (see -v)", r.warnings);

  if (o.json) {
    using Layout = JsonWriter::Layout;
    JsonWriter j;
    j.begin_object(Layout::kInline);
    j.key("model").value(m.model_name());
    j.key("nq").value(m.nq);
    j.key("nv").value(m.nv);
    j.key("nu").value(m.nu);
    j.key("timestep").number(h, 0);
    j.key("steps").value(o.steps);
    j.key("threads").value(threads);
    j.key("ctrl_noise").number(o.ctrl_noise, 0);
    j.key("simulation_time_s").number(r.seconds, 6);
    j.key("steps_per_second").number(steps / r.seconds, 6);
    j.key("realtime_factor").number(steps * h / r.seconds, 6);
    j.key("time_per_step_ms").number(1000 * r.seconds / steps, 6);
    j.key("contacts_per_step").number(per_step(r.contacts), 6);
    j.key("constraints_per_step").number(per_step(r.constraints), 6);
    j.key("degrees_of_freedom").value(m.nv);
    j.key("solver").begin_object(Layout::kInline);
    j.key("iterations_per_step").number(per_step(r.solver_iterations), 6);
    j.key("min").value(r.min_iterations).key("max").value(r.max_iterations);
    j.key("limit").value(m.opt.iterations).key("steps_at_limit").value(r.steps_at_limit);
    j.end_object();
    j.key("per_thread").begin_array(Layout::kInline);
    for (int t = 0; t < threads; ++t) {
      const ThreadResult& x = results[static_cast<size_t>(t)];
      j.begin_object(Layout::kInline).key("thread").value(t).key("time_s").number(x.seconds, 6);
      j.key("steps_per_second").number(steps / x.seconds, 6).end_object();
    }
    j.end_array();
    j.key("total").begin_object(Layout::kInline);
    j.key("time_s").number(total_seconds, 6);
    j.key("steps_per_second").number(nsteps_total / total_seconds, 6);
    j.key("realtime_factor").number(nsteps_total * h / total_seconds, 6);
    j.end_object();
    j.key("stages_ms_per_step").begin_object(Layout::kInline);
    for (int t = 0; t < kNTimer; ++t) {
      if (r.timer[t].number > 0)
        j.key(kTimerNames[t]).number(1000 * r.timer[t].duration / steps, 6);
    }
    j.end_object();
    if (untimed) {
      j.key("timer_overhead").begin_object(Layout::kInline);
      j.key("steps_per_second_without_timers").number(steps / untimed->seconds, 6);
      j.key("overhead_percent").number(100 * (r.seconds / untimed->seconds - 1), 4);
      j.end_object();
    }
    j.end_object();
    std::fputs(j.text().c_str(), stdout);
    return kExitOk;
  }

  std::string out;
  out += fmt::format("\nModel '{}': nq {}, nv {}, nu {}, nbody {}, ngeom {}\n", m.model_name(),
                     m.nq, m.nv, m.nu, m.nbody, m.ngeom);
  out += fmt::format("Running {} steps{} at dt = {} (control noise {}) ...\n\n", o.steps,
                     threads > 1 ? " per thread" : "", h, o.ctrl_noise);
  if (threads > 1) {
    out += fmt::format("Summary for all {} threads\n\n", threads);
    out += fmt::format(" Total simulation time  : {:.2f} s\n", total_seconds);
    out += fmt::format(" Total steps per second : {:.0f}\n", nsteps_total / total_seconds);
    out += fmt::format(" Total realtime factor  : {:.2f} x\n", nsteps_total * h / total_seconds);
    out +=
        fmt::format(" Total time per step    : {:.4f} ms\n\n", 1000 * total_seconds / nsteps_total);
    out += " Steps per second by thread:";
    for (int t = 0; t < threads; ++t)
      out += fmt::format(" {:.0f}", steps / results[static_cast<size_t>(t)].seconds);
    out += "\n\nDetails for thread 0\n\n";
  }
  out += fmt::format(" Simulation time      : {:.2f} s\n", r.seconds);
  out += fmt::format(" Steps per second     : {:.0f}\n", steps / r.seconds);
  out += fmt::format(" Realtime factor      : {:.2f} x\n", steps * h / r.seconds);
  out += fmt::format(" Time per step        : {:.4f} ms\n\n", 1000 * r.seconds / steps);
  out += fmt::format(" Contacts per step    : {:.2f}\n", per_step(r.contacts));
  out += fmt::format(" Constraints per step : {:.2f}\n", per_step(r.constraints));
  out += fmt::format(" Degrees of freedom   : {}\n", m.nv);
  out += fmt::format(
      " Solver iterations    : {:.2f} per step (min {}, max {}, limit {}; {} steps at the "
      "limit)\n\n",
      per_step(r.solver_iterations), r.min_iterations, r.max_iterations, m.opt.iterations,
      r.steps_at_limit);
  out += o.no_timers ? " Profiler phase: off (--no-timers)\n" : " Profiler phase (ms per step)\n";
  for (int t = 0; t < kNTimer; ++t) {
    if (r.timer[t].number == 0) continue;
    const double ms = 1000 * r.timer[t].duration / steps;
    out += fmt::format(" {:>16} : {:.5f}  ({:6.2f} %)\n", kTimerNames[t], ms,
                       step_ms > 0 ? 100 * ms / step_ms : 0.0);
  }
  if (untimed) {
    out += fmt::format(
        "\n Stage timers         : {:.0f} steps per second with, {:.0f} without (best of 5 each): "
        "they "
        "cost {:.2f} %\n",
        steps / timed_best, steps / untimed->seconds, 100 * (timed_best / untimed->seconds - 1));
  }
  out += "\n";
  std::fputs(out.c_str(), stdout);
  (void)ctx;
  return kExitOk;
}

}  // namespace
}  // namespace joco::tools

int main(int argc, char** argv) {
  joco::tools::Options o;
  return joco::tools::run_tool(
      argc, argv, "joco-profile",
      "Steps per second and time per pipeline stage, side by side with mujoco-testspeed.",
      [&](CLI::App& app) {
        joco::tools::add_model_argument(app, o.model);
        app.add_option("--steps", o.steps, "Steps per thread (default 10000)")
            ->check(joco::tools::kPositive);
        joco::tools::add_threads_option(app, o.threads, "Threads, each simulating --steps steps");
        app.add_option(
               "--ctrl-noise", o.ctrl_noise,
               "Control noise: this fraction of each control range, mujoco-testspeed's Halton "
               "scheme (default 0.01, as testspeed)")
            ->check(joco::tools::in_range(0.0, 1.0));
        auto* overhead =
            app.add_flag("--timer-overhead", o.timer_overhead,
                         "Also run once with the stage timers off and report what they cost");
        app.add_flag("--no-timers", o.no_timers,
                     "Run with the stage timers off, as mujoco-testspeed without its profiler "
                     "(no stage table)")
            ->excludes(overhead);
        app.add_flag("--json", o.json, "Print one JSON object instead of the table");
        auto* states = app.add_option(
            "--states", o.states,
            "Time --call over the rows of this trajectory (FILE.h5[:/group]) instead of a "
            "simulation");
        auto* call = app.add_option("--call", o.call, "The engine call timed per row with --states")
                         ->check(CLI::IsMember(std::vector<std::string>(
                             std::begin(joco::tools::kCalls), std::end(joco::tools::kCalls))));
        app.add_option("--repeat", o.repeat, "Passes over the rows with --states (default 1)")
            ->check(joco::tools::kPositive)
            ->needs(states);
        app.add_option("--from-row", o.from_row,
                       "Time only the rows from this one on with --states (default 0): the rows "
                       "a per-row tool's difference of two row counts covers")
            ->check(CLI::NonNegativeNumber)
            ->needs(states);
        states->needs(call);
        call->needs(states);
      },
      [&](const joco::tools::ToolContext& ctx) {
        return o.states.empty() ? joco::tools::profile(o, ctx) : joco::tools::profile_states(o);
      });
}
