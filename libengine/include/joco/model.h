// The compiled model: sizes, options and plain arrays in one allocation, with MuJoCo 2.2.2's field
// names and meanings (model_fields.h is the list). Pipeline functions take it as const Model&.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "joco/constants.h"
#include "joco/field.h"
#include "joco/model_fields.h"

namespace joco {

#define JOCO_DECLARE_MEMBER(type, name, count) FieldMember<type, count> name{};

// Physics options (MJCF <option>), changeable between steps.
struct Option {
  JOCO_OPTION_FIELDS(JOCO_DECLARE_MEMBER)
};

// Visualisation options (MJCF <visual>); kept so that models round-trip, unused by the physics.
struct Visual {
#define JOCO_DECLARE_GROUP_MEMBER(group, type, name, count) FieldMember<type, count> name{};
#define JOCO_DECLARE_GROUP(group, FIELDS)    \
  struct {                                   \
    FIELDS(JOCO_DECLARE_GROUP_MEMBER, group) \
  } group{};
  JOCO_VISUAL_GROUPS(JOCO_DECLARE_GROUP)
#undef JOCO_DECLARE_GROUP
#undef JOCO_DECLARE_GROUP_MEMBER
};

// Model statistics computed by the compiler at qpos0.
struct Statistic {
  JOCO_STATISTIC_FIELDS(JOCO_DECLARE_MEMBER)
};

#undef JOCO_DECLARE_MEMBER

// MuJoCo's defaults for options and visual settings (what an empty <option/> and <visual/> mean).
Option default_option();
Visual default_visual();

// The sizes of a model; they determine the shape of every array.
struct ModelSizes {
#define JOCO_DECLARE_SIZE(name) int name = 0;
  JOCO_MODEL_SIZES(JOCO_DECLARE_SIZE)
#undef JOCO_DECLARE_SIZE

  // Every array field of a model of these sizes, with data pointers left null.
  std::vector<ArrayField> array_fields() const;
  // Every size as (name, value), in table order.
  std::vector<std::pair<const char*, int>> size_list() const;
  // Size by name; nullptr when there is no such size.
  int* size_by_name(std::string_view name);
};

class Model : public ModelSizes {
 public:
  Option opt;
  Visual vis;
  Statistic stat;

#define JOCO_DECLARE_ARRAY(type, name, rows, cols, check) type* name = nullptr;
  JOCO_MODEL_ARRAYS(JOCO_DECLARE_ARRAY)
#undef JOCO_DECLARE_ARRAY

  // An empty model (all sizes zero, no arrays).
  Model();
  // A model of the given sizes with every array allocated (one allocation) and zeroed, default
  // options and visual settings.
  explicit Model(const ModelSizes& sizes);
  Model(const Model& other);
  Model& operator=(const Model& other);
  Model(Model&& other) noexcept;
  Model& operator=(Model&& other) noexcept;
  ~Model();

  // Every array field with its data pointer, in table order.
  std::vector<ArrayField> arrays() const;
  // Every field of opt, vis and stat.
  std::vector<StructField> struct_fields() const;
  // The sizes alone.
  const ModelSizes& sizes() const { return *this; }

  // Bytes in the one allocation that holds all arrays.
  size_t nbuffer() const { return buffer_bytes_; }

  // The model's name (MJCF <mujoco model="...">), stored first in the names buffer as MuJoCo does.
  std::string_view model_name() const;
  // Name of object id of the given type ("" when unnamed or out of range).
  std::string_view name(ObjType type, int id) const;
  // Id of the named object of the given type, -1 when there is none.
  int name_to_id(ObjType type, std::string_view name) const;

 private:
  void allocate();
  void release();
  void copy_from(const Model& other);

  void* buffer_ = nullptr;
  size_t buffer_bytes_ = 0;
};

// The number of objects of a type in a model and where their names are (nullptr when the type has
// no names), for generic lookups.
int object_count(const Model& m, ObjType type);
const int* object_name_addresses(const Model& m, ObjType type);

}  // namespace joco
