#include "joco/model.h"

#include <cstring>
#include <new>

#include "data/zeroed_memory.h"

namespace joco {

namespace {

constexpr size_t kArrayAlignment = kZeroedAlignment;

size_t align_up(size_t n) { return (n + kArrayAlignment - 1) / kArrayAlignment * kArrayAlignment; }

}  // namespace

size_t scalar_size(ScalarType type) {
  switch (type) {
    case ScalarType::kFloat64: return 8;
    case ScalarType::kFloat32: return 4;
    case ScalarType::kInt32: return 4;
    case ScalarType::kUInt8: return 1;
    case ScalarType::kChar: return 1;
  }
  return 0;
}

const char* scalar_type_name(ScalarType type) {
  switch (type) {
    case ScalarType::kFloat64: return "float64";
    case ScalarType::kFloat32: return "float32";
    case ScalarType::kInt32: return "int32";
    case ScalarType::kUInt8: return "uint8";
    case ScalarType::kChar: return "char";
  }
  return "unknown";
}

bool FieldCheck::accepts(int64_t v) const {
  switch (kind) {
    case kAny: return true;
    case kFlag: return v == 0 || v == 1;
    case kNonNeg: return v >= 0;
    case kId: return v >= 0 && v < bound;
    case kIdOrNone: return v >= -1 && v < bound;
    case kAdr: return v >= 0 && v <= bound;
    case kAdrOrNone: return v >= -1 && v <= bound;
    case kEnum: return v >= lo && v <= bound;
  }
  return false;
}

std::string FieldCheck::describe() const {
  switch (kind) {
    case kAny: return "any value";
    case kFlag: return "0 or 1";
    case kNonNeg: return ">= 0";
    case kId: return "in [0, " + std::to_string(bound) + ")";
    case kIdOrNone: return "in [-1, " + std::to_string(bound) + ")";
    case kAdr: return "in [0, " + std::to_string(bound) + "]";
    case kAdrOrNone: return "in [-1, " + std::to_string(bound) + "]";
    case kEnum: return "in [" + std::to_string(lo) + ", " + std::to_string(bound) + "]";
  }
  return "";
}

double ArrayField::value(int64_t i) const {
  switch (type) {
    case ScalarType::kFloat64: return static_cast<const double*>(data)[i];
    case ScalarType::kFloat32: return static_cast<const float*>(data)[i];
    case ScalarType::kInt32: return static_cast<const int*>(data)[i];
    case ScalarType::kUInt8: return static_cast<const uint8_t*>(data)[i];
    case ScalarType::kChar: return static_cast<const char*>(data)[i];
  }
  return 0;
}

int64_t ArrayField::int_value(int64_t i) const {
  switch (type) {
    case ScalarType::kInt32: return static_cast<const int*>(data)[i];
    case ScalarType::kUInt8: return static_cast<const uint8_t*>(data)[i];
    case ScalarType::kChar: return static_cast<const char*>(data)[i];
    default: return static_cast<int64_t>(value(i));
  }
}

namespace {

// The table's shape and check expressions name the sizes, so they are evaluated where each size is
// a local variable of that name (a free function: members would be shadowed), as int64_t so that
// shapes such as 3 * nmeshgraph of a hostile .jmb's sizes do not overflow before they are checked.
std::vector<ArrayField> list_model_arrays(const ModelSizes& s) {
#define JOCO_SIZE_LOCAL(name) [[maybe_unused]] const int64_t name = s.name;  // products of sizes fit
  JOCO_MODEL_SIZES(JOCO_SIZE_LOCAL)
#undef JOCO_SIZE_LOCAL
  using namespace field_check;
  std::vector<ArrayField> fields;
#define JOCO_LIST_ARRAY(type, name, rows, cols, check) \
  fields.push_back({#name, scalar_type_of<type>(), int64_t{rows}, int64_t{cols}, check, nullptr});
  JOCO_MODEL_ARRAYS(JOCO_LIST_ARRAY)
#undef JOCO_LIST_ARRAY
  return fields;
}

}  // namespace

std::vector<ArrayField> ModelSizes::array_fields() const { return list_model_arrays(*this); }

std::vector<std::pair<const char*, int>> ModelSizes::size_list() const {
  std::vector<std::pair<const char*, int>> sizes;
#define JOCO_LIST_SIZE(name) sizes.emplace_back(#name, name);
  JOCO_MODEL_SIZES(JOCO_LIST_SIZE)
#undef JOCO_LIST_SIZE
  return sizes;
}

int* ModelSizes::size_by_name(std::string_view wanted) {
#define JOCO_FIND_SIZE(name) \
  if (wanted == #name) return &name;
  JOCO_MODEL_SIZES(JOCO_FIND_SIZE)
#undef JOCO_FIND_SIZE
  return nullptr;
}

Option default_option() {
  Option o;
  o.timestep = 0.002;
  o.apirate = 100;
  o.impratio = 1;
  o.tolerance = 1e-8;
  o.noslip_tolerance = 1e-6;
  o.mpr_tolerance = 1e-6;
  o.gravity[2] = -9.81;
  o.magnetic[1] = -0.5;
  o.o_solref[0] = 0.02;
  o.o_solref[1] = 1;
  const double solimp[kNIMP] = {0.9, 0.95, 0.001, 0.5, 2};
  std::memcpy(o.o_solimp, solimp, sizeof(solimp));
  o.integrator = kIntEuler;
  o.collision = kCollisionAll;
  o.cone = kConePyramidal;
  o.jacobian = kJacAuto;
  o.solver = kSolverNewton;
  o.iterations = 100;
  o.noslip_iterations = 0;
  o.mpr_iterations = 50;
  return o;
}

namespace {
void set3(float* dst, float a, float b, float c) {
  dst[0] = a;
  dst[1] = b;
  dst[2] = c;
}
void set4(float* dst, float a, float b, float c, float d) {
  set3(dst, a, b, c);
  dst[3] = d;
}
}  // namespace

Visual default_visual() {
  Visual v;
  v.global.fovy = 45;
  v.global.ipd = 0.068f;
  v.global.azimuth = 90;
  v.global.elevation = -45;
  v.global.linewidth = 1;
  v.global.glow = 0.3f;
  v.global.offwidth = 640;
  v.global.offheight = 480;
  v.quality.shadowsize = 4096;
  v.quality.offsamples = 4;
  v.quality.numslices = 28;
  v.quality.numstacks = 16;
  v.quality.numquads = 4;
  set3(v.headlight.ambient, 0.1f, 0.1f, 0.1f);
  set3(v.headlight.diffuse, 0.4f, 0.4f, 0.4f);
  set3(v.headlight.specular, 0.5f, 0.5f, 0.5f);
  v.headlight.active = 1;
  v.map.stiffness = 100;
  v.map.stiffnessrot = 500;
  v.map.force = 0.005f;
  v.map.torque = 0.1f;
  v.map.alpha = 0.3f;
  v.map.fogstart = 3;
  v.map.fogend = 10;
  v.map.znear = 0.01f;
  v.map.zfar = 50;
  v.map.haze = 0.3f;
  v.map.shadowclip = 1;
  v.map.shadowscale = 0.6f;
  v.map.actuatortendon = 2;
  v.scale.forcewidth = 0.1f;
  v.scale.contactwidth = 0.3f;
  v.scale.contactheight = 0.1f;
  v.scale.connect = 0.2f;
  v.scale.com = 0.4f;
  v.scale.camera = 0.3f;
  v.scale.light = 0.3f;
  v.scale.selectpoint = 0.2f;
  v.scale.jointlength = 1.0f;
  v.scale.jointwidth = 0.1f;
  v.scale.actuatorlength = 0.7f;
  v.scale.actuatorwidth = 0.2f;
  v.scale.framelength = 1.0f;
  v.scale.framewidth = 0.1f;
  v.scale.constraint = 0.1f;
  v.scale.slidercrank = 0.2f;
  set4(v.rgba.fog, 0, 0, 0, 1);
  set4(v.rgba.haze, 1, 1, 1, 1);
  set4(v.rgba.force, 1, 0.5f, 0.5f, 1);
  set4(v.rgba.inertia, 0.8f, 0.2f, 0.2f, 0.6f);
  set4(v.rgba.joint, 0.2f, 0.6f, 0.8f, 1);
  set4(v.rgba.actuator, 0.2f, 0.25f, 0.2f, 1);
  set4(v.rgba.actuatornegative, 0.2f, 0.6f, 0.9f, 1);
  set4(v.rgba.actuatorpositive, 0.9f, 0.4f, 0.2f, 1);
  set4(v.rgba.com, 0.9f, 0.9f, 0.9f, 1);
  set4(v.rgba.camera, 0.6f, 0.9f, 0.6f, 1);
  set4(v.rgba.light, 0.6f, 0.6f, 0.9f, 1);
  set4(v.rgba.selectpoint, 0.9f, 0.9f, 0.1f, 1);
  set4(v.rgba.connect, 0.2f, 0.2f, 0.8f, 1);
  set4(v.rgba.contactpoint, 0.9f, 0.6f, 0.2f, 1);
  set4(v.rgba.contactforce, 0.7f, 0.9f, 0.9f, 1);
  set4(v.rgba.contactfriction, 0.9f, 0.8f, 0.4f, 1);
  set4(v.rgba.contacttorque, 0.9f, 0.7f, 0.9f, 1);
  set4(v.rgba.contactgap, 0.5f, 0.8f, 0.9f, 1);
  set4(v.rgba.rangefinder, 1, 1, 0.1f, 1);
  set4(v.rgba.constraint, 0.9f, 0, 0, 1);
  set4(v.rgba.slidercrank, 0.5f, 0.3f, 0.8f, 1);
  set4(v.rgba.crankbroken, 0.9f, 0, 0, 1);
  return v;
}

Model::Model() : opt(default_option()), vis(default_visual()) { allocate(); }

Model::Model(const ModelSizes& sizes)
    : ModelSizes(sizes), opt(default_option()), vis(default_visual()) {
  allocate();
}

Model::Model(const Model& other) : ModelSizes(other) { copy_from(other); }

Model& Model::operator=(const Model& other) {
  if (this != &other && buffer_ && std::memcmp(static_cast<const ModelSizes*>(this),
                                               static_cast<const ModelSizes*>(&other),
                                               sizeof(ModelSizes)) == 0) {
    // The same sizes: the same layout, so the arrays are copied into the buffer there is (a batch
    // copies its model once per rollout, joco-simulate --params).
    opt = other.opt;
    vis = other.vis;
    stat = other.stat;
    std::memcpy(buffer_, other.buffer_, buffer_bytes_);
  } else if (this != &other) {
    release();
    static_cast<ModelSizes&>(*this) = other;
    copy_from(other);
  }
  return *this;
}

Model::Model(Model&& other) noexcept : Model() { *this = std::move(other); }

Model& Model::operator=(Model&& other) noexcept {
  if (this != &other) {
    release();
    // Pointers stay valid when the buffer changes owner, so a member-wise move is right.
    static_cast<ModelSizes&>(*this) = other;
    opt = other.opt;
    vis = other.vis;
    stat = other.stat;
#define JOCO_MOVE_ARRAY(type, name, rows, cols, check) \
  name = other.name;                                   \
  other.name = nullptr;
    JOCO_MODEL_ARRAYS(JOCO_MOVE_ARRAY)
#undef JOCO_MOVE_ARRAY
    buffer_ = other.buffer_;
    buffer_bytes_ = other.buffer_bytes_;
    other.buffer_ = nullptr;
    other.buffer_bytes_ = 0;
    static_cast<ModelSizes&>(other) = ModelSizes{};
    other.allocate();
  }
  return *this;
}

Model::~Model() { release(); }

void Model::release() {
  free_zeroed(buffer_);
  buffer_ = nullptr;
  buffer_bytes_ = 0;
}

void Model::allocate() {
  const std::vector<ArrayField> fields = array_fields();
  std::vector<size_t> offsets;
  offsets.reserve(fields.size());
  size_t total = 0;
  for (const ArrayField& f : fields) {
    offsets.push_back(total);
    total += align_up(f.bytes());
  }
  buffer_bytes_ = total;
  // Zeros that cost nothing until written: most of a model with textures is their pixels, written
  // once by the compiler (the humanoid's 5.8 MB), and zeroing them first doubled that work.
  buffer_ = allocate_zeroed(total);
  char* base = static_cast<char*>(buffer_);
  size_t index = 0;
#define JOCO_BIND_ARRAY(type, name, rows, cols, check) \
  name = reinterpret_cast<type*>(base + offsets[index++]);
  JOCO_MODEL_ARRAYS(JOCO_BIND_ARRAY)
#undef JOCO_BIND_ARRAY
}

void Model::copy_from(const Model& other) {
  opt = other.opt;
  vis = other.vis;
  stat = other.stat;
  allocate();
  std::memcpy(buffer_, other.buffer_, buffer_bytes_);
}

std::vector<ArrayField> Model::arrays() const {
  std::vector<ArrayField> fields = array_fields();
  size_t index = 0;
#define JOCO_ARRAY_DATA(type, name, rows, cols, check) \
  fields[index++].data = const_cast<void*>(static_cast<const void*>(name));
  JOCO_MODEL_ARRAYS(JOCO_ARRAY_DATA)
#undef JOCO_ARRAY_DATA
  return fields;
}

std::vector<StructField> Model::struct_fields() const {
  std::vector<StructField> fields;
  auto add = [&fields](std::string name, ScalarType type, int count, const void* data) {
    fields.push_back({std::move(name), type, count, const_cast<void*>(data)});
  };
#define JOCO_OPTION_FIELD(type, name, count) \
  add("opt." #name, scalar_type_of<type>(), count, &opt.name);
  JOCO_OPTION_FIELDS(JOCO_OPTION_FIELD)
#undef JOCO_OPTION_FIELD
#define JOCO_VISUAL_FIELD(group, type, name, count) \
  add("vis." #group "." #name, scalar_type_of<type>(), count, &vis.group.name);
#define JOCO_VISUAL_GROUP(group, FIELDS) FIELDS(JOCO_VISUAL_FIELD, group)
  JOCO_VISUAL_GROUPS(JOCO_VISUAL_GROUP)
#undef JOCO_VISUAL_GROUP
#undef JOCO_VISUAL_FIELD
#define JOCO_STATISTIC_FIELD(type, name, count) \
  add("stat." #name, scalar_type_of<type>(), count, &stat.name);
  JOCO_STATISTIC_FIELDS(JOCO_STATISTIC_FIELD)
#undef JOCO_STATISTIC_FIELD
  return fields;
}

int object_count(const Model& m, ObjType type) {
  switch (type) {
    case kObjBody:
    case kObjXBody: return m.nbody;
    case kObjJoint: return m.njnt;
    case kObjDof: return m.nv;
    case kObjGeom: return m.ngeom;
    case kObjSite: return m.nsite;
    case kObjCamera: return m.ncam;
    case kObjLight: return m.nlight;
    case kObjMesh: return m.nmesh;
    case kObjSkin: return m.nskin;
    case kObjHfield: return m.nhfield;
    case kObjTexture: return m.ntex;
    case kObjMaterial: return m.nmat;
    case kObjPair: return m.npair;
    case kObjExclude: return m.nexclude;
    case kObjEquality: return m.neq;
    case kObjTendon: return m.ntendon;
    case kObjActuator: return m.nu;
    case kObjSensor: return m.nsensor;
    case kObjNumeric: return m.nnumeric;
    case kObjText: return m.ntext;
    case kObjTuple: return m.ntuple;
    case kObjKey: return m.nkey;
    case kObjUnknown: return 0;
  }
  return 0;
}

const int* object_name_addresses(const Model& m, ObjType type) {
  switch (type) {
    case kObjBody:
    case kObjXBody: return m.name_bodyadr;
    case kObjJoint: return m.name_jntadr;
    case kObjGeom: return m.name_geomadr;
    case kObjSite: return m.name_siteadr;
    case kObjCamera: return m.name_camadr;
    case kObjLight: return m.name_lightadr;
    case kObjMesh: return m.name_meshadr;
    case kObjSkin: return m.name_skinadr;
    case kObjHfield: return m.name_hfieldadr;
    case kObjTexture: return m.name_texadr;
    case kObjMaterial: return m.name_matadr;
    case kObjPair: return m.name_pairadr;
    case kObjExclude: return m.name_excludeadr;
    case kObjEquality: return m.name_eqadr;
    case kObjTendon: return m.name_tendonadr;
    case kObjActuator: return m.name_actuatoradr;
    case kObjSensor: return m.name_sensoradr;
    case kObjNumeric: return m.name_numericadr;
    case kObjText: return m.name_textadr;
    case kObjTuple: return m.name_tupleadr;
    case kObjKey: return m.name_keyadr;
    default: return nullptr;
  }
}

std::string_view Model::model_name() const {
  if (nnames <= 0) return {};
  return std::string_view(names, strnlen(names, static_cast<size_t>(nnames)));
}

std::string_view Model::name(ObjType type, int id) const {
  const int* adr = object_name_addresses(*this, type);
  if (!adr || id < 0 || id >= object_count(*this, type)) return {};
  const int a = adr[id];
  if (a < 0 || a >= nnames) return {};
  return std::string_view(names + a, strnlen(names + a, static_cast<size_t>(nnames - a)));
}

int Model::name_to_id(ObjType type, std::string_view wanted) const {
  if (wanted.empty()) return -1;
  const int count = object_count(*this, type);
  for (int i = 0; i < count; ++i) {
    if (name(type, i) == wanted) return i;
  }
  return -1;
}

}  // namespace joco
