// joco's bounding-volume hierarchy over each mesh's faces (derived arrays mesh_bvhbox,
// mesh_bvhchild, mesh_bvhface; model/derived.cc builds them), which ray casting walks instead of
// testing every face.
//
// Mesh i's nodes are numbered from 0 (the root) and stored from node 2 mesh_faceadr[i] on (a tree
// whose leaves hold at least one face each has at most 2 facenum - 1 nodes); its leaves' faces from
// mesh_faceadr[i] on in mesh_bvhface. A node's children come after it, so an internal node's first
// child is > 0, and a node of zeros is an empty leaf.
#pragma once

#include "joco/model.h"

namespace joco {

// Most faces a leaf holds. The tree splits its nodes at the median, so its depth is at most
// 1 + log2(facenum / kMeshBvhLeafFaces) (32 for any int facenum).
inline constexpr int kMeshBvhLeafFaces = 4;
inline constexpr int kMeshBvhMaxDepth = 40;  // the walk's stack holds at most depth + 1 nodes

struct MeshBvh {
  const float* box = nullptr;  // node n: box[6 n ..]: low x, y, z, high x, y, z
  const int* child = nullptr;  // node n: child[2 n] > 0: children child[2 n], child[2 n + 1];
                               // else a leaf of faces face[-child[2 n] ..], child[2 n + 1] of them
  const int* face = nullptr;   // faces (numbers in the mesh) in leaf order
  int nface = 0;

  bool leaf(int node) const { return child[2 * node] <= 0; }
};

inline MeshBvh mesh_bvh(const Model& m, int mesh) {
  const int64_t adr = m.mesh_faceadr[mesh];
  MeshBvh b;
  b.box = m.mesh_bvhbox + 12 * adr;
  b.child = m.mesh_bvhchild + 4 * adr;
  b.face = m.mesh_bvhface + adr;
  b.nface = m.mesh_facenum[mesh];
  return b;
}

}  // namespace joco
