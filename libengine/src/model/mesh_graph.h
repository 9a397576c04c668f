// The layout of a mesh's convex hull graph in mesh_graph (MuJoCo 2.2.2's), and where
// mesh_graphvert (joco's, derived) holds the positions of each vertex's neighbours.
#pragma once

#include "joco/model.h"

namespace joco {

// One graph: numvert, numface, vert_edgeadr[numvert], vert_globalid[numvert],
// edge_localid[numvert + 3 numface] (each vertex's neighbours as graph indices, ended by -1, the
// lists one after another in vertex order: validation checks it) and face_globalid[3 numface].
struct HullGraph {
  int nvert = 0;
  int nface = 0;
  const int* edgeadr = nullptr;   // start of each vertex's list in edges
  const int* globalid = nullptr;  // mesh vertex of each graph vertex
  const int* edges = nullptr;     // edge_localid
  // mesh_graphvert: the position of the vertex each entry of edges names, by coordinate
  const float* x = nullptr;
  const float* y = nullptr;
  const float* z = nullptr;

  int nedge() const { return nvert + 3 * nface; }
  // Where vertex v's list ends (the index of its -1 in edges).
  int edge_end(int v) const { return v + 1 < nvert ? edgeadr[v + 1] - 1 : nedge() - 1; }
};

// Ints of a graph in mesh_graph (also its length in each coordinate block of mesh_graphvert).
inline int hull_graph_length(int nvert, int nface) { return 2 + 3 * nvert + 6 * nface; }

// Offset of edge_localid in a graph.
inline int hull_graph_edges_offset(int nvert) { return 2 + 2 * nvert; }

// The graph of mesh i; false when it has none.
inline bool hull_graph(const Model& m, int mesh, HullGraph* g) {
  const int adr = m.mesh_graphadr[mesh];
  if (adr < 0) return false;
  const int* graph = m.mesh_graph + adr;
  g->nvert = graph[0];
  g->nface = graph[1];
  g->edgeadr = graph + 2;
  g->globalid = graph + 2 + g->nvert;
  const int offset = hull_graph_edges_offset(g->nvert);
  g->edges = graph + offset;
  const int length = hull_graph_length(g->nvert, g->nface);
  g->x = m.mesh_graphvert + 3 * int64_t{adr} + offset;
  g->y = g->x + length;
  g->z = g->y + length;
  return true;
}

}  // namespace joco
