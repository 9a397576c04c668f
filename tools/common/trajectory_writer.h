// Writing HDF5 trajectory files (schemas/trajectory.md) row by row: a file writer that makes the
// file under a temporary name and moves it into place on commit, and one writer per trajectory
// group. A failure while writing throws RuntimeError (exit code 4); misuse throws std::logic_error
// or std::invalid_argument.
//
// Threads: the serial HDF5 library is not thread-safe, so a file's writers hold one lock (the
// file's) around every HDF5 call, and compress each chunk before taking it (shuffle and deflate
// done here, the chunk stored whole with H5Dwrite_chunk; what HDF5's own filters read back, the
// byte planes that deflate cannot shrink in stored blocks).
// So different TrajectoryWriters of one file may be used on different threads at once (a batch's
// rollouts, each streamed as it runs), one TrajectoryWriter by one thread at a time; the
// TrajectoryFileWriter's constructor and commit() by one thread while no writer is in use. Nothing
// else in the process may call HDF5 meanwhile.
#pragma once

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "common/trajectory_table.h"
#include "joco/data.h"
#include "joco/model.h"

namespace joco::tools {

// Contact i of d as a record of trajectory row `row`, its force decoded from efc_force
// (contact_force, as mj_contactForce: pyramidal and elliptic cones alike).
ContactRecord contact_record(const Model& m, const Data& d, int i, int64_t row);

// The deflate level of the files a process writes unless WriterOptions says otherwise: 0
// (uncompressed, chunked) unless the tool's --compress (add_hdf5_output_option) set 1. Deflating
// costs more than the computation that makes a row (humanoid, joco-inverse: 1.8x its instructions),
// on every thread that writes; files are 1.3-1.6x larger without it (schemas/trajectory.md).
int default_deflate_level();
void set_default_deflate_level(int level);

struct WriterOptions {
  std::string model_name;  // attribute model_name (the model has no name field)
  std::string creator;     // attribute creator: tool and version, e.g. "joco-simulate 0.1.0"
  std::string command;     // attribute command: the command line (tools pass command_line())
  size_t chunk_rows = 0;   // rows per chunk; 0 chooses about 64 KiB per chunk
  // 0-9; 0 writes uncompressed (still chunked), else shuffled and deflated. Byte planes of nearly
  // uniform bytes are stored whatever the level (schemas/trajectory.md, Storage).
  int deflate_level = default_deflate_level();
  // Rows with a non-finite value (Inf, NaN) in a float64 dataset are reported on standard error
  // by dataset and row when the group closes; with strict_finite (a tool's --strict), the first
  // one is a RuntimeError instead.
  bool strict_finite = false;
};

class TrajectoryFileWriter;

// An extra dataset of a TrajectoryWriter, looked up once (TrajectoryWriter::extra) for a per-row
// loop; valid while its writer is open.
class ExtraDataset {
 private:
  friend class TrajectoryWriter;
  void* column_ = nullptr;
};

// One trajectory group being written. Rows are appended field by field, buffered, and written a
// whole chunk at a time; every field that is written must end with the same number of rows. The
// memory held is at most one chunk per dataset (buffered_bytes), none once closed.
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
  // The extra dataset `name` with rows of `row_shape`, made (empty) or found, as append_extra
  // finds it (the same checks): a per-row loop appends through it without looking the name up.
  ExtraDataset extra(const std::string& name, const std::vector<size_t>& row_shape);
  void append_extra(ExtraDataset dataset, std::span<const double> values, size_t rows);
  // NaN in the extra dataset `name` means a missing value (a marker not seen), not a failure: it is
  // not reported as non-finite.
  void allow_missing(const std::string& name);
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
  // A one-dimensional float64 attribute.
  void set_attribute(const std::string& name, std::span<const double> values);

  // Rows appended so far to a field (including rows still buffered).
  size_t rows(Field f) const;
  // Bytes of rows buffered in memory (allocated): at most one chunk (about 64 KiB unless
  // WriterOptions::chunk_rows says otherwise) per dataset written; zero once closed.
  size_t buffered_bytes() const;
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
  // The group /rollout_NNNNN of a batch file, made on first use (thread-safe). A file holds either
  // the root trajectory or rollouts, not both (std::logic_error otherwise). Keep few rollouts open
  // at once: each holds a chunk's worth of buffered rows per field; close() those that are done.
  TrajectoryWriter& rollout(int index);

  // Closes every group, then the file, and moves it into place (or copies it to standard output).
  void commit();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace joco::tools
