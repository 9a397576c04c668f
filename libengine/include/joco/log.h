// Diagnostics from the engine go through spdlog to standard error; tools set the level.
#pragma once

#include "joco/constants.h"

namespace joco {

// A short description of a warning, e.g. "too many contacts".
const char* warning_text(Warning warning);

// Logs the first occurrence of a warning in a Data (later ones are only counted).
void log_first_warning(Warning warning, int info, double time);

}  // namespace joco
