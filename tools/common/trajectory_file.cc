#include "common/trajectory_file.h"

#include <fmt/format.h>
#include <hdf5_hl.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <utility>

#include "common/h5.h"
#include "common/h5_guard.h"
#include "common/io.h"
#include "common/model_input.h"
#include "common/trajectory_path.h"
#include "joco/error.h"
#include "joco/jmb.h"

namespace joco::tools {

namespace fs = std::filesystem;

struct ReaderFile {
  std::string name;            // for messages
  std::vector<uint8_t> image;  // the bytes of a file opened from memory; outlives `file`
  H5Handle file;

  std::string where(const std::string& group, const std::string& dataset = "") const {
    return location(name, group, dataset);
  }
};

namespace {

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

// Rows [first, first + count) of a numeric dataset (of rank >= 1), read and sent in blocks of
// about 1 MB.
void stream_rows(const InputDataset& d, size_t first, size_t count, const std::string& where,
                 ReplyStream& out) {
  size_t cols = 1;
  for (size_t i = 1; i < d.dims.size(); ++i) cols *= d.dims[i];
  if (cols == 0 || count == 0) return;
  const size_t block = rows_per_block(cols);
  std::vector<double> buffer(std::min(block, count) * cols);
  for (size_t at = first; at < first + count; at += block) {
    const size_t n = std::min(block, first + count - at);
    read_doubles(d.dataset.get(), d.dims, at, n, buffer.data(), where);
    out.values(std::span<const double>(buffer.data(), n * cols));
  }
}

}  // namespace

struct FileTrajectory::Impl {
  std::shared_ptr<ReaderFile> file;
  H5Handle group;
  std::array<std::optional<InputDataset>, kFieldCount> datasets;
  std::optional<ModelSizes> sizes;  // set by validate
  TrajectoryUse use = TrajectoryUse::kStates;
};

FileTrajectory::FileTrajectory(std::shared_ptr<ReaderFile> file, const std::string& group,
                               TrajectoryUse use)
    : impl_(std::make_unique<Impl>()), group_(normalize_group(group)) {
  Impl& t = *impl_;
  t.file = std::move(file);
  t.use = use;
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
    if (read_for(info.field, use) || info.field == *row_field) throw InputError(message);
    spdlog::warn("{}; ignored", message);
    t.datasets[static_cast<int>(info.field)].reset();
  };
  for (const FieldInfo& info : field_table()) {
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
  for (const FieldInfo& info : field_table()) {
    const auto& d = t.datasets[static_cast<int>(info.field)];
    if (d && d->dims[0] != rows_) {
      reject(info, rf.where(group_, info.name) + ": has " + std::to_string(d->dims[0]) + " rows, " +
                       row_name + " has " + std::to_string(rows_));
    }
  }
}

FileTrajectory::~FileTrajectory() = default;
FileTrajectory::FileTrajectory(FileTrajectory&&) noexcept = default;

std::string FileTrajectory::where() const { return impl_->file->where(group_); }

bool FileTrajectory::has(Field f) const { return impl_->datasets[static_cast<int>(f)].has_value(); }

std::vector<size_t> FileTrajectory::dims(Field f) const {
  const auto& d = impl_->datasets[static_cast<int>(f)];
  if (!d) return {};
  return std::vector<size_t>(d->dims.begin(), d->dims.end());
}

void FileTrajectory::validate(const ModelSizes& m, uint64_t own, std::span<const Field> required) {
  Impl& t = *impl_;
  const std::string where = this->where();
  // The sizes the file says it was written for, where it says so with numbers.
  for (const SizeAttribute& size : kSizeAttributes) {
    const char* name = size.name;
    const int value = m.*size.size;
    const LooseAttribute a = loose_attribute(t.group.get(), name, where);
    if (!a.present) continue;
    if (!a.number) {
      spdlog::warn("{}: attribute {} is {}, not a number; ignored", where, name, a.describe());
    } else if (*a.number != value) {
      throw InputError(where + ": written for a model with " + name + " = " + a.describe() +
                       ", this model has " + name + " = " + std::to_string(value));
    }
  }
  for (const FieldInfo& info : field_table()) {
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
    if (read_for(info.field, t.use)) throw InputError(message);
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
  t.sizes = m;
}

void FileTrajectory::read_rows(Field f, size_t first, size_t count, size_t out_size,
                               ReplyStream& out) const {
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
  if (out_size != count * cols)
    throw std::invalid_argument("read_into: output size does not fit " + where);
  stream_rows(*d, first, count, where, out);
}

bool FileTrajectory::has_extra(const std::string& name) const {
  return has_object(impl_->group.get(), name, H5I_DATASET);
}

std::vector<std::string> FileTrajectory::extra_names() const {
  std::vector<std::string> names;
  H5Literate(
      impl_->group.get(), H5_INDEX_NAME, H5_ITER_INC, nullptr,
      [](hid_t, const char* name, const H5L_info_t*, void* out) -> herr_t {
        if (!field_by_name(name)) static_cast<std::vector<std::string>*>(out)->push_back(name);
        return 0;
      },
      &names);
  H5Eclear2(H5E_DEFAULT);
  std::erase_if(names, [&](const std::string& n) { return !has_extra(n); });
  return names;
}

std::vector<size_t> FileTrajectory::read_extra(const std::string& name, ReplyStream& out) const {
  const std::string where = impl_->file->where(group_, name);
  if (!has_extra(name)) throw InputError(this->where() + ": no dataset " + name);
  InputDataset d = open_numeric(impl_->group.get(), name, where);
  if (d.dims.empty()) d.dims = {1};
  stream_rows(d, 0, d.dims[0], where, out);
  return std::vector<size_t>(d.dims.begin(), d.dims.end());
}

bool FileTrajectory::has_contacts() const {
  return has_object(impl_->group.get(), "contact", H5I_GROUP);
}

std::vector<ContactRecord> FileTrajectory::read_contacts() const {
  const Impl& t = *impl_;
  const std::string where = t.file->where(group_, "contact");
  if (!has_contacts()) throw InputError(where + ": no contact table");
  H5Handle g =
      make_in(H5Gopen2(t.group.get(), "contact", H5P_DEFAULT), H5Gclose, "cannot open " + where);
  // The columns' values, in the order of kContactColumns (row, geom1, geom2, pos, frame, dist,
  // force).
  std::array<std::vector<double>, kContactColumnCount> columns;
  std::optional<size_t> n;
  for (size_t k = 0; k < kContactColumnCount; ++k) {
    const ContactColumn& c = kContactColumns[k];
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
    columns[k].resize(*n * std::max<size_t>(c.width, 1));
    read_doubles(d.dataset.get(), d.dims, 0, *n, columns[k].data(), c_where);
  }
  std::vector<ContactRecord> out(*n);
  const int ngeom = t.sizes ? t.sizes->ngeom : -1;
  for (size_t i = 0; i < *n; ++i) {
    ContactRecord& r = out[i];
    const double row = columns[0][i], g1 = columns[1][i], g2 = columns[2][i];
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
    if (i > 0 && row < columns[0][i - 1]) {
      throw InputError(where + "/row: contact " + std::to_string(i) + " (row " +
                       fmt::format("{}", row) + ") comes after a contact of row " +
                       fmt::format("{}", columns[0][i - 1]) + "; contacts must be in row order");
    }
    r.row = static_cast<int64_t>(row);
    r.geom1 = static_cast<int>(g1);
    r.geom2 = static_cast<int>(g2);
    std::copy_n(&columns[3][3 * i], 3, r.pos);
    std::copy_n(&columns[4][9 * i], 9, r.frame);
    r.dist = columns[5][i];
    std::copy_n(&columns[6][6 * i], 6, r.force);
  }
  return out;
}

std::optional<std::string> FileTrajectory::string_attribute(const std::string& name) const {
  return read_string_attribute(impl_->group.get(), name, where());
}

std::optional<int64_t> FileTrajectory::int_attribute(const std::string& name) const {
  return read_int_attribute(impl_->group.get(), name, where());
}

std::optional<double> FileTrajectory::double_attribute(const std::string& name) const {
  return read_double_attribute(impl_->group.get(), name, where());
}

std::optional<std::string> FileTrajectory::dataset_string_attribute(const std::string& dataset,
                                                                    const std::string& name) const {
  const std::string where = impl_->file->where(group_, dataset);
  if (!has_extra(dataset)) return std::nullopt;
  H5Handle ds = make_in(H5Dopen2(impl_->group.get(), dataset.c_str(), H5P_DEFAULT), H5Dclose,
                        "cannot open " + where);
  return read_string_attribute(ds.get(), name, where);
}

// ---------------------------------------------------------------------------------------------
// TrajectoryInput

FileInput::FileInput(std::shared_ptr<ReaderFile> file, std::string group, TrajectoryUse use)
    : file_(std::move(file)), group_(std::move(group)), use_(use) {}

FileInput FileInput::open(const std::string& path, const std::string& group, TrajectoryUse use,
                          const std::function<void()>& step) {
  if (H5Fis_hdf5(path.c_str()) <= 0) {
    H5Eclear2(H5E_DEFAULT);
    throw InputError(path + ": not an HDF5 file");
  }
  auto file = std::make_shared<ReaderFile>();
  file->name = path;
  file->file = make_in(H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT), H5Fclose,
                       path + ": cannot open as HDF5");
  read_whole_hdf5(file->file.get(), group, step);
  return FileInput(std::move(file), group, use);
}

FileInput FileInput::open_image(std::vector<uint8_t> bytes, const std::string& name,
                                const std::string& group, TrajectoryUse use,
                                const std::function<void()>& step) {
  auto file = std::make_shared<ReaderFile>();
  file->name = name;
  file->image = std::move(bytes);
  // The library reads the bytes in place (a copy would double the peak memory); `image` outlives
  // the file handle.
  file->file =
      make_in(open_hdf5_image(file->image, "file-image"), H5Fclose, name + ": cannot open as HDF5");
  read_whole_hdf5(file->file.get(), group, step);
  return FileInput(std::move(file), group, use);
}

std::vector<std::string> FileInput::rollout_groups() const {
  std::vector<std::pair<long long, std::string>> found;
  const hid_t root = file_->file.get();
  H5Literate(
      root, H5_INDEX_NAME, H5_ITER_NATIVE, nullptr,
      [](hid_t, const char* name, const H5L_info_t*, void* out) -> herr_t {
        if (const std::optional<long long> index = rollout_index(name)) {
          static_cast<std::vector<std::pair<long long, std::string>>*>(out)->emplace_back(
              *index, "/" + std::string(name));
        }
        return 0;
      },
      &found);
  H5Eclear2(H5E_DEFAULT);
  std::sort(found.begin(), found.end());
  std::vector<std::string> groups;
  for (auto& [index, name] : found) {
    if (has_object(root, name, H5I_GROUP)) {
      groups.push_back(std::move(name));
      continue;
    }
    // A joined file's rollout is an external link to another file (joco-simulate --join): one that
    // leads nowhere is an error, not a rollout less.
    H5L_info_t info;
    if (H5Lget_info(root, name.c_str(), &info, H5P_DEFAULT) >= 0 &&
        info.type == H5L_TYPE_EXTERNAL) {
      std::vector<char> value(info.u.val_size);
      const char *target = nullptr, *object = nullptr;
      unsigned flags = 0;
      if (H5Lget_val(root, name.c_str(), value.data(), value.size(), H5P_DEFAULT) >= 0 &&
          H5Lunpack_elink_val(value.data(), value.size(), &flags, &target, &object) >= 0) {
        H5Eclear2(H5E_DEFAULT);
        throw InputError(file_->where(name) + ": links to " + target + ":" + object +
                         ", which cannot be opened (looked for beside " + file_->name +
                         " and in the current directory; joined files keep their shards)");
      }
    }
    H5Eclear2(H5E_DEFAULT);
  }
  return groups;
}

std::vector<std::string> FileInput::trajectory_groups() const {
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

FileTrajectory FileInput::trajectory(const std::string& group) const {
  return FileTrajectory(file_, group, use_);
}

ModelInfo FileInput::model_info() const {
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
  for (const ModelNameList& list : kModelNameLists) names(list.name, info.*list.names);
  return info;
}

std::vector<size_t> FileInput::dataset_dims(const std::string& name) const {
  const std::string group = group_.empty() ? "/" : group_;
  const hid_t file = file_->file.get();
  if (!has_object(file, group, H5I_GROUP)) return {};
  H5Handle g = make_in(H5Gopen2(file, group.c_str(), H5P_DEFAULT), H5Gclose,
                       "cannot open " + file_->where(group));
  if (!has_object(g.get(), name, H5I_DATASET)) return {};
  const InputDataset d = open_numeric(g.get(), name, dataset_where(name));
  return std::vector<size_t>(d.dims.begin(), d.dims.end());
}

std::string FileInput::dataset_where(const std::string& name) const {
  return file_->where(group_.empty() ? "/" : group_, name);
}

void FileInput::read_dataset(const std::string& name, size_t first, size_t count,
                             ReplyStream& out) const {
  const std::string group = group_.empty() ? "/" : group_;
  H5Handle g = make_in(H5Gopen2(file_->file.get(), group.c_str(), H5P_DEFAULT), H5Gclose,
                       "cannot open " + file_->where(group));
  const std::string where = dataset_where(name);
  const InputDataset d = open_numeric(g.get(), name, where);
  if (d.dims.empty() || first > d.dims[0] || count > d.dims[0] - first) {
    throw InputError(where + ": entries " + std::to_string(first) + " to " +
                     std::to_string(first + count) + " asked for, its shape is " +
                     shape_text(d.dims));
  }
  stream_rows(d, first, count, where, out);
}

}  // namespace joco::tools
