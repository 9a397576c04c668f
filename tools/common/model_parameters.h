// Model parameters from the command line (--set NAME=VALUES, repeatable) and per-rollout parameter
// files (--params FILE: CSV or HDF5, one column per parameter, one row per rollout), on top of
// joco/parameters.h. A bad name or value is a usage error (exit 2) naming it; an unreadable or
// malformed file is bad input (exit 3). schemas/params.md describes the file forms.
#pragma once

#include <string>
#include <vector>

#include "common/trajectory_writer.h"
#include "joco/model.h"
#include "joco/parameters.h"

namespace joco::tools {

// A --params file read: its columns (parameters found in a model) and one row of values per
// rollout, each row checked against the model.
struct ParameterTable {
  std::string path;
  std::vector<ModelParameter> columns;
  std::vector<std::vector<std::vector<double>>> rows;  // rows[r][c]: column c's values in row r

  // Reads FILE (HDF5 when it has HDF5's signature, else CSV) and checks every row's values against
  // m (check_parameters: m is left as it was).
  static ParameterTable read(const std::string& path, Model& m);
};

// The parameters of a run: --set applied once to the model, --params row b for rollout b.
class RolloutParameters {
 public:
  // Applies `set` to m (recomputing what depends on it) and reads `params_file` ("" for none),
  // whose rows must number `rollouts` (or 1, which every rollout takes).
  RolloutParameters(Model& m, const std::vector<std::string>& set, const std::string& params_file,
                    int rollouts);

  // The model of rollout b: `base` when no file varies it, else `scratch` made base with row b's
  // values (the Data made for base serves it too: the sizes are the same).
  const Model& model_of(const Model& base, int b, Model& scratch) const;

  // Records the values rollout b ran with as attributes of its group (nothing without --set and
  // --params): param:NAME for each, params and params_row, and the timestep of its model.
  void write_attributes(TrajectoryWriter& w, int b, const Model& rollout_model) const;

 private:
  std::vector<ParameterValue> set_;
  ParameterTable table_;
  bool has_table_ = false;
};

}  // namespace joco::tools
