// The joint and tendon limit sensors: read from the limit's constraint row.
#pragma once

#include "joco/data.h"
#include "joco/model.h"

namespace joco::sensor {

// For a jointlimit* or tendonlimit* sensor, the value of the first active constraint row of its
// joint's or tendon's limit (efc_pos - efc_margin, efc_vel or efc_force by stage), 0 when the
// limit has no row.
double limit_value(const Model& m, const Data& d, int sensor);

}  // namespace joco::sensor
