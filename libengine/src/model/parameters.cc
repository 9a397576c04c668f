#include "joco/parameters.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstring>
#include <optional>
#include <string>

#include "compiler/set_const.h"
#include "joco/error.h"
#include "joco/validate.h"
#include "joco/keywords.h"

namespace joco {

namespace {

// What a valid value of a settable field is.
enum class Check {
  kFinite,    // any finite number
  kNonNeg,    // >= 0
  kPositive,  // > 0
  kRange,     // (lo, hi) with lo < hi where the element is limited, as the compiler checks it
  kInertia,   // >= 0 and A + B >= C (the compiler's triangle inequality)
  kCondim,    // 1, 3, 4 or 6
  kInt,       // a whole number
  kIntNonNeg  // a whole number >= 0
};

enum Flags : unsigned {
  kConstants = 1,    // recompute what the compiler derives from masses (recompute_constants)
  kLengthRange = 2,  // read by the compiler's actuator length-range simulation
};

struct Settable {
  const char* field;  // Model field, or "opt.NAME"
  ObjType type;       // what its elements are named by (kObjUnknown: an option)
  Check check;
  unsigned flags;
};

// The settable fields: plain values whose dependants are recomputed here (kConstants) or that
// nothing the compiler derives depends on. The length-range simulation (the compiler's, for
// actuators without a range) runs without contacts, passive forces, gravity, friction loss and
// actuation, so it reads the masses, the armature, the gears and the limits only.
constexpr Settable kSettable[] = {
    {"opt.timestep", kObjUnknown, Check::kPositive, 0},
    {"opt.apirate", kObjUnknown, Check::kFinite, 0},
    {"opt.impratio", kObjUnknown, Check::kPositive, 0},
    {"opt.tolerance", kObjUnknown, Check::kNonNeg, kLengthRange},
    {"opt.noslip_tolerance", kObjUnknown, Check::kNonNeg, kLengthRange},
    {"opt.mpr_tolerance", kObjUnknown, Check::kNonNeg, 0},
    {"opt.gravity", kObjUnknown, Check::kFinite, 0},
    {"opt.wind", kObjUnknown, Check::kFinite, 0},
    {"opt.magnetic", kObjUnknown, Check::kFinite, 0},
    {"opt.density", kObjUnknown, Check::kNonNeg, 0},
    {"opt.viscosity", kObjUnknown, Check::kNonNeg, 0},
    {"opt.o_margin", kObjUnknown, Check::kFinite, kLengthRange},
    {"opt.o_solref", kObjUnknown, Check::kFinite, kLengthRange},
    {"opt.o_solimp", kObjUnknown, Check::kFinite, kLengthRange},
    {"opt.integrator", kObjUnknown, Check::kInt, kLengthRange},
    {"opt.collision", kObjUnknown, Check::kInt, 0},
    {"opt.cone", kObjUnknown, Check::kInt, 0},
    {"opt.jacobian", kObjUnknown, Check::kInt, kLengthRange},
    {"opt.solver", kObjUnknown, Check::kInt, kLengthRange},
    {"opt.iterations", kObjUnknown, Check::kIntNonNeg, kLengthRange},
    {"opt.noslip_iterations", kObjUnknown, Check::kIntNonNeg, kLengthRange},
    {"opt.mpr_iterations", kObjUnknown, Check::kIntNonNeg, 0},
    {"opt.disableflags", kObjUnknown, Check::kIntNonNeg, kLengthRange},
    {"opt.enableflags", kObjUnknown, Check::kIntNonNeg, kLengthRange},
    {"body_mass", kObjBody, Check::kNonNeg, kConstants | kLengthRange},
    {"body_inertia", kObjBody, Check::kInertia, kConstants | kLengthRange},
    {"jnt_stiffness", kObjJoint, Check::kFinite, 0},
    {"jnt_range", kObjJoint, Check::kRange, kLengthRange},
    {"jnt_margin", kObjJoint, Check::kFinite, kLengthRange},
    {"jnt_solref", kObjJoint, Check::kFinite, kLengthRange},
    {"jnt_solimp", kObjJoint, Check::kFinite, kLengthRange},
    {"dof_damping", kObjDof, Check::kFinite, 0},
    {"dof_frictionloss", kObjDof, Check::kFinite, 0},
    {"dof_armature", kObjDof, Check::kNonNeg, kConstants | kLengthRange},
    {"dof_solref", kObjDof, Check::kFinite, 0},
    {"dof_solimp", kObjDof, Check::kFinite, 0},
    {"geom_friction", kObjGeom, Check::kFinite, 0},
    {"geom_solmix", kObjGeom, Check::kFinite, 0},
    {"geom_solref", kObjGeom, Check::kFinite, 0},
    {"geom_solimp", kObjGeom, Check::kFinite, 0},
    {"geom_margin", kObjGeom, Check::kFinite, 0},
    {"geom_gap", kObjGeom, Check::kFinite, 0},
    {"geom_condim", kObjGeom, Check::kCondim, 0},
    {"geom_priority", kObjGeom, Check::kInt, 0},
    {"geom_rgba", kObjGeom, Check::kFinite, 0},
    {"pair_friction", kObjPair, Check::kFinite, 0},
    {"pair_solref", kObjPair, Check::kFinite, 0},
    {"pair_solimp", kObjPair, Check::kFinite, 0},
    {"pair_margin", kObjPair, Check::kFinite, 0},
    {"pair_gap", kObjPair, Check::kFinite, 0},
    {"eq_solref", kObjEquality, Check::kFinite, 0},
    {"eq_solimp", kObjEquality, Check::kFinite, 0},
    {"tendon_stiffness", kObjTendon, Check::kFinite, 0},
    {"tendon_damping", kObjTendon, Check::kFinite, 0},
    {"tendon_frictionloss", kObjTendon, Check::kFinite, 0},
    {"tendon_lengthspring", kObjTendon, Check::kFinite, 0},
    {"tendon_range", kObjTendon, Check::kRange, kLengthRange},
    {"tendon_margin", kObjTendon, Check::kFinite, kLengthRange},
    {"tendon_solref_lim", kObjTendon, Check::kFinite, kLengthRange},
    {"tendon_solimp_lim", kObjTendon, Check::kFinite, kLengthRange},
    {"tendon_solref_fri", kObjTendon, Check::kFinite, 0},
    {"tendon_solimp_fri", kObjTendon, Check::kFinite, 0},
    {"actuator_gainprm", kObjActuator, Check::kFinite, 0},
    {"actuator_biasprm", kObjActuator, Check::kFinite, 0},
    {"actuator_dynprm", kObjActuator, Check::kFinite, 0},
    {"actuator_ctrlrange", kObjActuator, Check::kRange, 0},
    {"actuator_forcerange", kObjActuator, Check::kRange, 0},
    {"actuator_actrange", kObjActuator, Check::kRange, 0},
    {"actuator_gear", kObjActuator, Check::kFinite, kConstants | kLengthRange},
    {"actuator_lengthrange", kObjActuator, Check::kFinite, 0},
    {"sensor_noise", kObjSensor, Check::kNonNeg, 0},
    {"sensor_cutoff", kObjSensor, Check::kNonNeg, 0},
};

const Settable* settable(std::string_view field) {
  for (const Settable& s : kSettable) {
    if (field == s.field) return &s;
  }
  return nullptr;
}

const char* type_word(ObjType type) {
  switch (type) {
    case kObjBody: return "body";
    case kObjJoint: return "joint";
    case kObjDof: return "joint (its dofs) or dof index";
    case kObjGeom: return "geom";
    case kObjPair: return "pair";
    case kObjEquality: return "equality";
    case kObjTendon: return "tendon";
    case kObjActuator: return "actuator";
    case kObjSensor: return "sensor";
    default: return "";
  }
}

// Why a field of the Model that is not settable is refused.
std::string refusal(std::string_view field) {
  static constexpr const char* kDerived[] = {
      "body_subtreemass",  "body_invweight0", "dof_invweight0", "dof_M0",
      "tendon_invweight0", "tendon_length0",  "actuator_acc0",  "actuator_length0",
      "geom_rbound",       "cam_poscom0",     "cam_pos0",       "cam_mat0",
      "light_poscom0",     "light_pos0",      "light_dir0",     "dof_simplenum",
      "body_simple",       "body_sameframe",  "geom_sameframe", "site_sameframe"};
  for (const char* d : kDerived) {
    if (field == d) return "is derived by the compiler from other fields: set those instead";
  }
  static constexpr const char* kGeometry[] = {
      "qpos0",    "qpos_spring", "body_pos",  "body_quat", "body_ipos", "body_iquat", "jnt_pos",
      "jnt_axis", "geom_size",   "geom_pos",  "geom_quat", "site_pos",  "site_quat",  "eq_data",
      "cam_pos",  "cam_quat",    "light_pos", "light_dir", "geom_fluid"};
  for (const char* g : kGeometry) {
    if (field == g) {
      return "shapes or places the model at qpos0 (bounding spheres, inertia from geoms, frames "
             "and everything evaluated at qpos0 depend on it, and are not recomputed): change it "
             "in the model file";
    }
  }
  return "is part of the model's structure (sizes, ids, addresses, types, flags, names, assets) or "
         "has no physical effect to sweep: it cannot be set (joco-simulate(1) lists the fields "
         "that can)";
}

// An option field by its name "opt.NAME", from the Model's list of struct fields; nullopt when
// there is none.
std::optional<StructField> option_field(const Model& m, std::string_view name) {
  for (StructField& f : m.struct_fields()) {
    if (f.name == name) return f;
  }
  return std::nullopt;
}

[[noreturn]] void fail(const std::string& name, const std::string& what) {
  throw InputError(name + ": " + what);
}

bool all_digits(std::string_view s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// The element `text` of an object type: a name, else an index in [0, count).
int find_element(const Model& m, ObjType type, std::string_view text, int count,
                 const std::string& name) {
  const int id = m.name_to_id(type, text);
  if (id >= 0) return id;
  if (all_digits(text) && text.size() < 10) {
    const int index = std::stoi(std::string(text));
    if (index < count) return index;
    fail(name, "index " + std::string(text) + " is out of range: the model has " +
                   std::to_string(count) + " elements of this field");
  }
  fail(name,
       std::string("the model has no ") + type_word(type) + " named '" + std::string(text) + "'");
}

}  // namespace

ModelParameter find_parameter(const Model& m, std::string_view name_view) {
  const std::string name(name_view);
  ModelParameter p;
  p.name = name;
  if (name.starts_with("opt.")) {
    const std::optional<StructField> f = option_field(m, name);
    if (!f) fail(name, "no such option (MuJoCo's mjOption names: opt.timestep, opt.gravity, ...)");
    if (!settable(name)) fail(name, "cannot be set");
    p.field = name;
    p.type = f->type;
    p.count = f->count;
    return p;
  }
  const size_t open = name.find('[');
  const std::string field = name.substr(0, open);
  p.field = field;
  const std::vector<ArrayField> arrays = m.arrays();
  const auto array = std::find_if(arrays.begin(), arrays.end(),
                                  [&](const ArrayField& a) { return field == a.name; });
  if (array == arrays.end()) {
    ModelSizes sizes;
    if (sizes.size_by_name(field))
      fail(field, "is a size (it shapes the model's arrays): it cannot be set");
    fail(field,
         "no such Model field (MuJoCo's mjModel names: body_mass, geom_friction, "
         "dof_damping, ...; options as opt.NAME)");
  }
  const Settable* s = settable(field);
  if (!s) fail(field, refusal(field));
  if (open == std::string::npos || name.back() != ']' || name.size() < open + 3) {
    fail(name, std::string("needs an element: ") + field + "[NAME] or " + field +
                   "[INDEX], NAME a " + type_word(s->type));
  }
  const std::string_view element = name_view.substr(open + 1, name.size() - open - 2);
  p.type = array->type;
  const int cols = static_cast<int>(array->cols);
  if (s->type == kObjDof) {
    // A joint's name means its dofs; an index is a dof.
    const int joint = m.name_to_id(kObjJoint, element);
    if (joint >= 0) {
      p.element = joint;
      p.offset = int64_t{m.jnt_dofadr[joint]} * cols;
      p.count = joint_nv(m.jnt_type[joint]) * cols;
      return p;
    }
    if (!all_digits(element))
      fail(name, "the model has no joint named '" + std::string(element) + "'");
  }
  const int id = find_element(m, s->type, element, static_cast<int>(array->rows), name);
  p.element = id;
  p.offset = int64_t{id} * cols;
  p.count = cols;
  if (p.count == 0) fail(name, "has no values in this model");
  return p;
}

std::vector<double> parse_parameter_values(const ModelParameter& p, std::string_view text) {
  std::vector<double> values;
  size_t i = 0;
  while (i < text.size()) {
    while (i < text.size() && (text[i] == ' ' || text[i] == ',' || text[i] == '\t')) ++i;
    if (i == text.size()) break;
    size_t end = i;
    while (end < text.size() && text[end] != ' ' && text[end] != ',' && text[end] != '\t') ++end;
    const std::string token(text.substr(i, end - i));
    double v = 0;
    const auto [ptr, ec] = std::from_chars(token.data(), token.data() + token.size(), v);
    if (ec != std::errc() || ptr != token.data() + token.size()) {
      // An enumerated option takes MJCF's keyword as well as its code.
      const std::span<const Keyword> keywords =
          option_keywords(p.field.starts_with("opt.") ? std::string_view(p.field).substr(4) : "");
      const auto k = std::find_if(keywords.begin(), keywords.end(),
                                  [&](const Keyword& w) { return token == w.first; });
      if (k == keywords.end()) {
        std::string list;
        for (const Keyword& w : keywords) list += std::string(list.empty() ? "" : ", ") + w.first;
        fail(p.name,
             "'" + token + "' is not a number" + (list.empty() ? "" : " or one of " + list));
      }
      v = k->second;
    }
    values.push_back(v);
    i = end;
  }
  if (static_cast<int>(values.size()) != p.count) {
    fail(p.name, std::to_string(values.size()) + " value" + (values.size() == 1 ? "" : "s") +
                     " given, " + std::to_string(p.count) + " expected");
  }
  return values;
}

ParameterValue parse_parameter_assignment(const Model& m, std::string_view assignment) {
  const size_t eq = assignment.find('=');
  if (eq == std::string_view::npos)
    fail(std::string(assignment), "expected NAME=VALUES, e.g. body_mass[torso]=5");
  ParameterValue v;
  v.parameter = find_parameter(m, assignment.substr(0, eq));
  v.values = parse_parameter_values(v.parameter, assignment.substr(eq + 1));
  return v;
}

namespace {

// The values as the compiler would accept them (those that need the element alone).
void check_values(const Model& m, const ModelParameter& p, const Settable& s,
                  std::span<const double> values) {
  for (double v : values) {
    if (!std::isfinite(v)) fail(p.name, "values must be finite");
    const bool whole = v == std::floor(v) && std::abs(v) < 2147483648.0;
    switch (s.check) {
      case Check::kNonNeg:
        if (v < 0) fail(p.name, "cannot be negative");
        break;
      case Check::kPositive:
        if (!(v > 0)) fail(p.name, "must be positive");
        break;
      case Check::kInertia:
        if (v < 0) fail(p.name, "inertia cannot be negative");
        break;
      case Check::kCondim:
        if (v != 1 && v != 3 && v != 4 && v != 6) fail(p.name, "condim must be 1, 3, 4 or 6");
        break;
      case Check::kInt:
      case Check::kIntNonNeg:
        if (!whole) fail(p.name, "must be a whole number");
        if (s.check == Check::kIntNonNeg && v < 0) fail(p.name, "cannot be negative");
        break;
      default: break;
    }
  }
  if (s.check == Check::kInertia) {
    const double a = values[0], b = values[1], c = values[2];
    if (!(a + b >= c && a + c >= b && b + c >= a)) fail(p.name, "inertia must satisfy A + B >= C");
  }
  if (s.check == Check::kRange) {
    const std::string_view f = p.field;
    const int e = p.element;
    const bool limited = f == "jnt_range"             ? m.jnt_limited[e]
                         : f == "tendon_range"        ? m.tendon_limited[e]
                         : f == "actuator_ctrlrange"  ? m.actuator_ctrllimited[e]
                         : f == "actuator_forcerange" ? m.actuator_forcelimited[e]
                                                      : m.actuator_actlimited[e];
    const bool ball = f == "jnt_range" && m.jnt_type[e] == kJointBall;
    if (limited && ball && values[0] != 0) fail(p.name, "a ball joint's range[0] must be 0");
    if (limited && !ball && !(values[0] < values[1]))
      fail(p.name, "range[0] must be smaller than range[1]");
  }
}

// A moving body with the bodies welded to it must keep a positive mass and inertia, as the
// compiler requires.
void check_moving_masses(const Model& m, const std::string& source) {
  for (int b = 1; b < m.nbody; ++b) {
    if (m.body_weldid[b] != b) continue;
    double mass = 0, inertia[3] = {0, 0, 0};
    for (int c = b; c < m.nbody; ++c) {
      if (m.body_weldid[c] != b) continue;
      mass += m.body_mass[c];
      for (int k = 0; k < 3; ++k) inertia[k] += m.body_inertia[3 * c + k];
    }
    if (mass < kMinVal || inertia[0] < kMinVal || inertia[1] < kMinVal || inertia[2] < kMinVal) {
      const std::string_view body = m.name(kObjBody, b);
      throw InputError(source + "body " + (body.empty() ? std::to_string(b) : std::string(body)) +
                       ": mass and inertia of moving bodies must be positive");
    }
  }
}

// Where p's values are in m, and their bytes.
std::span<char> value_bytes(Model& m, const ModelParameter& p) {
  void* data = nullptr;
  if (p.element < 0) {
    data = option_field(m, p.field)->data;
  } else {
    for (const ArrayField& a : m.arrays()) {
      if (p.field == a.name) data = a.data;
    }
  }
  const size_t size = scalar_size(p.type);
  return {static_cast<char*>(data) + static_cast<size_t>(p.offset) * size,
          static_cast<size_t>(p.count) * size};
}

void write_values(std::span<char> bytes, const ModelParameter& p, std::span<const double> values) {
  for (int i = 0; i < p.count; ++i) {
    const double v = values[static_cast<size_t>(i)];
    switch (p.type) {
      case ScalarType::kFloat64: reinterpret_cast<double*>(bytes.data())[i] = v; break;
      case ScalarType::kFloat32:
        reinterpret_cast<float*>(bytes.data())[i] = static_cast<float>(v);
        break;
      case ScalarType::kInt32: reinterpret_cast<int*>(bytes.data())[i] = static_cast<int>(v); break;
      default: throw std::logic_error("parameter of an unsettable type");
    }
  }
}

// Whether the compiler may have found an actuator's length range by simulating (MuJoCo's
// <compiler><lengthrange>): any actuator with a range. Ranges given in the XML cannot be told from
// simulated ones, so both count.
bool has_length_ranges(const Model& m) {
  for (int i = 0; i < m.nu; ++i) {
    if (m.actuator_lengthrange[2 * i] < m.actuator_lengthrange[2 * i + 1]) return true;
  }
  return false;
}

}  // namespace

namespace {

// The previous bytes of values written into a model, put back unless kept: the model is changed
// in place (no copy of its arrays, textures and meshes included) and left as it was on error.
class Restore {
 public:
  ~Restore() {
    for (auto it = saved_.rbegin(); it != saved_.rend(); ++it)
      std::copy(it->second.begin(), it->second.end(), it->first.data());
  }
  void save(std::span<char> bytes) {
    saved_.emplace_back(bytes, std::vector<char>(bytes.begin(), bytes.end()));
  }
  void keep() { saved_.clear(); }

 private:
  std::vector<std::pair<std::span<char>, std::vector<char>>> saved_;
};

// Writes the values into m and checks them (restored by `restore` unless kept); returns the union
// of the fields' flags.
unsigned write_checked(Model& m, std::span<const ParameterValue> values, const std::string& source,
                       Restore& restore) {
  const std::string prefix = source.empty() ? "" : source + ": ";
  const bool length_ranges = has_length_ranges(m);
  unsigned flags = 0;
  for (const ParameterValue& v : values) {
    const ModelParameter& p = v.parameter;
    const Settable* s = settable(p.field);
    if (!s) fail(prefix + p.name, "cannot be set");
    if (static_cast<int>(v.values.size()) != p.count) {
      fail(prefix + p.name, std::to_string(v.values.size()) + " values given, " +
                                std::to_string(p.count) + " expected");
    }
    if ((s->flags & kLengthRange) && length_ranges) {
      fail(prefix + p.name,
           "the model has actuators with a length range, which the compiler may have found by "
           "a simulation that reads this field and which is not recomputed: change it in the "
           "model file");
    }
    try {
      check_values(m, p, *s, v.values);
    } catch (const InputError& e) {
      throw InputError(prefix + e.what());
    }
    const std::span<char> bytes = value_bytes(m, p);
    restore.save(bytes);
    write_values(bytes, p, v.values);
    flags |= s->flags;
  }
  if (flags & kConstants) check_moving_masses(m, prefix);
  validate_model(m, source.empty() ? "parameters" : source);
  return flags;
}

}  // namespace

void check_parameters(Model& m, std::span<const ParameterValue> values, const std::string& source) {
  Restore restore;
  (void)write_checked(m, values, source, restore);
}

void set_parameters(Model& m, std::span<const ParameterValue> values, const std::string& source) {
  // Which mass statistics the compiler derived, told before the masses change.
  const compiler::DerivedStatistics derived = compiler::derived_statistics(m);
  Restore restore;
  const unsigned flags = write_checked(m, values, source, restore);
  if (flags & kConstants) compiler::recompute_constants(m, derived);
  restore.keep();
}

std::vector<SettableField> settable_fields() {
  std::vector<SettableField> out;
  for (const Settable& s : kSettable) {
    out.push_back({s.field, type_word(s.type),
                   (s.flags & kConstants) ? "subtree masses, dof_M0, inverse weights, "
                                            "actuator_length0/acc0, mass statistics"
                                          : ""});
  }
  return out;
}

}  // namespace joco
