// Reading HDF5 trajectory files (schemas/trajectory.md) and checking them: an input file (a path,
// standard input or bytes in memory), its trajectory groups, and the checks of what a reader needs
// (the datasets that count rows, numeric types, ranks, row counts; with a model, row shapes and
// size attributes). Every problem with an input throws InputError (exit code 3) naming the file,
// group and dataset. The HDF5 library is never called in the tool's own process: a reading process
// (common/h5_guard.h) holds the file and answers each call; a file that crashes or hangs the library
// there is an InputError "FILE: damaged HDF5 file: ...". Calls from several threads take turns.
#pragma once

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "common/trajectory_table.h"
#include "joco/model.h"

namespace joco::tools {

// Row-major values read from a dataset: rows x cols (cols is the product of the inner dimensions).
struct Matrix {
  size_t rows = 0;
  size_t cols = 0;
  std::vector<double> data;
  double operator()(size_t r, size_t c) const { return data[r * cols + c]; }
  const double* row(size_t r) const { return data.data() + r * cols; }
};

class ReaderProcess;  // the process that reads the file (common/h5_guard.h)

// One trajectory group of an input file. Opening checks what can be checked without a model: the
// dataset that counts the rows exists, every field a tool reads (time, qpos, qvel, act, ctrl, qacc,
// qacc_warmstart, applied forces; for TrajectoryUse::kControls only ctrl and the applied forces:
// read_for) is a numeric dataset of a possible rank with as many rows. validate() checks their
// widths against a model. Everything else is ignored: datasets and attributes joco does not know
// (the extra arrays of joco-simulate --record, say), and fields that tools do not read
// (sensordata, qfrc_*, ncon, ...; qpos of a controls file) when they do not fit, which are then
// dropped with a warning.
class Trajectory {
 public:
  // Opens `group` of the file that `process` reads (TrajectoryInput::trajectory).
  Trajectory(std::shared_ptr<ReaderProcess> process, const std::string& file_name,
             const std::string& group);
  ~Trajectory();
  Trajectory(Trajectory&&) noexcept;
  Trajectory& operator=(Trajectory&&) noexcept;

  // "FILE.h5:/group", for messages.
  std::string where() const;
  // Where one of its datasets is, for messages: "FILE.h5:/rollout_00001/time", "FILE.h5:/time".
  std::string where(const std::string& dataset) const;
  const std::string& group() const { return group_; }
  size_t rows() const { return rows_; }

  // Whether the field's dataset is present; fields() lists the present ones in table order.
  bool has(Field f) const;
  std::vector<Field> fields() const;
  // The dataset's dimensions as stored (empty when absent).
  std::vector<size_t> dims(Field f) const;

  // Checks the trajectory against a model: each present field's row shape (nq, nv, na, nu,
  // nsensordata, nbody x 6; a field one wide may be stored with rank 1), the size attributes when
  // they are numbers, and that every `required` field is present (a field zero wide for the model
  // counts as present). Throws InputError. Only warns about: a model_checksum that differs or
  // cannot be compared (a string, say), size attributes that are not numbers, and fields tools only
  // write whose shape does not fit the model (those are dropped).
  void validate(const Model& m, std::span<const Field> required = {});
  void validate(const Model& m, std::initializer_list<Field> required) {
    validate(m, std::span<const Field>(required.begin(), required.size()));
  }

  // Reads `count` rows from `first` (all rows by default) as doubles. Input fields (time, qpos,
  // qvel, act, ctrl, qfrc_applied, xfrc_applied) must be finite unless check_finite is false (for
  // tools that check rows themselves and report all the bad ones). An absent field that is zero
  // wide for the validated model reads as rows x 0.
  Matrix read(Field f, size_t first = 0, size_t count = SIZE_MAX, bool check_finite = true) const;
  // The same into `out`, which holds count * cols values.
  void read_into(Field f, size_t first, size_t count, std::span<double> out,
                 bool check_finite = true) const;

  // An extra numeric dataset of the group (one that is not a field, e.g. a derivative matrix),
  // whole, as doubles: rows = its first dimension, cols = the product of the others; its full
  // shape into *dims when given. InputError when absent.
  bool has_extra(const std::string& name) const;
  // The names of the group's datasets that are not fields, in name order.
  std::vector<std::string> extra_names() const;
  Matrix read_extra(const std::string& name, std::vector<size_t>* dims = nullptr) const;
  // A string attribute of a dataset of the group; nullopt when absent.
  std::optional<std::string> dataset_string_attribute(const std::string& dataset,
                                                      const std::string& name) const;

  // The contact table, when present (checked when read).
  bool has_contacts() const;
  std::vector<ContactRecord> read_contacts() const;

  // Attributes of the trajectory group; nullopt when absent (InputError when of the wrong kind).
  std::optional<std::string> string_attribute(const std::string& name) const;
  std::optional<int64_t> int_attribute(const std::string& name) const;
  std::optional<double> double_attribute(const std::string& name) const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
  std::string group_;
  size_t rows_ = 0;
};

// An input HDF5 file: opened from a path, standard input ("-") or bytes in memory.
class TrajectoryInput {
 public:
  // Opens "FILE.h5", "FILE.h5:/group", "-" or "-:/group" (parse_trajectory_ref).
  static TrajectoryInput open(const std::string& arg, TrajectoryUse use = TrajectoryUse::kStates);
  // Opens an HDF5 file image held in memory; `name` stands for the file in messages.
  static TrajectoryInput open_image(std::vector<uint8_t> bytes, const std::string& name,
                                    const std::string& group = "",
                                    TrajectoryUse use = TrajectoryUse::kStates);

  // The file's name in messages ("<stdin>" for "-").
  const std::string& name() const;

  // The trajectories addressed: the group that was named, else the root when it is a trajectory
  // (has the dataset that counts rows), else the rollout groups in order. InputError when there
  // are none.
  std::vector<std::string> trajectory_groups() const;
  // The /rollout_NNNNN groups of the file, in numeric order.
  std::vector<std::string> rollout_groups() const;

  // Opens one trajectory group ("/" for the root).
  Trajectory trajectory(const std::string& group) const;
  // The one trajectory addressed; InputError when the file holds several and none was named.
  Trajectory single() const;

  ModelInfo model_info() const;

  // A dataset of the addressed group (the root when none was named) as it is stored, not read as
  // a trajectory's field: for inputs of another form, such as a batch stacked in one group (ctrl
  // [B, T, nu], common/controls.h). Its shape (empty when absent), "FILE.h5:/group/NAME" for
  // messages, and entries [first, first + count) of its first dimension as doubles (InputError
  // when it does not hold numbers).
  std::vector<size_t> dataset_dims(const std::string& name) const;
  std::string dataset_where(const std::string& name) const;
  std::vector<double> read_dataset(const std::string& name, size_t first, size_t count) const;

 private:
  TrajectoryInput(std::shared_ptr<ReaderProcess> process, std::string name, std::string group);
  std::shared_ptr<ReaderProcess> process_;
  std::string name_;
  std::string group_;
};

}  // namespace joco::tools
