// HDF5 trajectory files (schemas/trajectory.md is the specification): writing trajectories row by
// row, and reading and checking them, without the tools touching HDF5 themselves.
//
// A trajectory is an HDF5 group with one row per time step: the root group of a file, or one group
// per rollout in a batch file (/rollout_00000, /rollout_00001, ...). Tools address one with
// "FILE.h5" or "FILE.h5:/group"; "-" is standard input (read whole, opened as a file image) or
// standard output (written to a temporary file, copied out on commit).
//
// Every problem with an input throws InputError (exit code 3) naming the file, group and dataset;
// a failure while writing throws RuntimeError (exit code 4). The serial HDF5 library is not
// thread-safe: use these classes from one thread at a time.
#pragma once

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "joco/data.h"
#include "joco/model.h"

namespace joco::tools {

inline constexpr const char* kTrajectoryFormat = "joco.trajectory";
inline constexpr int kTrajectoryFormatVersion = 1;

// The per-row datasets of a trajectory.
enum class Field : int {
  kTime,
  kQpos,
  kQvel,
  kAct,
  kCtrl,
  kQacc,
  kQaccWarmstart,
  kSensordata,
  kQfrcApplied,
  kXfrcApplied,
  kQfrcInverse,
  kQfrcConstraint,
  kQfrcActuator,
  kQfrcBias,
  kNcon,
  kNefc,
  kSolverNiter,
  kFwdinv,
  kCtrlEstimate,
  kCtrlResidual,
};
inline constexpr int kFieldCount = static_cast<int>(Field::kCtrlResidual) + 1;

// What one row of a field is, in terms of the model's sizes.
enum class FieldWidth { kScalar, kNq, kNv, kNa, kNu, kNsensordata, kNbody6, kTwo };

struct FieldInfo {
  Field field;
  const char* name;  // the dataset's name, MuJoCo's where there is one
  FieldWidth width;
  bool integer;  // stored as int32 (counts), else float64
  bool input;    // read as an input by tools: must be finite when read
};

// Every field, in enum order.
std::span<const FieldInfo> field_table();
const FieldInfo& field_info(Field f);
// The field of a dataset name; nullopt for names that are not per-row fields.
std::optional<Field> field_by_name(std::string_view name);

// Shape of one row of a field for a model of these sizes: {} (scalar), {n} or {nbody, 6}.
std::vector<size_t> field_row_shape(Field f, const ModelSizes& s);
// Number of values in one row (1 for scalars).
size_t field_row_size(Field f, const ModelSizes& s);

// One row of the contact table (contact/ in a trajectory group).
struct ContactRecord {
  int64_t row = 0;  // the trajectory row this contact belongs to
  int geom1 = -1;
  int geom2 = -1;
  double pos[3] = {};    // contact point, world frame
  double frame[9] = {};  // contact frame, rows: normal, first and second tangent
  double dist = 0;       // signed distance; negative: penetration
  double force[6] = {};  // normal, tangent forces and torques, in the contact frame
};

// Contact i of d as a record of trajectory row `row`, its force decoded from efc_force
// (contact_force, as mj_contactForce: pyramidal and elliptic cones alike).
ContactRecord contact_record(const Model& m, const Data& d, int i, int64_t row);

// ---------------------------------------------------------------------------------------------
// Writing

struct WriterOptions {
  std::string model_name;  // attribute model_name (the model has no name field)
  std::string creator;     // attribute creator: tool and version, e.g. "joco-simulate 0.1.0"
  std::string command;     // attribute command: the command line (tools pass command_line())
  size_t chunk_rows = 0;   // rows per chunk; 0 chooses about 64 KiB per chunk
  int deflate_level = 4;   // 0-9; 0 writes uncompressed (still chunked)
};

class TrajectoryFileWriter;

// One trajectory group being written. Rows are appended field by field, buffered, and written a
// whole chunk at a time; every field that is written must end with the same number of rows.
class TrajectoryWriter {
 public:
  ~TrajectoryWriter();
  TrajectoryWriter(const TrajectoryWriter&) = delete;
  TrajectoryWriter& operator=(const TrajectoryWriter&) = delete;

  // Appends `rows` rows (row-major, rows * field_row_size values) to a field, creating its dataset
  // on first use. Integer fields take whole numbers. A field whose row size is zero for this model
  // (act when na = 0, qpos when nq = 0, ...) is not stored, only its rows are counted (qpos is then
  // made (T, 0) at close); such a field need not be appended to at all, except qpos.
  void append(Field f, std::span<const double> values, size_t rows);
  // The same with rows = values.size() / field_row_size; std::invalid_argument for a zero-wide
  // field, whose rows cannot be told from its values.
  void append(Field f, std::span<const double> values);
  void append(Field f, double value) { append(f, std::span<const double>(&value, 1)); }
  // Appends one row of each listed field, taken from d: time, qpos, ..., ncon, nefc, solver_niter
  // (d.solver_iter) and fwdinv (d.solver_fwdinv). ctrl_estimate and ctrl_residual are not Data
  // fields (std::invalid_argument).
  void append_row(const Data& d, std::span<const Field> fields);
  void append_row(const Data& d, std::initializer_list<Field> fields) {
    append_row(d, std::span<const Field>(fields.begin(), fields.size()));
  }

  // Appends `rows` rows to an extra per-row float64 dataset that is not a trajectory field (the
  // derivative matrices of joco-derivatives, say): `row_shape` is the shape of one row, fixed by
  // the first call (a zero in it stores nothing: the dataset is then (T, ..., 0), made at close);
  // `values` holds the whole rows. Chunked and compressed like the fields; at close its rows must
  // equal qpos's.
  void append_extra(const std::string& name, const std::vector<size_t>& row_shape,
                    std::span<const double> values, size_t rows);
  // The same with rows = values.size() / row size; std::invalid_argument for an empty row shape.
  void append_extra(const std::string& name, const std::vector<size_t>& row_shape,
                    std::span<const double> values);
  // A string attribute on an extra dataset already appended to.
  void set_extra_attribute(const std::string& dataset, const std::string& name,
                           const std::string& value);

  // Creates the contact table (so that it exists, empty, when no contact ever occurs).
  void enable_contacts();
  // Appends contacts to the table (creating it); rows must not decrease.
  void append_contacts(std::span<const ContactRecord> contacts);

  // An extra attribute on the trajectory group.
  void set_attribute(const std::string& name, const std::string& value);
  void set_attribute(const std::string& name, const char* value) {
    set_attribute(name, std::string(value));
  }
  void set_attribute(const std::string& name, int64_t value);
  void set_attribute(const std::string& name, double value);

  // Rows appended so far to a field (including rows still buffered).
  size_t rows(Field f) const;
  // The group's path in the file: "/" or "/rollout_00003".
  const std::string& group() const;

  // Writes what is buffered and closes the group's datasets; checks that qpos has rows (with
  // nq = 0, counted by empty appends), that every written field has as many, and that contacts
  // refer to existing rows. Called by TrajectoryFileWriter::commit for groups left open. Misuse
  // (these checks, appending after close) throws std::logic_error / std::invalid_argument.
  void close();
  bool closed() const;

 private:
  friend class TrajectoryFileWriter;
  struct Impl;
  explicit TrajectoryWriter(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

// An HDF5 trajectory file being written to `path` ("-": standard output) through a temporary file:
// nothing appears at `path` until commit(), and destroying the writer without commit() removes the
// temporary file. The model's names go to /model when the file is made.
class TrajectoryFileWriter {
 public:
  TrajectoryFileWriter(const std::string& path, const Model& m, WriterOptions options);
  ~TrajectoryFileWriter();
  TrajectoryFileWriter(const TrajectoryFileWriter&) = delete;
  TrajectoryFileWriter& operator=(const TrajectoryFileWriter&) = delete;

  // The root group as the trajectory (a single-trajectory file).
  TrajectoryWriter& trajectory();
  // The group /rollout_NNNNN of a batch file, made on first use. A file holds either the root
  // trajectory or rollouts, not both (std::logic_error otherwise). Keep few rollouts open at once:
  // each holds a chunk's worth of buffered rows per field; close() those that are done.
  TrajectoryWriter& rollout(int index);

  // Closes every group, then the file, and moves it into place (or copies it to standard output).
  void commit();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// "/rollout_00042" for 42.
std::string rollout_group(int index);

// ---------------------------------------------------------------------------------------------
// Reading

// A command-line trajectory argument, "FILE.h5", "FILE.h5:/group", "-" or "-:/group", split into
// the file and the group ("" when none was given), at the first ":/" whose left part exists (or is
// "-"). A path that exists is never split.
struct TrajectoryRef {
  std::string path;
  std::string group;
};
TrajectoryRef parse_trajectory_ref(const std::string& arg);

// Row-major values read from a dataset: rows x cols (cols is the product of the inner dimensions).
struct Matrix {
  size_t rows = 0;
  size_t cols = 0;
  std::vector<double> data;
  double operator()(size_t r, size_t c) const { return data[r * cols + c]; }
  const double* row(size_t r) const { return data.data() + r * cols; }
};

// Names and identity of the model a file was written for (/model and its attributes); empty where
// the file has none.
struct ModelInfo {
  std::string model_name;
  std::optional<uint64_t> model_checksum;
  std::vector<std::string> body_names;
  std::vector<std::string> joint_names;
  std::vector<std::string> geom_names;
  std::vector<std::string> actuator_names;
  std::vector<std::string> sensor_names;
};

struct ReaderFile;  // the open HDF5 file, shared by its trajectories

// What a file is read for, which decides the dataset that counts its rows: states (qpos, the only
// dataset a states file needs) or controls (ctrl; qfrc_applied, xfrc_applied or qpos where the file
// has no ctrl).
enum class TrajectoryUse { kStates, kControls };

// One trajectory group of an input file. Opening checks what can be checked without a model: the
// dataset that counts the rows exists, every field a tool reads (time, qpos, qvel, act, ctrl, qacc,
// qacc_warmstart, applied forces) is a numeric dataset of a possible rank with as many rows.
// validate() checks their widths against a model. Everything else is ignored: datasets and
// attributes joco does not know, and fields that tools only write (sensordata, qfrc_*, ncon, ...)
// when they do not fit, which are then dropped with a warning.
class Trajectory {
 public:
  Trajectory(std::shared_ptr<ReaderFile> file, const std::string& group,
             TrajectoryUse use = TrajectoryUse::kStates);
  ~Trajectory();
  Trajectory(Trajectory&&) noexcept;
  Trajectory& operator=(Trajectory&&) noexcept;

  // "FILE.h5:/group", for messages.
  std::string where() const;
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

// The states a trajectory records, read once (validated against the model; qpos required), so
// that any row can be put into a Data: qpos, and where present qvel, act, ctrl, time,
// qfrc_applied and xfrc_applied. The constraint solver's warmstart is the row's qacc_warmstart
// where the file has it (what the rollout that wrote the row started from, mjData.qacc_warmstart:
// joco-simulate records it), else the previous row's qacc (which is what an Euler or implicit
// rollout starts the next row from), else none (zero, as after a reset).
class TrajectoryStates {
 public:
  TrajectoryStates(const Model& m, Trajectory& t);
  size_t rows() const { return rows_; }
  bool has_applied_forces() const { return qfrc_applied_ || xfrc_applied_; }
  // reset_data, then row r's state and inputs.
  void load(const Model& m, Data& d, size_t r) const;

 private:
  size_t rows_ = 0;
  Matrix qpos_;
  std::optional<Matrix> qvel_, act_, ctrl_, time_, qacc_, qacc_warmstart_, qfrc_applied_,
      xfrc_applied_;
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

 private:
  TrajectoryInput(std::shared_ptr<ReaderFile> file, std::string group, TrajectoryUse use);
  std::shared_ptr<ReaderFile> file_;
  std::string group_;
  TrajectoryUse use_;
};

}  // namespace joco::tools
