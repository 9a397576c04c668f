#include "trajectory.h"

#include <fmt/format.h>
#include <hdf5.h>
#include <hdf5_hl.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <stdexcept>
#include <utility>

#include "common/io.h"
#include "joco/error.h"
#include "joco/jmb.h"
#include "joco/smooth.h"
#include "joco/state.h"

namespace joco::tools {

namespace fs = std::filesystem;

// ---------------------------------------------------------------------------------------------
// The field table

namespace {

constexpr std::array<FieldInfo, kFieldCount> kFields = {{
    {Field::kTime, "time", FieldWidth::kScalar, false, true},
    {Field::kQpos, "qpos", FieldWidth::kNq, false, true},
    {Field::kQvel, "qvel", FieldWidth::kNv, false, true},
    {Field::kAct, "act", FieldWidth::kNa, false, true},
    {Field::kCtrl, "ctrl", FieldWidth::kNu, false, true},
    {Field::kQacc, "qacc", FieldWidth::kNv, false, false},
    {Field::kQaccWarmstart, "qacc_warmstart", FieldWidth::kNv, false, true},
    {Field::kSensordata, "sensordata", FieldWidth::kNsensordata, false, false},
    {Field::kQfrcApplied, "qfrc_applied", FieldWidth::kNv, false, true},
    {Field::kXfrcApplied, "xfrc_applied", FieldWidth::kNbody6, false, true},
    {Field::kQfrcInverse, "qfrc_inverse", FieldWidth::kNv, false, false},
    {Field::kQfrcConstraint, "qfrc_constraint", FieldWidth::kNv, false, false},
    {Field::kQfrcActuator, "qfrc_actuator", FieldWidth::kNv, false, false},
    {Field::kQfrcBias, "qfrc_bias", FieldWidth::kNv, false, false},
    {Field::kNcon, "ncon", FieldWidth::kScalar, true, false},
    {Field::kNefc, "nefc", FieldWidth::kScalar, true, false},
    {Field::kSolverNiter, "solver_niter", FieldWidth::kScalar, true, false},
    {Field::kFwdinv, "fwdinv", FieldWidth::kTwo, false, false},
    {Field::kCtrlEstimate, "ctrl_estimate", FieldWidth::kNu, false, false},
    {Field::kCtrlResidual, "ctrl_residual", FieldWidth::kNv, false, false},
}};

// The size a width stands for, by name, for messages.
const char* width_name(FieldWidth w) {
  switch (w) {
    case FieldWidth::kScalar: return "1";
    case FieldWidth::kNq: return "nq";
    case FieldWidth::kNv: return "nv";
    case FieldWidth::kNa: return "na";
    case FieldWidth::kNu: return "nu";
    case FieldWidth::kNsensordata: return "nsensordata";
    case FieldWidth::kNbody6: return "nbody";
    case FieldWidth::kTwo: return "2";
  }
  return "?";
}

}  // namespace

std::span<const FieldInfo> field_table() { return kFields; }

const FieldInfo& field_info(Field f) { return kFields[static_cast<int>(f)]; }

std::optional<Field> field_by_name(std::string_view name) {
  for (const FieldInfo& info : kFields) {
    if (name == info.name) return info.field;
  }
  return std::nullopt;
}

std::vector<size_t> field_row_shape(Field f, const ModelSizes& s) {
  auto n = [](int v) { return static_cast<size_t>(std::max(v, 0)); };
  switch (field_info(f).width) {
    case FieldWidth::kScalar: return {};
    case FieldWidth::kNq: return {n(s.nq)};
    case FieldWidth::kNv: return {n(s.nv)};
    case FieldWidth::kNa: return {n(s.na)};
    case FieldWidth::kNu: return {n(s.nu)};
    case FieldWidth::kNsensordata: return {n(s.nsensordata)};
    case FieldWidth::kNbody6: return {n(s.nbody), 6};
    case FieldWidth::kTwo: return {2};
  }
  return {};
}

size_t field_row_size(Field f, const ModelSizes& s) {
  size_t size = 1;
  for (size_t d : field_row_shape(f, s)) size *= d;
  return size;
}

std::string rollout_group(int index) {
  char buffer[32];
  std::snprintf(buffer, sizeof(buffer), "/rollout_%05d", index);
  return buffer;
}

// ---------------------------------------------------------------------------------------------
// HDF5 plumbing: handles, errors, attributes

namespace {

// HDF5 prints its error stack to stderr by default; joco reports errors itself.
void silence_hdf5() {
  static const bool silenced = [] {
    H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
    return true;
  }();
  (void)silenced;
}

// The innermost description on HDF5's error stack (the most specific), and clears the stack.
std::string hdf5_detail() {
  std::string detail;
  H5Ewalk2(
      H5E_DEFAULT, H5E_WALK_DOWNWARD,
      [](unsigned, const H5E_error2_t* e, void* out) -> herr_t {
        if (e->desc && *e->desc) *static_cast<std::string*>(out) = e->desc;
        return 0;
      },
      &detail);
  H5Eclear2(H5E_DEFAULT);
  return detail.empty() ? "" : " (" + detail + ")";
}

[[noreturn]] void fail_input(const std::string& what) { throw InputError(what + hdf5_detail()); }

[[noreturn]] void fail_write(const std::string& what) { throw RuntimeError(what + hdf5_detail()); }

// One HDF5 identifier, closed with its own close function.
class H5Handle {
 public:
  using Closer = herr_t (*)(hid_t);
  H5Handle() = default;
  H5Handle(hid_t id, Closer closer) : id_(id), closer_(closer) {}
  ~H5Handle() { reset(); }
  H5Handle(H5Handle&& o) noexcept : id_(std::exchange(o.id_, -1)), closer_(o.closer_) {}
  H5Handle& operator=(H5Handle&& o) noexcept {
    if (this != &o) {
      reset();
      id_ = std::exchange(o.id_, -1);
      closer_ = o.closer_;
    }
    return *this;
  }
  H5Handle(const H5Handle&) = delete;
  H5Handle& operator=(const H5Handle&) = delete;

  hid_t get() const { return id_; }
  bool valid() const { return id_ >= 0; }
  void reset() { (void)close(); }
  // Closes now and says whether closing succeeded (closing a file writes to it).
  bool close() {
    const hid_t id = std::exchange(id_, -1);
    return id < 0 || closer_(id) >= 0;
  }

 private:
  hid_t id_ = -1;
  Closer closer_ = nullptr;
};

// Wraps a freshly made identifier; a negative one is a failure, reported as `Fail` would.
template <void (*Fail)(const std::string&)>
H5Handle make(hid_t id, H5Handle::Closer closer, const std::string& what) {
  if (id < 0) Fail(what);
  return H5Handle(id, closer);
}
constexpr auto make_in = make<fail_input>;
constexpr auto make_out = make<fail_write>;

H5Handle plist(hid_t cls) {
  return make_out(H5Pcreate(cls), H5Pclose, "cannot create a property list");
}

H5Handle simple_space(const std::vector<hsize_t>& dims, const std::vector<hsize_t>* max = nullptr) {
  return make_out(
      H5Screate_simple(static_cast<int>(dims.size()), dims.data(), max ? max->data() : nullptr),
      H5Sclose, "cannot create a dataspace");
}

H5Handle utf8_string_type() {
  H5Handle t = make_out(H5Tcopy(H5T_C_S1), H5Tclose, "cannot create a string type");
  if (H5Tset_size(t.get(), H5T_VARIABLE) < 0 || H5Tset_cset(t.get(), H5T_CSET_UTF8) < 0) {
    fail_write("cannot create a string type");
  }
  return t;
}

// Object creation properties shared by groups and datasets: no modification times, so the same
// content gives the same bytes.
void untimed(hid_t ocpl) { H5Pset_obj_track_times(ocpl, false); }

void write_attribute(hid_t obj, const std::string& name, hid_t file_type, hid_t mem_type,
                     const void* value, const std::string& where) {
  if (H5Aexists(obj, name.c_str()) > 0) H5Adelete(obj, name.c_str());
  H5Handle space = make_out(H5Screate(H5S_SCALAR), H5Sclose, "cannot create a dataspace");
  H5Handle a =
      make_out(H5Acreate2(obj, name.c_str(), file_type, space.get(), H5P_DEFAULT, H5P_DEFAULT),
               H5Aclose, "cannot write attribute " + name + " of " + where);
  if (H5Awrite(a.get(), mem_type, value) < 0)
    fail_write("cannot write attribute " + name + " of " + where);
}

void write_string_attribute(hid_t obj, const std::string& name, const std::string& value,
                            const std::string& where) {
  H5Handle t = utf8_string_type();
  const char* p = value.c_str();
  write_attribute(obj, name, t.get(), t.get(), &p, where);
}

void write_int_attribute(hid_t obj, const std::string& name, int64_t value,
                         const std::string& where) {
  write_attribute(obj, name, H5T_STD_I64LE, H5T_NATIVE_INT64, &value, where);
}

void write_u64_attribute(hid_t obj, const std::string& name, uint64_t value,
                         const std::string& where) {
  write_attribute(obj, name, H5T_STD_U64LE, H5T_NATIVE_UINT64, &value, where);
}

void write_double_attribute(hid_t obj, const std::string& name, double value,
                            const std::string& where) {
  write_attribute(obj, name, H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, &value, where);
}

// Reads a string (variable or fixed length) from an attribute or dataset of `count` elements.
std::vector<std::string> read_strings(hid_t obj, bool is_attribute, size_t count,
                                      const std::string& where) {
  H5Handle file_type =
      make_in(is_attribute ? H5Aget_type(obj) : H5Dget_type(obj), H5Tclose, "cannot read " + where);
  if (H5Tget_class(file_type.get()) != H5T_STRING) {
    throw InputError(where + ": is not a string");
  }
  std::vector<std::string> out(count);
  if (count == 0) return out;
  auto read = [&](hid_t mem_type, void* buffer) {
    const herr_t r = is_attribute ? H5Aread(obj, mem_type, buffer)
                                  : H5Dread(obj, mem_type, H5S_ALL, H5S_ALL, H5P_DEFAULT, buffer);
    if (r < 0) fail_input("cannot read " + where);
  };
  if (H5Tis_variable_str(file_type.get()) > 0) {
    H5Handle mem_type = make_in(H5Tcopy(H5T_C_S1), H5Tclose, "cannot read " + where);
    H5Tset_size(mem_type.get(), H5T_VARIABLE);
    H5Tset_cset(mem_type.get(), H5Tget_cset(file_type.get()));
    std::vector<char*> pointers(count, nullptr);
    read(mem_type.get(), pointers.data());
    for (size_t i = 0; i < count; ++i) {
      if (pointers[i]) out[i] = pointers[i];
      H5free_memory(pointers[i]);
    }
  } else {
    const size_t size = H5Tget_size(file_type.get());
    H5Handle mem_type = make_in(H5Tcopy(H5T_C_S1), H5Tclose, "cannot read " + where);
    H5Tset_size(mem_type.get(), size);
    H5Tset_strpad(mem_type.get(), H5T_STR_NULLPAD);
    std::vector<char> buffer(size * count, '\0');
    read(mem_type.get(), buffer.data());
    for (size_t i = 0; i < count; ++i) {
      const char* s = buffer.data() + i * size;
      size_t n = strnlen(s, size);
      while (n > 0 && s[n - 1] == ' ') --n;  // space-padded (Fortran style)
      out[i].assign(s, n);
    }
  }
  return out;
}

// Number of elements in an attribute's or dataset's dataspace.
size_t element_count(hid_t space) {
  const hssize_t n = H5Sget_simple_extent_npoints(space);
  return n < 0 ? 0 : static_cast<size_t>(n);
}

// A per-row, extendible, chunked and compressed dataset being written, with a buffer of at most
// one chunk of rows so that each chunk is written once, whole.
struct Column {
  std::string name;
  H5Handle dataset;
  std::vector<hsize_t> inner;  // row shape
  size_t row_size = 1;
  hid_t mem_type = H5T_NATIVE_DOUBLE;  // NATIVE_DOUBLE, NATIVE_INT32 or NATIVE_INT64
  size_t chunk_rows = 1;
  size_t written = 0;  // rows in the file
  std::vector<double> buffer;

  size_t rows() const { return written + (row_size ? buffer.size() / row_size : 0); }
};

Column make_column(hid_t parent, const std::string& name, std::vector<hsize_t> inner,
                   hid_t file_type, hid_t mem_type, const WriterOptions& options,
                   const std::string& where) {
  Column c;
  c.name = name;
  c.inner = std::move(inner);
  for (hsize_t d : c.inner) c.row_size *= d;
  c.mem_type = mem_type;
  const size_t row_bytes = c.row_size * H5Tget_size(file_type);
  c.chunk_rows =
      options.chunk_rows > 0 ? options.chunk_rows : std::max<size_t>(1, 65536 / row_bytes);

  std::vector<hsize_t> dims = {0}, max = {H5S_UNLIMITED}, chunk = {c.chunk_rows};
  for (hsize_t d : c.inner) {
    dims.push_back(d);
    max.push_back(d);
    chunk.push_back(d);
  }
  H5Handle space = simple_space(dims, &max);
  H5Handle dcpl = plist(H5P_DATASET_CREATE);
  untimed(dcpl.get());
  if (H5Pset_chunk(dcpl.get(), static_cast<int>(chunk.size()), chunk.data()) < 0) {
    fail_write("cannot set the chunks of " + where + "/" + name);
  }
  if (options.deflate_level > 0) {
    if (H5Zfilter_avail(H5Z_FILTER_DEFLATE) <= 0) {
      throw RuntimeError("this HDF5 library has no deflate filter; cannot compress " + where);
    }
    if (H5Pset_shuffle(dcpl.get()) < 0 ||
        H5Pset_deflate(dcpl.get(), std::min(options.deflate_level, 9)) < 0) {
      fail_write("cannot set the filters of " + where + "/" + name);
    }
  }
  // No chunk cache: whole chunks are written straight through, once each.
  H5Handle dapl = plist(H5P_DATASET_ACCESS);
  H5Pset_chunk_cache(dapl.get(), H5D_CHUNK_CACHE_NSLOTS_DEFAULT, 0, H5D_CHUNK_CACHE_W0_DEFAULT);
  c.dataset = make_out(
      H5Dcreate2(parent, name.c_str(), file_type, space.get(), H5P_DEFAULT, dcpl.get(), dapl.get()),
      H5Dclose, "cannot create " + where + "/" + name);
  return c;
}

void flush_column(Column& c, const std::string& where) {
  if (c.row_size == 0 || c.buffer.empty()) return;
  const size_t n = c.buffer.size() / c.row_size;
  const std::string what = "cannot write " + where + "/" + c.name;
  std::vector<hsize_t> dims = {c.written + n}, start = {c.written}, count = {n};
  for (hsize_t d : c.inner) {
    dims.push_back(d);
    start.push_back(0);
    count.push_back(d);
  }
  if (H5Dset_extent(c.dataset.get(), dims.data()) < 0) fail_write(what);
  H5Handle file_space = make_out(H5Dget_space(c.dataset.get()), H5Sclose, what);
  if (H5Sselect_hyperslab(file_space.get(), H5S_SELECT_SET, start.data(), nullptr, count.data(),
                          nullptr) < 0) {
    fail_write(what);
  }
  H5Handle mem_space = simple_space(count);
  herr_t r;
  if (c.mem_type == H5T_NATIVE_DOUBLE) {
    r = H5Dwrite(c.dataset.get(), H5T_NATIVE_DOUBLE, mem_space.get(), file_space.get(), H5P_DEFAULT,
                 c.buffer.data());
  } else if (c.mem_type == H5T_NATIVE_INT32) {
    std::vector<int32_t> ints(c.buffer.size());
    for (size_t i = 0; i < ints.size(); ++i)
      ints[i] = static_cast<int32_t>(std::llround(c.buffer[i]));
    r = H5Dwrite(c.dataset.get(), H5T_NATIVE_INT32, mem_space.get(), file_space.get(), H5P_DEFAULT,
                 ints.data());
  } else {
    std::vector<int64_t> ints(c.buffer.size());
    for (size_t i = 0; i < ints.size(); ++i) ints[i] = std::llround(c.buffer[i]);
    r = H5Dwrite(c.dataset.get(), H5T_NATIVE_INT64, mem_space.get(), file_space.get(), H5P_DEFAULT,
                 ints.data());
  }
  if (r < 0) fail_write(what);
  c.written += n;
  c.buffer.clear();
}

// Appends rows to a column, writing each chunk as soon as it is full.
void append_column(Column& c, const double* values, size_t rows, const std::string& where) {
  const size_t chunk_values = c.chunk_rows * c.row_size;
  size_t remaining = rows * c.row_size;
  while (remaining > 0) {
    const size_t take = std::min(remaining, chunk_values - c.buffer.size());
    c.buffer.insert(c.buffer.end(), values, values + take);
    values += take;
    remaining -= take;
    if (c.buffer.size() == chunk_values) flush_column(c, where);
  }
}

std::string shape_text(const std::vector<hsize_t>& dims) {
  std::string s = "(";
  for (size_t i = 0; i < dims.size(); ++i) s += (i ? ", " : "") + std::to_string(dims[i]);
  return s + (dims.size() == 1 ? ",)" : ")");
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// TrajectoryWriter

struct TrajectoryWriter::Impl {
  std::string file_name;  // for messages
  std::string group_path;
  H5Handle group;
  ModelSizes sizes;
  WriterOptions options;
  std::array<std::optional<Column>, kFieldCount> columns;
  std::array<size_t, kFieldCount> zero_width_rows{};  // rows of fields not stored (zero wide)
  std::array<bool, kFieldCount> zero_width_used{};
  H5Handle contact_group;
  std::vector<Column> contact_columns;   // row, geom1, geom2, pos, frame, dist, force
  std::map<std::string, Column> extras;  // append_extra's datasets
  // Attributes of empty extra datasets, written when they are made at close.
  std::map<std::string, std::vector<std::pair<std::string, std::string>>> pending_attributes;
  int64_t max_contact_row = -1;
  bool closed = false;

  // "out.h5:/rollout_00001": datasets are prefix() + "/" + name.
  std::string prefix() const { return file_name + ":" + (group_path == "/" ? "" : group_path); }
  std::string where() const { return group_path == "/" ? file_name + ":/" : prefix(); }

  void check_open() const {
    if (closed) throw std::logic_error(where() + ": trajectory already closed");
  }
};

TrajectoryWriter::TrajectoryWriter(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
TrajectoryWriter::~TrajectoryWriter() = default;

void TrajectoryWriter::append(Field f, std::span<const double> values) {
  const size_t row_size = field_row_size(f, impl_->sizes);
  if (row_size == 0) {
    throw std::invalid_argument(std::string("append to zero-wide field ") + field_info(f).name +
                                ": give the number of rows");
  }
  append(f, values, values.size() / row_size);
}

void TrajectoryWriter::append(Field f, std::span<const double> values, size_t rows) {
  Impl& w = *impl_;
  w.check_open();
  const int i = static_cast<int>(f);
  const FieldInfo& info = field_info(f);
  const size_t row_size = field_row_size(f, w.sizes);
  if (values.size() != rows * row_size) {
    throw std::invalid_argument(std::string("append to ") + info.name + ": " +
                                std::to_string(values.size()) + " values for " +
                                std::to_string(rows) + " rows of " + std::to_string(row_size));
  }
  if (row_size == 0) {
    w.zero_width_used[i] = true;
    w.zero_width_rows[i] += rows;
    return;
  }
  if (!w.columns[i]) {
    std::vector<hsize_t> inner;
    if (info.width != FieldWidth::kScalar) {
      for (size_t d : field_row_shape(f, w.sizes)) inner.push_back(d);
    }
    w.columns[i] = make_column(
        w.group.get(), info.name, std::move(inner), info.integer ? H5T_STD_I32LE : H5T_IEEE_F64LE,
        info.integer ? H5T_NATIVE_INT32 : H5T_NATIVE_DOUBLE, w.options, w.prefix());
  }
  append_column(*w.columns[i], values.data(), rows, w.prefix());
}

void TrajectoryWriter::append_row(const Data& d, std::span<const Field> fields) {
  const ModelSizes& s = d.sizes();
  const ModelSizes& ws = impl_->sizes;
  if (s.nq != ws.nq || s.nv != ws.nv || s.na != ws.na || s.nu != ws.nu || s.nbody != ws.nbody ||
      s.nsensordata != ws.nsensordata) {
    throw std::logic_error("append_row: the Data was made for another model than the file's");
  }
  for (Field f : fields) {
    const size_t n = field_row_size(f, s);
    double scalar = 0;
    const double* p = &scalar;
    switch (f) {
      case Field::kTime: scalar = d.time; break;
      case Field::kQpos: p = d.qpos; break;
      case Field::kQvel: p = d.qvel; break;
      case Field::kAct: p = d.act; break;
      case Field::kCtrl: p = d.ctrl; break;
      case Field::kQacc: p = d.qacc; break;
      case Field::kQaccWarmstart: p = d.qacc_warmstart; break;
      case Field::kSensordata: p = d.sensordata; break;
      case Field::kQfrcApplied: p = d.qfrc_applied; break;
      case Field::kXfrcApplied: p = d.xfrc_applied; break;
      case Field::kQfrcInverse: p = d.qfrc_inverse; break;
      case Field::kQfrcConstraint: p = d.qfrc_constraint; break;
      case Field::kQfrcActuator: p = d.qfrc_actuator; break;
      case Field::kQfrcBias: p = d.qfrc_bias; break;
      case Field::kNcon: scalar = d.ncon; break;
      case Field::kNefc: scalar = d.nefc; break;
      case Field::kSolverNiter: scalar = d.solver_iter; break;
      case Field::kFwdinv: p = d.solver_fwdinv; break;
      case Field::kCtrlEstimate:
      case Field::kCtrlResidual:
        throw std::invalid_argument(std::string("append_row: ") + field_info(f).name +
                                    " is not a Data field");
    }
    append(f, std::span<const double>(p, n), 1);
  }
}

void TrajectoryWriter::enable_contacts() {
  Impl& w = *impl_;
  w.check_open();
  if (w.contact_group.valid()) return;
  const std::string where = w.prefix() + "/contact";
  H5Handle gcpl = plist(H5P_GROUP_CREATE);
  untimed(gcpl.get());
  w.contact_group =
      make_out(H5Gcreate2(w.group.get(), "contact", H5P_DEFAULT, gcpl.get(), H5P_DEFAULT), H5Gclose,
               "cannot create " + where);
  const hid_t g = w.contact_group.get();
  auto add = [&](const char* name, std::vector<hsize_t> inner, hid_t file_type, hid_t mem_type) {
    w.contact_columns.push_back(
        make_column(g, name, std::move(inner), file_type, mem_type, w.options, where));
  };
  add("row", {}, H5T_STD_I64LE, H5T_NATIVE_INT64);
  add("geom1", {}, H5T_STD_I32LE, H5T_NATIVE_INT32);
  add("geom2", {}, H5T_STD_I32LE, H5T_NATIVE_INT32);
  add("pos", {3}, H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE);
  add("frame", {9}, H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE);
  add("dist", {}, H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE);
  add("force", {6}, H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE);
}

TrajectoryStates::TrajectoryStates(const Model& m, Trajectory& t) {
  t.validate(m, {Field::kQpos});
  rows_ = t.rows();
  auto read = [&](Field f) {
    return t.has(f) && field_row_size(f, m) > 0 ? std::optional<Matrix>(t.read(f)) : std::nullopt;
  };
  qpos_ = t.read(Field::kQpos);
  qvel_ = read(Field::kQvel);
  act_ = read(Field::kAct);
  ctrl_ = read(Field::kCtrl);
  time_ = read(Field::kTime);
  qacc_warmstart_ = read(Field::kQaccWarmstart);
  if (!qacc_warmstart_) qacc_ = read(Field::kQacc);
  qfrc_applied_ = read(Field::kQfrcApplied);
  xfrc_applied_ = read(Field::kXfrcApplied);
}

void TrajectoryStates::load(const Model& m, Data& d, size_t r) const {
  reset_data(m, d);
  // Each dataset is one component of the state (joco/state.h), laid out as get_state writes it.
  set_state(m, d, qpos_.row(r), kStateQpos);
  const std::pair<const std::optional<Matrix>*, unsigned> components[] = {
      {&time_, kStateTime},
      {&qvel_, kStateQvel},
      {&act_, kStateAct},
      {&ctrl_, kStateCtrl},
      {&qfrc_applied_, kStateQfrcApplied},
      {&xfrc_applied_, kStateXfrcApplied},
      {&qacc_warmstart_, kStateWarmstart}};
  for (const auto& [values, component] : components) {
    if (*values) set_state(m, d, (*values)->row(r), component);
  }
  if (!qacc_warmstart_ && qacc_ && r > 0) set_state(m, d, qacc_->row(r - 1), kStateWarmstart);
}

ContactRecord contact_record(const Model& m, const Data& d, int i, int64_t row) {
  const Contact& c = d.contact[i];
  ContactRecord r;
  r.row = row;
  r.geom1 = c.geom1;
  r.geom2 = c.geom2;
  std::memcpy(r.pos, c.pos, sizeof(r.pos));
  std::memcpy(r.frame, c.frame, sizeof(r.frame));
  r.dist = c.dist;
  contact_force(m, d, i, r.force);
  return r;
}

void TrajectoryWriter::append_contacts(std::span<const ContactRecord> contacts) {
  enable_contacts();
  Impl& w = *impl_;
  const std::string where = w.prefix() + "/contact";
  for (const ContactRecord& c : contacts) {
    if (c.row < 0 || c.row < w.max_contact_row) {
      throw std::invalid_argument("append_contacts: row " + std::to_string(c.row) + " after row " +
                                  std::to_string(w.max_contact_row) + ": contacts go in row order");
    }
    w.max_contact_row = std::max(w.max_contact_row, c.row);
    const double row = static_cast<double>(c.row), g1 = c.geom1, g2 = c.geom2;
    append_column(w.contact_columns[0], &row, 1, where);
    append_column(w.contact_columns[1], &g1, 1, where);
    append_column(w.contact_columns[2], &g2, 1, where);
    append_column(w.contact_columns[3], c.pos, 1, where);
    append_column(w.contact_columns[4], c.frame, 1, where);
    append_column(w.contact_columns[5], &c.dist, 1, where);
    append_column(w.contact_columns[6], c.force, 1, where);
  }
}

void TrajectoryWriter::append_extra(const std::string& name, const std::vector<size_t>& row_shape,
                                    std::span<const double> values) {
  size_t row_size = 1;
  for (size_t d : row_shape) row_size *= d;
  if (row_size == 0) {
    throw std::invalid_argument("append_extra to " + name +
                                ", whose rows are empty: give the number of rows");
  }
  append_extra(name, row_shape, values, values.size() / row_size);
}

void TrajectoryWriter::append_extra(const std::string& name, const std::vector<size_t>& row_shape,
                                    std::span<const double> values, size_t rows) {
  Impl& w = *impl_;
  w.check_open();
  if (field_by_name(name) || name == "contact") {
    throw std::invalid_argument("append_extra: " + name + " is a trajectory field");
  }
  auto it = w.extras.find(name);
  if (it == w.extras.end()) {
    std::vector<hsize_t> inner(row_shape.begin(), row_shape.end());
    size_t row_size = 1;
    for (hsize_t d : inner) row_size *= d;
    if (row_size > 0) {
      it = w.extras
               .emplace(name, make_column(w.group.get(), name, std::move(inner), H5T_IEEE_F64LE,
                                          H5T_NATIVE_DOUBLE, w.options, w.prefix()))
               .first;
    } else {
      // Nothing to store (B with nu = 0, say): HDF5 cannot chunk a dimension of size zero, so the
      // dataset is made whole, contiguous, at close; only its rows are counted.
      Column c;
      c.name = name;
      c.inner = std::move(inner);
      c.row_size = 0;
      it = w.extras.emplace(name, std::move(c)).first;
    }
  } else if (std::vector<hsize_t>(row_shape.begin(), row_shape.end()) != it->second.inner) {
    throw std::invalid_argument("append_extra: " + name + " changed its row shape");
  }
  Column& c = it->second;
  if (values.size() != rows * c.row_size) {
    throw std::invalid_argument("append_extra: " + std::to_string(values.size()) + " values for " +
                                std::to_string(rows) + " rows of " + name);
  }
  if (c.row_size == 0) {
    c.written += rows;
    return;
  }
  append_column(c, values.data(), rows, w.prefix());
}

void TrajectoryWriter::set_extra_attribute(const std::string& dataset, const std::string& name,
                                           const std::string& value) {
  Impl& w = *impl_;
  w.check_open();
  auto it = w.extras.find(dataset);
  if (it == w.extras.end()) {
    throw std::invalid_argument("set_extra_attribute: no extra dataset " + dataset);
  }
  if (!it->second.dataset.valid()) {
    w.pending_attributes[dataset].emplace_back(name, value);  // an empty dataset, made at close
    return;
  }
  write_string_attribute(it->second.dataset.get(), name, value, w.prefix() + "/" + dataset);
}

void TrajectoryWriter::set_attribute(const std::string& name, const std::string& value) {
  impl_->check_open();
  write_string_attribute(impl_->group.get(), name, value, impl_->where());
}

void TrajectoryWriter::set_attribute(const std::string& name, int64_t value) {
  impl_->check_open();
  write_int_attribute(impl_->group.get(), name, value, impl_->where());
}

void TrajectoryWriter::set_attribute(const std::string& name, double value) {
  impl_->check_open();
  write_double_attribute(impl_->group.get(), name, value, impl_->where());
}

size_t TrajectoryWriter::rows(Field f) const {
  const int i = static_cast<int>(f);
  return impl_->columns[i] ? impl_->columns[i]->rows() : impl_->zero_width_rows[i];
}

const std::string& TrajectoryWriter::group() const { return impl_->group_path; }

bool TrajectoryWriter::closed() const { return impl_->closed; }

void TrajectoryWriter::close() {
  Impl& w = *impl_;
  if (w.closed) return;
  const std::string where = w.prefix();
  // Every written field must have as many rows as qpos.
  const size_t rows = this->rows(Field::kQpos);
  if (rows == 0) throw std::logic_error(w.where() + ": no rows of qpos were written");
  for (const FieldInfo& info : kFields) {
    const int i = static_cast<int>(info.field);
    if ((w.columns[i] || w.zero_width_used[i]) && this->rows(info.field) != rows) {
      throw std::logic_error(where + "/" + info.name + ": has " +
                             std::to_string(this->rows(info.field)) + " rows, qpos has " +
                             std::to_string(rows));
    }
  }
  for (auto& [name, c] : w.extras) {
    if (c.rows() != rows) {
      throw std::logic_error(where + "/" + name + ": has " + std::to_string(c.rows()) +
                             " rows, qpos has " + std::to_string(rows));
    }
  }
  if (w.max_contact_row >= static_cast<int64_t>(rows)) {
    throw std::logic_error(where + "/contact: a contact refers to row " +
                           std::to_string(w.max_contact_row) + " of " + std::to_string(rows));
  }
  for (auto& c : w.columns) {
    if (c) flush_column(*c, where);
  }
  for (Column& c : w.contact_columns) flush_column(c, where + "/contact");
  for (auto& [name, c] : w.extras) {
    if (c.row_size > 0) {
      flush_column(c, where);
      continue;
    }
    std::vector<hsize_t> dims = {c.written};
    dims.insert(dims.end(), c.inner.begin(), c.inner.end());
    H5Handle space = simple_space(dims);
    H5Handle dcpl = plist(H5P_DATASET_CREATE);
    untimed(dcpl.get());
    c.dataset = make_out(H5Dcreate2(w.group.get(), name.c_str(), H5T_IEEE_F64LE, space.get(),
                                    H5P_DEFAULT, dcpl.get(), H5P_DEFAULT),
                         H5Dclose, "cannot create " + where + "/" + name);
    for (const auto& [key, value] : w.pending_attributes[name]) {
      write_string_attribute(c.dataset.get(), key, value, where + "/" + name);
    }
  }
  // qpos is always stored so that the row count is known; with nq = 0 it is (T, 0), not chunked.
  if (!w.columns[static_cast<int>(Field::kQpos)]) {
    H5Handle space = simple_space({rows, 0});
    H5Handle dcpl = plist(H5P_DATASET_CREATE);
    untimed(dcpl.get());
    make_out(H5Dcreate2(w.group.get(), "qpos", H5T_IEEE_F64LE, space.get(), H5P_DEFAULT, dcpl.get(),
                        H5P_DEFAULT),
             H5Dclose, "cannot create " + where + "/qpos");
  }
  for (auto& c : w.columns) {
    if (c && !c->dataset.close()) fail_write("cannot write " + where + "/" + c->name);
  }
  for (Column& c : w.contact_columns) {
    if (!c.dataset.close()) fail_write("cannot write " + where + "/contact/" + c.name);
  }
  for (auto& [name, c] : w.extras) {
    if (!c.dataset.close()) fail_write("cannot write " + where + "/" + name);
  }
  w.contact_group.reset();
  if (!w.group.close()) fail_write("cannot write " + w.where());
  w.closed = true;
}

// ---------------------------------------------------------------------------------------------
// TrajectoryFileWriter

struct TrajectoryFileWriter::Impl {
  std::string path;
  std::string name;  // for messages
  AtomicOutput out;
  H5Handle file;
  ModelSizes sizes;
  uint64_t checksum = 0;
  WriterOptions options;
  std::unique_ptr<TrajectoryWriter> root;
  std::map<int, std::unique_ptr<TrajectoryWriter>> rollouts;
  bool committed = false;

  explicit Impl(const std::string& p) : path(p), name(display_name(p, true)), out(p) {}

  std::unique_ptr<TrajectoryWriter> make_writer(const std::string& group_path) {
    auto w = std::make_unique<TrajectoryWriter::Impl>();
    w->file_name = name;
    w->group_path = group_path;
    w->sizes = sizes;
    w->options = options;
    const std::string where = w->where();
    if (group_path == "/") {
      w->group = make_out(H5Gopen2(file.get(), "/", H5P_DEFAULT), H5Gclose, "cannot open " + where);
    } else {
      H5Handle gcpl = plist(H5P_GROUP_CREATE);
      untimed(gcpl.get());
      w->group =
          make_out(H5Gcreate2(file.get(), group_path.c_str(), H5P_DEFAULT, gcpl.get(), H5P_DEFAULT),
                   H5Gclose, "cannot create " + where);
    }
    const hid_t g = w->group.get();
    write_string_attribute(g, "format", kTrajectoryFormat, where);
    write_int_attribute(g, "format_version", kTrajectoryFormatVersion, where);
    write_string_attribute(g, "model_name", options.model_name, where);
    write_u64_attribute(g, "model_checksum", checksum, where);
    write_double_attribute(g, "timestep", timestep, where);
    write_int_attribute(g, "nq", sizes.nq, where);
    write_int_attribute(g, "nv", sizes.nv, where);
    write_int_attribute(g, "na", sizes.na, where);
    write_int_attribute(g, "nu", sizes.nu, where);
    write_int_attribute(g, "nsensordata", sizes.nsensordata, where);
    write_string_attribute(g, "creator", options.creator, where);
    write_string_attribute(g, "command", options.command, where);
    return std::unique_ptr<TrajectoryWriter>(new TrajectoryWriter(std::move(w)));
  }

  double timestep = 0;
};

namespace {

void write_string_dataset(hid_t parent, const char* name, const std::vector<std::string>& values,
                          const std::string& where) {
  H5Handle type = utf8_string_type();
  H5Handle space = simple_space({values.size()});
  H5Handle dcpl = plist(H5P_DATASET_CREATE);
  untimed(dcpl.get());
  H5Handle ds = make_out(
      H5Dcreate2(parent, name, type.get(), space.get(), H5P_DEFAULT, dcpl.get(), H5P_DEFAULT),
      H5Dclose, "cannot create " + where + "/" + name);
  std::vector<const char*> pointers;
  for (const std::string& v : values) pointers.push_back(v.c_str());
  if (!values.empty() &&
      H5Dwrite(ds.get(), type.get(), H5S_ALL, H5S_ALL, H5P_DEFAULT, pointers.data()) < 0) {
    fail_write("cannot write " + where + "/" + name);
  }
}

void write_int_dataset(hid_t parent, const char* name, const int* values, int n,
                       const std::string& where) {
  H5Handle space = simple_space({static_cast<hsize_t>(n)});
  H5Handle dcpl = plist(H5P_DATASET_CREATE);
  untimed(dcpl.get());
  H5Handle ds = make_out(
      H5Dcreate2(parent, name, H5T_STD_I32LE, space.get(), H5P_DEFAULT, dcpl.get(), H5P_DEFAULT),
      H5Dclose, "cannot create " + where + "/" + name);
  if (n > 0 && H5Dwrite(ds.get(), H5T_NATIVE_INT, H5S_ALL, H5S_ALL, H5P_DEFAULT, values) < 0) {
    fail_write("cannot write " + where + "/" + name);
  }
}

std::vector<std::string> names_of(const Model& m, ObjType type, int count) {
  std::vector<std::string> names;
  for (int i = 0; i < count; ++i) names.emplace_back(m.name(type, i));
  return names;
}

}  // namespace

TrajectoryFileWriter::TrajectoryFileWriter(const std::string& path, const Model& m,
                                           WriterOptions options)
    : impl_(std::make_unique<Impl>(path)) {
  silence_hdf5();
  Impl& f = *impl_;
  f.sizes = m.sizes();
  f.checksum = model_checksum(m);
  f.timestep = m.opt.timestep;
  f.options = std::move(options);
  H5Handle fcpl = plist(H5P_FILE_CREATE);
  untimed(fcpl.get());
  errno = 0;
  const hid_t file = H5Fcreate(f.out.temp_path().c_str(), H5F_ACC_TRUNC, fcpl.get(), H5P_DEFAULT);
  if (file < 0) {
    // The system's reason names the problem better than HDF5's message about the temporary file.
    const int error = errno;
    if (error != 0) {
      H5Eclear2(H5E_DEFAULT);
      throw RuntimeError("cannot create " + f.name + ": " + std::strerror(error));
    }
    fail_write("cannot create " + f.name);
  }
  f.file = H5Handle(file, H5Fclose);

  // The model's names and the maps from joints and sensors to columns, in /model.
  const std::string where = f.name + ":/model";
  H5Handle gcpl = plist(H5P_GROUP_CREATE);
  untimed(gcpl.get());
  H5Handle g = make_out(H5Gcreate2(f.file.get(), "model", H5P_DEFAULT, gcpl.get(), H5P_DEFAULT),
                        H5Gclose, "cannot create " + where);
  write_string_attribute(g.get(), "model_name", f.options.model_name, where);
  write_u64_attribute(g.get(), "model_checksum", f.checksum, where);
  write_string_dataset(g.get(), "body_names", names_of(m, kObjBody, m.nbody), where);
  write_string_dataset(g.get(), "joint_names", names_of(m, kObjJoint, m.njnt), where);
  write_string_dataset(g.get(), "geom_names", names_of(m, kObjGeom, m.ngeom), where);
  write_string_dataset(g.get(), "actuator_names", names_of(m, kObjActuator, m.nu), where);
  write_string_dataset(g.get(), "sensor_names", names_of(m, kObjSensor, m.nsensor), where);
  write_int_dataset(g.get(), "jnt_type", m.jnt_type, m.njnt, where);
  write_int_dataset(g.get(), "jnt_qposadr", m.jnt_qposadr, m.njnt, where);
  write_int_dataset(g.get(), "jnt_dofadr", m.jnt_dofadr, m.njnt, where);
  write_int_dataset(g.get(), "sensor_adr", m.sensor_adr, m.nsensor, where);
  write_int_dataset(g.get(), "sensor_dim", m.sensor_dim, m.nsensor, where);
}

TrajectoryFileWriter::~TrajectoryFileWriter() = default;

TrajectoryWriter& TrajectoryFileWriter::trajectory() {
  Impl& f = *impl_;
  if (f.committed) throw std::logic_error(f.name + ": already committed");
  if (!f.rollouts.empty()) throw std::logic_error(f.name + ": a batch file has no root trajectory");
  if (!f.root) f.root = f.make_writer("/");
  return *f.root;
}

TrajectoryWriter& TrajectoryFileWriter::rollout(int index) {
  Impl& f = *impl_;
  if (f.committed) throw std::logic_error(f.name + ": already committed");
  if (f.root) throw std::logic_error(f.name + ": a single-trajectory file has no rollouts");
  if (index < 0) throw std::invalid_argument("negative rollout index");
  auto& w = f.rollouts[index];
  if (!w) w = f.make_writer(rollout_group(index));
  return *w;
}

void TrajectoryFileWriter::commit() {
  Impl& f = *impl_;
  if (f.committed) return;
  if (!f.root && f.rollouts.empty()) throw std::logic_error(f.name + ": no trajectory was written");
  if (f.root) f.root->close();
  for (auto& [index, w] : f.rollouts) w->close();
  if (!f.file.close()) fail_write("cannot write " + f.name);
  f.out.commit();
  f.committed = true;
}

// ---------------------------------------------------------------------------------------------
// Reading

struct ReaderFile {
  std::string name;            // for messages
  std::vector<uint8_t> image;  // the bytes of a file opened from memory; outlives `file`
  H5Handle file;

  std::string where(const std::string& group, const std::string& dataset = "") const {
    std::string path = group == "/" ? "" : group;
    if (!dataset.empty()) path += "/" + dataset;
    return name + ":" + (path.empty() ? "/" : path);
  }
};

namespace {

bool looks_like_hdf5(std::span<const uint8_t> bytes) {
  static const uint8_t kSignature[8] = {0x89, 'H', 'D', 'F', '\r', '\n', 0x1a, '\n'};
  // The superblock is at 0, 512, 1024, 2048, ... (after a user block).
  for (size_t offset = 0; offset + 8 <= bytes.size(); offset = offset ? 2 * offset : 512) {
    if (std::memcmp(bytes.data() + offset, kSignature, 8) == 0) return true;
  }
  return false;
}

// Whether `name` is a link in `parent` to an object of the given kind.
bool has_object(hid_t parent, const std::string& name, H5I_type_t kind) {
  if (H5LTpath_valid(parent, name.c_str(), true) <= 0) {
    H5Eclear2(H5E_DEFAULT);
    return false;
  }
  const hid_t obj = H5Oopen(parent, name.c_str(), H5P_DEFAULT);
  if (obj < 0) {
    H5Eclear2(H5E_DEFAULT);
    return false;
  }
  const bool result = H5Iget_type(obj) == kind;
  H5Oclose(obj);
  return result;
}

std::string normalize_group(std::string group) {
  if (group.empty() || group[0] != '/') group = "/" + group;
  while (group.size() > 1 && group.back() == '/') group.pop_back();
  return group;
}

// Reads a numeric dataset (or a row range of it) as doubles.
void read_doubles(hid_t dataset, const std::vector<hsize_t>& dims, size_t first, size_t count,
                  double* out, const std::string& where) {
  if (count == 0) return;
  std::vector<hsize_t> start(dims.size(), 0), n = dims;
  start[0] = first;
  n[0] = count;
  for (hsize_t d : n) {
    if (d == 0) return;
  }
  H5Handle file_space = make_in(H5Dget_space(dataset), H5Sclose, "cannot read " + where);
  if (H5Sselect_hyperslab(file_space.get(), H5S_SELECT_SET, start.data(), nullptr, n.data(),
                          nullptr) < 0) {
    fail_input("cannot read " + where);
  }
  H5Handle mem_space = make_in(H5Screate_simple(static_cast<int>(n.size()), n.data(), nullptr),
                               H5Sclose, "cannot read " + where);
  if (H5Dread(dataset, H5T_NATIVE_DOUBLE, mem_space.get(), file_space.get(), H5P_DEFAULT, out) <
      0) {
    fail_input("cannot read " + where);
  }
}

// An open numeric dataset of an input file, with its dimensions.
struct InputDataset {
  H5Handle dataset;
  std::vector<hsize_t> dims;
};

// Opens a dataset and checks that it holds numbers convertible to double.
InputDataset open_numeric(hid_t parent, const std::string& name, const std::string& where) {
  if (!has_object(parent, name, H5I_DATASET)) throw InputError(where + ": is not a dataset");
  InputDataset d;
  d.dataset =
      make_in(H5Dopen2(parent, name.c_str(), H5P_DEFAULT), H5Dclose, "cannot open " + where);
  H5Handle type = make_in(H5Dget_type(d.dataset.get()), H5Tclose, "cannot read " + where);
  const H5T_class_t cls = H5Tget_class(type.get());
  if (cls != H5T_FLOAT && cls != H5T_INTEGER) {
    static const std::map<H5T_class_t, const char*> kClassNames = {
        {H5T_STRING, "strings"},       {H5T_COMPOUND, "a compound type"},
        {H5T_ENUM, "an enumeration"},  {H5T_VLEN, "variable-length sequences"},
        {H5T_ARRAY, "an array type"},  {H5T_OPAQUE, "opaque data"},
        {H5T_BITFIELD, "a bit field"}, {H5T_REFERENCE, "references"}};
    const auto it = kClassNames.find(cls);
    throw InputError(where + ": holds " +
                     (it != kClassNames.end() ? it->second : "an unknown type") + ", not numbers");
  }
  H5Handle space = make_in(H5Dget_space(d.dataset.get()), H5Sclose, "cannot read " + where);
  const int rank = H5Sget_simple_extent_ndims(space.get());
  if (rank < 0) fail_input("cannot read " + where);
  d.dims.resize(rank);
  if (rank > 0) H5Sget_simple_extent_dims(space.get(), d.dims.data(), nullptr);
  return d;
}

// Fields that tools read from their inputs. The others (sensordata, qfrc_*, ncon, ...) are only
// ever written, so a file whose copies of them do not fit (another model's sensors, another
// program's meaning of the name) is still a good input: they are dropped with a warning.
bool read_by_tools(const FieldInfo& info) { return info.input || info.field == Field::kQacc; }

// An attribute as written by any program: absent, one number, one string, or something else (an
// array of several values, a compound, ...). Never throws.
struct LooseAttribute {
  bool present = false;
  std::optional<double> number;  // an integer or floating-point value
  std::optional<uint64_t> bits;  // an integer's 64 bits (checksums are unsigned)
  std::optional<std::string> text;

  // For messages: the value as stored.
  std::string describe() const {
    if (text) return "\"" + *text + "\"";
    if (number) return fmt::format("{}", *number);
    return "of an unreadable type";
  }
};

LooseAttribute loose_attribute(hid_t obj, const std::string& name, const std::string& where) {
  LooseAttribute out;
  if (H5Aexists(obj, name.c_str()) <= 0) {
    H5Eclear2(H5E_DEFAULT);
    return out;
  }
  out.present = true;
  const hid_t a = H5Aopen(obj, name.c_str(), H5P_DEFAULT);
  if (a < 0) {
    H5Eclear2(H5E_DEFAULT);
    return out;
  }
  H5Handle attribute(a, H5Aclose);
  H5Handle space(H5Aget_space(a), H5Sclose);
  H5Handle type(H5Aget_type(a), H5Tclose);
  if (!space.valid() || !type.valid() || element_count(space.get()) != 1) {
    H5Eclear2(H5E_DEFAULT);
    return out;
  }
  switch (H5Tget_class(type.get())) {
    case H5T_INTEGER: {
      if (H5Tget_sign(type.get()) == H5T_SGN_NONE) {
        uint64_t v = 0;
        if (H5Aread(a, H5T_NATIVE_UINT64, &v) >= 0) {
          out.bits = v;
          out.number = static_cast<double>(v);
        }
      } else {
        int64_t v = 0;
        if (H5Aread(a, H5T_NATIVE_INT64, &v) >= 0) {
          out.bits = static_cast<uint64_t>(v);
          out.number = static_cast<double>(v);
        }
      }
      break;
    }
    case H5T_FLOAT: {
      double v = 0;
      if (H5Aread(a, H5T_NATIVE_DOUBLE, &v) >= 0) out.number = v;
      break;
    }
    case H5T_STRING: {
      try {
        out.text = read_strings(a, true, 1, where + " attribute " + name)[0];
      } catch (const InputError&) {
        // present, but unreadable text: neither a number nor a string
      }
      break;
    }
    default: break;
  }
  H5Eclear2(H5E_DEFAULT);
  return out;
}

// A model checksum written as text: decimal digits, or hexadecimal with 0x or as the 16 digits
// joco prints. nullopt when it is neither.
std::optional<uint64_t> parse_checksum(std::string text) {
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) text.pop_back();
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front()))) text.erase(0, 1);
  int base = 10;
  if (text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
    text.erase(0, 2);
    base = 16;
  } else if (text.size() == 16 &&
             !std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; })) {
    base = 16;
  }
  uint64_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value, base);
  if (text.empty() || error != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

// The datasets whose rows are the trajectory's rows, in order of preference, for a use.
std::span<const Field> row_fields(TrajectoryUse use) {
  static constexpr Field kStates[] = {Field::kQpos};
  static constexpr Field kControls[] = {Field::kCtrl, Field::kQfrcApplied, Field::kXfrcApplied,
                                        Field::kQpos};
  if (use == TrajectoryUse::kControls) return kControls;
  return kStates;
}

}  // namespace

struct Trajectory::Impl {
  std::shared_ptr<ReaderFile> file;
  H5Handle group;
  std::array<std::optional<InputDataset>, kFieldCount> datasets;
  std::optional<ModelSizes> sizes;  // set by validate
};

Trajectory::Trajectory(std::shared_ptr<ReaderFile> file, const std::string& group,
                       TrajectoryUse use)
    : impl_(std::make_unique<Impl>()), group_(normalize_group(group)) {
  Impl& t = *impl_;
  t.file = std::move(file);
  const ReaderFile& rf = *t.file;
  const std::string where = this->where();
  if (!has_object(rf.file.get(), group_, H5I_GROUP)) {
    if (has_object(rf.file.get(), group_, H5I_DATASET))
      throw InputError(where + ": is a dataset, not a group");
    throw InputError(rf.name + ": no group " + group_);
  }
  t.group = make_in(H5Gopen2(rf.file.get(), group_.c_str(), H5P_DEFAULT), H5Gclose,
                    "cannot open " + where);

  // joco's own marks are checked; another program's format is its own business (the datasets
  // are read by name all the same).
  const LooseAttribute format = loose_attribute(t.group.get(), "format", where);
  if (format.text == kTrajectoryFormat) {
    const LooseAttribute version = loose_attribute(t.group.get(), "format_version", where);
    if (version.number && *version.number > kTrajectoryFormatVersion) {
      throw InputError(where + ": format_version " + version.describe() +
                       " is newer than this joco reads (" +
                       std::to_string(kTrajectoryFormatVersion) + ")");
    }
    if (version.present && !version.number) {
      spdlog::warn("{}: format_version {} is not a number; read as version {}", where,
                   version.describe(), kTrajectoryFormatVersion);
    }
  } else if (format.present) {
    spdlog::info("{}: format {} is not \"{}\"; its datasets are read by name", where,
                 format.describe(), kTrajectoryFormat);
  }

  const std::span<const Field> counting = row_fields(use);
  std::optional<Field> row_field;
  for (Field f : counting) {
    if (H5Lexists(t.group.get(), field_info(f).name, H5P_DEFAULT) > 0) {
      row_field = f;
      break;
    }
    H5Eclear2(H5E_DEFAULT);
  }
  if (!row_field) {
    std::string names;
    for (size_t i = 0; i < counting.size(); ++i) {
      names += (i == 0 ? "" : i + 1 == counting.size() ? " or " : ", ");
      names += field_info(counting[i]).name;
    }
    throw InputError(where + ": not a trajectory: no dataset " + names);
  }
  // A field that does not fit: an error when tools read it, else dropped.
  auto reject = [&](const FieldInfo& info, const std::string& message) {
    if (read_by_tools(info) || info.field == *row_field) throw InputError(message);
    spdlog::warn("{}; ignored", message);
    t.datasets[static_cast<int>(info.field)].reset();
  };
  for (const FieldInfo& info : kFields) {
    if (H5Lexists(t.group.get(), info.name, H5P_DEFAULT) <= 0) {
      H5Eclear2(H5E_DEFAULT);
      continue;
    }
    const std::string ds_where = rf.where(group_, info.name);
    InputDataset d;
    try {
      d = open_numeric(t.group.get(), info.name, ds_where);
    } catch (const InputError& e) {
      reject(info, e.what());
      continue;
    }
    const size_t rank = d.dims.size();
    const bool rank_ok = info.width == FieldWidth::kScalar
                             ? rank == 1 || (rank == 2 && d.dims[1] == 1)
                         : info.width == FieldWidth::kNbody6 ? rank == 3
                                                             : rank == 1 || rank == 2;
    if (!rank_ok) {
      const std::string expected = info.width == FieldWidth::kScalar ? "(T,)"
                                   : info.width == FieldWidth::kNbody6
                                       ? "(T, nbody, 6)"
                                       : std::string("(T, ") + width_name(info.width) + ")";
      reject(info, ds_where + ": has rank " + std::to_string(rank) + ", shape " +
                       shape_text(d.dims) + "; expected " + expected);
      continue;
    }
    t.datasets[static_cast<int>(info.field)] = std::move(d);
  }
  const char* row_name = field_info(*row_field).name;
  rows_ = t.datasets[static_cast<int>(*row_field)]->dims[0];
  if (rows_ == 0) throw InputError(rf.where(group_, row_name) + ": has no rows");
  for (const FieldInfo& info : kFields) {
    const auto& d = t.datasets[static_cast<int>(info.field)];
    if (d && d->dims[0] != rows_) {
      reject(info, rf.where(group_, info.name) + ": has " + std::to_string(d->dims[0]) + " rows, " +
                       row_name + " has " + std::to_string(rows_));
    }
  }
}

Trajectory::~Trajectory() = default;
Trajectory::Trajectory(Trajectory&&) noexcept = default;
Trajectory& Trajectory::operator=(Trajectory&&) noexcept = default;

std::string Trajectory::where() const { return impl_->file->where(group_); }

bool Trajectory::has(Field f) const { return impl_->datasets[static_cast<int>(f)].has_value(); }

std::vector<Field> Trajectory::fields() const {
  std::vector<Field> out;
  for (const FieldInfo& info : kFields) {
    if (has(info.field)) out.push_back(info.field);
  }
  return out;
}

std::vector<size_t> Trajectory::dims(Field f) const {
  const auto& d = impl_->datasets[static_cast<int>(f)];
  if (!d) return {};
  return std::vector<size_t>(d->dims.begin(), d->dims.end());
}

void Trajectory::validate(const Model& m, std::span<const Field> required) {
  Impl& t = *impl_;
  const std::string where = this->where();
  // The sizes the file says it was written for, where it says so with numbers.
  const std::pair<const char*, int> sizes[] = {
      {"nq", m.nq}, {"nv", m.nv}, {"na", m.na}, {"nu", m.nu}, {"nsensordata", m.nsensordata}};
  for (const auto& [name, value] : sizes) {
    const LooseAttribute a = loose_attribute(t.group.get(), name, where);
    if (!a.present) continue;
    if (!a.number) {
      spdlog::warn("{}: attribute {} is {}, not a number; ignored", where, name, a.describe());
    } else if (*a.number != value) {
      throw InputError(where + ": written for a model with " + name + " = " + a.describe() +
                       ", this model has " + name + " = " + std::to_string(value));
    }
  }
  for (const FieldInfo& info : kFields) {
    auto& d = t.datasets[static_cast<int>(info.field)];
    if (!d) continue;
    const std::vector<size_t> expected = field_row_shape(info.field, m);
    std::vector<size_t> inner(d->dims.begin() + 1, d->dims.end());
    // A field one wide may be stored with rank 1, and a scalar field as (T, 1).
    if (inner.empty() && info.width != FieldWidth::kScalar) inner.assign(1, 1);
    if (info.width == FieldWidth::kScalar && inner.size() == 1 && inner[0] == 1) inner.clear();
    if (inner == expected) continue;
    std::string want = "(" + std::to_string(rows_);
    for (size_t e : expected) want += ", " + std::to_string(e);
    want += expected.empty() ? ",)" : ")";
    const std::string ds_where = t.file->where(group_, info.name);
    std::string message;
    if (info.width == FieldWidth::kNbody6 || info.width == FieldWidth::kTwo ||
        info.width == FieldWidth::kScalar) {
      message =
          ds_where + ": has shape " + shape_text(d->dims) + "; expected " + want +
          (info.width == FieldWidth::kNbody6 ? " for nbody = " + std::to_string(m.nbody) : "");
    } else {
      message = ds_where + ": has " + std::to_string(inner.size() == 1 ? inner[0] : 0) +
                " columns, but the model has " + width_name(info.width) + " = " +
                std::to_string(expected[0]);
    }
    if (read_by_tools(info)) throw InputError(message);
    spdlog::warn("{}; ignored", message);
    d.reset();
  }
  for (Field f : required) {
    if (!has(f) && field_row_size(f, m) > 0) {
      throw InputError(where + ": no dataset " + field_info(f).name + " (required here)");
    }
  }
  // The checksum names the model only as a hint (the same model compiled by another joco version
  // has another one): a difference, or a value that cannot be compared, is a warning.
  const uint64_t own = model_checksum(m);
  const LooseAttribute checksum = loose_attribute(t.group.get(), "model_checksum", where);
  if (checksum.present) {
    std::optional<uint64_t> value = checksum.bits;
    if (!value && checksum.text) value = parse_checksum(*checksum.text);
    const LooseAttribute name = loose_attribute(t.group.get(), "model_name", where);
    const std::string model =
        name.text && !name.text->empty() ? "model \"" + *name.text + "\" " : std::string("model ");
    if (!value) {
      spdlog::warn("{}: model_checksum {} cannot be compared with this model's ({:016x})", where,
                   checksum.describe(), own);
    } else if (*value != own) {
      spdlog::warn("{}: written for {}(checksum {:016x}), not for this one ({:016x})", where, model,
                   *value, own);
    }
  }
  t.sizes = m.sizes();
}

Matrix Trajectory::read(Field f, size_t first, size_t count, bool check_finite) const {
  Matrix out;
  const auto& d = impl_->datasets[static_cast<int>(f)];
  if (count == SIZE_MAX) count = first <= rows_ ? rows_ - first : 0;
  out.rows = count;
  if (d) {
    out.cols = 1;
    for (size_t i = 1; i < d->dims.size(); ++i) out.cols *= d->dims[i];
  } else if (impl_->sizes) {
    out.cols = field_row_size(f, *impl_->sizes);
  }
  out.data.resize(out.rows * out.cols);
  read_into(f, first, count, out.data, check_finite);
  return out;
}

void Trajectory::read_into(Field f, size_t first, size_t count, std::span<double> out,
                           bool check_finite) const {
  const Impl& t = *impl_;
  const FieldInfo& info = field_info(f);
  const std::string where = t.file->where(group_, info.name);
  const auto& d = t.datasets[static_cast<int>(f)];
  if (!d) {
    if (t.sizes && field_row_size(f, *t.sizes) == 0) return;
    throw InputError(this->where() + ": no dataset " + info.name);
  }
  if (first > rows_ || count > rows_ - first) {
    throw InputError(where + ": rows " + std::to_string(first) + " to " +
                     std::to_string(first + count) + " asked for, it has " + std::to_string(rows_));
  }
  size_t cols = 1;
  for (size_t i = 1; i < d->dims.size(); ++i) cols *= d->dims[i];
  if (out.size() != count * cols)
    throw std::invalid_argument("read_into: output size does not fit " + where);
  read_doubles(d->dataset.get(), d->dims, first, count, out.data(), where);
  if (info.input && check_finite) {
    for (size_t i = 0; i < out.size(); ++i) {
      if (!std::isfinite(out[i])) {
        throw InputError(where + ": row " + std::to_string(first + i / cols) + ", column " +
                         std::to_string(i % cols) + " is " + fmt::format("{}", out[i]));
      }
    }
  }
}

bool Trajectory::has_extra(const std::string& name) const {
  return has_object(impl_->group.get(), name, H5I_DATASET);
}

Matrix Trajectory::read_extra(const std::string& name, std::vector<size_t>* dims) const {
  const std::string where = impl_->file->where(group_, name);
  if (!has_extra(name)) throw InputError(this->where() + ": no dataset " + name);
  InputDataset d = open_numeric(impl_->group.get(), name, where);
  Matrix out;
  if (d.dims.empty()) d.dims = {1};
  out.rows = d.dims[0];
  out.cols = 1;
  for (size_t i = 1; i < d.dims.size(); ++i) out.cols *= d.dims[i];
  out.data.resize(out.rows * out.cols);
  read_doubles(d.dataset.get(), d.dims, 0, out.rows, out.data.data(), where);
  if (dims) dims->assign(d.dims.begin(), d.dims.end());
  return out;
}

bool Trajectory::has_contacts() const {
  return has_object(impl_->group.get(), "contact", H5I_GROUP);
}

std::vector<ContactRecord> Trajectory::read_contacts() const {
  const Impl& t = *impl_;
  const std::string where = t.file->where(group_, "contact");
  if (!has_contacts()) throw InputError(where + ": no contact table");
  H5Handle g =
      make_in(H5Gopen2(t.group.get(), "contact", H5P_DEFAULT), H5Gclose, "cannot open " + where);
  struct Column {
    const char* name;
    size_t width;  // 0: rank 1
    std::vector<double> values;
  };
  Column columns[] = {{"row", 0, {}},   {"geom1", 0, {}}, {"geom2", 0, {}}, {"pos", 3, {}},
                      {"frame", 9, {}}, {"dist", 0, {}},  {"force", 6, {}}};
  std::optional<size_t> n;
  for (Column& c : columns) {
    const std::string c_where = where + "/" + c.name;
    if (H5Lexists(g.get(), c.name, H5P_DEFAULT) <= 0) {
      H5Eclear2(H5E_DEFAULT);
      throw InputError(where + ": no dataset " + c.name);
    }
    InputDataset d = open_numeric(g.get(), c.name, c_where);
    const bool shape_ok =
        c.width == 0 ? d.dims.size() == 1 : d.dims.size() == 2 && d.dims[1] == c.width;
    if (!shape_ok) {
      throw InputError(c_where + ": has shape " + shape_text(d.dims) + "; expected " +
                       (c.width ? "(N, " + std::to_string(c.width) + ")" : std::string("(N,)")));
    }
    if (n && d.dims[0] != *n) {
      throw InputError(c_where + ": has " + std::to_string(d.dims[0]) + " rows, row has " +
                       std::to_string(*n));
    }
    n = d.dims[0];
    c.values.resize(*n * std::max<size_t>(c.width, 1));
    read_doubles(d.dataset.get(), d.dims, 0, *n, c.values.data(), c_where);
  }
  std::vector<ContactRecord> out(*n);
  const int ngeom = t.sizes ? t.sizes->ngeom : -1;
  for (size_t i = 0; i < *n; ++i) {
    ContactRecord& r = out[i];
    const double row = columns[0].values[i], g1 = columns[1].values[i], g2 = columns[2].values[i];
    if (!(row >= 0 && row < static_cast<double>(rows_))) {
      throw InputError(where + "/row: contact " + std::to_string(i) + " refers to row " +
                       fmt::format("{}", row) + " of " + std::to_string(rows_));
    }
    for (double geom : {g1, g2}) {
      if (!(geom >= 0 && (ngeom < 0 || geom < ngeom) && geom < 2147483647.0)) {
        throw InputError(
            where + ": contact " + std::to_string(i) + " has geom id " + fmt::format("{}", geom) +
            (ngeom >= 0 ? ", the model has ngeom = " + std::to_string(ngeom) : std::string()));
      }
    }
    if (i > 0 && row < columns[0].values[i - 1]) {
      throw InputError(where + "/row: contact " + std::to_string(i) + " (row " +
                       fmt::format("{}", row) + ") comes after a contact of row " +
                       fmt::format("{}", columns[0].values[i - 1]) +
                       "; contacts must be in row order");
    }
    r.row = static_cast<int64_t>(row);
    r.geom1 = static_cast<int>(g1);
    r.geom2 = static_cast<int>(g2);
    std::copy_n(&columns[3].values[3 * i], 3, r.pos);
    std::copy_n(&columns[4].values[9 * i], 9, r.frame);
    r.dist = columns[5].values[i];
    std::copy_n(&columns[6].values[6 * i], 6, r.force);
  }
  return out;
}

namespace {

// Opens an attribute if present; checks it holds one value.
std::optional<H5Handle> open_attribute(hid_t obj, const std::string& name,
                                       const std::string& where) {
  const htri_t exists = H5Aexists(obj, name.c_str());
  if (exists < 0) fail_input("cannot read attribute " + name + " of " + where);
  if (exists == 0) return std::nullopt;
  H5Handle a = make_in(H5Aopen(obj, name.c_str(), H5P_DEFAULT), H5Aclose,
                       "cannot read attribute " + name + " of " + where);
  H5Handle space =
      make_in(H5Aget_space(a.get()), H5Sclose, "cannot read attribute " + name + " of " + where);
  if (element_count(space.get()) != 1) {
    throw InputError(where + ": attribute " + name + " holds " +
                     std::to_string(element_count(space.get())) + " values, not one");
  }
  return a;
}

H5T_class_t attribute_class(hid_t a) {
  const hid_t type = H5Aget_type(a);
  const H5T_class_t cls = H5Tget_class(type);
  H5Tclose(type);
  return cls;
}

}  // namespace

std::optional<std::string> Trajectory::string_attribute(const std::string& name) const {
  const std::string where = this->where();
  auto a = open_attribute(impl_->group.get(), name, where);
  if (!a) return std::nullopt;
  if (attribute_class(a->get()) != H5T_STRING)
    throw InputError(where + ": attribute " + name + " is not a string");
  return read_strings(a->get(), true, 1, where + " attribute " + name)[0];
}

std::optional<int64_t> Trajectory::int_attribute(const std::string& name) const {
  const std::string where = this->where();
  auto a = open_attribute(impl_->group.get(), name, where);
  if (!a) return std::nullopt;
  if (attribute_class(a->get()) != H5T_INTEGER) {
    throw InputError(where + ": attribute " + name + " is not an integer");
  }
  int64_t value = 0;
  // model_checksum is unsigned 64-bit: read its bits unchanged.
  H5Handle type =
      make_in(H5Aget_type(a->get()), H5Tclose, "cannot read attribute " + name + " of " + where);
  const bool is_unsigned = H5Tget_sign(type.get()) == H5T_SGN_NONE;
  if (H5Aread(a->get(), is_unsigned ? H5T_NATIVE_UINT64 : H5T_NATIVE_INT64, &value) < 0) {
    fail_input("cannot read attribute " + name + " of " + where);
  }
  return value;
}

std::optional<double> Trajectory::double_attribute(const std::string& name) const {
  const std::string where = this->where();
  auto a = open_attribute(impl_->group.get(), name, where);
  if (!a) return std::nullopt;
  const H5T_class_t cls = attribute_class(a->get());
  if (cls != H5T_FLOAT && cls != H5T_INTEGER)
    throw InputError(where + ": attribute " + name + " is not a number");
  double value = 0;
  if (H5Aread(a->get(), H5T_NATIVE_DOUBLE, &value) < 0)
    fail_input("cannot read attribute " + name + " of " + where);
  return value;
}

std::optional<std::string> Trajectory::dataset_string_attribute(const std::string& dataset,
                                                                const std::string& name) const {
  const std::string where = impl_->file->where(group_, dataset);
  if (!has_extra(dataset)) return std::nullopt;
  H5Handle ds = make_in(H5Dopen2(impl_->group.get(), dataset.c_str(), H5P_DEFAULT), H5Dclose,
                        "cannot open " + where);
  auto a = open_attribute(ds.get(), name, where);
  if (!a) return std::nullopt;
  if (attribute_class(a->get()) != H5T_STRING)
    throw InputError(where + ": attribute " + name + " is not a string");
  return read_strings(a->get(), true, 1, where + " attribute " + name)[0];
}

// ---------------------------------------------------------------------------------------------
// TrajectoryInput

TrajectoryRef parse_trajectory_ref(const std::string& arg) {
  std::error_code ec;
  if (arg == "-" || fs::exists(arg, ec)) return {arg, ""};
  size_t first = std::string::npos;
  for (size_t pos = arg.find(":/"); pos != std::string::npos; pos = arg.find(":/", pos + 1)) {
    if (first == std::string::npos) first = pos;
    const std::string prefix = arg.substr(0, pos);
    if (prefix == "-" || (fs::exists(prefix, ec) && !fs::is_directory(prefix, ec)))
      return {prefix, normalize_group(arg.substr(pos + 1))};
  }
  if (first == std::string::npos) return {arg, ""};
  return {arg.substr(0, first), normalize_group(arg.substr(first + 1))};
}

TrajectoryInput::TrajectoryInput(std::shared_ptr<ReaderFile> file, std::string group,
                                 TrajectoryUse use)
    : file_(std::move(file)), group_(std::move(group)), use_(use) {}

TrajectoryInput TrajectoryInput::open(const std::string& arg, TrajectoryUse use) {
  silence_hdf5();
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
    char head[8] = {};
    probe.read(head, sizeof(head));
  }
  if (H5Fis_hdf5(path.c_str()) <= 0) {
    H5Eclear2(H5E_DEFAULT);
    throw InputError(path + ": not an HDF5 file");
  }
  auto file = std::make_shared<ReaderFile>();
  file->name = path;
  file->file = make_in(H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT), H5Fclose,
                       path + ": cannot open as HDF5");
  return TrajectoryInput(std::move(file), ref.group.empty() ? "" : normalize_group(ref.group), use);
}

TrajectoryInput TrajectoryInput::open_image(std::vector<uint8_t> bytes, const std::string& name,
                                            const std::string& group, TrajectoryUse use) {
  silence_hdf5();
  if (bytes.empty()) throw InputError(name + ": empty input, not an HDF5 file");
  if (!looks_like_hdf5(bytes)) throw InputError(name + ": not an HDF5 file");
  auto file = std::make_shared<ReaderFile>();
  file->name = name;
  file->image = std::move(bytes);
  // The library reads the bytes in place and never frees them; `image` outlives the file handle.
  // Without DONT_COPY the peak memory is three times the file (measured with HDF5 1.10.8). With it,
  // HDF5 1.10.8's HL library leaks one 72-byte record per opened image (LeakSanitizer reports it
  // from H5LTopen_file_image): a tool opens one image per run, so the leak is accepted.
  file->file =
      make_in(H5LTopen_file_image(file->image.data(), file->image.size(),
                                  H5LT_FILE_IMAGE_DONT_COPY | H5LT_FILE_IMAGE_DONT_RELEASE),
              H5Fclose, name + ": cannot open as HDF5");
  return TrajectoryInput(std::move(file), group.empty() ? "" : normalize_group(group), use);
}

const std::string& TrajectoryInput::name() const { return file_->name; }

std::vector<std::string> TrajectoryInput::rollout_groups() const {
  std::vector<std::pair<long long, std::string>> found;
  const hid_t root = file_->file.get();
  H5Literate(
      root, H5_INDEX_NAME, H5_ITER_NATIVE, nullptr,
      [](hid_t, const char* name, const H5L_info_t*, void* out) -> herr_t {
        const std::string_view n(name);
        constexpr std::string_view kPrefix = "rollout_";
        if (n.size() > kPrefix.size() && n.substr(0, kPrefix.size()) == kPrefix &&
            n.size() - kPrefix.size() <= 12 &&
            std::all_of(n.begin() + kPrefix.size(), n.end(),
                        [](char c) { return c >= '0' && c <= '9'; })) {
          static_cast<std::vector<std::pair<long long, std::string>>*>(out)->emplace_back(
              std::stoll(std::string(n.substr(kPrefix.size()))), "/" + std::string(n));
        }
        return 0;
      },
      &found);
  H5Eclear2(H5E_DEFAULT);
  std::sort(found.begin(), found.end());
  std::vector<std::string> groups;
  for (auto& [index, name] : found) {
    if (has_object(root, name, H5I_GROUP)) groups.push_back(std::move(name));
  }
  return groups;
}

std::vector<std::string> TrajectoryInput::trajectory_groups() const {
  if (!group_.empty()) return {group_};
  std::string names;
  for (Field f : row_fields(use_)) {
    const std::string name = field_info(f).name;
    if (has_object(file_->file.get(), "/" + name, H5I_DATASET)) return {"/"};
    names += (names.empty() ? "" : " or ") + name;
  }
  std::vector<std::string> groups = rollout_groups();
  if (groups.empty()) {
    throw InputError(file_->name + ": holds no trajectory (no " + names +
                     " dataset at the root, no /rollout_NNNNN group)");
  }
  return groups;
}

Trajectory TrajectoryInput::trajectory(const std::string& group) const {
  return Trajectory(file_, group, use_);
}

Trajectory TrajectoryInput::single() const {
  const std::vector<std::string> groups = trajectory_groups();
  if (groups.size() > 1) {
    throw InputError(file_->name + ": holds " + std::to_string(groups.size()) +
                     " rollouts; name one, e.g. " + file_->name + ":" + groups[0]);
  }
  return trajectory(groups[0]);
}

ModelInfo TrajectoryInput::model_info() const {
  ModelInfo info;
  const hid_t root = file_->file.get();
  if (!has_object(root, "/model", H5I_GROUP)) return info;
  H5Handle g = make_in(H5Gopen2(root, "/model", H5P_DEFAULT), H5Gclose,
                       "cannot open " + file_->where("/model"));
  const std::string where = file_->where("/model");
  // What another program put under /model is its own: what is not as joco writes it is ignored.
  if (auto a = loose_attribute(g.get(), "model_name", where); a.text) info.model_name = *a.text;
  if (auto a = loose_attribute(g.get(), "model_checksum", where); a.bits) {
    info.model_checksum = a.bits;
  } else if (a.text) {
    info.model_checksum = parse_checksum(*a.text);
  }
  auto names = [&](const char* name, std::vector<std::string>& out) {
    if (!has_object(g.get(), name, H5I_DATASET)) return;
    const std::string ds_where = file_->where("/model", name);
    try {
      H5Handle ds =
          make_in(H5Dopen2(g.get(), name, H5P_DEFAULT), H5Dclose, "cannot open " + ds_where);
      H5Handle space = make_in(H5Dget_space(ds.get()), H5Sclose, "cannot read " + ds_where);
      if (H5Sget_simple_extent_ndims(space.get()) != 1)
        throw InputError(ds_where + ": expected rank 1");
      out = read_strings(ds.get(), false, element_count(space.get()), ds_where);
    } catch (const InputError& e) {
      spdlog::warn("{}; ignored", e.what());
    }
  };
  names("body_names", info.body_names);
  names("joint_names", info.joint_names);
  names("geom_names", info.geom_names);
  names("actuator_names", info.actuator_names);
  names("sensor_names", info.sensor_names);
  return info;
}

}  // namespace joco::tools
