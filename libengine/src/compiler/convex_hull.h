// The convex hull of a mesh's vertices (qhull), in MuJoCo's mesh_graph layout.
#pragma once

#include <string>
#include <vector>

namespace joco {

// mesh_graph of a vertex set (3 floats per vertex):
//   numvert, numface, vert_edgeadr[numvert], vert_globalid[numvert],
//   edge_localid[numvert + 3 * numface], face_globalid[3 * numface]
// Hull vertices are numbered locally in qhull's vertex order; each vertex's neighbours are listed
// (local ids, in order of first appearance over the faces) and closed by -1; faces are triangles
// of mesh vertex ids, counter-clockwise seen from outside. Throws InputError (prefixed by `where`)
// when qhull fails.
std::vector<int> convex_hull_graph(const std::vector<float>& vert, const std::string& where);

}  // namespace joco
