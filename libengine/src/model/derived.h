// Arrays joco derives from MuJoCo's fields so that the pipeline reads them in a row or searches
// them faster (MuJoCo 2.2.2 has no such fields): mesh_graphvert (model/mesh_graph.h) and the
// hierarchy of each mesh's faces, mesh_bvhbox, mesh_bvhchild, mesh_bvhface (model/mesh_bvh.h).
// The compiler fills them; validation checks that a model's copies (a .jmb's) equal what they
// derive from; whoever builds a Model from MuJoCo's fields alone (the oracle's model_from_mujoco)
// calls fill_derived.
#pragma once

#include <string_view>

#include "joco/model.h"

namespace joco {

// Whether the array field `name` is one of these.
bool is_derived_field(std::string_view name);

// Writes every derived array from the fields it derives from (which must be valid: indices in
// range, as validate_model checks before it compares).
void fill_derived(Model& m);

// The first derived array that differs from what fill_derived would write, with the element, or
// false when they all match.
bool derived_mismatch(const Model& m, const char** field, int64_t* element);

}  // namespace joco
