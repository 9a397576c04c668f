#include "simulate/record.h"

#include <algorithm>
#include <sstream>

#include "common/tool.h"
#include "joco/state.h"

namespace joco::tools {

namespace {

// Where a Data holds each array of data_fields.h, in table order (data_array_fields' order).
struct DataArrayAccess {
  const char* name;
  double* Data::*doubles;
  int* Data::*ints;
};
constexpr DataArrayAccess access(const char* name, double* Data::*p) { return {name, p, nullptr}; }
constexpr DataArrayAccess access(const char* name, int* Data::*p) { return {name, nullptr, p}; }
constexpr DataArrayAccess kDataArrays[] = {
#define JOCO_DATA_ACCESS(type, name, rows, cols) access(#name, &Data::name),
    JOCO_DATA_ARRAYS(JOCO_DATA_ACCESS)
#undef JOCO_DATA_ACCESS
};

// The trajectory fields a Data does not hold (joco-inverse's estimates and flags) cannot be
// recorded.
bool recordable(Field f) {
  return f != Field::kCtrlEstimate && f != Field::kCtrlResidual && f != Field::kInverseFlags;
}

constexpr const char* kEnergy = "energy";  // Data::energy: potential, kinetic

}  // namespace

ForwardInputs::ForwardInputs(const Model& m)
    : qpos(static_cast<size_t>(m.nq)), warmstart(static_cast<size_t>(m.nv)) {}

void ForwardInputs::save(const Model& m, const Data& d) {
  get_state(m, d, qpos.data(), kStateQpos);
  get_state(m, d, warmstart.data(), kStateWarmstart);
}

std::vector<std::string> Recorder::valid_names() {
  std::vector<std::string> names;
  for (const FieldInfo& info : field_table()) {
    if (recordable(info.field)) names.emplace_back(info.name);
  }
  for (const DataArrayAccess& a : kDataArrays) {
    if (!field_by_name(a.name)) names.emplace_back(a.name);
  }
  names.emplace_back(kEnergy);
  return names;
}

void Recorder::add(const std::string& name, const Model& m, bool applied_forces) {
  if (name == "default") {
    for (const RecordedArray& a : defaults(m, applied_forces).arrays_) add(a.name, m, false);
    return;
  }
  for (const RecordedArray& a : arrays_) {
    if (a.name == name) return;
  }
  RecordedArray a;
  a.name = name;
  if (const std::optional<Field> f = field_by_name(name); f && recordable(*f)) {
    a.is_field = true;
    a.field = *f;
    a.row_shape = field_row_shape(*f, m.sizes());
  } else if (name == kEnergy) {
    a.row_shape = {2};
  } else {
    const std::vector<ArrayField> fields = data_array_fields(m.sizes());
    for (size_t i = 0; i < fields.size(); ++i) {
      if (name != fields[i].name) continue;
      a.data_index = static_cast<int>(i);
      a.row_shape = {static_cast<size_t>(fields[i].rows)};
      if (fields[i].cols != 1) a.row_shape.push_back(static_cast<size_t>(fields[i].cols));
    }
    if (a.data_index < 0) {
      std::ostringstream valid;
      for (const std::string& n : valid_names()) valid << (valid.tellp() ? ", " : "") << n;
      throw UsageError("--record " + name + ": no Data array of that name; valid names: default, " +
                       valid.str());
    }
  }
  a.row_size = 1;
  for (size_t s : a.row_shape) a.row_size *= s;
  arrays_.push_back(std::move(a));
}

Recorder Recorder::defaults(const Model& m, bool applied_forces) {
  std::vector<Field> f = {Field::kTime, Field::kQpos, Field::kQvel};
  if (m.na) f.push_back(Field::kAct);
  if (m.nu) f.push_back(Field::kCtrl);
  f.push_back(Field::kQacc);
  f.push_back(Field::kQaccWarmstart);
  if (m.nsensordata) f.push_back(Field::kSensordata);
  if (applied_forces) {
    f.push_back(Field::kQfrcApplied);
    f.push_back(Field::kXfrcApplied);
  }
  for (Field x : {Field::kQfrcActuator, Field::kQfrcConstraint, Field::kQfrcBias, Field::kNcon,
                  Field::kNefc, Field::kSolverNiter}) {
    f.push_back(x);
  }
  Recorder r;
  for (Field x : f) r.add(field_info(x).name, m, applied_forces);
  return r;
}

Recorder Recorder::parse(const std::string& list, const Model& m, bool applied_forces) {
  Recorder r;
  r.add(field_info(Field::kTime).name, m, applied_forces);
  r.add(field_info(Field::kQpos).name, m, applied_forces);
  std::istringstream in(list);
  for (std::string name; std::getline(in, name, ',');) {
    name.erase(0, name.find_first_not_of(" \t"));
    name.erase(name.find_last_not_of(" \t") + 1);
    if (name.empty()) throw UsageError("--record " + list + ": an empty name");
    r.add(name, m, applied_forces);
  }
  return r;
}

size_t Recorder::widest() const {
  size_t widest = 0;
  for (const RecordedArray& a : arrays_) widest = std::max(widest, a.row_size);
  return widest;
}

void Recorder::row(size_t i, const Data& d, const ForwardInputs& before, double* out) const {
  const RecordedArray& a = arrays_[i];
  if (a.is_field) {
    if (a.field == Field::kQpos) {
      std::copy(before.qpos.begin(), before.qpos.end(), out);
    } else if (a.field == Field::kQaccWarmstart) {
      std::copy(before.warmstart.begin(), before.warmstart.end(), out);
    } else {
      double scalar;
      const double* in_data = field_row(d, a.field, scalar);
      if (in_data) std::copy_n(in_data, a.row_size, out);
    }
  } else if (a.data_index < 0) {
    std::copy_n(d.energy, 2, out);
  } else {
    const DataArrayAccess& access = kDataArrays[a.data_index];
    if (access.doubles) {
      std::copy_n(d.*access.doubles, a.row_size, out);
    } else {
      std::copy_n(d.*access.ints, a.row_size, out);  // integers, stored as float64
    }
  }
}

void Recorder::append(size_t i, TrajectoryWriter& w, std::span<const double> values,
                      size_t rows) const {
  const RecordedArray& a = arrays_[i];
  if (a.is_field) {
    w.append(a.field, values, rows);
  } else {
    w.append_extra(a.name, a.row_shape, values, rows);
  }
}

void Recorder::append_row(const Data& d, const ForwardInputs& before, TrajectoryWriter& w,
                          std::vector<double>& scratch) const {
  for (size_t i = 0; i < arrays_.size(); ++i) {
    row(i, d, before, scratch.data());
    append(i, w, std::span<const double>(scratch.data(), arrays_[i].row_size), 1);
  }
}

}  // namespace joco::tools
