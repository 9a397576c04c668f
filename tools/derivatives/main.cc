// joco-derivatives MODEL [--states FILE.h5[:/group] [--rows LIST]] [--eps E] [--centered]
//                  [--iterations N] [--threads T] [-o OUT.h5]
// joco-derivatives MODEL --continuous [--states ... [--rows LIST]] [--eps E] [--iterations N]
//                  [--warmup W] [--threads T] [-o OUT.h5]
//
// Finite-difference derivatives at the model's initial state or at chosen rows of a trajectory:
// the transition Jacobians A, B (and C, D for sensors) of one step, in parallel over rows; or,
// with --continuous, the derivatives of forward and inverse dynamics that MuJoCo's `derivative`
// sample computes, in parallel over columns, with its accuracy check. schemas/derivatives.md
// gives the file layout.
#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <limits>
#include <optional>

#include "common/io.h"
#include "common/model_input.h"
#include "common/parallel.h"
#include "common/progress.h"
#include "common/tool.h"
#include "common/trajectory.h"
#include "joco/derivative.h"
#include "joco/error.h"
#include "joco/forward.h"

namespace joco::tools {
namespace {

struct Options {
  std::string model, states, rows, output = "-";
  double eps = 1e-6;
  bool centered = false;
  bool continuous = false;
  int iterations = -1;  // -1: the model's settings (transition), 30 (continuous)
  int warmup = 3;
  int threads = 1;
  bool strict = false;  // a non-finite value written: exit code 4
};

constexpr const char* kStateConvention =
    "x = (dqpos[nv], qvel[nv], act[na]): dqpos is a tangent vector, qpos moved along dof i by "
    "integrate_pos (free and ball joint quaternions rotate about an axis of their local frame); "
    "x' is the state after one step, differences of positions taken with differentiate_pos; "
    "u = ctrl; y = sensordata at x, u; matrices are row-major, [i, j] = d(row i)/d(column j)";

// Row indices from LIST: comma-separated indices and inclusive ranges a-b (optionally a-b:step),
// each within [0, rows).
std::vector<size_t> parse_rows(const std::string& list, size_t rows) {
  std::vector<size_t> out;
  auto number = [&](const std::string& text, const std::string& item) -> size_t {
    if (text.empty() || !std::all_of(text.begin(), text.end(), ::isdigit)) {
      throw UsageError("--rows: \"" + item + "\" is not an index, a range a-b or a-b:step");
    }
    return static_cast<size_t>(std::stoull(text));
  };
  size_t start = 0;
  while (start <= list.size()) {
    size_t comma = list.find(',', start);
    if (comma == std::string::npos) comma = list.size();
    const std::string item = list.substr(start, comma - start);
    start = comma + 1;
    const size_t dash = item.find('-');
    size_t first, last, step = 1;
    if (dash == std::string::npos) {
      first = last = number(item, item);
    } else {
      first = number(item.substr(0, dash), item);
      std::string rest = item.substr(dash + 1);
      const size_t colon = rest.find(':');
      if (colon != std::string::npos) {
        step = number(rest.substr(colon + 1), item);
        rest = rest.substr(0, colon);
        if (step == 0) throw UsageError("--rows: \"" + item + "\" has a zero step");
      }
      last = number(rest, item);
      if (last < first) throw UsageError("--rows: \"" + item + "\" ends before it starts");
    }
    if (last >= rows) {
      throw UsageError("--rows: row " + std::to_string(last) + " asked for, the trajectory has " +
                       std::to_string(rows) + " rows");
    }
    for (size_t r = first; r <= last; r += step) out.push_back(r);
  }
  return out;
}

// The states to differentiate at: one per chosen row of a trajectory, or the initial state.
class States {
 public:
  States(const Model& m, const Options& o) {
    if (o.states.empty()) {
      rows_ = {0};
      return;
    }
    Trajectory t = TrajectoryInput::open(o.states).single();
    file_.emplace(m, t);
    rows_ = o.rows.empty() ? std::vector<size_t>() : parse_rows(o.rows, t.rows());
    if (o.rows.empty()) {
      for (size_t r = 0; r < t.rows(); ++r) rows_.push_back(r);
    }
    where_ = t.where();
  }

  size_t count() const { return rows_.size(); }
  size_t row(size_t k) const { return rows_[k]; }
  const std::string& where() const { return where_; }

  // The state and inputs of the k-th chosen row into d (the model's initial state without a file).
  // The solver is warm-started with the previous row's qacc when the file has it, as the rollout
  // that wrote it was.
  void load(const Model& m, Data& d, size_t k) const {
    if (file_) {
      file_->load(m, d, rows_[k]);
    } else {
      reset_state(m, d);
    }
  }

 private:
  std::vector<size_t> rows_;
  std::string where_;
  std::optional<TrajectoryStates> file_;
};

// The model with the solver settings and stack the differencing needs (files name the model as
// loaded).
Model prepare_model(Model m, const Options& o) {
  const int iterations = o.iterations >= 0 ? o.iterations : o.continuous ? 30 : -1;
  if (iterations >= 0) {
    m.opt.iterations = iterations;
    m.opt.tolerance = 0;
  }
  if (!o.continuous) {
    // nstack is an int and a model may already ask for nearly all of it.
    m.nstack = static_cast<int>(std::min<int64_t>(std::numeric_limits<int>::max(),
                                                  int64_t{m.nstack} + transition_fd_stack(m)));
  }
  return m;
}

TrajectoryFileWriter make_writer(const Model& m, const Options& o, const ToolContext& ctx) {
  WriterOptions wo;
  wo.model_name = std::string(m.model_name());
  wo.creator = ctx.name + " " JOCO_VERSION;
  wo.command = command_line();
  wo.strict_finite = o.strict;
  return TrajectoryFileWriter(o.output, m, wo);
}

void write_common(TrajectoryWriter& w, const Model& m, const Options& o, const States& states,
                  const char* kind) {
  w.set_attribute("derivatives", kind);
  w.set_attribute("eps", o.eps);
  w.set_attribute("solver_iterations", static_cast<int64_t>(m.opt.iterations));
  w.set_attribute("solver_tolerance", m.opt.tolerance);
  if (!states.where().empty()) w.set_attribute("states", states.where());
}

// Per state: A, B, C, D. Rows are computed in blocks, in parallel within a block (one Data per
// thread), and written in order as each block completes, so memory stays bounded.
int transition(const Model& loaded, const Options& o, const ToolContext& ctx) {
  const Model m = prepare_model(loaded, o);
  const States states(loaded, o);
  const int nx = 2 * m.nv + m.na, nu = m.nu, ns = m.nsensordata;
  const size_t sa = static_cast<size_t>(nx) * nx, sb = static_cast<size_t>(nx) * nu,
               sc = static_cast<size_t>(ns) * nx, sd = static_cast<size_t>(ns) * nu;
  TrajectoryFileWriter file = make_writer(loaded, o, ctx);
  TrajectoryWriter& w = file.trajectory();
  const int threads = std::max(1, o.threads);
  const size_t block = static_cast<size_t>(threads) * 4;
  std::vector<Data> workers;
  for (int t = 0; t < threads; ++t) workers.emplace_back(m);
  Progress progress("derivatives", static_cast<int64_t>(states.count()), !ctx.quiet());
  const auto start = std::chrono::steady_clock::now();
  for (size_t first = 0; first < states.count(); first += block) {
    const size_t n = std::min(block, states.count() - first);
    std::vector<double> A(n * sa), B(n * sb), C(n * sc), D(n * sd);
    // The states, for their fields in the file: time, qpos, qvel, act, ctrl of each.
    const size_t state_size = 1 + static_cast<size_t>(m.nq + m.nv + m.na + m.nu);
    std::vector<double> at(n * state_size);
    parallel_for(n, threads, [&](int t, size_t k) {
      Data& d = workers[static_cast<size_t>(t)];
      states.load(m, d, first + k);
      double* x = at.data() + k * state_size;
      *x++ = d.time;
      x = std::copy(d.qpos, d.qpos + m.nq, x);
      x = std::copy(d.qvel, d.qvel + m.nv, x);
      x = std::copy(d.act, d.act + m.na, x);
      std::copy(d.ctrl, d.ctrl + m.nu, x);
      transition_fd(m, d, o.eps, o.centered, A.data() + k * sa, B.data() + k * sb,
                    ns ? C.data() + k * sc : nullptr, ns ? D.data() + k * sd : nullptr);
      progress.advance();
    });
    for (size_t k = 0; k < n; ++k) {
      const double* x = at.data() + k * state_size;
      for (Field field : {Field::kTime, Field::kQpos, Field::kQvel, Field::kAct, Field::kCtrl}) {
        const size_t size = field_row_size(field, m);
        w.append(field, {x, size}, 1);
        x += size;
      }
      const double row = static_cast<double>(states.row(first + k));
      w.append_extra("source_row", {}, {&row, 1});
    }
    w.append_extra("A", {static_cast<size_t>(nx), static_cast<size_t>(nx)}, A, n);
    w.append_extra("B", {static_cast<size_t>(nx), static_cast<size_t>(nu)}, B, n);
    if (ns) {
      w.append_extra("C", {static_cast<size_t>(ns), static_cast<size_t>(nx)}, C, n);
      w.append_extra("D", {static_cast<size_t>(ns), static_cast<size_t>(nu)}, D, n);
    }
  }
  progress.finish();
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  write_common(w, m, o, states, "transition");
  w.set_attribute("centered", static_cast<int64_t>(o.centered));
  w.set_attribute("convention", kStateConvention);
  w.set_extra_attribute("A", "meaning", "dx'/dx: (2nv+na) x (2nv+na)");
  w.set_extra_attribute("B", "meaning", "dx'/du: (2nv+na) x nu");
  if (ns) {
    w.set_extra_attribute("C", "meaning", "dy/dx: nsensordata x (2nv+na)");
    w.set_extra_attribute("D", "meaning", "dy/du: nsensordata x nu");
  }
  w.close();
  file.commit();
  spdlog::info(
      "{} state(s), nx = {}, nu = {}, nsensordata = {}: {:.3f} s ({:.3f} ms per state, {} "
      "thread(s))",
      states.count(), nx, nu, ns, seconds, 1000 * seconds / static_cast<double>(states.count()),
      threads);
  return kExitOk;
}

// Per state: the six matrices of forward and inverse dynamics, the analytic qDeriv, and the
// accuracy check, each state in parallel over columns.
int continuous(const Model& loaded, const Options& o, const ToolContext& ctx) {
  const Model m = prepare_model(loaded, o);
  const States states(loaded, o);
  const size_t nv = static_cast<size_t>(m.nv);
  const std::vector<size_t> shape = {nv, nv};
  TrajectoryFileWriter file = make_writer(loaded, o, ctx);
  TrajectoryWriter& w = file.trajectory();
  std::vector<Data> workers;
  for (int t = 0; t < std::max(1, o.threads); ++t) workers.emplace_back(m);
  ContinuousOptions options;
  options.eps = o.eps;
  options.nwarmup = o.warmup;
  Data d(m);
  std::vector<double> qderiv(nv * nv);
  std::array<double, kNAccuracy> mean_accuracy{};
  double forward_seconds = 0, inverse_seconds = 0;
  int64_t nefc_sum = 0;
  // The extra datasets, looked up once: the loop appends a row to each.
  const ExtraDataset source_row = w.extra("source_row", {});
  const std::array<ExtraDataset, 6> matrices = {
      w.extra("dqacc_dqpos", shape),         w.extra("dqacc_dqvel", shape),
      w.extra("dqacc_dqfrc", shape),         w.extra("dqfrc_inverse_dqpos", shape),
      w.extra("dqfrc_inverse_dqvel", shape), w.extra("dqfrc_inverse_dqacc", shape)};
  const ExtraDataset accuracy_dataset = w.extra("accuracy", {kNAccuracy});
  const ExtraDataset qderiv_dataset = w.extra("qDeriv", shape);
  ContinuousDerivatives deriv;  // made nv x nv by the first state, then reused
  ContinuousOptions forward_only = options, inverse_only = options;
  forward_only.inverse = false;
  inverse_only.forward = false;
  Progress progress("derivatives", static_cast<int64_t>(states.count()), !ctx.quiet());
  for (size_t k = 0; k < states.count(); ++k) {
    states.load(m, d, k);
    forward(m, d);  // qacc at the state: the acceleration the inverse derivatives are taken at
    w.append_row(d, {Field::kTime, Field::kQpos, Field::kQvel, Field::kAct, Field::kCtrl,
                     Field::kQacc, Field::kNefc});
    nefc_sum += d.nefc;
    const double row = static_cast<double>(states.row(k));
    w.append_extra(source_row, {&row, 1}, 1);
    auto t0 = std::chrono::steady_clock::now();
    continuous_derivatives(m, d, workers, forward_only, deriv);
    auto t1 = std::chrono::steady_clock::now();
    forward_seconds += std::chrono::duration<double>(t1 - t0).count();
    // Timed apart, as mujoco-derivative prints the two separately.
    continuous_derivatives(m, d, workers, inverse_only, deriv);
    inverse_seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - t1).count();
    const std::array<const std::vector<double>*, 6> values = {
        &deriv.dqacc_dqpos, &deriv.dqacc_dqvel, &deriv.dqacc_dqfrc,
        &deriv.dqfrc_dqpos, &deriv.dqfrc_dqvel, &deriv.dqfrc_dqacc};
    for (size_t i = 0; i < matrices.size(); ++i) w.append_extra(matrices[i], *values[i], 1);
    const std::array<double, kNAccuracy> accuracy = continuous_derivative_accuracy(deriv);
    w.append_extra(accuracy_dataset, accuracy, 1);
    for (int i = 0; i < kNAccuracy; ++i)
      mean_accuracy[static_cast<size_t>(i)] += accuracy[static_cast<size_t>(i)];
    // d is not used again before the next row's state is put in it.
    smooth_velocity_derivative_dense(m, d, m.opt.integrator != kIntImplicitFast, qderiv.data());
    w.append_extra(qderiv_dataset, qderiv, 1);
    progress.advance();
  }
  progress.finish();
  write_common(w, m, o, states, "continuous");
  w.set_attribute("warmup", static_cast<int64_t>(o.warmup));
  w.set_attribute("convention",
                  "nv x nv row-major, [i, j] = d(output i)/d(input j); one-sided differences; qpos "
                  "inputs move along dof j by integrate_pos; forward dynamics at fixed ctrl, act, "
                  "inverse dynamics at the qacc of forward dynamics at the state");
  w.set_extra_attribute("dqacc_dqpos", "meaning", "d qacc / d qpos (forward dynamics)");
  w.set_extra_attribute("dqacc_dqvel", "meaning", "d qacc / d qvel (forward dynamics)");
  w.set_extra_attribute("dqacc_dqfrc", "meaning", "d qacc / d qfrc_applied (forward dynamics)");
  w.set_extra_attribute("qDeriv", "meaning",
                        "analytic d(qfrc_passive + qfrc_actuator - qfrc_bias)/d qvel, dense (the "
                        "bias term left out for implicitfast)");
  w.set_extra_attribute("dqfrc_inverse_dqpos", "meaning",
                        "d qfrc_inverse / d qpos (inverse dynamics)");
  w.set_extra_attribute("dqfrc_inverse_dqvel", "meaning",
                        "d qfrc_inverse / d qvel (inverse dynamics)");
  w.set_extra_attribute("dqfrc_inverse_dqacc", "meaning",
                        "d qfrc_inverse / d qacc (inverse dynamics)");
  std::string names;
  for (int i = 0; i < kNAccuracy; ++i) names += std::string(i ? ";" : "") + kAccuracyNames[i];
  w.set_extra_attribute("accuracy", "meaning",
                        "log10 of the relative L1 norm of residuals that vanish for exact "
                        "derivatives (G inverse, F forward; 0 qpos, 1 qvel, 2 qacc or qfrc)");
  w.set_extra_attribute("accuracy", "names", names);
  w.close();
  file.commit();

  // What mujoco-derivative prints, averaged over the states.
  const double n = static_cast<double>(states.count());
  if (!ctx.quiet()) {
    std::fprintf(stderr, "states  : %zu, threads %d, solver iterations %d\n", states.count(),
                 static_cast<int>(workers.size()), m.opt.iterations);
    std::fprintf(stderr, "sizes   : nv %d, nefc %.0f\n", m.nv, static_cast<double>(nefc_sum) / n);
    std::fprintf(stderr, "inverse : %.3f ms\n", 1000 * inverse_seconds / n);
    std::fprintf(stderr, "forward : %.3f ms\n", 1000 * forward_seconds / n);
    std::fprintf(stderr, "accuracy: log10(residual L1 relnorm)\n");
    for (int i = 0; i < kNAccuracy; ++i) {
      std::fprintf(stderr, "  %-10s : %.2g\n", kAccuracyNames[i],
                   mean_accuracy[static_cast<size_t>(i)] / n);
    }
  }
  return kExitOk;
}

}  // namespace
}  // namespace joco::tools

int main(int argc, char** argv) {
  joco::tools::Options o;
  return joco::tools::run_tool(
      argc, argv, "joco-derivatives",
      "Finite-difference derivatives: transition Jacobians A, B, C, D of one step, or "
      "(--continuous) "
      "the derivatives of forward and inverse dynamics.",
      [&](CLI::App& app) {
        joco::tools::add_model_argument(app, o.model);
        joco::tools::add_hdf5_output_option(app, o.output);
        auto* states =
            app.add_option("--states", o.states,
                           "Differentiate at the rows of FILE.h5[:/group] (default: the model's "
                           "initial state)");
        app.add_option("--rows", o.rows,
                       "Rows of --states: indices and ranges, e.g. 0,10-20,100-900:100")
            ->needs(states);
        app.add_option("--eps", o.eps, "Finite-difference step")->check(joco::tools::kPositive);
        app.add_flag("--strict", o.strict,
                     "Stop with exit code 4 when a row written is not finite (Inf or NaN)");
        auto* centered =
            app.add_flag("--centered", o.centered, "Centred differences (default: forward)");
        app.add_option(
               "--iterations", o.iterations,
               "Run the constraint solver exactly N iterations (tolerance 0) in every evaluation "
               "(default: the model's settings; 30 with --continuous)")
            ->check(joco::tools::kNonNegative);
        auto* warmup =
            app.add_option("--warmup", o.warmup,
                           "--continuous: solver runs at the centre point before differencing")
                ->check(joco::tools::kPositive);
        joco::tools::add_threads_option(app, o.threads,
                                        "Threads (rows in parallel; columns with --continuous)");
        auto* continuous = app.add_flag("--continuous", o.continuous,
                                        "Derivatives of forward and inverse dynamics instead (as "
                                        "mujoco-derivative)");
        continuous->excludes(centered);
        warmup->needs(continuous);
      },
      [&](const joco::tools::ToolContext& ctx) {
        const joco::Model m = joco::tools::load_model(o.model);
        return o.continuous ? joco::tools::continuous(m, o, ctx)
                            : joco::tools::transition(m, o, ctx);
      });
}
