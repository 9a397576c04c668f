// Validation of a model's sizes and index fields, so that no pipeline stage reads out of bounds.
#pragma once

#include <string>

#include "joco/model.h"

namespace joco {

// No size of a model may exceed this (validate_model): it keeps every int product of two sizes in
// the tables far from overflow. Decoders of assets refuse, from their headers, what would exceed it
// (a PNG's pixels), before decompressing anything.
inline constexpr int kMaxModelSize = 1 << 28;

// Checks every size, every integer field against its table check, and the structural relations the
// pipeline relies on (address spans, tree order, per-type references). Throws InputError naming
// `source` and the first bad field and element.
void validate_model(const Model& m, const std::string& source);

}  // namespace joco
