// The tool's side of the trajectory reader: each call is a request to the reading process
// (h5_guard.h), which holds the file and answers with plain values (trajectory_file.h does the
// reading). What the tool asks often (has, dims, rows) is kept here from the answers.
#include "common/trajectory_reader.h"

#include <fmt/format.h>

#include <cerrno>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <type_traits>
#include <utility>

#include "common/h5.h"
#include "common/h5_guard.h"
#include "common/io.h"
#include "common/model_input.h"
#include "common/trajectory_file.h"
#include "common/trajectory_path.h"
#include "joco/error.h"

namespace joco::tools {

namespace fs = std::filesystem;

namespace {

enum Request : uint64_t {
  kTrajectoryGroups,
  kRolloutGroups,
  kOpenTrajectory,
  kRelease,
  kModelInfo,
  kDatasetDims,
  kReadDataset,
  kValidate,
  kReadRows,
  kHasExtra,
  kExtraNames,
  kReadExtra,
  kDatasetStringAttribute,
  kHasContacts,
  kReadContacts,
  kStringAttribute,
  kIntAttribute,
  kDoubleAttribute,
};

static_assert(std::is_trivially_copyable_v<ModelSizes>);
static_assert(std::is_trivially_copyable_v<ContactRecord>);

template <class T>
void put_raw(Wire& w, const T& value) {
  w.bytes.append(reinterpret_cast<const char*>(&value), sizeof(T));
}
template <class T>
T take_raw(Wire& w) {
  const std::string bytes = w.string();
  T value;
  if (bytes.size() != sizeof(T)) throw std::logic_error("reading process: a message is damaged");
  std::memcpy(&value, bytes.data(), sizeof(T));
  return value;
}
template <class T>
void put_value(Wire& w, const T& value) {
  w.put(std::string(reinterpret_cast<const char*>(&value), sizeof(T)));
}

void put(Wire& w, const std::optional<std::string>& v) {
  w.put(uint64_t{v.has_value()});
  if (v) w.put(*v);
}
std::optional<std::string> optional_string(Wire& w) {
  if (!w.flag()) return std::nullopt;
  return w.string();
}

// The fields a trajectory has and their shapes, as the reading process says.
using FieldDims = std::array<std::optional<std::vector<size_t>>, kFieldCount>;

void put_fields(Wire& w, const FileTrajectory& t) {
  for (const FieldInfo& info : field_table()) {
    w.put(uint64_t{t.has(info.field)});
    if (t.has(info.field)) w.put(t.dims(info.field));
  }
}
FieldDims take_fields(Wire& w) {
  FieldDims dims;
  for (const FieldInfo& info : field_table()) {
    if (w.flag()) dims[static_cast<int>(info.field)] = w.sizes();
  }
  return dims;
}

// What the reading process holds: the file and the trajectories the tool has open.
struct ReadingState {
  FileInput input;
  std::map<uint64_t, FileTrajectory> trajectories;
  uint64_t next_id = 1;

  FileTrajectory& trajectory(uint64_t id) {
    const auto it = trajectories.find(id);
    if (it == trajectories.end()) throw std::logic_error("reading process: no such trajectory");
    return it->second;
  }
};

void serve(ReadingState& state, Wire& in, Wire& out, ReplyStream& stream) {
  const uint64_t request = in.u64();
  switch (request) {
    case kTrajectoryGroups: out.put(state.input.trajectory_groups()); return;
    case kRolloutGroups: out.put(state.input.rollout_groups()); return;
    case kOpenTrajectory: {
      const std::string group = in.string();
      const uint64_t id = state.next_id++;
      const FileTrajectory& t =
          state.trajectories.emplace(id, state.input.trajectory(group)).first->second;
      out.put(id);
      out.put(t.group());
      out.put(static_cast<uint64_t>(t.rows()));
      put_fields(out, t);
      return;
    }
    case kRelease: state.trajectories.erase(in.u64()); return;
    case kModelInfo: {
      const ModelInfo info = state.input.model_info();
      out.put(info.model_name);
      out.put(uint64_t{info.model_checksum.has_value()});
      out.put(info.model_checksum.value_or(0));
      for (const ModelNameList& list : kModelNameLists) out.put(info.*list.names);
      return;
    }
    case kDatasetDims: out.put(state.input.dataset_dims(in.string())); return;
    case kReadDataset: {
      const std::string name = in.string();
      const uint64_t first = in.u64(), count = in.u64();
      state.input.read_dataset(name, first, count, stream);
      return;
    }
    default: break;
  }
  FileTrajectory& t = state.trajectory(in.u64());
  switch (request) {
    case kValidate: {
      const auto sizes = take_raw<ModelSizes>(in);
      const uint64_t checksum = in.u64();
      std::vector<Field> required;
      for (size_t f : in.sizes()) required.push_back(static_cast<Field>(f));
      t.validate(sizes, checksum, required);
      put_fields(out, t);
      return;
    }
    case kReadRows: {
      const auto f = static_cast<Field>(in.u64());
      const uint64_t first = in.u64(), count = in.u64(), size = in.u64();
      t.read_rows(f, first, count, size, stream);
      return;
    }
    case kHasExtra: out.put(uint64_t{t.has_extra(in.string())}); return;
    case kExtraNames: out.put(t.extra_names()); return;
    case kReadExtra: out.put(t.read_extra(in.string(), stream)); return;
    case kDatasetStringAttribute: {
      const std::string dataset = in.string();
      put(out, t.dataset_string_attribute(dataset, in.string()));
      return;
    }
    case kHasContacts: out.put(uint64_t{t.has_contacts()}); return;
    case kReadContacts: {
      const std::vector<ContactRecord> records = t.read_contacts();
      out.put(static_cast<uint64_t>(records.size()));
      for (const ContactRecord& r : records) put_value(out, r);
      return;
    }
    case kStringAttribute: put(out, t.string_attribute(in.string())); return;
    case kIntAttribute: {
      const std::optional<int64_t> v = t.int_attribute(in.string());
      out.put(uint64_t{v.has_value()});
      out.put(static_cast<uint64_t>(v.value_or(0)));
      return;
    }
    case kDoubleAttribute: {
      const std::optional<double> v = t.double_attribute(in.string());
      out.put(uint64_t{v.has_value()});
      out.put(v.value_or(0.0));
      return;
    }
    default: throw std::logic_error("reading process: unknown request");
  }
}

// Starts the reading process with the file that `open` opens there.
std::shared_ptr<ReaderProcess> start_reading(
    const std::string& name, const std::function<FileInput(const std::function<void()>&)>& open) {
  return ReaderProcess::start(name, [&](const std::function<void()>& step) -> ReaderHandler {
    auto state = std::make_shared<ReadingState>(ReadingState{open(step), {}, 1});
    return [state](Wire& in, Wire& out, ReplyStream& stream) { serve(*state, in, out, stream); };
  });
}

Wire request(uint64_t kind) {
  Wire w;
  w.put(kind);
  return w;
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// Trajectory

struct Trajectory::Impl {
  std::shared_ptr<ReaderProcess> process;
  std::string file_name;  // for messages
  uint64_t id = 0;
  FieldDims dims;
  std::optional<ModelSizes> sizes;  // set by validate

  ~Impl() {
    try {
      Wire w = request(kRelease);
      w.put(id);
      process->call(w);
    } catch (...) {  // a process that has failed holds nothing
    }
  }

  Wire with_id(uint64_t kind) const {
    Wire w = request(kind);
    w.put(id);
    return w;
  }
};

Trajectory::Trajectory(std::shared_ptr<ReaderProcess> process, const std::string& file_name,
                       const std::string& group)
    : impl_(std::make_unique<Impl>()) {
  impl_->process = std::move(process);
  impl_->file_name = file_name;
  Wire w = request(kOpenTrajectory);
  w.put(group);
  Wire reply = impl_->process->call(w);
  impl_->id = reply.u64();
  group_ = reply.string();
  rows_ = reply.u64();
  impl_->dims = take_fields(reply);
}

Trajectory::~Trajectory() = default;
Trajectory::Trajectory(Trajectory&&) noexcept = default;
Trajectory& Trajectory::operator=(Trajectory&&) noexcept = default;

std::string Trajectory::where() const { return location(impl_->file_name, group_); }

std::string Trajectory::where(const std::string& dataset) const {
  return location(impl_->file_name, group_, dataset);
}

bool Trajectory::has(Field f) const { return impl_->dims[static_cast<int>(f)].has_value(); }

std::vector<Field> Trajectory::fields() const {
  std::vector<Field> out;
  for (const FieldInfo& info : field_table()) {
    if (has(info.field)) out.push_back(info.field);
  }
  return out;
}

std::vector<size_t> Trajectory::dims(Field f) const {
  return impl_->dims[static_cast<int>(f)].value_or(std::vector<size_t>());
}

void Trajectory::validate(const Model& m, std::span<const Field> required) {
  Wire w = impl_->with_id(kValidate);
  put_value(w, static_cast<const ModelSizes&>(m));
  w.put(model_checksum_once(m));
  std::vector<size_t> fields;
  for (Field f : required) fields.push_back(static_cast<size_t>(f));
  w.put(fields);
  Wire reply = impl_->process->call(w);
  impl_->dims = take_fields(reply);
  impl_->sizes = m.sizes();
}

Matrix Trajectory::read(Field f, size_t first, size_t count, bool check_finite) const {
  Matrix out;
  const auto& d = impl_->dims[static_cast<int>(f)];
  if (count == SIZE_MAX) count = first <= rows_ ? rows_ - first : 0;
  out.rows = count;
  if (d) {
    out.cols = 1;
    for (size_t i = 1; i < d->size(); ++i) out.cols *= (*d)[i];
  } else if (impl_->sizes) {
    out.cols = field_row_size(f, *impl_->sizes);
  }
  out.data.resize(out.rows * out.cols);
  read_into(f, first, count, out.data, check_finite);
  return out;
}

void Trajectory::read_into(Field f, size_t first, size_t count, std::span<double> out,
                           bool check_finite) const {
  Wire w = impl_->with_id(kReadRows);
  w.put(static_cast<uint64_t>(f));
  w.put(static_cast<uint64_t>(first));
  w.put(static_cast<uint64_t>(count));
  w.put(static_cast<uint64_t>(out.size()));
  ValueSink sink{out};
  impl_->process->call(w, &sink);
  const FieldInfo& info = field_info(f);
  if (!info.input || !check_finite || count == 0) return;
  const size_t cols = out.size() / count;
  for (size_t i = 0; i < out.size(); ++i) {
    if (!std::isfinite(out[i])) {
      throw InputError(where(info.name) + ": row " + std::to_string(first + i / cols) +
                       ", column " + std::to_string(i % cols) + " is " + fmt::format("{}", out[i]));
    }
  }
}

bool Trajectory::has_extra(const std::string& name) const {
  Wire w = impl_->with_id(kHasExtra);
  w.put(name);
  return impl_->process->call(w).flag();
}

std::vector<std::string> Trajectory::extra_names() const {
  return impl_->process->call(impl_->with_id(kExtraNames)).strings();
}

Matrix Trajectory::read_extra(const std::string& name, std::vector<size_t>* dims) const {
  Wire w = impl_->with_id(kReadExtra);
  w.put(name);
  Matrix out;
  ValueSink sink;
  sink.grow = &out.data;
  const std::vector<size_t> shape = impl_->process->call(w, &sink).sizes();
  out.rows = shape.empty() ? 0 : shape[0];
  out.cols = 1;
  for (size_t i = 1; i < shape.size(); ++i) out.cols *= shape[i];
  if (dims) *dims = shape;
  return out;
}

std::optional<std::string> Trajectory::dataset_string_attribute(const std::string& dataset,
                                                                const std::string& name) const {
  Wire w = impl_->with_id(kDatasetStringAttribute);
  w.put(dataset);
  w.put(name);
  Wire reply = impl_->process->call(w);
  return optional_string(reply);
}

bool Trajectory::has_contacts() const {
  return impl_->process->call(impl_->with_id(kHasContacts)).flag();
}

std::vector<ContactRecord> Trajectory::read_contacts() const {
  Wire reply = impl_->process->call(impl_->with_id(kReadContacts));
  std::vector<ContactRecord> records(reply.u64());
  for (ContactRecord& r : records) r = take_raw<ContactRecord>(reply);
  return records;
}

std::optional<std::string> Trajectory::string_attribute(const std::string& name) const {
  Wire w = impl_->with_id(kStringAttribute);
  w.put(name);
  Wire reply = impl_->process->call(w);
  return optional_string(reply);
}

std::optional<int64_t> Trajectory::int_attribute(const std::string& name) const {
  Wire w = impl_->with_id(kIntAttribute);
  w.put(name);
  Wire reply = impl_->process->call(w);
  const bool present = reply.flag();
  const auto value = static_cast<int64_t>(reply.u64());
  return present ? std::optional<int64_t>(value) : std::nullopt;
}

std::optional<double> Trajectory::double_attribute(const std::string& name) const {
  Wire w = impl_->with_id(kDoubleAttribute);
  w.put(name);
  Wire reply = impl_->process->call(w);
  const bool present = reply.flag();
  const double value = reply.f64();
  return present ? std::optional<double>(value) : std::nullopt;
}

// ---------------------------------------------------------------------------------------------
// TrajectoryInput

TrajectoryInput::TrajectoryInput(std::shared_ptr<ReaderProcess> process, std::string name,
                                 std::string group)
    : process_(std::move(process)), name_(std::move(name)), group_(std::move(group)) {}

TrajectoryInput TrajectoryInput::open(const std::string& arg, TrajectoryUse use) {
  const TrajectoryRef ref = parse_trajectory_ref(arg);
  if (ref.path == "-") return open_image(read_input("-"), display_name("-"), ref.group, use);
  const std::string& path = ref.path;
  std::error_code ec;
  if (fs::is_directory(path, ec)) throw InputError(path + ": is a directory, not a file");
  // A pipe or other stream (/dev/stdin, <(command)) cannot be seeked: read it whole.
  if (fs::exists(path, ec) && !fs::is_regular_file(path, ec)) {
    return open_image(read_input(path), path, ref.group, use);
  }
  {
    std::ifstream probe(path, std::ios::binary);
    if (!probe) throw InputError(path + ": cannot open: " + std::strerror(errno));
  }
  const std::string group = ref.group.empty() ? "" : normalize_group(ref.group);
  auto process = start_reading(path, [&](const std::function<void()>& step) {
    return FileInput::open(path, group, use, step);
  });
  return TrajectoryInput(std::move(process), path, group);
}

TrajectoryInput TrajectoryInput::open_image(std::vector<uint8_t> bytes, const std::string& name,
                                            const std::string& group, TrajectoryUse use) {
  if (bytes.empty()) throw InputError(name + ": empty input, not an HDF5 file");
  if (!looks_like_hdf5(bytes)) throw InputError(name + ": not an HDF5 file");
  const std::string scope = group.empty() ? "" : normalize_group(group);
  // The reading process has the bytes (its own copy, or these moved in the fuzz target's own
  // process); the tool needs them no more.
  auto process = start_reading(name, [&](const std::function<void()>& step) {
    return FileInput::open_image(std::move(bytes), name, scope, use, step);
  });
  std::vector<uint8_t>().swap(bytes);
  return TrajectoryInput(std::move(process), name, scope);
}

const std::string& TrajectoryInput::name() const { return name_; }

std::vector<std::string> TrajectoryInput::trajectory_groups() const {
  return process_->call(request(kTrajectoryGroups)).strings();
}

std::vector<std::string> TrajectoryInput::rollout_groups() const {
  return process_->call(request(kRolloutGroups)).strings();
}

Trajectory TrajectoryInput::trajectory(const std::string& group) const {
  return Trajectory(process_, name_, group);
}

Trajectory TrajectoryInput::single() const {
  const std::vector<std::string> groups = trajectory_groups();
  if (groups.size() > 1) {
    throw InputError(name_ + ": holds " + std::to_string(groups.size()) +
                     " rollouts; name one, e.g. " + name_ + ":" + groups[0]);
  }
  return trajectory(groups[0]);
}

ModelInfo TrajectoryInput::model_info() const {
  Wire reply = process_->call(request(kModelInfo));
  ModelInfo info;
  info.model_name = reply.string();
  const bool has_checksum = reply.flag();
  const uint64_t checksum = reply.u64();
  if (has_checksum) info.model_checksum = checksum;
  for (const ModelNameList& list : kModelNameLists) info.*list.names = reply.strings();
  return info;
}

std::vector<size_t> TrajectoryInput::dataset_dims(const std::string& name) const {
  Wire w = request(kDatasetDims);
  w.put(name);
  return process_->call(w).sizes();
}

std::string TrajectoryInput::dataset_where(const std::string& name) const {
  return location(name_, group_.empty() ? "/" : group_, name);
}

std::vector<double> TrajectoryInput::read_dataset(const std::string& name, size_t first,
                                                  size_t count) const {
  Wire w = request(kReadDataset);
  w.put(name);
  w.put(static_cast<uint64_t>(first));
  w.put(static_cast<uint64_t>(count));
  std::vector<double> out;
  ValueSink sink;
  sink.grow = &out;
  process_->call(w, &sink);
  return out;
}

}  // namespace joco::tools
