// The HDF5 side of the trajectory reader (trajectory_reader.h): what runs in the reading process
// (h5_guard.h), where the HDF5 library meets the input file. The tool's Trajectory and
// TrajectoryInput forward each call here and get plain values back; the checks and messages are
// these classes'. Large reads are streamed in blocks (ReplyStream) and never held whole.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "common/h5_guard.h"
#include "common/trajectory_reader.h"

namespace joco::tools {

struct ReaderFile;  // the open HDF5 file, shared by its trajectories

class FileTrajectory {
 public:
  FileTrajectory(std::shared_ptr<ReaderFile> file, const std::string& group, TrajectoryUse use);
  ~FileTrajectory();
  FileTrajectory(FileTrajectory&&) noexcept;

  std::string where() const;
  const std::string& group() const { return group_; }
  size_t rows() const { return rows_; }
  bool has(Field f) const;
  std::vector<size_t> dims(Field f) const;

  // Trajectory::validate against a model of these sizes and this checksum.
  void validate(const ModelSizes& m, uint64_t checksum, std::span<const Field> required);
  // Rows [first, first + count) of a field, streamed in blocks; `out_size` is the caller's
  // buffer (checked against the rows asked for). No finiteness check (the caller's).
  void read_rows(Field f, size_t first, size_t count, size_t out_size, ReplyStream& out) const;

  bool has_extra(const std::string& name) const;
  std::vector<std::string> extra_names() const;
  // Streams the whole dataset; returns its shape.
  std::vector<size_t> read_extra(const std::string& name, ReplyStream& out) const;
  std::optional<std::string> dataset_string_attribute(const std::string& dataset,
                                                      const std::string& name) const;
  bool has_contacts() const;
  std::vector<ContactRecord> read_contacts() const;
  std::optional<std::string> string_attribute(const std::string& name) const;
  std::optional<int64_t> int_attribute(const std::string& name) const;
  std::optional<double> double_attribute(const std::string& name) const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
  std::string group_;
  size_t rows_ = 0;
};

class FileInput {
 public:
  // Opens a file (or a file image) already checked by the caller (exists, is not a directory, or
  // the image looks like HDF5), then reads all of it under `group` (read_whole_hdf5) so that a
  // damaged file fails here.
  static FileInput open(const std::string& path, const std::string& group, TrajectoryUse use,
                        const std::function<void()>& step);
  static FileInput open_image(std::vector<uint8_t> bytes, const std::string& name,
                              const std::string& group, TrajectoryUse use,
                              const std::function<void()>& step);

  std::vector<std::string> trajectory_groups() const;
  std::vector<std::string> rollout_groups() const;
  FileTrajectory trajectory(const std::string& group) const;
  ModelInfo model_info() const;
  std::vector<size_t> dataset_dims(const std::string& name) const;
  // Entries [first, first + count) of the dataset's first dimension, streamed.
  void read_dataset(const std::string& name, size_t first, size_t count, ReplyStream& out) const;

 private:
  FileInput(std::shared_ptr<ReaderFile> file, std::string group, TrajectoryUse use);
  std::string dataset_where(const std::string& name) const;
  std::shared_ptr<ReaderFile> file_;
  std::string group_;
  TrajectoryUse use_;
};

}  // namespace joco::tools
