#include "simulate/inputs.h"

#include <algorithm>

#include "common/tool.h"
#include "joco/error.h"
#include "joco/state.h"

namespace joco::tools {

namespace {

// Row `init_row` of a trajectory (negative: from the end) as an initial state: each dataset the
// file has is one component (joco/state.h). The warmstart is the one the row was computed from
// where the file has it, else the row's solution.
InitialState state_of_row(const Model& m, Trajectory& t, int64_t init_row) {
  t.validate(m, {Field::kQpos});
  const int64_t rows = static_cast<int64_t>(t.rows());
  const int64_t row = init_row < 0 ? rows + init_row : init_row;
  if (row < 0 || row >= rows) {
    throw UsageError("--init-row " + std::to_string(init_row) + ": " + t.where() + " has " +
                     std::to_string(rows) + " rows");
  }
  const Field warmstart = t.has(Field::kQaccWarmstart) ? Field::kQaccWarmstart : Field::kQacc;
  const std::pair<Field, unsigned> components[] = {{Field::kQpos, kStateQpos},
                                                   {Field::kQvel, kStateQvel},
                                                   {Field::kAct, kStateAct},
                                                   {Field::kTime, kStateTime},
                                                   {warmstart, kStateWarmstart}};
  InitialState init;
  for (const auto& [field, component] : components) {
    std::vector<double> values(static_cast<size_t>(state_size(m, component)));
    if (values.empty() || !t.has(field)) continue;
    t.read_into(field, static_cast<size_t>(row), 1, values);
    init.components.emplace_back(component, std::move(values));
  }
  return init;
}

bool is_hdf5_name(const std::string& arg) {
  return arg.find(".h5") != std::string::npos || arg.find(".hdf5") != std::string::npos;
}

}  // namespace

void InitialState::apply(const Model& m, Data& d) const {
  reset_data(m, d);
  if (key >= 0) reset_to_keyframe(m, d, key);
  for (const auto& [component, values] : components) set_state(m, d, values.data(), component);
}

std::vector<Trajectory> rollout_trajectories(const TrajectoryInput& input, int rollouts,
                                             const std::string& flag) {
  const std::vector<std::string> groups = input.trajectory_groups();
  std::vector<Trajectory> out;
  if (groups.size() == 1) {
    out.push_back(input.trajectory(groups[0]));
    return out;
  }
  const std::string& name = input.name();
  const std::string count = std::to_string(groups.size());
  if (rollouts == 0) {
    throw UsageError(flag + " " + name + ": holds " + count + " rollouts, for 1 rollout (no " +
                     "--batch); give --batch " + count + " to run one from each, or name one, " +
                     "e.g. " + name + ":" + groups[0]);
  }
  if (groups.size() != static_cast<size_t>(rollouts)) {
    throw UsageError(flag + " " + name + ": holds " + count + " rollouts, --batch is " +
                     std::to_string(rollouts) + "; give as many, or one for all");
  }
  // Rollout b takes the group numbered b (groups are in numeric order: the b-th must be it).
  for (int b = 0; b < rollouts; ++b) {
    const std::string& g = groups[static_cast<size_t>(b)];
    if (rollout_index(std::string_view(g).substr(1)) != b) {
      throw InputError(name + ": no group for rollout " + std::to_string(b) + " (" +
                       rollout_group(b) + "); its " + count +
                       " rollout groups must be numbered 0 to " + std::to_string(rollouts - 1) +
                       ", found " + g);
    }
    out.push_back(input.trajectory(g));
  }
  return out;
}

RolloutInputs::RolloutInputs(const Model& m, const Options& o) : steps_(o.steps) {
  // --init: a keyframe (name or index), or a row of each trajectory of a file.
  if (o.init.empty()) {
    init_.emplace_back();
    init_sources_.emplace_back();
  } else {
    int key = m.name_to_id(kObjKey, o.init);
    if (key < 0 && std::all_of(o.init.begin(), o.init.end(), ::isdigit)) key = std::stoi(o.init);
    if (key >= 0) {
      if (key >= m.nkey) {
        throw UsageError("--init " + o.init + ": the model has " + std::to_string(m.nkey) +
                         " keyframes");
      }
      init_.emplace_back().key = key;
      init_sources_.push_back(o.init);
    } else if (!is_hdf5_name(o.init)) {
      throw UsageError("--init " + o.init + ": no keyframe of that name, and not an HDF5 file");
    } else {
      std::vector<Trajectory> ts =
          rollout_trajectories(TrajectoryInput::open(o.init), o.batch, "--init");
      for (Trajectory& t : ts) {
        init_.push_back(state_of_row(m, t, o.init_row));
        init_sources_.push_back(ts.size() == 1 ? o.init : t.where());
      }
    }
  }
  // --ctrl: a trajectory's controls for each rollout; else the noise, else zero.
  if (!o.ctrl.empty()) {
    std::vector<Trajectory> ts = rollout_trajectories(
        TrajectoryInput::open(o.ctrl, TrajectoryUse::kControls), o.batch, "--ctrl");
    for (Trajectory& t : ts) {
      controls_.push_back(ControlSource::from_trajectory(t, m));
      ctrl_sources_.push_back(ts.size() == 1 ? o.ctrl : t.where());
    }
  } else if (o.ctrl_noise > 0) {
    const ControlSource noise = ControlSource::noise(o.ctrl_noise, o.seed);
    for (int b = 0; b < std::max(o.batch, 1); ++b) controls_.push_back(noise.with_seed_offset(b));
    ctrl_sources_.emplace_back();
  } else {
    controls_.emplace_back();
    ctrl_sources_.emplace_back();
  }
}

const InitialState& RolloutInputs::initial_state(int b) const { return pick(init_, b); }

const ControlSource& RolloutInputs::controls(int b) const { return pick(controls_, b); }

int64_t RolloutInputs::steps(int b) const {
  if (steps_ >= 0) return steps_;
  const std::optional<size_t> rows = pick(controls_, b).rows();
  return rows ? static_cast<int64_t>(*rows) - 1 : 1000;
}

}  // namespace joco::tools
