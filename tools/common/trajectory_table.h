// The one table of a trajectory's datasets (schemas/trajectory.md): each per-row field's name, row
// shape, stored type, how tools use it and where a Data holds it; the contact table's columns; the
// size attributes; the name lists of /model. The writer and the reader both work from these tables,
// so a dataset's name and shape are spelled here only.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "joco/data.h"
#include "joco/model.h"

namespace joco::tools {

inline constexpr const char* kTrajectoryFormat = "joco.trajectory";
inline constexpr int kTrajectoryFormatVersion = 1;

// What one row of a field is, in terms of the model's sizes.
enum class FieldWidth { kScalar, kNq, kNv, kNa, kNu, kNsensordata, kNbody6, kTwo };

// How a column is stored in the file.
enum class Stored { kFloat64, kInt32, kInt64 };

// How tools use a field when they read a file: an input (must be finite), read as it is (qacc, as
// a warmstart), or only ever written (then a copy that does not fit the model, another model's
// sensors say, is dropped with a warning instead of refusing the file).
enum class FieldRole { kInput, kRead, kOutput };

// The per-row datasets of a trajectory, in file order:
//   X(enumerator, dataset name, row width, stored as, role, where a Data holds it)
// The last column is an expression over `d` (a const Data&), or kNotInData. qpos is always written
// (it counts the rows) and is the one field every states file needs. The comment says which tools
// write the field: joco-simulate (s), joco-inverse (i), joco-derivatives (d); none writes fwdinv
// today (TrajectoryWriter::append_row can).
// clang-format off
#define JOCO_TRAJECTORY_FIELDS(X)                                                                 \
  X(kTime,           time,            kScalar,      kFloat64, kInput,  d.time)            /*sid*/ \
  X(kQpos,           qpos,            kNq,          kFloat64, kInput,  d.qpos)            /*sid*/ \
  X(kQvel,           qvel,            kNv,          kFloat64, kInput,  d.qvel)            /*sid*/ \
  X(kAct,            act,             kNa,          kFloat64, kInput,  d.act)             /*sid*/ \
  X(kCtrl,           ctrl,            kNu,          kFloat64, kInput,  d.ctrl)            /*sid*/ \
  X(kQacc,           qacc,            kNv,          kFloat64, kRead,   d.qacc)            /*sid*/ \
  X(kQaccWarmstart,  qacc_warmstart,  kNv,          kFloat64, kInput,  d.qacc_warmstart)  /*s--*/ \
  X(kSensordata,     sensordata,      kNsensordata, kFloat64, kOutput, d.sensordata)      /*si-*/ \
  X(kQfrcApplied,    qfrc_applied,    kNv,          kFloat64, kInput,  d.qfrc_applied)    /*si-*/ \
  X(kXfrcApplied,    xfrc_applied,    kNbody6,      kFloat64, kInput,  d.xfrc_applied)    /*si-*/ \
  X(kQfrcInverse,    qfrc_inverse,    kNv,          kFloat64, kOutput, d.qfrc_inverse)    /*-i-*/ \
  X(kQfrcConstraint, qfrc_constraint, kNv,          kFloat64, kOutput, d.qfrc_constraint) /*si-*/ \
  X(kQfrcActuator,   qfrc_actuator,   kNv,          kFloat64, kOutput, d.qfrc_actuator)   /*s--*/ \
  X(kQfrcBias,       qfrc_bias,       kNv,          kFloat64, kOutput, d.qfrc_bias)       /*si-*/ \
  X(kNcon,           ncon,            kScalar,      kInt32,   kOutput, d.ncon)            /*si-*/ \
  X(kNefc,           nefc,            kScalar,      kInt32,   kOutput, d.nefc)            /*sid*/ \
  X(kSolverNiter,    solver_niter,    kScalar,      kInt32,   kOutput, d.solver_iter)     /*s--*/ \
  X(kFwdinv,         fwdinv,          kTwo,         kFloat64, kOutput, d.solver_fwdinv)   /*---*/ \
  X(kCtrlEstimate,   ctrl_estimate,   kNu,          kFloat64, kOutput, kNotInData)        /*-i-*/ \
  X(kCtrlResidual,   ctrl_residual,   kNv,          kFloat64, kOutput, kNotInData)        /*-i-*/ \
  X(kInverseFlags,   inverse_flags,   kScalar,      kInt32,   kOutput, kNotInData)        /*-i-*/
// clang-format on

enum class Field : int {
#define JOCO_FIELD_ENUMERATOR(id, name, width, stored, role, data) id,
  JOCO_TRAJECTORY_FIELDS(JOCO_FIELD_ENUMERATOR)
#undef JOCO_FIELD_ENUMERATOR
};
inline constexpr int kFieldCount = 0
#define JOCO_FIELD_COUNT(id, name, width, stored, role, data) +1
    JOCO_TRAJECTORY_FIELDS(JOCO_FIELD_COUNT)
#undef JOCO_FIELD_COUNT
    ;

struct FieldInfo {
  Field field;
  const char* name;  // the dataset's name, MuJoCo's where there is one
  FieldWidth width;
  Stored stored;
  bool integer;  // stored as int32 (counts), else float64
  bool input;    // read as an input by tools: must be finite when read
  bool read;     // read by tools at all (FieldRole kInput or kRead)
};

// Every field, in enum order.
std::span<const FieldInfo> field_table();
const FieldInfo& field_info(Field f);
// The field of a dataset name; nullopt for names that are not per-row fields.
std::optional<Field> field_by_name(std::string_view name);

// Shape of one row of a field for a model of these sizes: {} (scalar), {n} or {nbody, 6}.
std::vector<size_t> field_row_shape(Field f, const ModelSizes& s);
// Number of values in one row (1 for scalars).
size_t field_row_size(Field f, const ModelSizes& s);
// The size a width stands for, by name, for messages ("nv", "nbody", "1").
const char* width_name(FieldWidth w);

// Field f's row in d: a pointer into d (field_row_size values), or, for a scalar, `scalar` set to
// its value; nullptr for the fields a Data does not hold (ctrl_estimate, ctrl_residual).
const double* field_row(const Data& d, Field f, double& scalar);

// What a file is read for, which decides the dataset that counts its rows: states (qpos, the only
// dataset a states file needs) or controls (ctrl; qfrc_applied, xfrc_applied or qpos where the file
// has no ctrl).
enum class TrajectoryUse { kStates, kControls };

// The datasets whose rows are the trajectory's rows, in order of preference, for a use.
std::span<const Field> row_fields(TrajectoryUse use);
// Whether tools read field f of a file read for `use` (a dataset they read must fit the model;
// one they do not is dropped with a warning when it does not): FieldInfo::read for states, only
// ctrl, qfrc_applied and xfrc_applied for controls.
bool read_for(Field f, TrajectoryUse use);

// The attributes of a trajectory group that give the model's sizes (the widths of the datasets).
struct SizeAttribute {
  const char* name;
  int ModelSizes::*size;
};
inline constexpr SizeAttribute kSizeAttributes[] = {{"nq", &ModelSizes::nq},
                                                    {"nv", &ModelSizes::nv},
                                                    {"na", &ModelSizes::na},
                                                    {"nu", &ModelSizes::nu},
                                                    {"nsensordata", &ModelSizes::nsensordata}};

// One row of the contact table (contact/ in a trajectory group).
struct ContactRecord {
  int64_t row = 0;  // the trajectory row this contact belongs to
  int geom1 = -1;
  int geom2 = -1;
  double pos[3] = {};    // contact point, world frame
  double frame[9] = {};  // contact frame, rows: normal, first and second tangent
  double dist = 0;       // signed distance; negative: penetration
  double force[6] = {};  // normal, tangent forces and torques, in the contact frame
};

// The datasets of the contact table, in the order of ContactRecord's members.
struct ContactColumn {
  const char* name;
  size_t width;  // 0: one value per contact, stored with rank 1
  Stored stored;
};
inline constexpr ContactColumn kContactColumns[] = {
    {"row", 0, Stored::kInt64},    {"geom1", 0, Stored::kInt32},   {"geom2", 0, Stored::kInt32},
    {"pos", 3, Stored::kFloat64},  {"frame", 9, Stored::kFloat64}, {"dist", 0, Stored::kFloat64},
    {"force", 6, Stored::kFloat64}};
inline constexpr size_t kContactColumnCount = std::size(kContactColumns);

// Names and identity of the model a file was written for (/model and its attributes); empty where
// the file has none.
struct ModelInfo {
  std::string model_name;
  std::optional<uint64_t> model_checksum;
  std::vector<std::string> body_names;
  std::vector<std::string> joint_names;
  std::vector<std::string> geom_names;
  std::vector<std::string> actuator_names;
  std::vector<std::string> sensor_names;
};

// The name lists of /model: dataset, kind of object, how many there are, where ModelInfo keeps
// them.
struct ModelNameList {
  const char* name;
  ObjType type;
  int ModelSizes::*count;
  std::vector<std::string> ModelInfo::*names;
};
inline constexpr ModelNameList kModelNameLists[] = {
    {"body_names", kObjBody, &ModelSizes::nbody, &ModelInfo::body_names},
    {"joint_names", kObjJoint, &ModelSizes::njnt, &ModelInfo::joint_names},
    {"geom_names", kObjGeom, &ModelSizes::ngeom, &ModelInfo::geom_names},
    {"actuator_names", kObjActuator, &ModelSizes::nu, &ModelInfo::actuator_names},
    {"sensor_names", kObjSensor, &ModelSizes::nsensor, &ModelInfo::sensor_names}};

}  // namespace joco::tools
