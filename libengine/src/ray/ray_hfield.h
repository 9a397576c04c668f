// The parts of the height field ray (joco::ray_hfield) that its tests check on their own: the
// walk over the grid against the exhaustive loop over every cell.
#pragma once

#include "joco/model.h"

namespace joco {

// The ray p + x v (in the field's frame) against the two triangles of cell (r, c) of height field
// hf (the cell between grid rows r, r + 1 and columns c, c + 1): the nearest x >= 0, -1 if none.
double ray_hfield_cell(const Model& m, int hf, const double p[3], const double v[3], int r, int c);

// The ray against the whole surface of height field hf (its triangles, not the base or sides),
// walking only the cells under the ray in its order and stopping once the cells left start beyond
// the nearest hit or beyond `bound` (>= 0; -1 for none). The result is the nearest triangle hit
// (bit for bit that of ray_hfield_cell's minimum over every cell) when it is at most `bound`;
// otherwise -1 or some hit beyond `bound`.
double ray_hfield_surface(const Model& m, int hf, const double p[3], const double v[3],
                          double bound);

}  // namespace joco
