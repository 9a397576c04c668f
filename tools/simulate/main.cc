// joco-simulate MODEL [-o OUT.h5] [--steps N] [--ctrl FILE.h5 | --ctrl-noise S [--seed K]]
//               [--init KEY|FILE.h5[:/group]] [--init-row R] [--batch B --threads T] [--contacts]
//               [--strict]
// joco-simulate MODEL --evaluate STATES.h5 [-o OUT.h5] [--threads T]
//
// Rollouts of a model, written as HDF5 trajectories (schemas/trajectory.md): row t holds the state
// at time[t], the inputs applied in the step from it, and the outputs of forward dynamics there.
#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <map>
#include <span>

#include "common/controls.h"
#include "common/io.h"
#include "common/model_input.h"
#include "common/parallel.h"
#include "common/progress.h"
#include "common/tool.h"
#include "common/trajectory.h"
#include "joco/error.h"
#include "joco/forward.h"
#include "joco/state.h"
#include "simulate/distribute.h"

namespace joco::tools {
namespace {

struct Options {
  std::string model, output = "-", ctrl, init, evaluate;
  int64_t steps = -1;
  double ctrl_noise = 0;
  int64_t seed = 0;
  int64_t init_row = 0;
  int batch = 0;
  int threads = 1;
  bool contacts = false;
  bool strict = false;
  DistributeOptions distribute;  // --shard, --join, --self-contained
};

// The fields every row records, in the order written.
std::vector<Field> recorded_fields(const Model& m, bool applied_forces) {
  std::vector<Field> f = {Field::kTime, Field::kQpos, Field::kQvel};
  if (m.na) f.push_back(Field::kAct);
  if (m.nu) f.push_back(Field::kCtrl);
  f.push_back(Field::kQacc);
  f.push_back(Field::kQaccWarmstart);
  if (m.nsensordata) f.push_back(Field::kSensordata);
  if (applied_forces) {
    f.push_back(Field::kQfrcApplied);
    f.push_back(Field::kXfrcApplied);
  }
  for (Field x : {Field::kQfrcActuator, Field::kQfrcConstraint, Field::kQfrcBias, Field::kNcon,
                  Field::kNefc, Field::kSolverNiter}) {
    f.push_back(x);
  }
  return f;
}

// What forward dynamics changes of its own inputs, saved before it runs.
struct ForwardInputs {
  std::vector<double> qpos, warmstart;
  explicit ForwardInputs(const Model& m)
      : qpos(static_cast<size_t>(m.nq)), warmstart(static_cast<size_t>(m.nv)) {}
  void save(const Model& m, const Data& d) {
    get_state(m, d, qpos.data(), kStateQpos);
    get_state(m, d, warmstart.data(), kStateWarmstart);
  }
};

// Field f's row from d after forward dynamics into out (field_row_size values): qpos and the
// warmstart as forward found them (`before`: it normalises quaternions and overwrites the
// warmstart), every other field from the Data, where the field table says it is.
void record_field(const Model& m, const Data& d, const ForwardInputs& before, Field f,
                  double* out) {
  if (f == Field::kQpos) {
    std::copy(before.qpos.begin(), before.qpos.end(), out);
  } else if (f == Field::kQaccWarmstart) {
    std::copy(before.warmstart.begin(), before.warmstart.end(), out);
  } else {
    double scalar;
    const double* in_data = field_row(d, f, scalar);
    if (in_data) std::copy_n(in_data, field_row_size(f, m.sizes()), out);
  }
}

// One rollout or evaluation held in memory until written: every field's rows, and contacts.
struct Recording {
  size_t rows = 0;  // counted apart: zero-wide fields (qpos when nq = 0) hold no values
  std::map<Field, std::vector<double>> values;
  std::vector<ContactRecord> contacts;

  // One row from d after forward dynamics, with the qpos and qacc_warmstart forward started from
  // (`before`): forward normalises the quaternions in qpos in place, which is not idempotent in the
  // last bit, and overwrites qacc_warmstart with its solution; recording its inputs lets
  // --evaluate reproduce the row exactly.
  void record(const Model& m, const Data& d, const ForwardInputs& before,
              const std::vector<Field>& fields, int64_t row, bool with_contacts) {
    ++rows;
    for (Field f : fields) {
      std::vector<double>& v = values[f];
      const size_t size = v.size();
      v.resize(size + field_row_size(f, m.sizes()));
      record_field(m, d, before, f, v.data() + size);
    }
    if (!with_contacts) return;
    for (int i = 0; i < d.ncon; ++i) contacts.push_back(contact_record(m, d, i, row));
  }

  void write(TrajectoryWriter& w, bool with_contacts) const {
    for (const auto& [field, v] : values) w.append(field, v, rows);
    if (with_contacts) {
      w.enable_contacts();
      w.append_contacts(contacts);
    }
  }
};

// The initial state: the model's, a keyframe's, or components from a row of a trajectory file.
// Read once before the rollouts start (HDF5 is not thread-safe), applied to each rollout's Data.
struct InitialState {
  int key = -1;
  std::vector<std::pair<unsigned, std::vector<double>>> components;  // in the order set

  void apply(const Model& m, Data& d) const {
    reset_data(m, d);
    if (key >= 0) reset_to_keyframe(m, d, key);
    for (const auto& [component, values] : components) set_state(m, d, values.data(), component);
  }
};

// --init: a keyframe (name or index) or a row of a trajectory file.
InitialState initial_state(const Model& m, const Options& o) {
  InitialState init;
  if (o.init.empty()) return init;
  int key = m.name_to_id(kObjKey, o.init);
  if (key < 0 && !o.init.empty() && std::all_of(o.init.begin(), o.init.end(), ::isdigit))
    key = std::stoi(o.init);
  if (key >= 0) {
    if (key >= m.nkey)
      throw UsageError("--init " + o.init + ": the model has " + std::to_string(m.nkey) +
                       " keyframes");
    init.key = key;
    return init;
  }
  if (o.init.find(".h5") == std::string::npos && o.init.find(".hdf5") == std::string::npos) {
    throw UsageError("--init " + o.init + ": no keyframe of that name, and not an HDF5 file");
  }
  Trajectory t = TrajectoryInput::open(o.init).single();
  t.validate(m, {Field::kQpos});
  const int64_t rows = static_cast<int64_t>(t.rows());
  const int64_t row = o.init_row < 0 ? rows + o.init_row : o.init_row;
  if (row < 0 || row >= rows) {
    throw UsageError("--init-row " + std::to_string(o.init_row) + ": " + t.where() + " has " +
                     std::to_string(rows) + " rows");
  }
  // The row's state: each dataset the file has is one component (joco/state.h). The warmstart is
  // the one the row was computed from where the file has it, else the row's solution.
  const Field warmstart = t.has(Field::kQaccWarmstart) ? Field::kQaccWarmstart : Field::kQacc;
  const std::pair<Field, unsigned> components[] = {{Field::kQpos, kStateQpos},
                                                   {Field::kQvel, kStateQvel},
                                                   {Field::kAct, kStateAct},
                                                   {Field::kTime, kStateTime},
                                                   {warmstart, kStateWarmstart}};
  for (const auto& [field, component] : components) {
    std::vector<double> values(static_cast<size_t>(state_size(m, component)));
    if (values.empty() || !t.has(field)) continue;
    t.read_into(field, static_cast<size_t>(row), 1, values);
    init.components.emplace_back(component, std::move(values));
  }
  return init;
}

// One rollout of `steps` steps: steps + 1 rows, each appended to `w` as it is made (w writes each
// chunk as it fills, so memory does not grow with the steps). Returns the contacts summed over
// the rows.
int64_t rollout(const Model& m, Data& d, const Options& o, const InitialState& init,
                const ControlSource& controls, int64_t steps, const std::vector<Field>& fields,
                TrajectoryWriter& w, Progress* progress) {
  init.apply(m, d);
  if (o.contacts) w.enable_contacts();
  int64_t contacts = 0;
  ForwardInputs before(m);
  size_t widest = 0;
  for (Field f : fields) widest = std::max(widest, field_row_size(f, m.sizes()));
  std::vector<double> row(widest);  // one field's row on its way to w
  const auto resets = [](const Data& data) {
    return data.warning[kWarnBadQpos].number + data.warning[kWarnBadQvel].number +
           data.warning[kWarnBadQacc].number;
  };
  for (int64_t t = 0; t <= steps; ++t) {
    controls.apply(m, d, static_cast<size_t>(t));
    const int resets_before = resets(d);
    before.save(m, d);
    step1(m, d);
    if (resets(d) > resets_before) {
      if (o.strict) {
        throw RuntimeError("the simulation diverged at step " + std::to_string(t) + " (time " +
                           std::to_string(d.time) + "); --strict stops here");
      }
      // A divergence check reset d: forward ran from the model's initial state.
      before.save(m, Data(m));
    }
    for (Field f : fields) {
      record_field(m, d, before, f, row.data());
      w.append(f, std::span<const double>(row.data(), field_row_size(f, m.sizes())), 1);
    }
    contacts += d.ncon;
    if (o.contacts) {
      for (int i = 0; i < d.ncon; ++i) {
        const ContactRecord c = contact_record(m, d, i, t);
        w.append_contacts({&c, 1});
      }
    }
    if (t < steps) step2(m, d);
    if (progress) progress->advance();
  }
  return contacts;
}

// A few numbers about a rollout, on standard error at -v.
void summarize(const Model& m, const Data& d, int64_t contacts, int64_t steps, double seconds) {
  const double rows = static_cast<double>(steps + 1);
  spdlog::info("model '{}': nq={} nv={} nu={} nbody={} ngeom={}", m.model_name(), m.nq, m.nv, m.nu,
               m.nbody, m.ngeom);
  spdlog::info(
      "{} steps of {} s to time {:.4f} s in {:.3f} s wall ({:.0f} steps/s), {:.2f} contacts per "
      "step",
      steps, m.opt.timestep, d.time, seconds,
      seconds > 0 ? static_cast<double>(steps) / seconds : 0.0,
      static_cast<double>(contacts) / rows);
  int warnings = 0;
  for (const WarningStat& w : d.warning) warnings += w.number;
  if (warnings) spdlog::warn("{} warnings during the rollout", warnings);
}

void write_attributes(TrajectoryWriter& w, const Options& o) {
  if (!o.ctrl.empty()) w.set_attribute("controls", o.ctrl);
  if (o.ctrl_noise > 0) {
    w.set_attribute("ctrl_noise", o.ctrl_noise);
    w.set_attribute("seed", o.seed);
  }
  if (!o.init.empty()) w.set_attribute("init", o.init);
}

int simulate(const Options& o, const ToolContext& ctx, Distribution& dist) {
  // The global rollout indices this process runs (all, a --shard part, an MPI rank's part) and
  // the file it writes them to.
  const RolloutPlan plan = dist.plan(o.batch, o.distribute, o.output);
  const Model m = load_model(o.model);
  ControlSource controls;
  if (!o.ctrl.empty()) {
    controls = ControlSource::from_file(o.ctrl, m);
  } else if (o.ctrl_noise > 0) {
    controls = ControlSource::noise(o.ctrl_noise, o.seed);
  }
  int64_t steps = o.steps;
  if (steps < 0) steps = controls.rows() ? static_cast<int64_t>(*controls.rows()) - 1 : 1000;
  const std::vector<Field> fields = recorded_fields(m, controls.is_file());
  const InitialState init = initial_state(m, o);
  WriterOptions wo;
  wo.model_name = std::string(m.model_name());
  wo.creator = ctx.name + " " JOCO_VERSION;
  wo.command = command_line();
  TrajectoryFileWriter file(plan.path, m, wo);
  const int rollouts = plan.range.count;
  Progress progress("simulating", rollouts * (steps + 1), !ctx.quiet());
  const auto start = std::chrono::steady_clock::now();
  if (o.batch == 0) {
    Data d(m);
    TrajectoryWriter& w = file.trajectory();
    const int64_t contacts = rollout(m, d, o, init, controls, steps, fields, w, &progress);
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    summarize(m, d, contacts, steps, seconds);
    write_attributes(w, o);
    w.close();
  } else {
    // Each thread takes the next rollout when it has finished one and streams it to its own group
    // (one Data each); the file's writers share a lock around HDF5 and compress outside it, so
    // memory is bounded by the rollouts in flight and writing runs in parallel too.
    const int threads = std::max(1, std::min(o.threads, rollouts));
    std::vector<Data> data;
    for (int th = 0; th < threads; ++th) data.emplace_back(m);
    parallel_for(static_cast<size_t>(rollouts), threads, [&](int th, size_t i) {
      const int b = plan.range.first + static_cast<int>(i);
      TrajectoryWriter& w = file.rollout(b);
      rollout(m, data[static_cast<size_t>(th)], o, init, controls.with_seed_offset(b), steps,
              fields, w, &progress);
      write_attributes(w, o);
      w.set_attribute("seed", o.seed + static_cast<int64_t>(b));
      w.close();
    });
  }
  progress.finish();
  file.commit();
  spdlog::info("{} rollout(s) of {} steps written to {}", rollouts, steps,
               display_name(plan.path, true));
  return kExitOk;
}

// Forward dynamics at every row of every trajectory in STATES.h5, in parallel over rows. Each row
// warm-starts the constraint solver as TrajectoryStates says: with the row's qacc_warmstart where
// the file has it (joco-simulate records it), so a rollout's own qacc is reproduced exactly
// whatever its integrator; else with the previous row's qacc.
int evaluate(const Options& o, const ToolContext& ctx, const Distribution& dist) {
  dist.require_single_process(o.distribute, "--evaluate");
  const Model m = load_model(o.model);
  TrajectoryInput input = TrajectoryInput::open(o.evaluate);
  const std::vector<std::string> groups = input.trajectory_groups();
  WriterOptions wo;
  wo.model_name = std::string(m.model_name());
  wo.creator = ctx.name + " " JOCO_VERSION;
  wo.command = command_line();
  TrajectoryFileWriter file(o.output, m, wo);
  for (size_t g = 0; g < groups.size(); ++g) {
    Trajectory t = input.trajectory(groups[g]);
    const TrajectoryStates states(m, t);
    const size_t rows = states.rows();
    const std::vector<Field> fields = recorded_fields(m, states.has_applied_forces());
    // Every row's values go straight to their place in the columns, allocated before the rows
    // (nothing on the heap per row, but the contacts of --contacts).
    Recording all;
    all.rows = rows;
    std::vector<std::pair<Field, double*>> columns;
    for (Field f : fields) {
      std::vector<double>& v = all.values[f];
      v.resize(rows * field_row_size(f, m.sizes()));
      columns.emplace_back(f, v.data());
    }
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
      for (const auto& [field, column] : columns) {
        record_field(m, d, inputs, field, column + r * field_row_size(field, m.sizes()));
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
    TrajectoryWriter& w = groups[g] == "/" ? file.trajectory() : file.rollout(static_cast<int>(g));
    all.write(w, o.contacts);
    w.set_attribute("evaluated", o.evaluate);
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
        app.add_option("-o,--output", o.output,
                       "Output HDF5 file (- for standard output, the default)");
        app.add_option("--steps", o.steps,
                       "Number of steps (default: the control file's rows - 1, else 1000)")
            ->check(CLI::NonNegativeNumber);
        auto* ctrl =
            app.add_option("--ctrl", o.ctrl, "Controls (and applied forces) from FILE.h5[:/group]");
        auto* noise = app.add_option("--ctrl-noise", o.ctrl_noise,
                                     "Pseudo-random controls: this fraction of each control range "
                                     "(mujoco-testspeed's scheme)")
                          ->check(CLI::Range(0.0, 1.0));
        ctrl->excludes(noise);
        app.add_option("--seed", o.seed, "Seed of the control noise")
            ->check(CLI::NonNegativeNumber);
        app.add_option("--init", o.init,
                       "Initial state: keyframe name or index, or FILE.h5[:/group]");
        app.add_option("--init-row", o.init_row,
                       "Row of the --init trajectory (negative: from the end)");
        auto* batch = app.add_option("--batch", o.batch,
                                     "Number of rollouts, written as /rollout_NNNNN groups")
                          ->check(CLI::PositiveNumber);
        app.add_option("--threads", o.threads, "Threads (rollouts or rows in parallel)")
            ->check(CLI::Range(1, 1024));
        app.add_flag("--contacts", o.contacts, "Write the contact table");
        app.add_flag("--strict", o.strict, "Stop with exit code 4 when the simulation diverges");
        auto* evaluate = app.add_option(
            "--evaluate", o.evaluate, "Forward dynamics at every row of STATES.h5, no integration");
        evaluate->excludes(batch)->excludes(ctrl)->excludes(noise);
        joco::tools::add_distribute_options(app, o.distribute, model);
      },
      [&](const joco::tools::ToolContext& ctx) {
        if (!o.distribute.join.empty()) return dist.join(o.distribute, o.output);
        return o.evaluate.empty() ? joco::tools::simulate(o, ctx, dist)
                                  : joco::tools::evaluate(o, ctx, dist);
      });
  return dist.finish(code);
}
