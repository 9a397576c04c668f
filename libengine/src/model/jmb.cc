#include "joco/jmb.h"

#include <cstring>
#include <limits>

#include "joco/error.h"
#include "joco/validate.h"

namespace joco {

namespace {

constexpr uint8_t kMagic[8] = {0x89, 'J', 'M', 'B', '\r', '\n', 0x1a, '\n'};
constexpr uint32_t kByteOrderMark = 0x01020304;
// MuJoCo's .mjb files start with this int.
constexpr int32_t kMjbId = 54321;
// Largest element count a .jmb may declare for one array: keeps arithmetic far from overflow.
constexpr int64_t kMaxElements = int64_t{1} << 40;

uint64_t fnv1a(const uint8_t* bytes, size_t n) {
  uint64_t h = 0xcbf29ce484222325ull;
  for (size_t i = 0; i < n; ++i) {
    h ^= bytes[i];
    h *= 0x100000001b3ull;
  }
  return h;
}

class Writer {
 public:
  template <class T>
  void put(const T& v) {
    raw(&v, sizeof(T));
  }
  void raw(const void* p, size_t n) {
    const auto* b = static_cast<const uint8_t*>(p);
    out.insert(out.end(), b, b + n);
  }
  void name(const std::string& s) {
    put(static_cast<uint8_t>(s.size()));
    raw(s.data(), s.size());
  }
  std::vector<uint8_t> out;
};

class Reader {
 public:
  Reader(std::span<const uint8_t> bytes, const std::string& source)
      : bytes_(bytes), source_(source) {}

  [[noreturn]] void fail(const std::string& what) const {
    throw InputError(source_ + ": " + what + " (at byte " + std::to_string(pos_) + ")");
  }
  void need(size_t n, const std::string& what) const {
    if (n > bytes_.size() - pos_) {
      fail("file is truncated: " + what + " needs " + std::to_string(n) + " bytes, " +
           std::to_string(bytes_.size() - pos_) + " left");
    }
  }
  template <class T>
  T get(const std::string& what) {
    need(sizeof(T), what);
    T v;
    std::memcpy(&v, bytes_.data() + pos_, sizeof(T));
    pos_ += sizeof(T);
    return v;
  }
  void copy(void* dst, size_t n, const std::string& what) {
    need(n, what);
    if (n) std::memcpy(dst, bytes_.data() + pos_, n);
    pos_ += n;
  }
  std::string name(const std::string& what) {
    const auto n = get<uint8_t>(what + " name length");
    need(n, what + " name");
    std::string s(reinterpret_cast<const char*>(bytes_.data() + pos_), n);
    pos_ += n;
    return s;
  }
  size_t pos() const { return pos_; }

 private:
  std::span<const uint8_t> bytes_;
  const std::string& source_;
  size_t pos_ = 0;
};

void write_body(const Model& m, Writer& w) {
  w.raw(kMagic, sizeof(kMagic));
  w.put(kJmbFormatVersion);
  w.put(kByteOrderMark);
  w.put(static_cast<uint8_t>(sizeof(double)));
  w.put(static_cast<uint8_t>(sizeof(float)));
  w.put(static_cast<uint8_t>(sizeof(int)));
  w.put(static_cast<uint8_t>(0));

  const auto sizes = m.size_list();
  w.put(static_cast<uint32_t>(sizes.size()));
  for (const auto& [name, value] : sizes) {
    w.name(name);
    w.put(static_cast<int32_t>(value));
  }
  const auto structs = m.struct_fields();
  w.put(static_cast<uint32_t>(structs.size()));
  for (const StructField& f : structs) {
    w.name(f.name);
    w.put(static_cast<uint8_t>(f.type));
    w.put(static_cast<uint32_t>(f.count));
    w.raw(f.data, scalar_size(f.type) * static_cast<size_t>(f.count));
  }
  const auto arrays = m.arrays();
  w.put(static_cast<uint32_t>(arrays.size()));
  for (const ArrayField& f : arrays) {
    w.name(f.name);
    w.put(static_cast<uint8_t>(f.type));
    w.put(f.rows);
    w.put(f.cols);
    w.raw(f.data, f.bytes());
  }
}

}  // namespace

std::vector<uint8_t> write_jmb(const Model& m) {
  Writer w;
  write_body(m, w);
  const uint64_t sum = fnv1a(w.out.data(), w.out.size());
  w.put(sum);
  return std::move(w.out);
}

uint64_t model_checksum(const Model& m) {
  Writer w;
  write_body(m, w);
  return fnv1a(w.out.data(), w.out.size());
}

uint64_t jmb_checksum(std::span<const uint8_t> body) { return fnv1a(body.data(), body.size()); }

bool looks_like_jmb(std::span<const uint8_t> bytes) {
  return bytes.size() >= sizeof(kMagic) && std::memcmp(bytes.data(), kMagic, sizeof(kMagic)) == 0;
}

bool looks_like_mjb(std::span<const uint8_t> bytes) {
  if (bytes.size() < sizeof(int32_t)) return false;
  int32_t id;
  std::memcpy(&id, bytes.data(), sizeof(id));
  return id == kMjbId;
}

Model read_jmb(std::span<const uint8_t> bytes, const std::string& source) {
  Reader r(bytes, source);
  if (looks_like_mjb(bytes)) {
    r.fail(
        "this is a MuJoCo binary model (.mjb), which joco does not read; compile the model's XML "
        "with joco-compile instead");
  }
  if (!looks_like_jmb(bytes)) {
    r.fail("not a joco binary model (.jmb): the file does not start with the .jmb magic bytes");
  }
  uint8_t magic[sizeof(kMagic)];
  r.copy(magic, sizeof(magic), "magic");
  const auto version = r.get<uint32_t>("format version");
  if (version != kJmbFormatVersion) {
    r.fail(".jmb format version " + std::to_string(version) +
           " is not supported (this joco reads " + std::to_string(kJmbFormatVersion) + ")");
  }
  const auto bom = r.get<uint32_t>("byte-order mark");
  if (bom != kByteOrderMark) {
    r.fail("the file was written on a machine of the other byte order");
  }
  const auto double_size = r.get<uint8_t>("double size");
  const auto float_size = r.get<uint8_t>("float size");
  const auto int_size = r.get<uint8_t>("int size");
  r.get<uint8_t>("reserved byte");
  if (double_size != sizeof(double) || float_size != sizeof(float) || int_size != sizeof(int)) {
    r.fail("scalar sizes (double " + std::to_string(double_size) + ", float " +
           std::to_string(float_size) + ", int " + std::to_string(int_size) +
           ") differ from this machine's");
  }
  // The checksum covers everything before it; check it before trusting any count.
  if (bytes.size() < r.pos() + sizeof(uint64_t)) r.fail("file is truncated: no checksum");
  const size_t body = bytes.size() - sizeof(uint64_t);
  uint64_t stored;
  std::memcpy(&stored, bytes.data() + body, sizeof(stored));
  if (fnv1a(bytes.data(), body) != stored) {
    r.fail("checksum mismatch: the file is corrupted or truncated");
  }

  ModelSizes sizes;
  const auto expected_sizes = sizes.size_list();
  const auto nsizes = r.get<uint32_t>("size count");
  if (nsizes != expected_sizes.size()) {
    r.fail("the file has " + std::to_string(nsizes) + " sizes, expected " +
           std::to_string(expected_sizes.size()));
  }
  for (const auto& [expected, unused] : expected_sizes) {
    const std::string name = r.name("size");
    if (name != expected)
      r.fail("expected size '" + std::string(expected) + "', found '" + name + "'");
    const auto value = r.get<int32_t>("size " + name);
    if (value < 0) r.fail("size " + name + " is negative (" + std::to_string(value) + ")");
    *sizes.size_by_name(name) = value;
  }

  // Check every array's declared shape against the sizes, and the total against the file, before
  // allocating anything.
  const std::vector<ArrayField> expected_arrays = sizes.array_fields();
  size_t array_bytes = 0;
  for (const ArrayField& f : expected_arrays) {
    if (f.rows < 0 || f.cols < 0 || f.rows > kMaxElements || f.cols > kMaxElements ||
        f.count() > kMaxElements) {
      r.fail("sizes give array " + std::string(f.name) + " an impossible shape " +
             std::to_string(f.rows) + " x " + std::to_string(f.cols));
    }
    array_bytes += f.bytes();
  }
  if (array_bytes > bytes.size()) {
    r.fail("sizes declare " + std::to_string(array_bytes) + " bytes of arrays but the file has " +
           std::to_string(bytes.size()));
  }

  Model m(sizes);
  const auto structs = m.struct_fields();
  const auto nstructs = r.get<uint32_t>("option field count");
  if (nstructs != structs.size()) {
    r.fail("the file has " + std::to_string(nstructs) + " option fields, expected " +
           std::to_string(structs.size()));
  }
  for (const StructField& f : structs) {
    const std::string name = r.name("option field");
    if (name != f.name) r.fail("expected option field '" + f.name + "', found '" + name + "'");
    const auto type = r.get<uint8_t>(name + " type");
    const auto count = r.get<uint32_t>(name + " count");
    if (type != static_cast<uint8_t>(f.type) || count != static_cast<uint32_t>(f.count)) {
      r.fail("option field " + name + " has the wrong type or count");
    }
    r.copy(f.data, scalar_size(f.type) * static_cast<size_t>(f.count), name);
  }

  const auto arrays = m.arrays();
  const auto narrays = r.get<uint32_t>("array count");
  if (narrays != arrays.size()) {
    r.fail("the file has " + std::to_string(narrays) + " arrays, expected " +
           std::to_string(arrays.size()));
  }
  for (const ArrayField& f : arrays) {
    const std::string name = r.name("array");
    if (name != f.name)
      r.fail("expected array '" + std::string(f.name) + "', found '" + name + "'");
    const auto type = r.get<uint8_t>(name + " type");
    const auto rows = r.get<int64_t>(name + " rows");
    const auto cols = r.get<int64_t>(name + " cols");
    if (type != static_cast<uint8_t>(f.type)) {
      r.fail("array " + name + " has element type code " + std::to_string(type) + ", expected " +
             scalar_type_name(f.type));
    }
    if (rows != f.rows || cols != f.cols) {
      r.fail("array " + name + " is " + std::to_string(rows) + " x " + std::to_string(cols) +
             " but the sizes make it " + std::to_string(f.rows) + " x " + std::to_string(f.cols));
    }
    r.copy(f.data, f.bytes(), "array " + name);
  }
  if (r.pos() != body) {
    r.fail(std::to_string(body - r.pos()) + " unexpected bytes after the last array");
  }
  validate_model(m, source);
  return m;
}

}  // namespace joco
