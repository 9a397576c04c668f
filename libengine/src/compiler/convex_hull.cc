#include "compiler/convex_hull.h"

#include <algorithm>
#include <cstdio>
#include <memory>

extern "C" {
#include <libqhull_r/qhull_ra.h>
}

#include "joco/error.h"

namespace joco {
namespace {

// Frees qhull's memory however the computation ends.
struct QhullSession {
  qhT qh;
  QhullSession() { qh_zero(&qh, stderr); }
  ~QhullSession() {
    qh_freeqhull(&qh, !qh_ALL);
    int curlong = 0, totlong = 0;
    qh_memfreeshort(&qh, &curlong, &totlong);
  }
};

}  // namespace

std::vector<int> convex_hull_graph(const std::vector<float>& vert, const std::string& where) {
  const int nvert = static_cast<int>(vert.size() / 3);
  std::vector<coordT> points(vert.begin(), vert.end());

  auto session = std::make_unique<QhullSession>();
  qhT* qh = &session->qh;
  char options[] = "qhull Qt";
  FILE* errfile = std::tmpfile();
  const int code = qh_new_qhull(qh, 3, nvert, points.data(), False, options, nullptr, errfile);
  if (errfile) std::fclose(errfile);
  if (code) throw InputError(where + ": qhull error (the vertices may be coplanar or degenerate)");

  const int numvert = qh->num_vertices;
  const int numface = qh->num_facets;
  std::vector<int> graph(2 + 3 * numvert + 6 * numface, 0);
  graph[0] = numvert;
  graph[1] = numface;
  int* vert_edgeadr = &graph[2];
  int* vert_globalid = &graph[2 + numvert];
  int* edge_localid = &graph[2 + 2 * numvert];
  int* face_globalid = &graph[2 + 3 * numvert + 3 * numface];

  std::vector<int> localid(nvert, -1);
  vertexT* vertex;
  vertexT** vertexp;
  facetT* facet;
  int i = 0;
  FORALLvertices {
    const int id = qh_pointid(qh, vertex->point);
    vert_globalid[i] = id;
    localid[id] = i;
    ++i;
  }

  i = 0;
  FORALLfacets {
    int j = 0;
    FOREACHvertex_(facet->vertices) {
      if (j < 3) face_globalid[3 * i + j] = qh_pointid(qh, vertex->point);
      ++j;
    }
    if (j != 3) throw InputError(where + ": qhull produced a non-triangular face");
    if (facet->toporient) std::swap(face_globalid[3 * i], face_globalid[3 * i + 1]);
    ++i;
  }

  // Neighbours of each hull vertex: over the facets around it (qhull's order), the facets' other
  // vertices in qhull's order, first appearance kept.
  qh_vertexneighbors(qh);
  std::vector<int> edges;
  edges.reserve(numvert + 3 * numface);
  int v = 0;
  FORALLvertices {
    vert_edgeadr[v] = static_cast<int>(edges.size());
    const size_t start = edges.size();
    facetT* neighbor;
    facetT** neighborp;
    FOREACHneighbor_(vertex) {
      vertexT* other;
      vertexT** otherp;
      FOREACHsetelement_(vertexT, neighbor->vertices, other) {
        if (other == vertex) continue;
        const int local = localid[qh_pointid(qh, other->point)];
        if (std::find(edges.begin() + start, edges.end(), local) == edges.end())
          edges.push_back(local);
      }
    }
    edges.push_back(-1);
    ++v;
  }
  if (static_cast<int>(edges.size()) != numvert + 3 * numface)
    throw InputError(where + ": convex hull is not a closed triangulated surface");
  std::copy(edges.begin(), edges.end(), edge_localid);
  return graph;
}

}  // namespace joco
