// joco-fwdinv-check MODEL... [--states FILE.h5[:/group] | --steps N --ctrl-noise S --seed K]
//                   [--max-force-error X] [--max-constraint-error Y] [--absolute]
//                   [--solver pgs|cg|newton|all] [--iterations N] [--tolerance T]
//                   [--report json|junit] [-o REPORT] [--worst K | --all-rows] [--threads T]
//
// The forward/inverse consistency check of the fwdinv flag, for CI: forward dynamics at every state
// (given, or along a rollout it simulates), then the analytic inverse at forward's qacc, and the
// discrepancies MuJoCo 2.2.2 records in solver_fwdinv: in the constraint forces and in the applied
// forces. Exits 1 when a row exceeds a threshold or the rollout diverges, naming the rows; a model
// that cannot be loaded is an error case of the report, the others still checked.
#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <limits>
#include <optional>

#include "common/controls.h"
#include "common/io.h"
#include "common/model_input.h"
#include "common/parallel.h"
#include "common/progress.h"
#include "common/report.h"
#include "common/run_size.h"
#include "common/tool.h"
#include "common/trajectory.h"
#include "joco/constraint.h"
#include "joco/error.h"
#include "joco/forward.h"
#include "joco/inverse.h"
#include "joco/log.h"
#include "joco/smooth.h"
#include "joco/state.h"

namespace joco::tools {
namespace {

struct Options {
  std::vector<std::string> models;
  std::string states, report, output = "-", solver;
  int64_t steps = 500;
  double ctrl_noise = 0.1;
  int64_t seed = 0;
  double max_force_error = -1;  // negative: the default, from the solver tolerance
  double max_constraint_error = -1;
  bool absolute = false;
  int iterations = 0;
  double tolerance = -1;
  int threads = 1;
  int worst = 20;  // failing rows listed in a report, the worst first
  bool all_rows = false;
  // The most rows (or resets) a report lists.
  size_t listed() const {
    return all_rows ? std::numeric_limits<size_t>::max() : static_cast<size_t>(worst);
  }
};

// One state to check: everything forward dynamics reads (joco/state.h), with the warmstart of the
// run that made it.
constexpr unsigned kCheckedState = kStateIntegration;
struct State {
  std::string group;  // the trajectory group it came from ("" for a rollout)
  int64_t row = 0;
  std::vector<double> values;  // kCheckedState
};

// The divergence checks' resets along a rollout: each set the simulation back to the model's
// initial state, where the rows after it start again.
struct Divergence {
  std::vector<int64_t> steps;  // the steps whose check reset the simulation
  double first_time = 0;       // the time the first of those steps started at
  std::string warning;         // what the first check found (warning_text)
};

// The outcome at one state.
struct RowResult {
  double force = 0, constraint = 0;                    // as thresholded
  double force_absolute = 0, constraint_absolute = 0;  // solver_fwdinv[1], [0]
  int iterations = 0;
  int nefc = 0;
  bool over = false;
  // The joint-space inertia was singular (forward dynamics raised its tiny pivots, as MuJoCo does):
  // forward and inverse then use different matrices, whatever the solver did. Not thresholded.
  bool singular = false;
};

// One error's statistics over the rows judged (those not singular): the worst (and its row), the
// mean and percentiles (nearest rank; a NaN counts as the largest).
struct ErrorStats {
  double worst = 0, mean = 0, p50 = 0, p90 = 0, p99 = 0;
  int64_t worst_row = -1;
};

// The result of one model with one solver, or (error set) a model that could not be checked.
struct Case {
  std::string model, model_name, solver;
  std::string error;   // why the model could not be checked (its loader's message)
  int error_code = 0;  // the exit code of that error
  int iterations_limit = 0;
  double tolerance = 0;
  double max_force = 0, max_constraint = 0;  // the thresholds applied
  int noslip_left_out = 0;                   // the model's noslip_iterations, not run
  std::vector<std::string> row_names;        // "ROW", or "GROUP:ROW" for a batch file's rollouts
  std::vector<RowResult> rows;
  Divergence divergence;  // of the rollout the rows come from
  double seconds = 0;

  // Summary statistics.
  ErrorStats force, constraint;
  int rows_with_constraints = 0, max_iterations = 0;
  double mean_iterations = 0;
  std::vector<size_t> over, at_limit, singular;  // indices into rows, in row order
  std::vector<size_t> worst_first;               // over, the worst first (severity)

  bool is_error() const { return !error.empty(); }
  bool passed() const { return !is_error() && over.empty() && divergence.steps.empty(); }
  bool failed() const { return !is_error() && !passed(); }
  int exit_code() const { return is_error() ? error_code : passed() ? kExitOk : kExitCheckFailed; }

  const std::string& row_name(size_t i) const { return row_names[i]; }

  // How far a row is over its thresholds: its larger error as a multiple of that error's threshold
  // (any error is infinitely over a threshold of 0, and a NaN is worse than any number).
  double severity(const RowResult& r) const {
    const auto ratio = [](double e, double threshold) {
      if (std::isnan(e)) return std::numeric_limits<double>::infinity();
      if (threshold > 0) return e / threshold;
      return e > 0 ? std::numeric_limits<double>::infinity() : 0.0;
    };
    return std::max(ratio(r.force, max_force), ratio(r.constraint, max_constraint));
  }

  void summarise() {
    double si = 0;
    std::vector<double> forces, constraints;
    for (size_t i = 0; i < rows.size(); ++i) {
      const RowResult& r = rows[i];
      if (r.singular) {
        singular.push_back(i);
        continue;
      }
      forces.push_back(r.force);
      constraints.push_back(r.constraint);
      si += r.iterations;
      if (r.nefc > 0) ++rows_with_constraints;
      for (auto [e, stats] : {std::pair{r.force, &force}, std::pair{r.constraint, &constraint}}) {
        // A NaN is the worst of all.
        if (stats->worst_row < 0 ||
            (std::isnan(e) ? !std::isnan(stats->worst) : e > stats->worst)) {
          stats->worst = e;
          stats->worst_row = static_cast<int64_t>(i);
        }
      }
      max_iterations = std::max(max_iterations, r.iterations);
      if (r.over) over.push_back(i);
      if (r.nefc > 0 && r.iterations >= iterations_limit) at_limit.push_back(i);
    }
    distribution(forces, force);
    distribution(constraints, constraint);
    mean_iterations = si / std::max<double>(1, static_cast<double>(forces.size()));
    // Ties (infinitely over a threshold of 0) by the larger error, then in row order.
    worst_first = over;
    const auto larger = [](const RowResult& r) {
      const double e = std::max(r.force, r.constraint);
      return std::isnan(r.force) || std::isnan(r.constraint)
                 ? std::numeric_limits<double>::infinity()
                 : e;
    };
    std::stable_sort(worst_first.begin(), worst_first.end(), [&](size_t a, size_t b) {
      const double sa = severity(rows[a]), sb = severity(rows[b]);
      return sa != sb ? sa > sb : larger(rows[a]) > larger(rows[b]);
    });
  }

  // The mean and percentiles of `values` (sorted in place).
  static void distribution(std::vector<double>& values, ErrorStats& s) {
    double sum = 0;
    for (double& v : values) {
      sum += v;
      if (std::isnan(v)) v = std::numeric_limits<double>::infinity();
    }
    s.mean = sum / std::max<double>(1, static_cast<double>(values.size()));
    if (values.empty()) return;
    std::sort(values.begin(), values.end());
    const auto rank = [&](double p) {
      const size_t k = static_cast<size_t>(std::ceil(p * static_cast<double>(values.size())));
      return values[std::clamp<size_t>(k, 1, values.size()) - 1];
    };
    s.p50 = rank(0.5);
    s.p90 = rank(0.9);
    s.p99 = rank(0.99);
  }
};

// The case of a model that could not be checked: `message` says why.
Case error_case(const std::string& path, const std::string& message, int code) {
  Case c;
  c.model = path;
  c.error = message;
  c.error_code = code;
  return c;
}

const char* solver_name(int s) {
  switch (s) {
    case kSolverPGS: return "pgs";
    case kSolverCG: return "cg";
    default: return "newton";
  }
}

std::vector<int> solvers_to_run(const Options& o, const Model& m) {
  if (o.solver.empty()) return {m.opt.solver};
  if (o.solver == "all") return {kSolverPGS, kSolverCG, kSolverNewton};
  if (o.solver == "pgs") return {kSolverPGS};
  if (o.solver == "cg") return {kSolverCG};
  return {kSolverNewton};
}

double norm(const double* x, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i) s += x[i] * x[i];
  return std::sqrt(s);
}

// The scale of the relative errors at a forward solution: the forces in balance, |qfrc_bias| +
// |qfrc_passive| + |applied + actuator| + |qfrc_constraint|; plus the gross constraint forces
// before their two terms cancel, |D_i (|J_i qacc| + |aref_i|) |J_i|| over the rows in quadrature
// (stiff constraints, large D, make f = -D (J qacc - aref) a difference of large numbers whose
// rounding bounds the agreement any solver can reach); plus the model's unit of force,
// meaninertia max(1, nv) max(|gravity|, 1), so that states where hardly any force acts are not
// judged against rounding.
double force_scale(const Model& m, Data& d) {
  StackFrame frame(d);
  double* applied = frame.doubles(m.nv);
  for (int i = 0; i < m.nv; ++i) applied[i] = d.qfrc_applied[i] + d.qfrc_actuator[i];
  accumulate_xfrc(m, d, applied);
  const double gravity = norm(m.opt.gravity, 3);
  double scale = norm(d.qfrc_bias, m.nv) + norm(d.qfrc_passive, m.nv) + norm(applied, m.nv) +
                 norm(d.qfrc_constraint, m.nv) +
                 m.stat.meaninertia * std::max(1, m.nv) * std::max(gravity, 1.0);
  if (d.nefc == 0) return scale;
  double* jq = frame.doubles(d.nefc);
  mul_jac_vec(m, d, jq, d.qacc);
  const bool sparse = is_sparse(m);
  double gross = 0;
  for (int i = 0; i < d.nefc; ++i) {
    const double* row =
        sparse ? d.efc_J + d.efc_J_rowadr[i] : d.efc_J + static_cast<size_t>(i) * m.nv;
    const double row_norm = norm(row, sparse ? d.efc_J_rownnz[i] : m.nv);
    const double f = d.efc_D[i] * (std::abs(jq[i]) + std::abs(d.efc_aref[i])) * row_norm;
    gross += f * f;
  }
  return scale + std::sqrt(gross);
}

State capture(const Model& m, const Data& d, int64_t row) {
  State s;
  s.row = row;
  s.values.resize(static_cast<size_t>(state_size(m, kCheckedState)));
  get_state(m, d, s.values.data(), kCheckedState);
  return s;
}

// The states along a rollout of the model as it is (with the option overrides): steps + 1 rows,
// as joco-simulate writes them. Each is the state step1 runs forward at: the state before it, or
// the model's initial state when its position or velocity check reset d (a state whose qacc
// diverged is kept, so that the check sees it). Every reset is noted in `divergence`.
std::vector<State> rollout_states(const Model& m, const Options& o, Divergence& divergence) {
  // Every state is held until the checks: refused before the rollout when they cannot be.
  const long double state_bytes =
      sizeof(State) + sizeof(double) * static_cast<long double>(state_size(m, kCheckedState));
  check_memory_need((static_cast<long double>(o.steps) + 1) * state_bytes,
                    "--steps " + std::to_string(o.steps) + ": the rollout's states", "--steps");
  std::vector<State> states;
  Data d(m);
  const ControlSource controls =
      o.ctrl_noise > 0 ? ControlSource::noise(o.ctrl_noise, o.seed) : ControlSource();
  constexpr Warning kChecks[] = {kWarnBadQpos, kWarnBadQvel, kWarnBadQacc};
  for (int64_t t = 0; t <= o.steps; ++t) {
    controls.apply(m, d, static_cast<size_t>(t));
    int before[3];
    for (int k = 0; k < 3; ++k) before[k] = d.warning[kChecks[k]].number;
    const double time = d.time;  // a reset sets d.time back to the initial state's
    State s = capture(m, d, t);
    step1(m, d);
    for (int k = 0; k < 3; ++k) {
      if (d.warning[kChecks[k]].number == before[k]) continue;
      if (divergence.steps.empty()) {
        divergence.first_time = time;
        divergence.warning = warning_text(kChecks[k]);
      }
      divergence.steps.push_back(t);
      if (kChecks[k] != kWarnBadQacc) s = capture(m, Data(m), t);
      break;
    }
    states.push_back(std::move(s));
    if (t < o.steps) step2(m, d);
  }
  return states;
}

// The states of every row of a trajectory file (each warm-started with the previous row's qacc when
// the file has it, as the rollout that wrote it was).
std::vector<State> file_states(const Model& m, const std::string& ref) {
  std::vector<State> states;
  TrajectoryInput input = TrajectoryInput::open(ref);
  Data d(m);
  for (const std::string& group : input.trajectory_groups()) {
    Trajectory t = input.trajectory(group);
    const TrajectoryStates rows(m, t);
    for (size_t r = 0; r < rows.rows(); ++r) {
      rows.load(m, d, r);
      State s = capture(m, d, static_cast<int64_t>(r));
      s.group = group;
      states.push_back(std::move(s));
    }
  }
  return states;
}

// The default threshold of both errors: 1e4 times the solver's tolerance, at least 1e-6 (relative),
// or 1e-6 for absolute errors. A solver that stops on its tolerance leaves discrepancies well below
// it (the worst of joco's test models, CG at tolerance 1e-6 stopped by its iteration limit, leaves
// 3e-3); one starved of iterations leaves them near 1.
double default_threshold(const Model& m, const Options& o) {
  return o.absolute ? 1e-6 : std::max(1e-6, 1e4 * m.opt.tolerance);
}

Case check(const Model& m, const std::string& path, const std::vector<State>& states,
           const Options& o, const ToolContext& ctx) {
  Case c;
  c.model = path;
  c.model_name = std::string(m.model_name());
  c.solver = solver_name(m.opt.solver);
  c.iterations_limit = m.opt.iterations;
  c.tolerance = m.opt.tolerance;
  c.max_force = o.max_force_error >= 0 ? o.max_force_error : default_threshold(m, o);
  c.max_constraint = o.max_constraint_error >= 0 ? o.max_constraint_error : default_threshold(m, o);
  for (const State& s : states) {
    c.row_names.push_back(s.group.empty() || s.group == "/"
                              ? std::to_string(s.row)
                              : s.group + ":" + std::to_string(s.row));
  }
  c.rows.resize(states.size());
  const auto start = std::chrono::steady_clock::now();
  Progress progress("checking " + c.model_name + " (" + c.solver + ")",
                    static_cast<int64_t>(states.size()), !ctx.quiet());
  const int threads = std::max(1, std::min<int>(o.threads, static_cast<int>(states.size())));
  std::vector<Data> data;
  for (int th = 0; th < threads; ++th) data.emplace_back(m);
  parallel_for(states.size(), threads, [&](int th, size_t i) {
    Data& d = data[static_cast<size_t>(th)];
    reset_state(m, d);
    set_state(m, d, states[i].values.data(), kCheckedState);
    const int singular_before = d.warning[kWarnInertia].number;
    forward(m, d);
    compare_fwd_inv(m, d);
    RowResult& r = c.rows[i];
    r.singular = d.warning[kWarnInertia].number > singular_before;
    r.constraint_absolute = d.solver_fwdinv[0];
    r.force_absolute = d.solver_fwdinv[1];
    r.iterations = d.solver_iter;
    r.nefc = d.nefc;
    const double scale = o.absolute ? 1.0 : force_scale(m, d);
    r.force = scale > 0 ? r.force_absolute / scale : 0;
    r.constraint = scale > 0 ? r.constraint_absolute / scale : 0;
    r.over = !r.singular && (!(r.force <= c.max_force) || !(r.constraint <= c.max_constraint));
    progress.advance();
  });
  progress.finish();
  c.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  c.summarise();
  return c;
}

std::string list_rows(const Case& c, const std::vector<size_t>& rows, size_t most) {
  std::string text;
  for (size_t k = 0; k < rows.size() && k < most; ++k) {
    if (k) text += ", ";
    text += c.row_name(rows[k]);
  }
  if (rows.size() > most) text += ", ... (" + std::to_string(rows.size()) + " in all)";
  return text;
}

// "the rollout diverged at step 447 (time 4.47 s): bad qpos (...), simulation reset to the
// initial state", and how many resets there were when more than one.
std::string divergence_text(const Divergence& d) {
  std::string text =
      fmt::format("the rollout diverged at step {} (time {:g} s): {} to the initial state",
                  d.steps[0], d.first_time, d.warning);
  if (d.steps.size() > 1) text += fmt::format("; {} resets in all", d.steps.size());
  return text;
}

// "N row(s) over a threshold, the first at row F; the worst: ...".
std::string over_text(const Case& c) {
  return fmt::format("{} row(s) over a threshold, the first at row {}; the worst: {}",
                     c.over.size(), c.row_name(c.over[0]), list_rows(c, c.worst_first, 20));
}

void print_summary(const Case& c, const Options& o) {
  if (c.is_error()) {
    std::fputs(fmt::format("{}: not checked\n  ERROR (exit {})\n", c.model, c.error_code).c_str(),
               stderr);
    return;
  }
  const char* kind = o.absolute ? "absolute" : "relative";
  std::string s = fmt::format(
      "{} ({}, {} iterations, tolerance {:g}): {} rows, {} with constraints\n", c.model_name,
      c.solver, c.iterations_limit, c.tolerance, c.rows.size(), c.rows_with_constraints);
  const auto line = [&](const char* name, const ErrorStats& e, double threshold) {
    s += fmt::format(
        "  {:<17} worst {:.3e} (row {})  mean {:.3e}  p90 {:.3e}  p99 {:.3e}  threshold {:g} "
        "({})\n",
        name, e.worst, e.worst_row >= 0 ? c.row_name(static_cast<size_t>(e.worst_row)) : "-",
        e.mean, e.p90, e.p99, threshold, kind);
  };
  line("force error", c.force, c.max_force);
  line("constraint error", c.constraint, c.max_constraint);
  if (c.noslip_left_out > 0) {
    s += fmt::format(
        "  noslip: the model's {} noslip iterations were left out (they change the "
        "friction forces after the solver; inverse dynamics has no noslip)\n",
        c.noslip_left_out);
  }
  s += fmt::format("  {:<17} mean {:.2f}  max {}  limit {}  rows at the limit {}{}\n", "iterations",
                   c.mean_iterations, c.max_iterations, c.iterations_limit, c.at_limit.size(),
                   c.at_limit.empty() ? "" : " (" + list_rows(c, c.at_limit, 10) + ")");
  if (!c.singular.empty()) {
    s += fmt::format("  {} row(s) not judged, the inertia matrix being singular there: {}\n",
                     c.singular.size(), list_rows(c, c.singular, 10));
  }
  if (c.passed()) s += "  PASS\n";
  if (!c.divergence.steps.empty()) s += "  FAIL: " + divergence_text(c.divergence) + "\n";
  if (!c.over.empty()) s += "  FAIL: " + over_text(c) + "\n";
  std::fputs(s.c_str(), stderr);
}

// How many cases passed, failed and could not be checked, and the exit code: the worst of the
// cases' (4 runtime failure, over 3 bad input, over 1 a check failed, over 0).
struct Totals {
  size_t passed = 0, failed = 0, errors = 0;
  int exit_code = kExitOk;
  explicit Totals(const std::vector<Case>& cases) {
    for (const Case& c : cases) {
      passed += c.passed() ? 1 : 0;
      failed += c.failed() ? 1 : 0;
      errors += c.is_error() ? 1 : 0;
      exit_code = std::max(exit_code, c.exit_code());
    }
  }
};

std::string json_report(const std::vector<Case>& cases, const Options& o) {
  using Layout = JsonWriter::Layout;
  const Totals totals(cases);
  JsonWriter j;
  j.begin_object();
  j.key("tool").value("joco-fwdinv-check");
  j.key("version").value(JOCO_VERSION);
  j.key("command").value(command_line());
  j.key("errors").value(o.absolute ? "absolute" : "relative");
  j.key("passed").value(totals.passed == cases.size());
  j.key("summary").begin_object(Layout::kInline);
  j.key("cases").value(cases.size()).key("passed").value(totals.passed);
  j.key("failed").value(totals.failed).key("errors").value(totals.errors);
  j.key("exit_code").value(totals.exit_code).end_object();
  j.key("failing_rows_limit");
  if (o.all_rows) {
    j.null();
  } else {
    j.value(o.worst);
  }
  j.key("cases").begin_array();
  for (const Case& c : cases) {
    j.begin_object();
    j.key("model").value(c.model);
    if (c.is_error()) {
      j.key("error").value(c.error);
      j.key("exit_code").value(c.error_code);
      j.key("passed").value(false);
      j.end_object();
      continue;
    }
    const auto row_or_null = [&](int64_t row) -> JsonWriter& {
      return row >= 0 ? j.value(c.row_name(static_cast<size_t>(row))) : j.null();
    };
    const auto stat = [&](const char* name, const ErrorStats& e) {
      j.key(name).begin_object(Layout::kInline).key("worst").number(e.worst).key("worst_row");
      row_or_null(e.worst_row);
      j.key("mean").number(e.mean).key("p50").number(e.p50).key("p90").number(e.p90);
      j.key("p99").number(e.p99).end_object();
    };
    j.key("model_name").value(c.model_name);
    j.key("solver").value(c.solver);
    j.key("iterations_limit").value(c.iterations_limit);
    j.key("tolerance").number(c.tolerance);
    j.key("noslip_iterations_left_out").value(c.noslip_left_out);
    j.key("max_force_error").number(c.max_force);
    j.key("max_constraint_error").number(c.max_constraint);
    j.key("rows").value(c.rows.size());
    j.key("rows_with_constraints").value(c.rows_with_constraints);
    j.key("rows_failing").value(c.over.size());
    j.key("first_failing_row");
    row_or_null(c.over.empty() ? -1 : static_cast<int64_t>(c.over[0]));
    j.key("seconds").number(c.seconds);
    stat("force_error", c.force);
    stat("constraint_error", c.constraint);
    j.key("iterations").begin_object(Layout::kInline);
    j.key("mean").number(c.mean_iterations).key("max").value(c.max_iterations);
    j.key("limit").value(c.iterations_limit).key("rows_at_limit").value(c.at_limit.size());
    j.end_object();
    j.key("rows_singular_inertia").value(c.singular.size());
    j.key("divergence");
    if (c.divergence.steps.empty()) {
      j.null();
    } else {
      const Divergence& d = c.divergence;
      j.begin_object(Layout::kInline);
      j.key("resets").value(d.steps.size()).key("first_step").value(d.steps[0]);
      j.key("first_time").number(d.first_time).key("warning").value(d.warning);
      j.key("steps").begin_array(Layout::kInline);
      for (size_t k = 0; k < d.steps.size() && k < o.listed(); ++k) j.value(d.steps[k]);
      j.end_array().end_object();
    }
    j.key("failing_rows").begin_array();
    for (size_t k = 0; k < c.worst_first.size() && k < o.listed(); ++k) {
      const size_t i = c.worst_first[k];
      const RowResult& r = c.rows[i];
      j.begin_object(Layout::kInline);
      j.key("row").value(c.row_name(i));
      j.key("force_error").number(r.force);
      j.key("constraint_error").number(r.constraint);
      j.key("solver_fwdinv").begin_array(Layout::kInline);
      j.number(r.constraint_absolute).number(r.force_absolute).end_array();
      j.key("iterations").value(r.iterations);
      j.end_object();
    }
    j.end_array();
    j.key("passed").value(c.passed());
    j.end_object();
  }
  j.end_array();
  j.end_object();
  return j.text();
}

// JUnit XML: one test suite, one test case per model and solver, a failure for a divergence or
// for rows over a threshold (the worst listed), an error for a model that could not be checked.
std::string junit_report(const std::vector<Case>& cases, const Options& o) {
  std::vector<JUnitCase> junit;
  for (const Case& c : cases) {
    JUnitCase& x = junit.emplace_back();
    x.file = c.model;
    if (c.is_error()) {
      x.classname = "joco-fwdinv-check." + std::filesystem::path(c.model).stem().string();
      x.name = c.model;
      x.error = JUnitCase::Failure{
          c.error, c.error_code == kExitBadInput ? "bad input" : "runtime failure", c.error};
      continue;
    }
    x.classname = "joco-fwdinv-check." + c.model_name;
    x.name = c.model_name + " (" + c.solver + ")";
    x.seconds = c.seconds;
    x.system_out = fmt::format(
        "{} rows, {} over a threshold{}; force error worst {:.3e} mean {:.3e} p90 {:.3e} p99 "
        "{:.3e} (max {:g}); constraint error worst {:.3e} mean {:.3e} p90 {:.3e} p99 {:.3e} (max "
        "{:g}); iterations mean {:.2f} max {} limit {}, {} rows at the limit",
        c.rows.size(), c.over.size(),
        c.over.empty() ? "" : " (the first at row " + c.row_name(c.over[0]) + ")", c.force.worst,
        c.force.mean, c.force.p90, c.force.p99, c.max_force, c.constraint.worst, c.constraint.mean,
        c.constraint.p90, c.constraint.p99, c.max_constraint, c.mean_iterations, c.max_iterations,
        c.iterations_limit, c.at_limit.size());
    if (!c.failed()) continue;
    std::string message, text;
    const Divergence& d = c.divergence;
    if (!d.steps.empty()) {
      message = divergence_text(d);
      for (size_t k = 0; k < d.steps.size() && k < o.listed(); ++k) {
        text += fmt::format("reset at step {}\n", d.steps[k]);
      }
    }
    if (!c.over.empty()) {
      message += (message.empty() ? "" : "; ") + over_text(c);
      for (size_t k = 0; k < c.worst_first.size() && k < o.listed(); ++k) {
        const size_t i = c.worst_first[k];
        const RowResult& r = c.rows[i];
        text += fmt::format("row {}: force error {:.3e}, constraint error {:.3e}, {} iterations\n",
                            c.row_name(i), r.force, r.constraint, r.iterations);
      }
      if (c.worst_first.size() > o.listed()) {
        text +=
            fmt::format("... {} more row(s) over a threshold, not listed (--all-rows lists them)\n",
                        c.worst_first.size() - o.listed());
      }
    }
    x.failure = JUnitCase::Failure{message, d.steps.empty() ? "threshold" : "divergence", text};
  }
  return junit_report("joco-fwdinv-check", junit);
}

// Checks one model with each solver asked for, adding a case for each.
void check_model(const std::string& path, const Options& o, const ToolContext& ctx,
                 std::vector<Case>& cases) {
  Model m = load_model(path);
  if (o.iterations > 0) m.opt.iterations = o.iterations;
  if (o.tolerance >= 0) m.opt.tolerance = o.tolerance;
  Divergence divergence;
  const std::vector<State> states =
      o.states.empty() ? rollout_states(m, o, divergence) : file_states(m, o.states);
  for (int solver : solvers_to_run(o, m)) {
    Model ms = m;
    ms.opt.solver = solver;
    // The noslip post-processing makes the friction forces those of another problem, which no
    // inverse reproduces: the check is of the solver's own solution.
    ms.opt.noslip_iterations = 0;
    cases.push_back(check(ms, path, states, o, ctx));
    cases.back().noslip_left_out = m.opt.noslip_iterations;
    cases.back().divergence = divergence;
    if (!ctx.quiet()) print_summary(cases.back(), o);
  }
}

int run(const Options& o, const ToolContext& ctx) {
  if (!o.states.empty() && o.models.size() > 1) {
    throw UsageError("--states belongs to one model; give a single MODEL with it");
  }
  std::vector<Case> cases;
  for (const std::string& path : o.models) {
    const size_t first = cases.size();
    try {
      check_model(path, o, ctx, cases);
    } catch (const Error& e) {
      // A model (or its states file) that cannot be read is an error case of its own, and the
      // other models are still checked: a CI job sees every result.
      spdlog::error("{}", e.what());
      cases.resize(first);
      cases.push_back(error_case(path, e.what(), exit_code(e)));
      if (!ctx.quiet()) print_summary(cases.back(), o);
    }
  }
  const Totals totals(cases);
  if (!ctx.quiet() && cases.size() > 1) {
    std::fputs(
        fmt::format("{} cases: {} passed, {} failed, {} error{}\n", cases.size(), totals.passed,
                    totals.failed, totals.errors, totals.errors == 1 ? "" : "s")
            .c_str(),
        stderr);
  }
  if (!o.report.empty()) {
    const std::string text = o.report == "json" ? json_report(cases, o) : junit_report(cases, o);
    write_output(o.output, text);
  }
  return totals.exit_code;
}

}  // namespace
}  // namespace joco::tools

int main(int argc, char** argv) {
  joco::tools::Options o;
  return joco::tools::run_tool(
      argc, argv, "joco-fwdinv-check",
      "Forward/inverse consistency of the constraint solver: exit 1 when a discrepancy exceeds "
      "its threshold or the rollout diverges.\nWith several models the exit code is the worst of "
      "theirs (3 when one cannot be loaded: the others are still checked and reported).",
      [&](CLI::App& app) {
        app.add_option("MODEL", o.models,
                       "Models: .jmb, .xml (MJCF), .urdf, or - for standard input; each is a test "
                       "case")
            ->required();
        auto* states = app.add_option(
            "--states", o.states, "Check at every row of FILE.h5[:/group] instead of a rollout");
        app.add_option("--steps", o.steps, "Steps of the rollout (default 500)")
            ->check(joco::tools::kNonNegative)
            ->excludes(states);
        app.add_option("--ctrl-noise", o.ctrl_noise,
                       "Rollout controls: this fraction of each control range, pseudo-random "
                       "(default 0.1)")
            ->check(joco::tools::in_range(0.0, 1.0))
            ->excludes(states);
        app.add_option("--seed", o.seed, "Seed of the control noise")
            ->check(joco::tools::kNonNegative)
            ->excludes(states);
        app.add_option("--max-force-error", o.max_force_error,
                       "Threshold of the applied-force discrepancy (default: 1e4 times the solver "
                       "tolerance, at least 1e-6)")
            ->check(joco::tools::kNonNegative);
        app.add_option("--max-constraint-error", o.max_constraint_error,
                       "Threshold of the constraint-force discrepancy (default: as the force "
                       "threshold)")
            ->check(joco::tools::kNonNegative);
        app.add_flag("--absolute", o.absolute,
                     "Thresholds on the absolute norms (solver_fwdinv) instead of relative to the "
                     "forces in balance");
        app.add_option("--solver", o.solver,
                       "Solver to check: pgs, cg, newton or all (default: the "
                       "model's)")
            ->check(CLI::IsMember({"pgs", "cg", "newton", "all"}));
        app.add_option("--iterations", o.iterations, "Override the model's solver iterations")
            ->check(joco::tools::kPositive);
        app.add_option("--tolerance", o.tolerance, "Override the model's solver tolerance")
            ->check(joco::tools::kNonNegative);
        app.add_option("--report", o.report, "Write a report: json or junit")
            ->check(CLI::IsMember({"json", "junit"}));
        auto* worst = app.add_option("--worst", o.worst,
                                     "Failing rows a report lists, the worst first (default 20; "
                                     "its summary counts them all)")
                          ->check(joco::tools::kNonNegative);
        app.add_flag("--all-rows", o.all_rows, "Every failing row in the report, the worst first")
            ->excludes(worst);
        joco::tools::add_output_check(
            app.add_option("-o,--output", o.output,
                           "Report file (- for standard output, the default); needs --report"));
        app.add_option("--threads", o.threads, "Threads (states in parallel)")
            ->check(joco::tools::in_range(1, 1024));
      },
      [&](const joco::tools::ToolContext& ctx) { return joco::tools::run(o, ctx); });
}
