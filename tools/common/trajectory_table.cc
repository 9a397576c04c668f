#include "common/trajectory_table.h"

#include <algorithm>
#include <array>

namespace joco::tools {

namespace {

constexpr std::array<FieldInfo, kFieldCount> kFields = {{
#define JOCO_FIELD_INFO(id, name, width, stored, role, data) \
  {Field::id,                                                \
   #name,                                                    \
   FieldWidth::width,                                        \
   Stored::stored,                                           \
   Stored::stored == Stored::kInt32,                         \
   FieldRole::role == FieldRole::kInput,                     \
   FieldRole::role != FieldRole::kOutput},
    JOCO_TRAJECTORY_FIELDS(JOCO_FIELD_INFO)
#undef JOCO_FIELD_INFO
}};

// The fields a Data does not hold (the last column of the table).
struct NotInData {};
constexpr NotInData kNotInData;

const double* row_of(const double* values, double&) { return values; }
const double* row_of(double value, double& scalar) {
  scalar = value;
  return &scalar;
}
const double* row_of(int value, double& scalar) {
  scalar = value;
  return &scalar;
}
const double* row_of(NotInData, double&) { return nullptr; }

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
  // field_row_shape's product, without its vector: called for every row appended.
  auto n = [](int v) { return static_cast<size_t>(std::max(v, 0)); };
  switch (field_info(f).width) {
    case FieldWidth::kScalar: return 1;
    case FieldWidth::kNq: return n(s.nq);
    case FieldWidth::kNv: return n(s.nv);
    case FieldWidth::kNa: return n(s.na);
    case FieldWidth::kNu: return n(s.nu);
    case FieldWidth::kNsensordata: return n(s.nsensordata);
    case FieldWidth::kNbody6: return 6 * n(s.nbody);
    case FieldWidth::kTwo: return 2;
  }
  return 1;
}

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

const double* field_row(const Data& d, Field f, double& scalar) {
  switch (f) {
#define JOCO_FIELD_ROW(id, name, width, stored, role, data) \
  case Field::id: return row_of(data, scalar);
    JOCO_TRAJECTORY_FIELDS(JOCO_FIELD_ROW)
#undef JOCO_FIELD_ROW
  }
  return nullptr;
}

std::span<const Field> row_fields(TrajectoryUse use) {
  static constexpr Field kStates[] = {Field::kQpos};
  static constexpr Field kControls[] = {Field::kCtrl, Field::kQfrcApplied, Field::kXfrcApplied,
                                        Field::kQpos};
  if (use == TrajectoryUse::kControls) return kControls;
  return kStates;
}

bool read_for(Field f, TrajectoryUse use) {
  if (use == TrajectoryUse::kControls)
    return f == Field::kCtrl || f == Field::kQfrcApplied || f == Field::kXfrcApplied;
  return field_info(f).read;
}

}  // namespace joco::tools
