// The HDF5 plumbing under the trajectory reader and writer: handles that close themselves, errors
// that name the file and dataset (InputError for inputs, RuntimeError for outputs, with HDF5's own
// most specific reason), attributes, and typed reads and writes. Only the trajectory code includes
// this; the tools never touch HDF5.
#pragma once

#include <fmt/format.h>
#include <hdf5.h>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

namespace joco::tools {

// HDF5 prints its error stack to stderr by default; joco reports errors itself.
void silence_hdf5();

// The innermost description on HDF5's error stack (the most specific), and clears the stack.
std::string hdf5_detail();

// InputError (exit 3) / RuntimeError (exit 4) with `what` and hdf5_detail().
[[noreturn]] void fail_input(const std::string& what);
[[noreturn]] void fail_write(const std::string& what);

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

// A property list of a class; a dataspace of these dimensions (and maximum dimensions).
H5Handle plist(hid_t cls);
H5Handle simple_space(const std::vector<hsize_t>& dims, const std::vector<hsize_t>* max = nullptr);
// A variable-length UTF-8 string type.
H5Handle utf8_string_type();

// Object creation properties shared by groups and datasets: no modification times, so the same
// content gives the same bytes.
void untimed(hid_t ocpl);

// A group, and a contiguous dataset made whole (small, or with a zero dimension that HDF5 cannot
// chunk), both without modification times; RuntimeError "cannot create WHERE[/NAME]" on failure.
H5Handle create_group(hid_t parent, const std::string& name, const std::string& where);
H5Handle create_dataset(hid_t parent, const std::string& name, hid_t type,
                        const std::vector<hsize_t>& dims, const std::string& where);

// Scalar attributes of an object, replaced when present; RuntimeError naming `where` on failure.
void write_attribute(hid_t obj, const std::string& name, hid_t file_type, hid_t mem_type,
                     const void* value, const std::string& where);
void write_string_attribute(hid_t obj, const std::string& name, const std::string& value,
                            const std::string& where);
void write_int_attribute(hid_t obj, const std::string& name, int64_t value,
                         const std::string& where);
void write_u64_attribute(hid_t obj, const std::string& name, uint64_t value,
                         const std::string& where);
void write_double_attribute(hid_t obj, const std::string& name, double value,
                            const std::string& where);

// A one-dimensional float64 attribute, replaced when present.
void write_doubles_attribute(hid_t obj, const std::string& name, std::span<const double> values,
                             const std::string& where);

// Small contiguous one-dimensional datasets (the names and maps of /model).
void write_string_dataset(hid_t parent, const char* name, const std::vector<std::string>& values,
                          const std::string& where);
void write_int_dataset(hid_t parent, const char* name, const int* values, int n,
                       const std::string& where);

// Reads a string (variable or fixed length) from an attribute or dataset of `count` elements.
std::vector<std::string> read_strings(hid_t obj, bool is_attribute, size_t count,
                                      const std::string& where);

// Number of elements in an attribute's or dataset's dataspace.
size_t element_count(hid_t space);

// "(100, 8, 1)", "(100,)": a shape as numpy prints it, for messages.
std::string shape_text(const std::vector<hsize_t>& dims);

// Whether the bytes carry HDF5's signature where a superblock may start.
bool looks_like_hdf5(std::span<const uint8_t> bytes);

// Opens an HDF5 file image (the bytes of a whole file, as standard input gives them) read-only,
// in place: the library reads `bytes` without copying them and never frees them, so they must
// outlive the returned identifier. Negative when the library refuses it. `name` is the name the
// library gives the file ("file-image", say).
hid_t open_hdf5_image(std::span<const uint8_t> bytes, const char* name);

// Whether `name` (a path, from the file's root when it starts with '/') leads to an object of the
// given kind through links the library lists, each in the group before it: the reading process's
// walk (h5_guard.h) follows links as listed, so the readers open by name only what it has read.
bool has_object(hid_t parent, const std::string& name, H5I_type_t kind);
// The type of the object `name` leads to (H5I_GROUP, H5I_DATASET, ...; H5I_BADID when none),
// for a name just listed in `parent` (has_object would list the group again for every name).
H5I_type_t object_type(hid_t parent, const std::string& name);

// Reads a numeric dataset (or a row range of it) as doubles.
void read_doubles(hid_t dataset, const std::vector<hsize_t>& dims, size_t first, size_t count,
                  double* out, const std::string& where);

// An open numeric dataset of an input file, with its dimensions.
struct InputDataset {
  H5Handle dataset;
  std::vector<hsize_t> dims;
};

// Deflate's greatest compression ratio (zlib's documentation: 1032:1).
inline constexpr uint64_t kMaxCompressionRatio = 1032;

// Checks a dataset's claimed size against its file's before anything is allocated for it: its
// values (and one chunk of them) take no more bytes than the file holds, or kMaxCompressionRatio
// times that when stored through filters; values kept in other files (external storage, virtual
// datasets) are refused. InputError naming `where`: the file is damaged.
void check_claimed_size(hid_t dataset, hid_t type, const std::vector<hsize_t>& dims,
                        const std::string& where);

// Opens a dataset and checks that it holds numbers convertible to double, of a size its file can
// hold (check_claimed_size).
InputDataset open_numeric(hid_t parent, const std::string& name, const std::string& where);

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

// Whether obj has the attribute `name` among those the library lists for it (H5Aiterate2, by
// name): the readers open by name only attributes listed so, because the reading process's walk
// (h5_guard.h) reads an object's attributes as the library lists them. A damaged object header
// can list none while an open by name still finds one, which the library then read out of bounds
// (a SIGSEGV of joco-inverse, found by hdf5_trajectory_fuzz). InputError when the listing fails.
bool has_listed_attribute(hid_t obj, const std::string& name, const std::string& where);

// The attribute `name` of obj as a LooseAttribute.
LooseAttribute loose_attribute(hid_t obj, const std::string& name, const std::string& where);

// Opens an attribute if present; checks it holds one value.
std::optional<H5Handle> open_attribute(hid_t obj, const std::string& name,
                                       const std::string& where);
// The class (H5T_STRING, H5T_INTEGER, ...) of an attribute's type.
H5T_class_t attribute_class(hid_t a);

// One string, integer (unsigned 64-bit values keep their bits) or number of an attribute of obj;
// nullopt when absent, InputError when of another kind.
std::optional<std::string> read_string_attribute(hid_t obj, const std::string& name,
                                                 const std::string& where);
std::optional<int64_t> read_int_attribute(hid_t obj, const std::string& name,
                                          const std::string& where);
std::optional<double> read_double_attribute(hid_t obj, const std::string& name,
                                            const std::string& where);

}  // namespace joco::tools
