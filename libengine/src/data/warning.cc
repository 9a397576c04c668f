#include <spdlog/spdlog.h>

#include "joco/log.h"

namespace joco {

const char* warning_text(Warning warning) {
  switch (warning) {
    case kWarnInertia: return "inertia matrix is too close to singular";
    case kWarnContactFull: return "too many contacts: raise <size nconmax>";
    case kWarnConstraintFull: return "too many constraint rows: raise <size njmax>";
    case kWarnVGeomFull: return "too many visual geoms";
    case kWarnBadQpos: return "bad qpos (NaN, Inf or huge), simulation reset";
    case kWarnBadQvel: return "bad qvel (NaN, Inf or huge), simulation reset";
    case kWarnBadQacc: return "bad qacc (NaN, Inf or huge), simulation reset";
    case kWarnBadCtrl: return "bad ctrl (NaN, Inf or huge), control zeroed";
  }
  return "unknown warning";
}

void log_first_warning(Warning warning, int info, double time) {
  spdlog::warn("{} (index {}, time {})", warning_text(warning), info, time);
}

}  // namespace joco
