// Dumps of a compiled model, derived from the field table: JSON with every size, option and array
// under MuJoCo's names (schemas/model-json.md), and a readable text listing like MuJoCo's
// printModel.
#pragma once

#include <ostream>

#include "joco/model.h"

namespace joco {

void print_model_json(const Model& m, std::ostream& out);
void print_model_text(const Model& m, std::ostream& out);

}  // namespace joco
