#include "common/h5.h"

#include <hdf5_hl.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <map>
#include <optional>
#include <utility>

#include "joco/error.h"

namespace joco::tools {

// No HDF5 exit handler. HDF5 1.10's H5Fclose, when the file's last flush fails (a full disk),
// frees the file's structure but leaves its identifier registered; the handler that closes every
// open file at exit then reads the freed structure: SIGSEGV after the tool has reported the error
// and removed its temporary file. joco closes every file it opens itself (H5Handle), so the handler
// has nothing to do that the end of the process does not. It must be declined before the library
// starts, that is before main, hence a static initialiser in the file every HDF5 user links.
[[maybe_unused]] const bool kNoHdf5ExitHandler = H5dont_atexit() >= 0;

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
  // A failed system call: HDF5's description is a dump of the call over two lines ("file write
  // failed: time = ..., errno = 28, error message = 'No space left on device', buf = 0x..."); the
  // system's reason says it.
  const size_t at = detail.find(", errno = ");
  if (at != std::string::npos) {
    const int error = std::atoi(detail.c_str() + at + std::strlen(", errno = "));
    if (error > 0) detail = std::strerror(error);
  }
  return detail.empty() ? "" : " (" + detail + ")";
}

[[noreturn]] void fail_input(const std::string& what) { throw InputError(what + hdf5_detail()); }

[[noreturn]] void fail_write(const std::string& what) { throw RuntimeError(what + hdf5_detail()); }

H5Handle plist(hid_t cls) {
  return make_out(H5Pcreate(cls), H5Pclose, "cannot create a property list");
}

H5Handle simple_space(const std::vector<hsize_t>& dims, const std::vector<hsize_t>* max) {
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

H5Handle create_group(hid_t parent, const std::string& name, const std::string& where) {
  H5Handle gcpl = plist(H5P_GROUP_CREATE);
  untimed(gcpl.get());
  return make_out(H5Gcreate2(parent, name.c_str(), H5P_DEFAULT, gcpl.get(), H5P_DEFAULT), H5Gclose,
                  "cannot create " + where);
}

H5Handle create_dataset(hid_t parent, const std::string& name, hid_t type,
                        const std::vector<hsize_t>& dims, const std::string& where) {
  H5Handle space = simple_space(dims);
  H5Handle dcpl = plist(H5P_DATASET_CREATE);
  untimed(dcpl.get());
  return make_out(
      H5Dcreate2(parent, name.c_str(), type, space.get(), H5P_DEFAULT, dcpl.get(), H5P_DEFAULT),
      H5Dclose, "cannot create " + where + "/" + name);
}

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

void write_doubles_attribute(hid_t obj, const std::string& name, std::span<const double> values,
                             const std::string& where) {
  if (H5Aexists(obj, name.c_str()) > 0) H5Adelete(obj, name.c_str());
  H5Handle space = simple_space({static_cast<hsize_t>(values.size())});
  H5Handle a =
      make_out(H5Acreate2(obj, name.c_str(), H5T_IEEE_F64LE, space.get(), H5P_DEFAULT, H5P_DEFAULT),
               H5Aclose, "cannot write attribute " + name + " of " + where);
  if (H5Awrite(a.get(), H5T_NATIVE_DOUBLE, values.data()) < 0)
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

namespace {

// The file's size in bytes (0 when unknown).
uint64_t file_size_of(hid_t obj) {
  hsize_t size = 0;
  const hid_t file = H5Iget_file_id(obj);
  if (file < 0 || H5Fget_filesize(file, &size) < 0) size = 0;
  if (file >= 0) H5Fclose(file);
  H5Eclear2(H5E_DEFAULT);
  return size;
}

// n * m, or nullopt when it does not fit in 64 bits.
std::optional<uint64_t> product(uint64_t n, uint64_t m) {
  uint64_t r = 0;
  if (__builtin_mul_overflow(n, m, &r)) return std::nullopt;
  return r;
}

// What the file can hold of `count` elements of `size` bytes each: no more than its own size when
// stored as they are, no more than kMaxCompressionRatio times it through filters.
void check_bytes(hid_t obj, std::optional<uint64_t> count, size_t size, bool filtered,
                 const std::string& where, const std::string& claim) {
  const uint64_t file = file_size_of(obj);
  const uint64_t limit = filtered ? file * kMaxCompressionRatio : file;
  const std::optional<uint64_t> bytes = count ? product(*count, std::max<size_t>(size, 1)) : count;
  if (file > 0 && (!bytes || *bytes > limit)) {
    throw InputError(
        where + ": claims " + claim + " (" +
        (bytes ? std::to_string(*bytes) : std::string("more than 2^64")) +
        " bytes), more than the file's " + std::to_string(file) + " bytes can hold" +
        (filtered ? " even compressed (at most " + std::to_string(kMaxCompressionRatio) + ":1)"
                  : std::string()) +
        "; the file is damaged");
  }
}

}  // namespace

// Reads a string (variable or fixed length) from an attribute or dataset of `count` elements.
std::vector<std::string> read_strings(hid_t obj, bool is_attribute, size_t count,
                                      const std::string& where) {
  H5Handle file_type =
      make_in(is_attribute ? H5Aget_type(obj) : H5Dget_type(obj), H5Tclose, "cannot read " + where);
  if (H5Tget_class(file_type.get()) != H5T_STRING) {
    throw InputError(where + ": is not a string");
  }
  // Stored through filters (a dataset's deflate), the strings may take less room than they claim.
  bool filtered = false;
  if (!is_attribute) {
    H5Handle dcpl = make_in(H5Dget_create_plist(obj), H5Pclose, "cannot read " + where);
    filtered = H5Pget_nfilters(dcpl.get()) > 0;
  }
  check_bytes(obj, count, H5Tget_size(file_type.get()), filtered, where,
              std::to_string(count) + " strings");
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
std::string shape_text(const std::vector<hsize_t>& dims) {
  std::string s = "(";
  for (size_t i = 0; i < dims.size(); ++i) s += (i ? ", " : "") + std::to_string(dims[i]);
  return s + (dims.size() == 1 ? ",)" : ")");
}

void write_string_dataset(hid_t parent, const char* name, const std::vector<std::string>& values,
                          const std::string& where) {
  H5Handle type = utf8_string_type();
  H5Handle ds = create_dataset(parent, name, type.get(), {values.size()}, where);
  std::vector<const char*> pointers;
  for (const std::string& v : values) pointers.push_back(v.c_str());
  if (!values.empty() &&
      H5Dwrite(ds.get(), type.get(), H5S_ALL, H5S_ALL, H5P_DEFAULT, pointers.data()) < 0) {
    fail_write("cannot write " + where + "/" + name);
  }
}

void write_int_dataset(hid_t parent, const char* name, const int* values, int n,
                       const std::string& where) {
  H5Handle ds = create_dataset(parent, name, H5T_STD_I32LE, {static_cast<hsize_t>(n)}, where);
  if (n > 0 && H5Dwrite(ds.get(), H5T_NATIVE_INT, H5S_ALL, H5S_ALL, H5P_DEFAULT, values) < 0) {
    fail_write("cannot write " + where + "/" + name);
  }
}

bool looks_like_hdf5(std::span<const uint8_t> bytes) {
  static const uint8_t kSignature[8] = {0x89, 'H', 'D', 'F', '\r', '\n', 0x1a, '\n'};
  // The superblock is at 0, 512, 1024, 2048, ... (after a user block).
  for (size_t offset = 0; offset + 8 <= bytes.size(); offset = offset ? 2 * offset : 512) {
    if (std::memcmp(bytes.data() + offset, kSignature, 8) == 0) return true;
  }
  return false;
}

namespace {

// File image callbacks that hand the library the caller's bytes wherever it would allocate a copy
// of the image (the property list's, the open file's) and never free them; the udata is the
// bytes. HDF5's own H5LTopen_file_image does this too, but 1.10.8 leaks its 72-byte record of
// every image it opens without copying.
void* image_in_place(size_t, H5FD_file_image_op_t op, void* bytes) {
  return op == H5FD_FILE_IMAGE_OP_FILE_RESIZE ? nullptr : bytes;
}
void* image_copy(void* dest, const void* src, size_t size, H5FD_file_image_op_t, void*) {
  if (dest != src) std::memcpy(dest, src, size);  // never reached: dest is src
  return dest;
}
void* image_no_realloc(void*, size_t, H5FD_file_image_op_t, void*) { return nullptr; }
herr_t image_keep(void*, H5FD_file_image_op_t, void*) { return 0; }
void* image_udata_copy(void* bytes) { return bytes; }
herr_t image_udata_keep(void*) { return 0; }

}  // namespace

hid_t open_hdf5_image(std::span<const uint8_t> bytes, const char* name) {
  const hid_t fapl = H5Pcreate(H5P_FILE_ACCESS);
  if (fapl < 0) return -1;
  void* image = const_cast<uint8_t*>(bytes.data());  // read-only: the library never writes it
  H5FD_file_image_callbacks_t callbacks{image_in_place, image_copy,       image_no_realloc,
                                        image_keep,     image_udata_copy, image_udata_keep,
                                        image};
  hid_t file = -1;
  if (H5Pset_fapl_core(fapl, 1 << 16, 0) >= 0 &&
      H5Pset_file_image_callbacks(fapl, &callbacks) >= 0 &&
      H5Pset_file_image(fapl, image, bytes.size()) >= 0) {
    file = H5Fopen(name, H5F_ACC_RDONLY, fapl);
  }
  H5Pclose(fapl);
  return file;
}

// Whether `name` is a link in `parent` to an object of the given kind.
namespace {

// A search of one name in a listing (H5Literate, H5Aiterate2): stops there.
struct NameSearch {
  const std::string* name;
  bool found = false;
};
template <typename Info>
herr_t stop_at_name(hid_t, const char* listed, const Info*, void* data) {
  auto* s = static_cast<NameSearch*>(data);
  s->found = *s->name == listed;
  return s->found ? 1 : 0;
}

// Whether the library lists a link `name` in `group` (H5Literate, by name); false when the listing
// fails before finding it.
bool has_listed_link(hid_t group, const std::string& name) {
  NameSearch search{&name};
  H5Literate(group, H5_INDEX_NAME, H5_ITER_INC, nullptr, stop_at_name<H5L_info_t>, &search);
  H5Eclear2(H5E_DEFAULT);
  return search.found;
}

}  // namespace

bool has_object(hid_t parent, const std::string& name, H5I_type_t kind) {
  // Every link on the way listed in the group before it, as the reading process's walk follows them.
  std::optional<H5Handle> opened;
  hid_t at = parent;
  size_t pos = 0;
  if (!name.empty() && name[0] == '/') {
    opened.emplace(H5Gopen2(parent, "/", H5P_DEFAULT), H5Gclose);
    if (!opened->valid()) {
      H5Eclear2(H5E_DEFAULT);
      return false;
    }
    at = opened->get();
    pos = 1;
  }
  while (pos < name.size()) {
    const size_t slash = name.find('/', pos);
    const std::string component =
        name.substr(pos, slash == std::string::npos ? slash : slash - pos);
    if (!component.empty() && component != ".") {
      if (!has_listed_link(at, component)) return false;
      if (slash != std::string::npos) {
        H5Handle next(H5Gopen2(at, component.c_str(), H5P_DEFAULT), H5Gclose);
        if (!next.valid()) {
          H5Eclear2(H5E_DEFAULT);
          return false;
        }
        opened = std::move(next);
        at = opened->get();
      }
    }
    if (slash == std::string::npos) break;
    pos = slash + 1;
  }
  return object_type(parent, name) == kind;
}

H5I_type_t object_type(hid_t parent, const std::string& name) {
  if (H5LTpath_valid(parent, name.c_str(), true) <= 0) {
    H5Eclear2(H5E_DEFAULT);
    return H5I_BADID;
  }
  const hid_t obj = H5Oopen(parent, name.c_str(), H5P_DEFAULT);
  if (obj < 0) {
    H5Eclear2(H5E_DEFAULT);
    return H5I_BADID;
  }
  const H5I_type_t type = H5Iget_type(obj);
  H5Oclose(obj);
  return type;
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

void check_claimed_size(hid_t dataset, hid_t type, const std::vector<hsize_t>& dims,
                        const std::string& where) {
  H5Handle dcpl = make_in(H5Dget_create_plist(dataset), H5Pclose, "cannot read " + where);
  const H5D_layout_t layout = H5Pget_layout(dcpl.get());
  // Values kept in other files (external storage, virtual datasets) are not this file's to give.
  if (layout == H5D_VIRTUAL || H5Pget_external_count(dcpl.get()) > 0) {
    H5Eclear2(H5E_DEFAULT);
    throw InputError(where + ": keeps its values in other files (" +
                     (layout == H5D_VIRTUAL ? "a virtual dataset" : "external storage") +
                     "), which joco does not read");
  }
  const bool filtered = H5Pget_nfilters(dcpl.get()) > 0;
  const size_t size = H5Tget_size(type);
  std::optional<uint64_t> count = 1;
  for (hsize_t d : dims) count = count ? product(*count, d) : count;
  check_bytes(dataset, count, size, filtered, where, "shape " + shape_text(dims));
  // The library allocates a whole chunk to read any of it.
  if (layout == H5D_CHUNKED && !dims.empty()) {
    std::vector<hsize_t> chunk(dims.size());
    if (H5Pget_chunk(dcpl.get(), static_cast<int>(chunk.size()), chunk.data()) ==
        static_cast<int>(chunk.size())) {
      std::optional<uint64_t> n = 1;
      for (hsize_t c : chunk) n = n ? product(*n, c) : n;
      check_bytes(dataset, n, size, filtered, where, "chunks of shape " + shape_text(chunk));
    }
  }
  H5Eclear2(H5E_DEFAULT);
}

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
  check_claimed_size(d.dataset.get(), type.get(), d.dims, where);
  return d;
}

bool has_listed_attribute(hid_t obj, const std::string& name, const std::string& where) {
  NameSearch search{&name};
  const herr_t status =
      H5Aiterate2(obj, H5_INDEX_NAME, H5_ITER_INC, nullptr, stop_at_name<H5A_info_t>, &search);
  if (status < 0 && !search.found) {
    fail_input(where + ": damaged HDF5 file: its attributes cannot be listed");
  }
  H5Eclear2(H5E_DEFAULT);
  return search.found;
}

LooseAttribute loose_attribute(hid_t obj, const std::string& name, const std::string& where) {
  LooseAttribute out;
  if (!has_listed_attribute(obj, name, where)) return out;
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

// Opens an attribute if present; checks it holds one value.
std::optional<H5Handle> open_attribute(hid_t obj, const std::string& name,
                                       const std::string& where) {
  if (!has_listed_attribute(obj, name, where)) return std::nullopt;
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

std::optional<std::string> read_string_attribute(hid_t obj, const std::string& name,
                                                 const std::string& where) {
  auto a = open_attribute(obj, name, where);
  if (!a) return std::nullopt;
  if (attribute_class(a->get()) != H5T_STRING)
    throw InputError(where + ": attribute " + name + " is not a string");
  return read_strings(a->get(), true, 1, where + " attribute " + name)[0];
}

std::optional<int64_t> read_int_attribute(hid_t obj, const std::string& name,
                                          const std::string& where) {
  auto a = open_attribute(obj, name, where);
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

std::optional<double> read_double_attribute(hid_t obj, const std::string& name,
                                            const std::string& where) {
  auto a = open_attribute(obj, name, where);
  if (!a) return std::nullopt;
  const H5T_class_t cls = attribute_class(a->get());
  if (cls != H5T_FLOAT && cls != H5T_INTEGER)
    throw InputError(where + ": attribute " + name + " is not a number");
  double value = 0;
  if (H5Aread(a->get(), H5T_NATIVE_DOUBLE, &value) < 0)
    fail_input("cannot read attribute " + name + " of " + where);
  return value;
}

}  // namespace joco::tools
