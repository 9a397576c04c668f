// The parts of the mesh ray (joco::ray_mesh) that its tests check on their own: the walk down the
// mesh's face hierarchy against the loop over every face.
#pragma once

#include "joco/model.h"

namespace joco {

// The ray p + x v (in the mesh's frame) against every face of mesh `mesh`, both sides of each: the
// nearest x >= 0, -1 if none.
double ray_mesh_faces(const Model& m, int mesh, const double p[3], const double v[3]);

// The same through the mesh's face hierarchy (model/mesh_bvh.h): the boxes the ray meets, nearest
// first, skipping those that start beyond the nearest hit so far or beyond `bound` (>= 0; -1 for
// none). The result is bit for bit ray_mesh_faces's when that is at most `bound`; otherwise -1 or
// some hit beyond `bound`.
double ray_mesh_local(const Model& m, int mesh, const double p[3], const double v[3], double bound);

}  // namespace joco
