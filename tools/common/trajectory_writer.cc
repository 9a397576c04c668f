#include "common/trajectory_writer.h"

#include <zlib.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <stdexcept>
#include <utility>

#include "common/h5.h"
#include "common/io.h"
#include "common/model_input.h"
#include "common/nonfinite_rows.h"
#include "common/trajectory_path.h"
#include "joco/error.h"
#include "joco/jmb.h"
#include "joco/smooth.h"

namespace joco::tools {

namespace {
std::atomic<int> g_default_deflate_level{0};
}  // namespace

int default_deflate_level() { return g_default_deflate_level.load(std::memory_order_relaxed); }

void set_default_deflate_level(int level) {
  g_default_deflate_level.store(std::clamp(level, 0, 9), std::memory_order_relaxed);
}

namespace {

// The rows of a chunk being gathered: allocated once, whole, and not initialised (its pages are
// touched only as rows arrive); appends copy values, with no check of room: callers flush a full
// chunk before appending more.
struct ChunkBuffer {
  std::unique_ptr<double[]> values;
  size_t used = 0, capacity = 0;

  void allocate(size_t n) {
    values.reset(new double[n]);
    capacity = n;
  }
  size_t size() const { return used; }
  bool empty() const { return used == 0; }
  const double* data() const { return values.get(); }
  void clear() { used = 0; }
  void append(const double* v, size_t n) {
    std::memcpy(values.get() + used, v, n * sizeof(double));
    used += n;
  }
};

// A per-row, extendible, chunked (and compressed, or not) dataset being written, with a buffer of
// at most one chunk of rows so that each chunk is written once, whole. Its dataset is made when
// its first chunk is written: a dataset of fewer rows than a chunk then gets a chunk of just its
// rows (a chunk stored uncompressed takes its whole size in the file, rows past the end included).
struct Column {
  std::string name;
  hid_t parent = -1;  // the group the dataset goes in (open until the trajectory is closed)
  H5Handle dataset;   // made by the first flush
  std::vector<std::pair<std::string, std::string>> pending_attributes;  // until it is made
  std::vector<hsize_t> inner;                                           // row shape
  size_t row_size = 1;
  Stored stored = Stored::kFloat64;
  size_t chunk_rows = 1;
  bool chunk_rows_chosen = true;  // by the writer (WriterOptions::chunk_rows 0), not asked for
  int deflate_level = 0;          // 0: stored as is, else shuffled and deflated
  std::mutex* hdf5 = nullptr;     // the file's lock around HDF5 calls
  size_t written = 0;             // rows in the file
  bool missing_allowed = false;   // NaN is a missing value (TrajectoryWriter::allow_missing)
  ChunkBuffer buffer;
  std::vector<hsize_t> extent,
      offset;  // of the next chunk written (kept: flushes allocate nothing)

  size_t rows() const { return written + (row_size ? buffer.size() / row_size : 0); }
};

hid_t file_type(Stored s) {
  switch (s) {
    case Stored::kInt32: return H5T_STD_I32LE;
    case Stored::kInt64: return H5T_STD_I64LE;
    case Stored::kFloat64: break;
  }
  return H5T_IEEE_F64LE;
}

size_t stored_size(Stored s) { return s == Stored::kInt32 ? 4 : 8; }

// A column of `parent` (no HDF5 call: its dataset is made by its first flush).
Column make_column(hid_t parent, const std::string& name, std::vector<hsize_t> inner, Stored stored,
                   const WriterOptions& options, std::mutex* hdf5) {
  Column c;
  c.name = name;
  c.parent = parent;
  c.inner = std::move(inner);
  for (hsize_t d : c.inner) c.row_size *= d;
  c.stored = stored;
  c.hdf5 = hdf5;
  const size_t row_bytes = c.row_size * stored_size(stored);
  c.chunk_rows =
      options.chunk_rows > 0 ? options.chunk_rows : std::max<size_t>(1, 65536 / row_bytes);
  c.chunk_rows_chosen = options.chunk_rows == 0;
  c.deflate_level = std::clamp(options.deflate_level, 0, 9);
  c.buffer.allocate(c.chunk_rows * c.row_size);
  c.extent.assign(c.inner.begin(), c.inner.end());
  c.extent.insert(c.extent.begin(), 0);
  c.offset.assign(c.extent.size(), 0);
  return c;
}

// Makes c's dataset, chunks of c.chunk_rows rows, and its pending attributes; with the file's
// lock held.
void create_dataset_of(Column& c, const std::string& where) {
  const std::string& name = c.name;
  const hid_t type = file_type(c.stored);
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
  if (c.deflate_level > 0) {
    if (H5Zfilter_avail(H5Z_FILTER_DEFLATE) <= 0) {
      throw RuntimeError("this HDF5 library has no deflate filter; cannot compress " + where);
    }
    if (H5Pset_shuffle(dcpl.get()) < 0 || H5Pset_deflate(dcpl.get(), c.deflate_level) < 0) {
      fail_write("cannot set the filters of " + where + "/" + name);
    }
  }
  // No chunk cache: whole chunks are written straight through, once each.
  H5Handle dapl = plist(H5P_DATASET_ACCESS);
  H5Pset_chunk_cache(dapl.get(), H5D_CHUNK_CACHE_NSLOTS_DEFAULT, 0, H5D_CHUNK_CACHE_W0_DEFAULT);
  c.dataset = make_out(
      H5Dcreate2(c.parent, name.c_str(), type, space.get(), H5P_DEFAULT, dcpl.get(), dapl.get()),
      H5Dclose, "cannot create " + where + "/" + name);
  for (const auto& [key, value] : c.pending_attributes) {
    write_string_attribute(c.dataset.get(), key, value, where + "/" + name);
  }
  c.pending_attributes.clear();
}

// The order-0 entropy of bytes, in bits per byte.
double entropy_bits(const unsigned char* bytes, size_t n) {
  uint32_t counts[4][256] = {};  // four histograms, summed: independent increments
  size_t i = 0;
  for (; i + 4 <= n; i += 4) {
    ++counts[0][bytes[i]];
    ++counts[1][bytes[i + 1]];
    ++counts[2][bytes[i + 2]];
    ++counts[3][bytes[i + 3]];
  }
  for (; i < n; ++i) ++counts[0][bytes[i]];
  double bits = 0;
  for (int v = 0; v < 256; ++v) {
    const uint32_t k = counts[0][v] + counts[1][v] + counts[2][v] + counts[3][v];
    if (k == 0) continue;
    const double p = static_cast<double>(k) / static_cast<double>(n);
    bits -= p * std::log2(p);
  }
  return bits;
}

// Planes whose bytes carry more than this many bits of order-0 entropy (of 8) are stored: deflate
// would save at most a few percent of them, slowly. Chosen on the humanoid's joco-inverse output:
// 7.5 bits stores the low mantissa bytes and costs 0.6% of the file's size.
constexpr double kUniformBits = 7.5;

// Deflates a shuffled chunk (`size` planes of `count` bytes) as one zlib stream whose planes of
// nearly uniform bytes (low mantissa bytes: deflate cannot shrink them and spends most of its
// time failing to) go in stored blocks and the others at `level`: any inflater reads it as it
// reads HDF5's own deflate filter's output.
std::span<const unsigned char> deflate_planes(const std::vector<unsigned char>& shuffled,
                                              size_t size, size_t count, int level,
                                              std::vector<unsigned char>& packed,
                                              const std::string& name, const std::string& where) {
  thread_local struct Stream {
    z_stream z{};
    int level = -1;
    ~Stream() {
      if (level >= 0) deflateEnd(&z);
    }
  } stream;
  z_stream& z = stream.z;
  const auto fail = [&] {
    throw RuntimeError("cannot write " + where + "/" + name + ": deflate failed");
  };
  if (stream.level != level) {
    if (stream.level >= 0) deflateEnd(&z);
    z = z_stream{};
    stream.level = -1;
    if (deflateInit(&z, level) != Z_OK) fail();
    stream.level = level;
  } else if (deflateReset(&z) != Z_OK) {
    fail();
  }
  // A plane's stored block, and each switch between stored and deflated, add a few bytes.
  packed.resize(compressBound(static_cast<uLong>(shuffled.size())) + 64 * size + 64);
  z.next_out = packed.data();
  z.avail_out = static_cast<uInt>(packed.size());
  for (size_t b = 0; b < size; ++b) {
    const unsigned char* plane = shuffled.data() + b * count;
    const bool uniform = entropy_bits(plane, count) > kUniformBits;
    if (deflateParams(&z, uniform ? 0 : level, Z_DEFAULT_STRATEGY) != Z_OK) fail();
    z.next_in = const_cast<unsigned char*>(plane);
    z.avail_in = static_cast<uInt>(count);
    if (deflate(&z, Z_NO_FLUSH) != Z_OK || z.avail_in != 0) fail();
  }
  if (deflate(&z, Z_FINISH) != Z_STREAM_END) fail();
  return {packed.data(), static_cast<size_t>(z.total_out)};
}

// std::llround(v), without its call for the whole numbers that integer fields hold (row and geom
// numbers, counts): those convert exactly.
inline int64_t whole_number(double v) {
  constexpr double kExact = 9007199254740992.0;  // 2^53: beyond it llround's own path
  if (v > -kExact && v < kExact) {
    const auto whole = static_cast<int64_t>(v);
    if (static_cast<double>(whole) == v) return whole;
  }
  return std::llround(v);
}

// The rows of values[0, n) as one whole chunk, as HDF5's filters (shuffle, then deflate) read it:
// values in the file's type, rows past the end zero (the fill value). Pure computation on this
// thread's scratch, outside the file's lock, so that threads compress at the same time.
std::span<const unsigned char> encode_chunk(const Column& c, const double* values, size_t n,
                                            const std::string& where) {
  thread_local std::vector<unsigned char> raw, shuffled, packed;
  const size_t count = c.chunk_rows * c.row_size;
  const size_t size = stored_size(c.stored);
  if (c.stored == Stored::kFloat64 && c.deflate_level == 0 && n == count) {
    return {reinterpret_cast<const unsigned char*>(values), count * size};  // as it is
  }
  raw.resize(count * size);
  // Rows past the given ones are the fill value, zero.
  std::memset(raw.data() + n * size, 0, (count - n) * size);
  if (c.stored == Stored::kFloat64) {
    std::memcpy(raw.data(), values, n * size);
  } else if (c.stored == Stored::kInt32) {
    for (size_t i = 0; i < n; ++i) {
      const auto v = static_cast<int32_t>(whole_number(values[i]));
      std::memcpy(raw.data() + i * size, &v, size);
    }
  } else {
    for (size_t i = 0; i < n; ++i) {
      const int64_t v = whole_number(values[i]);
      std::memcpy(raw.data() + i * size, &v, size);
    }
  }
  if (c.deflate_level == 0) return raw;
  // Shuffle: byte b of every value together, b = 0, 1, ...
  shuffled.resize(raw.size());
  for (size_t b = 0; b < size; ++b) {
    unsigned char* out = shuffled.data() + b * count;
    for (size_t i = 0; i < count; ++i) out[i] = raw[i * size + b];
  }
  return deflate_planes(shuffled, size, count, c.deflate_level, packed, c.name, where);
}

// Writes n rows of values (n <= chunk_rows) as the next chunk: encoded on this thread, then stored
// under the lock (the dataset made first, by the first write). Allocates nothing once this
// thread's scratch has grown and the dataset is made (it runs inside the rollout loop).
void write_chunk(Column& c, const double* values, size_t n, const std::string& where) {
  const std::span<const unsigned char> chunk = encode_chunk(c, values, n * c.row_size, where);
  c.extent[0] = c.written + n;
  c.offset[0] = c.written;
  std::lock_guard<std::mutex> lock(*c.hdf5);
  if (!c.dataset.valid()) create_dataset_of(c, where);
  if (H5Dset_extent(c.dataset.get(), c.extent.data()) < 0 ||
      H5Dwrite_chunk(c.dataset.get(), H5P_DEFAULT, 0, c.offset.data(), chunk.size(), chunk.data()) <
          0) {
    fail_write("cannot write " + where + "/" + c.name);
  }
  c.written += n;
}

// Writes the buffered rows as the next chunk.
void flush_column(Column& c, const std::string& where) {
  if (c.row_size == 0 || (c.buffer.empty() && c.dataset.valid())) return;
  const size_t n = c.buffer.size() / c.row_size;
  if (!c.dataset.valid() && n < c.chunk_rows) {
    // All the rows it will have (a flush of a partial chunk is the last): one chunk of just them.
    c.chunk_rows = std::max<size_t>(n, 1);
  }
  if (n == 0) {  // an empty table (contacts that never occurred): the dataset alone
    std::lock_guard<std::mutex> lock(*c.hdf5);
    create_dataset_of(c, where);
    return;
  }
  write_chunk(c, c.buffer.data(), n, where);
  c.buffer.clear();
}

// Appends rows to a column, writing each chunk as soon as it is full.
void append_column(Column& c, const double* values, size_t rows, const std::string& where) {
  if (c.chunk_rows_chosen && !c.dataset.valid() && c.buffer.empty() && rows > c.chunk_rows) {
    // The rows of a whole trajectory at once (a tool that computed them all): as many chunks as
    // the usual size needs, of equal rows, so that the last is not padded to a whole chunk, up to
    // 64 KiB of zeros made and stored per dataset.
    const size_t chunks = (rows + c.chunk_rows - 1) / c.chunk_rows;
    c.chunk_rows = (rows + chunks - 1) / chunks;
  }
  const size_t chunk_values = c.chunk_rows * c.row_size;
  size_t remaining = rows * c.row_size;
  while (remaining > 0) {
    if (c.buffer.empty() && remaining >= chunk_values) {
      // A whole chunk of the caller's rows: encoded from where they are, not copied first.
      write_chunk(c, values, c.chunk_rows, where);
      values += chunk_values;
      remaining -= chunk_values;
      continue;
    }
    const size_t take = std::min(remaining, chunk_values - c.buffer.size());
    c.buffer.append(values, take);
    values += take;
    remaining -= take;
    if (c.buffer.size() == chunk_values) flush_column(c, where);
  }
}

// Appends one row (a few values: the contact table's per-contact path; the buffer, flushed as soon
// as it is full, has room for it).
inline void append_one_row(Column& c, const double* row, const std::string& where) {
  double* end = c.buffer.values.get() + c.buffer.used;
  for (size_t k = 0; k < c.row_size; ++k) end[k] = row[k];
  c.buffer.used += c.row_size;
  if (c.buffer.used == c.chunk_rows * c.row_size) flush_column(c, where);
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
  std::mutex* hdf5 = nullptr;  // the file's lock around HDF5 calls
  std::string prefix_text;     // prefix(), made once
  // Made on first use, on the heap: a closed writer, kept by its file, is a few hundred bytes.
  std::array<std::unique_ptr<Column>, kFieldCount> columns;
  // Rows of the fields without a column: not stored (zero wide), or written and closed.
  std::array<size_t, kFieldCount> zero_width_rows{};
  std::array<bool, kFieldCount> zero_width_used{};
  H5Handle contact_group;
  std::string contact_where;             // prefix() + "/contact"
  std::vector<Column> contact_columns;   // kContactColumns
  std::map<std::string, Column> extras;  // append_extra's datasets
  int64_t max_contact_row = -1;
  NonFiniteRows nonfinite;
  std::set<std::string> missing_allowed;  // allow_missing's extras
  bool closed = false;

  // "out.h5:/rollout_00001": datasets are prefix() + "/" + name.
  const std::string& prefix() {
    if (prefix_text.empty()) prefix_text = file_name + ":" + (group_path == "/" ? "" : group_path);
    return prefix_text;
  }
  std::string where() const { return location(file_name, group_path); }

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
    w.columns[i] = std::make_unique<Column>(
        make_column(w.group.get(), info.name, std::move(inner), info.stored, w.options, w.hdf5));
  }
  if (info.stored == Stored::kFloat64) {
    w.nonfinite.scan(w.prefix(), info.name, w.columns[i]->rows(), values, row_size);
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
    double scalar = 0;
    const double* p = field_row(d, f, scalar);
    if (!p) {
      throw std::invalid_argument(std::string("append_row: ") + field_info(f).name +
                                  " is not a Data field");
    }
    append(f, std::span<const double>(p, field_row_size(f, s)), 1);
  }
}

void TrajectoryWriter::enable_contacts() {
  Impl& w = *impl_;
  w.check_open();
  if (w.contact_group.valid()) return;
  w.contact_where = w.prefix() + "/contact";
  const std::string& where = w.contact_where;
  std::lock_guard<std::mutex> lock(*w.hdf5);
  w.contact_group = create_group(w.group.get(), "contact", where);
  for (const ContactColumn& c : kContactColumns) {
    std::vector<hsize_t> inner;
    if (c.width > 0) inner.push_back(c.width);
    w.contact_columns.push_back(
        make_column(w.contact_group.get(), c.name, std::move(inner), c.stored, w.options, w.hdf5));
  }
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
  const std::string& where = w.contact_where;
  for (const ContactRecord& c : contacts) {
    if (c.row < 0 || c.row < w.max_contact_row) {
      throw std::invalid_argument("append_contacts: row " + std::to_string(c.row) + " after row " +
                                  std::to_string(w.max_contact_row) + ": contacts go in row order");
    }
    w.max_contact_row = std::max(w.max_contact_row, c.row);
    const double row = static_cast<double>(c.row), g1 = c.geom1, g2 = c.geom2;
    append_one_row(w.contact_columns[0], &row, where);
    append_one_row(w.contact_columns[1], &g1, where);
    append_one_row(w.contact_columns[2], &g2, where);
    append_one_row(w.contact_columns[3], c.pos, where);
    append_one_row(w.contact_columns[4], c.frame, where);
    append_one_row(w.contact_columns[5], &c.dist, where);
    append_one_row(w.contact_columns[6], c.force, where);
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
  append_extra(extra(name, row_shape), values, rows);
}

ExtraDataset TrajectoryWriter::extra(const std::string& name,
                                     const std::vector<size_t>& row_shape) {
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
               .emplace(name, make_column(w.group.get(), name, std::move(inner), Stored::kFloat64,
                                          w.options, w.hdf5))
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
    it->second.missing_allowed = w.missing_allowed.contains(name);
  } else if (!std::equal(row_shape.begin(), row_shape.end(), it->second.inner.begin(),
                         it->second.inner.end())) {
    throw std::invalid_argument("append_extra: " + name + " changed its row shape");
  }
  ExtraDataset dataset;
  dataset.column_ = &it->second;  // std::map keeps its elements in place
  return dataset;
}

void TrajectoryWriter::append_extra(ExtraDataset dataset, std::span<const double> values,
                                    size_t rows) {
  Impl& w = *impl_;
  w.check_open();
  if (!dataset.column_)
    throw std::invalid_argument("append_extra: an ExtraDataset not made by extra()");
  Column& c = *static_cast<Column*>(dataset.column_);
  if (values.size() != rows * c.row_size) {
    throw std::invalid_argument("append_extra: " + std::to_string(values.size()) + " values for " +
                                std::to_string(rows) + " rows of " + c.name);
  }
  if (c.row_size == 0) {
    c.written += rows;
    return;
  }
  if (!c.missing_allowed) w.nonfinite.scan(w.prefix(), c.name, c.rows(), values, c.row_size);
  append_column(c, values.data(), rows, w.prefix());
}

void TrajectoryWriter::allow_missing(const std::string& name) {
  impl_->missing_allowed.insert(name);
  auto it = impl_->extras.find(name);
  if (it != impl_->extras.end()) it->second.missing_allowed = true;
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
    it->second.pending_attributes.emplace_back(name, value);  // written when the dataset is made
    return;
  }
  std::lock_guard<std::mutex> lock(*w.hdf5);
  write_string_attribute(it->second.dataset.get(), name, value, w.prefix() + "/" + dataset);
}

void TrajectoryWriter::set_attribute(const std::string& name, const std::string& value) {
  impl_->check_open();
  std::lock_guard<std::mutex> lock(*impl_->hdf5);
  write_string_attribute(impl_->group.get(), name, value, impl_->where());
}

void TrajectoryWriter::set_attribute(const std::string& name, int64_t value) {
  impl_->check_open();
  std::lock_guard<std::mutex> lock(*impl_->hdf5);
  write_int_attribute(impl_->group.get(), name, value, impl_->where());
}

void TrajectoryWriter::set_attribute(const std::string& name, double value) {
  impl_->check_open();
  std::lock_guard<std::mutex> lock(*impl_->hdf5);
  write_double_attribute(impl_->group.get(), name, value, impl_->where());
}

void TrajectoryWriter::set_attribute(const std::string& name, std::span<const double> values) {
  impl_->check_open();
  std::lock_guard<std::mutex> lock(*impl_->hdf5);
  write_doubles_attribute(impl_->group.get(), name, values, impl_->where());
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
  for (const FieldInfo& info : field_table()) {
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
  w.nonfinite.report(where);
  // The last chunks (each flush takes the lock), then the rest under the lock.
  for (auto& c : w.columns) {
    if (c) flush_column(*c, where);
  }
  for (Column& c : w.contact_columns) flush_column(c, where + "/contact");
  for (auto& [name, c] : w.extras) flush_column(c, where);
  std::lock_guard<std::mutex> lock(*w.hdf5);
  for (auto& [name, c] : w.extras) {
    if (c.row_size > 0) continue;
    std::vector<hsize_t> dims = {c.written};
    dims.insert(dims.end(), c.inner.begin(), c.inner.end());
    c.dataset = create_dataset(w.group.get(), name, H5T_IEEE_F64LE, dims, where);
    for (const auto& [key, value] : c.pending_attributes) {
      write_string_attribute(c.dataset.get(), key, value, where + "/" + name);
    }
  }
  // qpos is always stored so that the row count is known; with nq = 0 it is (T, 0), not chunked.
  if (!w.columns[static_cast<int>(Field::kQpos)]) {
    create_dataset(w.group.get(), field_info(Field::kQpos).name, H5T_IEEE_F64LE, {rows, 0}, where);
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
  // A closed group keeps only its row counts (a few hundred bytes, no buffers, no columns): a
  // file of many rollouts costs memory only for those open, whatever the number written.
  for (size_t i = 0; i < w.columns.size(); ++i) {
    if (!w.columns[i]) continue;
    w.zero_width_rows[i] = w.columns[i]->rows();
    w.columns[i].reset();
  }
  std::vector<Column>().swap(w.contact_columns);
  w.extras.clear();
}

size_t TrajectoryWriter::buffered_bytes() const {
  const Impl& w = *impl_;
  size_t bytes = 0;
  for (const auto& c : w.columns) {
    if (c) bytes += c->buffer.capacity * sizeof(double);
  }
  for (const Column& c : w.contact_columns) bytes += c.buffer.capacity * sizeof(double);
  for (const auto& [name, c] : w.extras) bytes += c.buffer.capacity * sizeof(double);
  return bytes;
}

// ---------------------------------------------------------------------------------------------
// TrajectoryFileWriter

struct TrajectoryFileWriter::Impl {
  std::mutex hdf5;  // held around every HDF5 call of this file's writers
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
    w->nonfinite = NonFiniteRows(options.strict_finite);
    w->hdf5 = &hdf5;
    const std::string where = w->where();
    if (group_path == "/") {
      w->group = make_out(H5Gopen2(file.get(), "/", H5P_DEFAULT), H5Gclose, "cannot open " + where);
    } else {
      w->group = create_group(file.get(), group_path, where);
    }
    const hid_t g = w->group.get();
    write_string_attribute(g, "format", kTrajectoryFormat, where);
    write_int_attribute(g, "format_version", kTrajectoryFormatVersion, where);
    write_string_attribute(g, "model_name", options.model_name, where);
    write_u64_attribute(g, "model_checksum", checksum, where);
    write_double_attribute(g, "timestep", timestep, where);
    for (const SizeAttribute& a : kSizeAttributes) {
      write_int_attribute(g, a.name, sizes.*a.size, where);
    }
    write_string_attribute(g, "creator", options.creator, where);
    write_string_attribute(g, "command", options.command, where);
    return std::unique_ptr<TrajectoryWriter>(new TrajectoryWriter(std::move(w)));
  }

  double timestep = 0;
};

namespace {

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
  f.checksum = model_checksum_once(m);
  f.timestep = m.opt.timestep;
  f.options = std::move(options);
  H5Handle fcpl = plist(H5P_FILE_CREATE);
  untimed(fcpl.get());
  errno = 0;
  // A metadata cache of at most 1 MiB: each group is written once and never read back, so HDF5's
  // default (growing to 32 MiB) only held the headers of rollouts long closed, and the peak memory
  // of a batch grew with its rollouts (humanoid, 2 threads: 43 MiB for 30 rollouts, 59 for 300, 76
  // for 3000). The headers of the groups being written (~15 datasets each) fit many times over.
  H5Handle fapl = plist(H5P_FILE_ACCESS);
  H5AC_cache_config_t cache;
  cache.version = H5AC__CURR_CACHE_CONFIG_VERSION;
  if (H5Pget_mdc_config(fapl.get(), &cache) >= 0) {
    cache.max_size = 1 << 20;
    cache.min_size = std::min(cache.min_size, cache.max_size);
    cache.initial_size = std::min(cache.initial_size, cache.max_size);
    cache.set_initial_size = true;
    H5Pset_mdc_config(fapl.get(), &cache);
  }
  H5Eclear2(H5E_DEFAULT);
  const hid_t file = H5Fcreate(f.out.temp_path().c_str(), H5F_ACC_TRUNC, fcpl.get(), fapl.get());
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
  H5Handle g = create_group(f.file.get(), "model", where);
  write_string_attribute(g.get(), "model_name", f.options.model_name, where);
  write_u64_attribute(g.get(), "model_checksum", f.checksum, where);
  for (const ModelNameList& list : kModelNameLists) {
    write_string_dataset(g.get(), list.name, names_of(m, list.type, m.*list.count), where);
  }
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
  std::lock_guard<std::mutex> lock(f.hdf5);
  if (!f.rollouts.empty()) throw std::logic_error(f.name + ": a batch file has no root trajectory");
  if (!f.root) f.root = f.make_writer("/");
  return *f.root;
}

TrajectoryWriter& TrajectoryFileWriter::rollout(int index) {
  Impl& f = *impl_;
  if (f.committed) throw std::logic_error(f.name + ": already committed");
  if (index < 0) throw std::invalid_argument("negative rollout index");
  std::lock_guard<std::mutex> lock(f.hdf5);
  if (f.root) throw std::logic_error(f.name + ": a single-trajectory file has no rollouts");
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
  std::lock_guard<std::mutex> lock(f.hdf5);
  if (!f.file.close()) fail_write("cannot write " + f.name);
  f.out.commit();
  f.committed = true;
}

}  // namespace joco::tools
