// The touch sensor: contact normal forces through a site's volume.
#pragma once

#include "joco/data.h"
#include "joco/model.h"

namespace joco::sensor {

// The sum of the normal forces of the contacts that involve a geom of the site's body and whose
// normal ray, from the contact point towards the other geom, meets the site's volume (a point
// inside the volume always does). Needs contacts and efc_force.
double touch(const Model& m, const Data& d, int site);

}  // namespace joco::sensor
