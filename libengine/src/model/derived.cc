#include "model/derived.h"

#include <algorithm>
#include <cstring>
#include <vector>

#include "model/mesh_graph.h"

namespace joco {

namespace {

// mesh_graphvert of m into out (3 * nmeshgraph floats).
void derive_mesh_graphvert(const Model& m, float* out) {
  std::fill(out, out + 3 * int64_t{m.nmeshgraph}, 0.0f);
  for (int i = 0; i < m.nmesh; ++i) {
    HullGraph g;
    if (!hull_graph(m, i, &g)) continue;
    const float* vert = m.mesh_vert + 3 * int64_t{m.mesh_vertadr[i]};
    const int64_t length = hull_graph_length(g.nvert, g.nface);
    float* x = out + 3 * int64_t{m.mesh_graphadr[i]} + hull_graph_edges_offset(g.nvert);
    for (int e = 0; e < g.nedge(); ++e) {
      if (g.edges[e] < 0) continue;
      const float* v = vert + 3 * int64_t{g.globalid[g.edges[e]]};
      x[e] = v[0];
      x[e + length] = v[1];
      x[e + 2 * length] = v[2];
    }
  }
}

}  // namespace

bool is_derived_field(std::string_view name) { return name == "mesh_graphvert"; }

void fill_derived(Model& m) { derive_mesh_graphvert(m, m.mesh_graphvert); }

bool derived_mismatch(const Model& m, const char** field, int64_t* element) {
  std::vector<float> expected(3 * static_cast<size_t>(m.nmeshgraph));
  derive_mesh_graphvert(m, expected.data());
  for (size_t k = 0; k < expected.size(); ++k) {
    if (std::memcmp(&expected[k], &m.mesh_graphvert[k], sizeof(float)) != 0) {
      *field = "mesh_graphvert";
      *element = static_cast<int64_t>(k);
      return true;
    }
  }
  return false;
}

}  // namespace joco
