// joco-simulate MODEL [-o OUT.h5] [--steps N] [--ctrl FILE.h5 | --ctrl-noise S [--seed K]]
//               [--init KEY|FILE.h5[:/group]] [--init-row R] [--batch B --threads T] [--contacts]
//               [--record LIST] [--every N] [--set NAME=VALUES]... [--params FILE] [--strict]
// joco-simulate MODEL --evaluate STATES.h5 [-o OUT.h5] [--threads T] [--record LIST]
//
// Rollouts of a model, written as HDF5 trajectories (schemas/trajectory.md): row t holds the state
// at time[t], the inputs applied in the step from it, and the outputs of forward dynamics there.
// The flags (options.h), each rollout's inputs (inputs.h), one rollout (rollout.h) and what a row
// records (record.h) have their own files.
#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "common/controls.h"
#include "common/io.h"
#include "common/model_input.h"
#include "common/model_parameters.h"
#include "common/parallel.h"
#include "common/progress.h"
#include "common/run_size.h"
#include "common/tool.h"
#include "common/trajectory.h"
#include "joco/forward.h"
#include "simulate/distribute.h"
#include "simulate/inputs.h"
#include "simulate/options.h"
#include "simulate/record.h"
#include "simulate/rollout.h"

namespace joco::tools {
namespace {

// One evaluation held in memory until written: every recorded array's rows, and contacts.
struct Recording {
  size_t rows = 0;  // counted apart: zero-wide arrays (qpos when nq = 0) hold no values
  std::vector<std::vector<double>> values;  // per array of the Recorder
  std::vector<ContactRecord> contacts;

  void write(const Recorder& record, TrajectoryWriter& w, bool with_contacts) const {
    for (size_t i = 0; i < values.size(); ++i) record.append(i, w, values[i], rows);
    if (with_contacts) {
      w.enable_contacts();
      w.append_contacts(contacts);
    }
  }
};

void write_attributes(TrajectoryWriter& w, const Options& o, const RolloutInputs& inputs, int b) {
  if (const std::string& ctrl = inputs.ctrl_source(b); !ctrl.empty())
    w.set_attribute("controls", ctrl);
  if (o.ctrl_noise > 0) {
    w.set_attribute("ctrl_noise", o.ctrl_noise);
    w.set_attribute("seed", o.seed + b);
  }
  if (const std::string& init = inputs.init_source(b); !init.empty()) w.set_attribute("init", init);
  if (o.every > 1) w.set_attribute("every", o.every);
}

Recorder recorder(const Model& m, const Options& o, bool applied_forces) {
  return o.record.empty() ? Recorder::defaults(m, applied_forces)
                          : Recorder::parse(o.record, m, applied_forces);
}

WriterOptions writer_options(const Model& m, const Options& o, const ToolContext& ctx) {
  WriterOptions wo;
  wo.strict_finite = o.strict;  // a non-finite value written is a failure under --strict
  wo.model_name = std::string(m.model_name());
  wo.creator = ctx.name + " " JOCO_VERSION;
  wo.command = command_line();
  return wo;
}

// Rollout b's sensor noise starts from seed kNoiseSeed + --seed + b, whatever rollouts its thread
// ran before (the generator lives in the Data and reset_data leaves it alone, as MuJoCo's does).
// A single rollout without --seed starts where a new Data does.
void start_sensor_noise(Data& d, const Options& o, int b) {
  d.noise_random.reseed(static_cast<uint32_t>(Data::kNoiseSeed + o.seed + b));
}

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

int simulate(const Options& o, const ToolContext& ctx, Distribution& dist) {
  // The global rollout indices this process runs (all, a --shard part, an MPI rank's part) and
  // the file it writes them to (its own checks of -o first: under mpirun -o - is refused as such).
  const RolloutPlan plan = dist.plan(o.batch, o.distribute, o.output);
  refuse_binary_to_terminal(plan.path);  // before the work
  Model m = load_model(o.model);
  // The rows claimed (--steps, --batch) against the space their file needs, before any work:
  // with --steps given, before the inputs are made (one per rollout), counting the arrays
  // recorded without applied forces (fewer bytes: never refused wrongly); then exactly.
  const auto check_space = [&](const Recorder& record, const auto& steps_of) {
    long double rows = 0, row_bytes = 0;
    for (int i = 0; i < plan.range.count; ++i)
      rows += static_cast<long double>(steps_of(plan.range.first + i) / o.every) + 1;
    for (const RecordedArray& a : record.arrays()) row_bytes += sizeof(double) * a.row_size;
    check_output_space(plan.path, rows, row_bytes, "--steps or --batch, or raise --every");
  };
  if (o.steps >= 0) check_space(recorder(m, o, false), [&](int) { return o.steps; });
  // --set applied to m; --params checked, every row, before the first rollout.
  const RolloutParameters parameters(m, o.set, o.params, o.batch);
  // Every rollout's inputs, read before the threads start (HDF5 is not thread-safe).
  const RolloutInputs inputs(m, o);
  const Recorder record = recorder(m, o, inputs.controls_from_file());
  check_space(record, [&](int b) { return inputs.steps(b); });
  TrajectoryFileWriter file(plan.path, m, writer_options(m, o, ctx));
  // A rollout is named by its global index b in [0, B): b alone decides its inputs (init group b,
  // controls group b, noise seed + b), so its result does not depend on which thread or process
  // runs it. The rollouts this process runs: all of them (a share of them under MPI or --shard).
  std::vector<int> runs(static_cast<size_t>(plan.range.count));
  for (int i = 0; i < plan.range.count; ++i) runs[static_cast<size_t>(i)] = plan.range.first + i;
  int64_t total_rows = 0;
  for (int b : runs) total_rows += inputs.steps(b) + 1;
  Progress progress("simulating", total_rows, !ctx.quiet());
  const auto start = std::chrono::steady_clock::now();
  if (o.batch == 0) {
    Model scratch;
    const Model& mb = parameters.model_of(m, 0, scratch);
    Data d(mb);
    start_sensor_noise(d, o, 0);
    TrajectoryWriter& w = file.trajectory();
    const RolloutStats stats = rollout(mb, d, o, inputs.initial_state(0), inputs.controls(0),
                                       inputs.steps(0), record, w, &progress);
    summarize_rollout(mb, d, stats, seconds_since(start));
    write_attributes(w, o, inputs, 0);
    parameters.write_attributes(w, 0, mb);
    w.close();
  } else {
    // Each thread takes the next rollout when it has finished one and streams it to its group
    // (one Data each); the file's writers share a lock around HDF5 and compress outside it, so
    // memory is bounded by the rollouts in flight and writing runs in parallel too.
    const int threads = std::max(1, std::min<int>(o.threads, static_cast<int>(runs.size())));
    // The Model of rollout b run on thread th: m with --params row b applied, in the thread's copy
    // (m itself without --params). A thread's Data serves every copy: the sizes are the same.
    std::vector<Model> models(static_cast<size_t>(threads));
    const auto model_of = [&](int b, int th) -> const Model& {
      return parameters.model_of(m, b, models[static_cast<size_t>(th)]);
    };
    // Where rollout b's group is written: /rollout_b of the output file.
    const auto group_of = [&](int b) -> TrajectoryWriter& { return file.rollout(b); };
    std::vector<Data> data;
    for (int th = 0; th < threads; ++th) data.emplace_back(m);
    std::vector<RolloutStats> stats(static_cast<size_t>(threads));
    parallel_for(runs.size(), threads, [&](int th, size_t i) {
      const int b = runs[i];
      TrajectoryWriter& w = group_of(b);
      const Model& mb = model_of(b, th);
      start_sensor_noise(data[static_cast<size_t>(th)], o, b);
      stats[static_cast<size_t>(th)] +=
          rollout(mb, data[static_cast<size_t>(th)], o, inputs.initial_state(b), inputs.controls(b),
                  inputs.steps(b), record, w, &progress);
      write_attributes(w, o, inputs, b);
      parameters.write_attributes(w, b, mb);
      w.close();
    });
    RolloutStats all;
    for (const RolloutStats& s : stats) all += s;
    summarize_batch(m, static_cast<int>(runs.size()), threads, all, seconds_since(start));
  }
  progress.finish();
  file.commit();
  spdlog::info("{} rollout(s) written to {}", runs.size(), display_name(plan.path, true));
  return kExitOk;
}

// Forward dynamics at every row of every trajectory in STATES.h5, in parallel over rows. Each row
// warm-starts the constraint solver as TrajectoryStates says: with the row's qacc_warmstart where
// the file has it (joco-simulate records it), so a rollout's own qacc is reproduced exactly
// whatever its integrator; else with the previous row's qacc.
int evaluate(const Options& o, const ToolContext& ctx, const Distribution& dist) {
  dist.require_single_process(o.distribute, "--evaluate");
  refuse_binary_to_terminal(o.output);  // before the work
  Model m = load_model(o.model);
  const RolloutParameters parameters(m, o.set, "", 0);  // --set applied to m
  TrajectoryInput input = TrajectoryInput::open(o.evaluate);
  const std::vector<std::string> groups = input.trajectory_groups();
  // Each result keeps its rollout's name (FILE:/rollout_00005 gives /rollout_00005) when every
  // group evaluated is a rollout group; other groups are numbered in file order.
  std::vector<int> output_index(groups.size());
  bool all_rollouts = true;
  for (size_t g = 0; g < groups.size(); ++g) {
    const std::optional<long long> index = rollout_index(std::string_view(groups[g]).substr(1));
    all_rollouts = all_rollouts && index && *index <= INT32_MAX;
    output_index[g] = index && all_rollouts ? static_cast<int>(*index) : static_cast<int>(g);
  }
  if (!all_rollouts)
    for (size_t g = 0; g < groups.size(); ++g) output_index[g] = static_cast<int>(g);
  TrajectoryFileWriter file(o.output, m, writer_options(m, o, ctx));
  for (size_t g = 0; g < groups.size(); ++g) {
    Trajectory t = input.trajectory(groups[g]);
    const TrajectoryStates states(m, t);
    const size_t rows = states.rows();
    const Recorder record = recorder(m, o, states.has_applied_forces());
    // Every row's values go straight to their place in the columns, allocated before the rows
    // (nothing on the heap per row, but the contacts of --contacts).
    Recording all;
    all.rows = rows;
    for (const RecordedArray& a : record.arrays()) all.values.emplace_back(rows * a.row_size);
    std::vector<std::vector<ContactRecord>> contacts(o.contacts ? rows : 0);
    Progress progress("evaluating " + groups[g], static_cast<int64_t>(rows), !ctx.quiet());
    const int threads = std::max(1, std::min<int>(o.threads, static_cast<int>(rows)));
    std::vector<Data> data;
    std::vector<ForwardInputs> before;
    for (int th = 0; th < threads; ++th) {
      data.emplace_back(m);
      before.emplace_back(m);
    }
    parallel_for(rows, threads, [&](int th, size_t r) {
      Data& d = data[static_cast<size_t>(th)];
      ForwardInputs& inputs = before[static_cast<size_t>(th)];
      states.load(m, d, r);
      inputs.save(m, d);
      forward(m, d);
      for (size_t i = 0; i < all.values.size(); ++i) {
        record.row(i, d, inputs, all.values[i].data() + r * record.arrays()[i].row_size);
      }
      if (o.contacts) {
        for (int i = 0; i < d.ncon; ++i)
          contacts[r].push_back(contact_record(m, d, i, static_cast<int64_t>(r)));
      }
      progress.advance();
    });
    progress.finish();
    for (const std::vector<ContactRecord>& row : contacts)
      all.contacts.insert(all.contacts.end(), row.begin(), row.end());
    TrajectoryWriter& w = groups[g] == "/" ? file.trajectory() : file.rollout(output_index[g]);
    all.write(record, w, o.contacts);
    w.set_attribute("evaluated", o.evaluate);
    parameters.write_attributes(w, 0, m);
    w.close();
  }
  file.commit();
  return kExitOk;
}

}  // namespace
}  // namespace joco::tools

int main(int argc, char** argv) {
  joco::tools::Distribution dist(argc, argv);  // joins the MPI world under mpirun
  joco::tools::Options o;
  const int code = joco::tools::run_tool(
      argc, argv, "joco-simulate", "Simulate a model and write its trajectory as HDF5.",
      [&](CLI::App& app) {
        auto* model = joco::tools::add_model_argument(app, o.model);
        joco::tools::add_hdf5_output_option(app, o.output);
        auto* steps =
            app.add_option("--steps", o.steps,
                           "Number of steps (default: the control file's rows - 1, else 1000)")
                ->check(joco::tools::kNonNegative);
        auto* ctrl =
            app.add_option("--ctrl", o.ctrl, "Controls (and applied forces) from FILE.h5[:/group]");
        auto* noise = app.add_option("--ctrl-noise", o.ctrl_noise,
                                     "Pseudo-random controls: this fraction of each control range "
                                     "(mujoco-testspeed's scheme)")
                          ->check(joco::tools::in_range(0.0, 1.0));
        ctrl->excludes(noise);
        auto* seed = app.add_option("--seed", o.seed, "Seed of the control noise")
                         ->check(joco::tools::kNonNegative);
        auto* init = app.add_option("--init", o.init,
                                    "Initial state: keyframe name or index, or FILE.h5[:/group]");
        auto* init_row = app.add_option("--init-row", o.init_row,
                                        "Row of the --init trajectory (negative: from the end)")
                             ->needs(init);
        auto* batch = app.add_option("--batch", o.batch,
                                     "Number of rollouts, written as /rollout_NNNNN groups")
                          ->check(joco::tools::kPositive);
        auto* threads =
            app.add_option("--threads", o.threads, "Threads (rollouts or rows in parallel)")
                ->check(joco::tools::in_range(1, 1024));
        auto* contacts = app.add_flag("--contacts", o.contacts, "Write the contact table");
        auto* record =
            app.add_option("--record", o.record,
                           "Arrays each row records, by MuJoCo name, comma-separated (time and "
                           "qpos always; 'default' for the default set): qpos,qvel,xpos,...");
        auto* every = app.add_option("--every", o.every, "Write every Nth row (rows 0, N, 2N, ...)")
                          ->check(joco::tools::kPositive);
        auto* set =
            app.add_option(
                   "--set", o.set,
                   "Model parameter NAME=VALUES by MuJoCo's names, e.g. opt.timestep=0.002, "
                   "'geom_friction[floor]=0.8 0.005 0.0001' (repeatable)")
                ->allow_extra_args(false);
        auto* params = app.add_option("--params", o.params,
                                      "Per-rollout parameters: CSV or HDF5, one row per rollout");
        auto* strict = app.add_flag("--strict", o.strict,
                                    "Stop with exit code 4 when the simulation diverges or a "
                                    "row written is not finite");
        auto* evaluate = app.add_option(
            "--evaluate", o.evaluate, "Forward dynamics at every row of STATES.h5, no integration");
        // A flag that only means something in another mode is refused there, never ignored:
        // --evaluate takes no time steps (its states come from STATES.h5), --join simulates
        // nothing (--self-contained without --join: Distribution).
        for (CLI::Option* rollout_only :
             {steps, batch, ctrl, noise, seed, init, init_row, every, params}) {
          evaluate->excludes(rollout_only);
        }
        joco::tools::add_distribute_options(app, o.distribute, model);
        for (CLI::Option* simulating : {steps, ctrl, noise, seed, init, init_row, batch, threads,
                                        contacts, record, every, set, params, strict, evaluate}) {
          app.get_option("--join")->excludes(simulating);
        }
      },
      [&](const joco::tools::ToolContext& ctx) {
        if (!o.distribute.join.empty()) return dist.join(o.distribute, o.output);
        return o.evaluate.empty() ? joco::tools::simulate(o, ctx, dist)
                                  : joco::tools::evaluate(o, ctx, dist);
      });
  return dist.finish(code);
}
