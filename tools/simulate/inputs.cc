#include "simulate/inputs.h"

#include <algorithm>

#include "common/tool.h"
#include "joco/error.h"
#include "joco/state.h"

namespace joco::tools {

namespace {

// Row `init_row` (negative: from the end) of a trajectory of `rows` rows as an initial state:
// each field it has (`has`) is one component (joco/state.h), its row read by `read(field, row,
// values)`. The warmstart is the one the row was computed from where the file has it, else the
// row's solution.
template <class Has, class Read>
InitialState state_of_row(const Model& m, int64_t rows, int64_t init_row, const std::string& where,
                          Has has, Read read) {
  const int64_t row = init_row < 0 ? rows + init_row : init_row;
  if (row < 0 || row >= rows) {
    throw UsageError("--init-row " + std::to_string(init_row) + ": " + where + " has " +
                     std::to_string(rows) + " rows");
  }
  const Field warmstart = has(Field::kQaccWarmstart) ? Field::kQaccWarmstart : Field::kQacc;
  const std::pair<Field, unsigned> components[] = {{Field::kQpos, kStateQpos},
                                                   {Field::kQvel, kStateQvel},
                                                   {Field::kAct, kStateAct},
                                                   {Field::kTime, kStateTime},
                                                   {warmstart, kStateWarmstart}};
  InitialState init;
  for (const auto& [field, component] : components) {
    std::vector<double> values(static_cast<size_t>(state_size(m, component)));
    if (values.empty() || !has(field)) continue;
    read(field, static_cast<size_t>(row), values);
    init.components.emplace_back(component, std::move(values));
  }
  return init;
}

InitialState state_of_row(const Model& m, Trajectory& t, int64_t init_row) {
  t.validate(m, {Field::kQpos});
  return state_of_row(
      m, static_cast<int64_t>(t.rows()), init_row, t.where(), [&](Field f) { return t.has(f); },
      [&](Field f, size_t row, std::vector<double>& values) { t.read_into(f, row, 1, values); });
}

// The datasets of a states file that an initial state reads, stacked (StackedBatch) when qpos is.
constexpr Field kStackedStateMarkers[] = {Field::kQpos};
constexpr Field kStateFields[] = {Field::kQpos, Field::kTime,          Field::kQvel,
                                  Field::kAct,  Field::kQaccWarmstart, Field::kQacc};

InitialState state_of_row(const Model& m, const StackedBatch& s, size_t b, int64_t init_row) {
  return state_of_row(
      m, static_cast<int64_t>(s.rows()), init_row, s.where(b), [&](Field f) { return s.has(f); },
      [&](Field f, size_t row, std::vector<double>& values) {
        const Matrix rows = s.read(f, b);
        std::copy(rows.row(row), rows.row(row) + values.size(), values.begin());
      });
}

// Checks that an input file holding `count` rollouts serves a batch of `rollouts` (0: a single
// rollout, no --batch): one serves every rollout, else the counts must be equal (UsageError naming
// both). `example`, when given, is a group of the file to name for a single rollout.
void check_rollout_count(const std::string& flag, const std::string& name, size_t count,
                         int rollouts, const std::string& example) {
  if (count == 1) return;
  const std::string held = std::to_string(count);
  if (rollouts == 0) {
    throw UsageError(flag + " " + name + ": holds " + held + " rollouts, for 1 rollout (no " +
                     "--batch); give --batch " + held + " to run one from each" +
                     (example.empty() ? "" : ", or name one, e.g. " + name + ":" + example));
  }
  if (count != static_cast<size_t>(rollouts)) {
    throw UsageError(flag + " " + name + ": holds " + held + " rollouts, --batch is " +
                     std::to_string(rollouts) + "; give as many, or one for all");
  }
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
  check_rollout_count(flag, name, groups.size(), rollouts, groups[0]);
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
      if (o.init_row != 0) {
        throw UsageError("--init-row " + std::to_string(o.init_row) + ": --init " + o.init +
                         " is a keyframe, which has no rows (--init-row takes a trajectory file)");
      }
      init_.emplace_back().key = key;
      init_sources_.push_back(o.init);
    } else if (!is_hdf5_name(o.init)) {
      throw UsageError("--init " + o.init + ": no keyframe of that name, and not an HDF5 file");
    } else {
      const TrajectoryInput input = TrajectoryInput::open(o.init);
      if (const auto stacked = StackedBatch::find(input, m, kStackedStateMarkers, kStateFields)) {
        check_rollout_count("--init", input.name(), stacked->rollouts(), o.batch, "");
        for (size_t b = 0; b < stacked->rollouts(); ++b) {
          init_.push_back(state_of_row(m, *stacked, b, o.init_row));
          init_sources_.push_back(stacked->where(b));
        }
      } else {
        std::vector<Trajectory> ts = rollout_trajectories(input, o.batch, "--init");
        for (Trajectory& t : ts) {
          init_.push_back(state_of_row(m, t, o.init_row));
          init_sources_.push_back(ts.size() == 1 ? o.init : t.where());
        }
      }
    }
  }
  // --ctrl: a trajectory's controls for each rollout; else the noise, else zero.
  if (!o.ctrl.empty()) {
    const TrajectoryInput input = TrajectoryInput::open(o.ctrl, TrajectoryUse::kControls);
    if (const auto stacked = StackedBatch::find(input, m, kControlFields, kControlFields)) {
      check_rollout_count("--ctrl", input.name(), stacked->rollouts(), o.batch, "");
      for (size_t b = 0; b < stacked->rollouts(); ++b) {
        controls_.push_back(ControlSource::from_stacked(*stacked, b, m));
        ctrl_sources_.push_back(stacked->where(b));
      }
    } else {
      std::vector<Trajectory> ts = rollout_trajectories(input, o.batch, "--ctrl");
      for (Trajectory& t : ts) {
        controls_.push_back(ControlSource::from_trajectory(t, m));
        ctrl_sources_.push_back(ts.size() == 1 ? o.ctrl : t.where());
      }
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
