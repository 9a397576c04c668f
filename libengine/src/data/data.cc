#include "joco/data.h"

#include <sys/mman.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>
#include <string>
#include <string_view>

#include "data/hessian_cache.h"
#include "joco/error.h"
#include "joco/log.h"

namespace joco {

namespace {

constexpr size_t kAlignment = 64;
// Buffers of at least this many bytes are mapped with mmap (glibc's default mmap threshold).
constexpr size_t kMapFrom = size_t{128} << 10;

size_t align_up(size_t n) { return (n + kAlignment - 1) / kAlignment * kAlignment; }

int climb_start_slot_count(const ModelSizes& s) { return s.nmeshgraph > 0 ? kClimbStartSlots : 0; }

}  // namespace

std::vector<ArrayField> data_array_fields(const ModelSizes& s) {
#define JOCO_SIZE_LOCAL(name) [[maybe_unused]] const int name = s.name;
  JOCO_MODEL_SIZES(JOCO_SIZE_LOCAL)
#undef JOCO_SIZE_LOCAL
  std::vector<ArrayField> fields;
#define JOCO_LIST_ARRAY(type, name, rows, cols) \
  fields.push_back(                             \
      {#name, scalar_type_of<type>(), int64_t{rows}, int64_t{cols}, field_check::any, nullptr});
  JOCO_DATA_ARRAYS(JOCO_LIST_ARRAY)
#undef JOCO_LIST_ARRAY
  return fields;
}

DataBytes data_bytes(const ModelSizes& s) {
  DataBytes b;
  for (const ArrayField& f : data_array_fields(s)) {
    b.total += double(f.bytes());
    if (std::string_view(f.name).starts_with("efc_")) b.constraint_rows += double(f.bytes());
  }
  b.contacts = double(s.nconmax) * sizeof(Contact);
  b.stack = double(s.nstack) * sizeof(double);
  b.total += b.contacts + b.stack + double(newton::hessian_cache_ints(s)) * sizeof(int) +
             double(kSeparatingAxisSlots) * sizeof(SeparatingAxis) +
             double(climb_start_slot_count(s)) * sizeof(ClimbStarts);
  return b;
}

std::string DataBytes::describe(const ModelSizes& s) const {
  auto gib = [](double bytes) {
    char text[32];
    std::snprintf(text, sizeof(text), "%.1f GiB", bytes / double(1 << 30));
    return std::string(text);
  };
  return "a Data of " + gib(total) + " (njmax = " + std::to_string(s.njmax) + ": " +
         gib(constraint_rows) + " of constraint rows, nconmax = " + std::to_string(s.nconmax) +
         ": " + gib(contacts) + " of contacts, nstack = " + std::to_string(s.nstack) + ": " +
         gib(stack) + " of stack)";
}

void reset_state(const Model& m, Data& d) {
  check_data(m, d);
  d.pstack = 0;
  d.maxuse_stack = 0;
  d.maxuse_con = 0;
  d.maxuse_efc = 0;
  for (WarningStat& w : d.warning) w = WarningStat{};
  for (TimerStat& t : d.timer) t = TimerStat{};
  d.solver_iter = 0;
  d.solver_nnz = 0;
  d.solver_fwdinv[0] = d.solver_fwdinv[1] = 0;
  d.ne = d.nf = d.nefc = d.ncon = 0;
  d.time = 0;
  d.energy[0] = d.energy[1] = 0;

  std::memcpy(d.qpos, m.qpos0, sizeof(double) * static_cast<size_t>(m.nq));
  // Mocap bodies start where the model puts them.
  for (int b = 0; b < m.nbody; ++b) {
    const int id = m.body_mocapid[b];
    if (id < 0) continue;
    std::memcpy(d.mocap_pos + 3 * id, m.body_pos + 3 * b, 3 * sizeof(double));
    std::memcpy(d.mocap_quat + 4 * id, m.body_quat + 4 * b, 4 * sizeof(double));
  }
  // The rest of the state and inputs, and qacc (inverse's input); userdata is the user's.
  const auto zero = [](double* a, int n) {
    if (n > 0) std::memset(a, 0, sizeof(double) * static_cast<size_t>(n));
  };
  zero(d.qvel, m.nv);
  zero(d.act, m.na);
  zero(d.qacc_warmstart, m.nv);
  zero(d.ctrl, m.nu);
  zero(d.qfrc_applied, m.nv);
  zero(d.xfrc_applied, 6 * m.nbody);
  zero(d.qacc, m.nv);
  zero(d.userdata, m.nuserdata);
  // The Newton solver's cache, marked empty: its patterns are analysed again at the next solve.
  std::memset(d.hessian_cache, 0, sizeof(int) * newton::kHeaderInts);
  std::fill(d.separating_axes, d.separating_axes + kSeparatingAxisSlots, SeparatingAxis{});
  // The climb starts marked empty, a mark per slot (a pair taking a slot clears the rest of it).
  for (int i = 0; i < d.climb_start_slots; ++i) d.climb_starts[i].geom1 = -1;
}

Data::Data(const Model& m) : sizes_(m.sizes()) {
  nstack = m.nstack;
  allocate();
  reset_state(m, *this);
}

Data::Data(const Data& other) { *this = other; }

Data& Data::operator=(const Data& other) {
  if (this == &other) return *this;
  release();
  sizes_ = other.sizes_;
  static_cast<DataInfo&>(*this) = other;
  allocate();
  // Same sizes, same layout. The stack holds only temporaries of calls that have returned.
  std::memcpy(buffer_, other.buffer_, buffer_bytes_);
  return *this;
}

Data::Data(Data&& other) noexcept { take(other); }

Data& Data::operator=(Data&& other) noexcept {
  if (this != &other) {
    release();
    take(other);
  }
  return *this;
}

Data::~Data() { release(); }

void Data::take(Data& other) noexcept {
  // Pointers into the buffer stay valid when the buffer changes owner.
  static_cast<DataInfo&>(*this) = other;
  sizes_ = other.sizes_;
  allocation_ = other.allocation_;
  buffer_ = other.buffer_;
  buffer_bytes_ = other.buffer_bytes_;
  stack = other.stack;
  contact = other.contact;
  hessian_cache = other.hessian_cache;
  separating_axes = other.separating_axes;
  climb_starts = other.climb_starts;
  climb_start_slots = other.climb_start_slots;
#define JOCO_TAKE_ARRAY(type, name, rows, cols) \
  name = other.name;                            \
  other.name = nullptr;
  JOCO_DATA_ARRAYS(JOCO_TAKE_ARRAY)
#undef JOCO_TAKE_ARRAY
  other.allocation_ = nullptr;
  other.buffer_ = nullptr;
  other.buffer_bytes_ = 0;
  other.stack = nullptr;
  other.contact = nullptr;
  other.hessian_cache = nullptr;
  other.separating_axes = nullptr;
  other.climb_starts = nullptr;
  other.climb_start_slots = 0;
}

void Data::release() {
  if (allocation_) {
    const size_t mapped = *static_cast<size_t*>(allocation_);
    if (mapped != 0) {
      munmap(allocation_, mapped);
    } else {
      std::free(allocation_);
    }
  }
  allocation_ = nullptr;
  buffer_ = nullptr;
  buffer_bytes_ = 0;
  stack = nullptr;
}

void Data::allocate() {
  try {
    allocate_buffer();
  } catch (const std::bad_alloc&) {
    release();
    throw RuntimeError("out of memory: cannot allocate " + data_bytes(sizes_).describe(sizes_) +
                       "; lower njmax, nconmax or nstack in the model's <size> element");
  }
}

void Data::allocate_buffer() {
  const std::vector<ArrayField> fields = data_array_fields(sizes_);
  std::vector<size_t> offsets;
  offsets.reserve(fields.size());
  size_t total = 0;
  const size_t contact_offset = total;
  total += align_up(static_cast<size_t>(sizes_.nconmax) * sizeof(Contact));
  const size_t hessian_cache_offset = total;
  total += align_up(static_cast<size_t>(newton::hessian_cache_ints(sizes_)) * sizeof(int));
  const size_t separating_axes_offset = total;
  total += align_up(kSeparatingAxisSlots * sizeof(SeparatingAxis));
  const size_t climb_starts_offset = total;
  const int climb_slots = climb_start_slot_count(sizes_);
  total += align_up(static_cast<size_t>(climb_slots) * sizeof(ClimbStarts));
  for (const ArrayField& f : fields) {
    offsets.push_back(total);
    total += align_up(f.bytes());
  }
  buffer_bytes_ = total;
  // The stack comes last, outside what reset_data zeroes and copies copy. Zeros that cost nothing
  // until written: pages are mapped as a step reaches them (MuJoCo 2.2.2's default stack for
  // njmax 8000 is 320 million doubles, 2.6 GB, and its efc_AR 0.5 GB, of which a step with a few
  // contacts touches little). A large buffer is mapped directly rather than from calloc: once
  // the process has freed a larger block, glibc serves calloc from its heap and writes the zeros
  // itself, touching every page (the humanoid's 14 MB Data, twice its other memory).
  // The allocation starts with its length when mapped, 0 from calloc (for release), then the
  // buffer at the next aligned byte.
  const size_t bytes = total + static_cast<size_t>(nstack) * sizeof(double) + kAlignment;
  size_t mapped = 0;
  if (bytes >= kMapFrom) {
    void* p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) throw std::bad_alloc();
    allocation_ = p;
    mapped = bytes;
  } else {
    allocation_ = std::calloc(bytes, 1);
    if (!allocation_) throw std::bad_alloc();
  }
  *static_cast<size_t*>(allocation_) = mapped;
  const uintptr_t start = reinterpret_cast<uintptr_t>(allocation_) + sizeof(size_t);
  buffer_ = reinterpret_cast<void*>((start + kAlignment - 1) / kAlignment * kAlignment);
  char* base = static_cast<char*>(buffer_);
  stack = reinterpret_cast<double*>(base + total);
  contact = reinterpret_cast<Contact*>(base + contact_offset);
  hessian_cache = reinterpret_cast<int*>(base + hessian_cache_offset);
  separating_axes = reinterpret_cast<SeparatingAxis*>(base + separating_axes_offset);
  climb_starts = reinterpret_cast<ClimbStarts*>(base + climb_starts_offset);
  climb_start_slots = climb_slots;
  size_t index = 0;
#define JOCO_BIND_ARRAY(type, name, rows, cols) \
  name = reinterpret_cast<type*>(base + offsets[index++]);
  JOCO_DATA_ARRAYS(JOCO_BIND_ARRAY)
#undef JOCO_BIND_ARRAY
}

std::vector<ArrayField> Data::arrays() const {
  std::vector<ArrayField> fields = data_array_fields(sizes_);
  size_t index = 0;
#define JOCO_ARRAY_DATA(type, name, rows, cols) fields[index++].data = static_cast<void*>(name);
  JOCO_DATA_ARRAYS(JOCO_ARRAY_DATA)
#undef JOCO_ARRAY_DATA
  return fields;
}

Data make_data(const Model& m) { return Data(m); }

void check_data(const Model& m, const Data& d) {
  // The sizes are plain ints: one comparison of their bytes in the usual case.
  static_assert(sizeof(ModelSizes) % sizeof(int) == 0);
  const ModelSizes& made_for = d.sizes();
  if (std::memcmp(&made_for, &m.sizes(), sizeof(ModelSizes)) == 0) return;
  // The stack is the Data's own (nstack doubles, checked at each use); every other size is m's.
#define JOCO_CHECK_SIZE(name)                                                                     \
  if (made_for.name != m.name && std::string_view(#name) != "nstack") {                           \
    throw InputError("this Data was made for another model (" #name " = " +                       \
                     std::to_string(made_for.name) + ", the model has " #name " = " +             \
                     std::to_string(m.name) + "): make the Data from the model it is used with"); \
  }
  JOCO_MODEL_SIZES(JOCO_CHECK_SIZE)
#undef JOCO_CHECK_SIZE
}

void reset_data(const Model& m, Data& d) {
  check_data(m, d);
  // Every array and the contacts, which fill the buffer up to the stack; the stack is left as it
  // is, as mj_resetData leaves it: it holds no state.
  if (d.contact) std::memset(static_cast<void*>(d.contact), 0, d.nbuffer());
  for (SolverStat& s : d.solver) s = SolverStat{};
  reset_state(m, d);
}

void reset_to_keyframe(const Model& m, Data& d, int key) {
  check_data(m, d);
  if (key < 0 || key >= m.nkey) {
    throw InputError("keyframe " + std::to_string(key) + " does not exist: the model has " +
                     std::to_string(m.nkey) + " keyframes");
  }
  reset_data(m, d);
  auto copy = [](double* dst, const double* src, int n) {
    std::memcpy(dst, src, sizeof(double) * static_cast<size_t>(n));
  };
  d.time = m.key_time[key];
  copy(d.qpos, m.key_qpos + key * m.nq, m.nq);
  copy(d.qvel, m.key_qvel + key * m.nv, m.nv);
  copy(d.act, m.key_act + key * m.na, m.na);
  copy(d.ctrl, m.key_ctrl + key * m.nu, m.nu);
  copy(d.mocap_pos, m.key_mpos + key * 3 * m.nmocap, 3 * m.nmocap);
  copy(d.mocap_quat, m.key_mquat + key * 4 * m.nmocap, 4 * m.nmocap);
}

void raise_warning(Data& d, Warning warning, int info) {
  WarningStat& w = d.warning[warning];
  if (w.number == 0) log_first_warning(warning, info, d.time);
  w.lastinfo = info;
  ++w.number;
}

void StackFrame::overflow(int64_t doubles) const {
  throw RuntimeError("the Data stack is too small: " + std::to_string(d_.nstack) +
                     " doubles, need " + std::to_string(d_.pstack + doubles) +
                     " (raise <size nstack=...> in the model)");
}

}  // namespace joco
