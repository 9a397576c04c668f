// Broad phase: the body pairs whose bounding boxes overlap (all pairs tested for small models,
// sweep and prune for large ones).
#pragma once

#include "joco/data.h"
#include "joco/model.h"

namespace joco {

// The signature of a body pair b1 < b2, as MuJoCo's pair_signature and exclude_signature:
// (b1 + 1) << 16 | (b2 + 1). Sorting signatures sorts pairs by b1, then b2.
inline int body_pair_signature(int b1, int b2) { return ((b1 + 1) << 16) + (b2 + 1); }
inline int signature_body1(int signature) { return (signature >> 16) - 1; }
inline int signature_body2(int signature) { return (signature & 0xFFFF) - 1; }

// Writes the signatures of the body pairs whose axis-aligned boxes (over each body's geoms that
// can collide dynamically, each a cube of half-size geom_rbound + margin; planes unbounded)
// overlap and whose geoms' contype and conaffinity bits allow a dynamic contact, sorted ascending,
// to memory taken from `frame`, and returns their number.
int broadphase(const Model& m, const Data& d, StackFrame& frame, int** signatures);

}  // namespace joco
