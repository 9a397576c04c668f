#include "model/derived.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <limits>
#include <numeric>
#include <vector>

#include "model/mesh_bvh.h"
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

// The nearest float at or below x / at or above x.
float float_down(double x) {
  const float f = static_cast<float>(x);
  return f > x ? std::nextafter(f, -std::numeric_limits<float>::infinity()) : f;
}
float float_up(double x) {
  const float f = static_cast<float>(x);
  return f < x ? std::nextafter(f, std::numeric_limits<float>::infinity()) : f;
}

// The hierarchy of one mesh's faces: nodes split at the median of their faces' centres along the
// longest side of the centres' box, faces ordered by (centre, number) so that the tree is the same
// on every platform; boxes widened by 1e-6 of the mesh's largest extent, far above the rounding of
// the ray-triangle test, so that a face that test accepts is never in a box the ray misses.
class MeshBvhBuilder {
 public:
  MeshBvhBuilder(const Model& m, int mesh, float* box, int* child, int* face)
      : box_(box), child_(child), face_(face), nface_(m.mesh_facenum[mesh]) {
    const float* vert = m.mesh_vert + 3 * int64_t{m.mesh_vertadr[mesh]};
    const int* faces = m.mesh_face + 3 * int64_t{m.mesh_faceadr[mesh]};
    lo_.resize(nface_);
    hi_.resize(nface_);
    centre_.resize(nface_);
    for (int f = 0; f < nface_; ++f) {
      for (int k = 0; k < 3; ++k) {
        const double a = vert[3 * faces[3 * f] + k], b = vert[3 * faces[3 * f + 1] + k],
                     c = vert[3 * faces[3 * f + 2] + k];
        lo_[f][k] = std::min({a, b, c});
        hi_[f][k] = std::max({a, b, c});
        centre_[f][k] = a + b + c;  // three times the centre: only compared
      }
    }
    std::iota(face_, face_ + nface_, 0);
  }

  void build() {
    if (nface_ == 0) return;
    double lo[3], hi[3];
    bounds(0, nface_, lo, hi);
    margin_ = 1e-6 * std::max({hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2]});
    node(0, nface_, lo, hi);
  }

 private:
  using Vec = std::array<double, 3>;

  void bounds(int begin, int end, double* lo, double* hi) const {
    for (int k = 0; k < 3; ++k) {
      lo[k] = std::numeric_limits<double>::infinity();
      hi[k] = -std::numeric_limits<double>::infinity();
    }
    for (int i = begin; i < end; ++i) {
      for (int k = 0; k < 3; ++k) {
        lo[k] = std::min(lo[k], lo_[face_[i]][k]);
        hi[k] = std::max(hi[k], hi_[face_[i]][k]);
      }
    }
  }

  // Builds the node of faces face_[begin, end) and its subtree; returns its number and the
  // faces' box (a parent's is the union of its children's).
  int node(int begin, int end, double* lo, double* hi) {
    const int n = nnode_++;
    if (end - begin <= kMeshBvhLeafFaces) {
      bounds(begin, end, lo, hi);
      child_[2 * n] = -begin;
      child_[2 * n + 1] = end - begin;
    } else {
      double clo[3], chi[3];
      for (int k = 0; k < 3; ++k) {
        clo[k] = std::numeric_limits<double>::infinity();
        chi[k] = -std::numeric_limits<double>::infinity();
      }
      for (int i = begin; i < end; ++i) {
        for (int k = 0; k < 3; ++k) {
          clo[k] = std::min(clo[k], centre_[face_[i]][k]);
          chi[k] = std::max(chi[k], centre_[face_[i]][k]);
        }
      }
      int axis = 0;
      for (int k = 1; k < 3; ++k) {
        if (chi[k] - clo[k] > chi[axis] - clo[axis]) axis = k;
      }
      const auto before = [&](int a, int b) {
        const double ca = centre_[a][axis], cb = centre_[b][axis];
        return ca < cb || (ca == cb && a < b);
      };
      // the halves are the same sets whatever the algorithm (a strict total order); a leaf keeps
      // its faces in this order
      const int mid = begin + (end - begin) / 2;
      std::nth_element(face_ + begin, face_ + mid, face_ + end, before);
      if (mid - begin <= kMeshBvhLeafFaces) std::sort(face_ + begin, face_ + mid, before);
      if (end - mid <= kMeshBvhLeafFaces) std::sort(face_ + mid, face_ + end, before);
      double lo1[3], hi1[3];
      child_[2 * n] = node(begin, mid, lo, hi);
      child_[2 * n + 1] = node(mid, end, lo1, hi1);
      for (int k = 0; k < 3; ++k) lo[k] = std::min(lo[k], lo1[k]), hi[k] = std::max(hi[k], hi1[k]);
    }
    for (int k = 0; k < 3; ++k) {
      box_[6 * n + k] = float_down(lo[k] - margin_);
      box_[6 * n + 3 + k] = float_up(hi[k] + margin_);
    }
    return n;
  }

  float* box_;
  int* child_;
  int* face_;
  int nface_;
  int nnode_ = 0;
  double margin_ = 0;
  std::vector<Vec> lo_, hi_, centre_;
};

// mesh_bvhbox, mesh_bvhchild, mesh_bvhface of m into box (12 nmeshface floats), child
// (4 nmeshface ints) and face (nmeshface ints).
void derive_mesh_bvh(const Model& m, float* box, int* child, int* face) {
  std::fill(box, box + 12 * int64_t{m.nmeshface}, 0.0f);
  std::fill(child, child + 4 * int64_t{m.nmeshface}, 0);
  std::fill(face, face + m.nmeshface, 0);
  for (int i = 0; i < m.nmesh; ++i) {
    const int64_t adr = m.mesh_faceadr[i];
    MeshBvhBuilder(m, i, box + 12 * adr, child + 4 * adr, face + adr).build();
  }
}

// The first element where a derived array differs from its expected contents.
template <typename T>
bool first_difference(const char* name, const std::vector<T>& expected, const T* actual,
                      const char** field, int64_t* element) {
  for (size_t k = 0; k < expected.size(); ++k) {
    if (std::memcmp(&expected[k], &actual[k], sizeof(T)) != 0) {
      *field = name;
      *element = static_cast<int64_t>(k);
      return true;
    }
  }
  return false;
}

}  // namespace

bool is_derived_field(std::string_view name) {
  return name == "mesh_graphvert" || name == "mesh_bvhbox" || name == "mesh_bvhchild" ||
         name == "mesh_bvhface";
}

void fill_derived(Model& m) {
  derive_mesh_graphvert(m, m.mesh_graphvert);
  derive_mesh_bvh(m, m.mesh_bvhbox, m.mesh_bvhchild, m.mesh_bvhface);
}

bool derived_mismatch(const Model& m, const char** field, int64_t* element) {
  std::vector<float> expected(3 * static_cast<size_t>(m.nmeshgraph));
  derive_mesh_graphvert(m, expected.data());
  if (first_difference("mesh_graphvert", expected, m.mesh_graphvert, field, element)) return true;
  const size_t nface = static_cast<size_t>(m.nmeshface);
  std::vector<float> box(12 * nface);
  std::vector<int> child(4 * nface), face(nface);
  derive_mesh_bvh(m, box.data(), child.data(), face.data());
  return first_difference("mesh_bvhbox", box, m.mesh_bvhbox, field, element) ||
         first_difference("mesh_bvhchild", child, m.mesh_bvhchild, field, element) ||
         first_difference("mesh_bvhface", face, m.mesh_bvhface, field, element);
}

}  // namespace joco
