#include "joco/data.h"

#include <cstring>
#include <new>
#include <string>

#include "joco/error.h"
#include "joco/log.h"
#include "solver/hessian_pattern.h"

namespace joco {

namespace {

constexpr size_t kAlignment = 64;

size_t align_up(size_t n) { return (n + kAlignment - 1) / kAlignment * kAlignment; }

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

Data::Data(const Model& m) : sizes_(m.sizes()) {
  nstack = m.nstack;
  allocate();
  reset_data(m, *this);
}

Data::Data(const Data& other) { *this = other; }

Data& Data::operator=(const Data& other) {
  if (this == &other) return *this;
  release();
  sizes_ = other.sizes_;
  static_cast<DataInfo&>(*this) = other;
  allocate();
  std::memcpy(buffer_, other.buffer_, buffer_bytes_);  // same sizes, same layout
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
  buffer_ = other.buffer_;
  buffer_bytes_ = other.buffer_bytes_;
  stack = other.stack;
  contact = other.contact;
  hessian_cache = other.hessian_cache;
#define JOCO_TAKE_ARRAY(type, name, rows, cols) \
  name = other.name;                            \
  other.name = nullptr;
  JOCO_DATA_ARRAYS(JOCO_TAKE_ARRAY)
#undef JOCO_TAKE_ARRAY
  other.buffer_ = nullptr;
  other.buffer_bytes_ = 0;
  other.stack = nullptr;
  other.contact = nullptr;
  other.hessian_cache = nullptr;
}

void Data::release() {
  if (buffer_) ::operator delete (buffer_, std::align_val_t{kAlignment});
  buffer_ = nullptr;
  buffer_bytes_ = 0;
}

void Data::allocate() {
  const std::vector<ArrayField> fields = data_array_fields(sizes_);
  std::vector<size_t> offsets;
  offsets.reserve(fields.size());
  size_t total = align_up(static_cast<size_t>(nstack) * sizeof(double));
  const size_t contact_offset = total;
  total += align_up(static_cast<size_t>(sizes_.nconmax) * sizeof(Contact));
  const size_t hessian_cache_offset = total;
  total += align_up(static_cast<size_t>(newton::hessian_cache_ints(sizes_)) * sizeof(int));
  for (const ArrayField& f : fields) {
    offsets.push_back(total);
    total += align_up(f.bytes());
  }
  buffer_bytes_ = total;
  buffer_ = ::operator new (total > 0 ? total : kAlignment, std::align_val_t{kAlignment});
  std::memset(buffer_, 0, total);
  char* base = static_cast<char*>(buffer_);
  stack = reinterpret_cast<double*>(base);
  contact = reinterpret_cast<Contact*>(base + contact_offset);
  hessian_cache = reinterpret_cast<int*>(base + hessian_cache_offset);
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

void reset_data(const Model& m, Data& d) {
  if (d.stack) std::memset(d.stack, 0, d.nbuffer());  // the stack starts the one buffer
  d.pstack = 0;
  d.maxuse_stack = 0;
  d.maxuse_con = 0;
  d.maxuse_efc = 0;
  for (WarningStat& w : d.warning) w = WarningStat{};
  for (TimerStat& t : d.timer) t = TimerStat{};
  for (SolverStat& s : d.solver) s = SolverStat{};
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
}

void reset_to_keyframe(const Model& m, Data& d, int key) {
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

void* StackFrame::take(int64_t bytes) {
  const int64_t doubles = (bytes + int64_t{sizeof(double)} - 1) / int64_t{sizeof(double)};
  if (doubles < 0 || d_.pstack + doubles > d_.nstack) {
    throw RuntimeError("the Data stack is too small: " + std::to_string(d_.nstack) +
                       " doubles, need " + std::to_string(d_.pstack + doubles) +
                       " (raise <size nstack=...> in the model)");
  }
  void* p = d_.stack + d_.pstack;
  d_.pstack += static_cast<int>(doubles);
  if (d_.pstack > d_.maxuse_stack) d_.maxuse_stack = d_.pstack;
  return p;
}

}  // namespace joco
