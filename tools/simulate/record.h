// What each row of joco-simulate's output records (--record): the trajectory fields of
// common/trajectory_table.h and any Data array of joco/data_fields.h, by MuJoCo's names, taken from
// the Data after forward dynamics at the row's state.
#pragma once

#include <string>
#include <vector>

#include "common/trajectory.h"
#include "joco/data.h"
#include "joco/model.h"

namespace joco::tools {

// What forward dynamics changes of its own inputs, saved before it runs: it normalises the
// quaternions in qpos in place (not idempotent in the last bit) and overwrites qacc_warmstart with
// its solution. Recording its inputs lets --evaluate reproduce the row exactly.
struct ForwardInputs {
  std::vector<double> qpos, warmstart;
  explicit ForwardInputs(const Model& m);
  void save(const Model& m, const Data& d);
};

// One recorded array: a trajectory field (its dataset as the table says), a Data array that is not
// one (an extra float64 dataset of row shape (rows,) or (rows, cols)), or the energy (2,).
struct RecordedArray {
  std::string name;
  bool is_field = false;
  Field field = Field::kTime;  // when is_field
  int data_index = -1;         // else: the Data array's place in data_array_fields, -1: energy
  std::vector<size_t> row_shape;
  size_t row_size = 0;
};

// The arrays a row records, in the order written.
class Recorder {
 public:
  // What joco-simulate records without --record: time, qpos, qvel, act, ctrl, qacc,
  // qacc_warmstart, sensordata, the applied forces (when they come from a file), qfrc_actuator,
  // qfrc_constraint, qfrc_bias, ncon, nefc, solver_niter.
  static Recorder defaults(const Model& m, bool applied_forces);
  // --record LIST: MuJoCo names separated by commas; "default" stands for the default set. time
  // and qpos are always recorded (first), whether named or not; a name given twice counts once.
  // UsageError (exit 2) for an unknown name, listing the valid ones.
  static Recorder parse(const std::string& list, const Model& m, bool applied_forces);
  // The names --record takes, in the order of the tables.
  static std::vector<std::string> valid_names();

  const std::vector<RecordedArray>& arrays() const { return arrays_; }
  // Values in one row of the widest array.
  size_t widest() const;
  // Array i's row from d after forward dynamics into out (row_size values); qpos and
  // qacc_warmstart as forward found them (`before`).
  void row(size_t i, const Data& d, const ForwardInputs& before, double* out) const;
  // Appends `rows` rows of array i to w.
  void append(size_t i, TrajectoryWriter& w, std::span<const double> values, size_t rows) const;
  // Appends one row of every array, from d, to w (`scratch` holds widest() values).
  void append_row(const Data& d, const ForwardInputs& before, TrajectoryWriter& w,
                  std::vector<double>& scratch) const;

 private:
  void add(const std::string& name, const Model& m, bool applied_forces);
  std::vector<RecordedArray> arrays_;
};

}  // namespace joco::tools
