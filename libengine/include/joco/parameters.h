// Model parameters by MuJoCo's names, changed after compiling: "opt.timestep", "body_mass[torso]",
// "geom_friction[floor]", "dof_damping[3]". A parameter is found (find_parameter), its values are
// checked as the compiler checks them, written, and the quantities the compiler derives from them
// (subtree masses, inverse weights, dof_M0, actuator_acc0, the mass statistics, ...; what MuJoCo
// users get from mj_setConst) are recomputed, so that the changed model equals, field for field,
// the model compiled from the XML with the same change. Fields whose dependants are not recomputed
// (sizes, addresses, ids, geom sizes and poses, body frames, ...) are refused, saying why.
//
// Errors throw InputError whose message names the parameter (and says what a valid value is).
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "joco/field.h"
#include "joco/model.h"

namespace joco {

// Where a parameter's values are in a Model.
struct ModelParameter {
  std::string name;    // as written: "geom_friction[floor]"
  std::string field;   // "geom_friction", or "opt.timestep"
  int element = -1;    // the element's id (a joint's for dof_ fields by joint name); -1: opt
  int64_t offset = 0;  // first value in the field (elements times columns)
  int count = 0;       // number of values
  ScalarType type = ScalarType::kFloat64;
};

// Looks up "opt.NAME" or "FIELD[ELEMENT]", ELEMENT a name of the field's object type or an index
// (dof_ fields take a joint's name, meaning all its dofs, or a dof index). Throws InputError when
// the field or element does not exist or the field cannot be set (with the reason).
ModelParameter find_parameter(const Model& m, std::string_view name);

// The values of p from text: numbers separated by spaces or commas, exactly p.count of them, whole
// numbers for integer fields. Throws InputError naming p.
std::vector<double> parse_parameter_values(const ModelParameter& p, std::string_view text);

// One parameter and its values.
struct ParameterValue {
  ModelParameter parameter;
  std::vector<double> values;
};

// "NAME=VALUES" (as --set takes it), found in m and parsed.
ParameterValue parse_parameter_assignment(const Model& m, std::string_view assignment);

// Writes the values into m, checked as the compiler checks them (finite; ranges ordered; masses,
// inertias and armatures not negative; moving bodies keep a positive mass and inertia; options
// as the model's validation wants them), then recomputes once what depends on them. m is changed in
// place (no copy of it is made) and left as it was on error. `source` names the origin of the values in messages ("--set", "params.csv row
// 3").
void set_parameters(Model& m, std::span<const ParameterValue> values,
                    const std::string& source = "");

// The checks of set_parameters alone, to refuse a bad value before any work starts: m is changed
// while they run and left as it was, whatever they find (no copy of the model is made).
void check_parameters(Model& m, std::span<const ParameterValue> values,
                      const std::string& source = "");

// One row of the table of settable fields (for documentation and --help): the field, the object
// type its elements are named by, and what changing it recomputes.
struct SettableField {
  const char* field;
  const char* elements;  // "body", "joint (dof_ fields: a joint's dofs)", ... or "" for opt
  const char* recomputes;
};
std::vector<SettableField> settable_fields();

}  // namespace joco
