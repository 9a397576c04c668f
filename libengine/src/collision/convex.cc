// General convex collisions through libccd's MPR, with MuJoCo 2.2.2's support functions (meshes by
// hill climbing over their convex hull), its correction of the MPR normal for smooth geoms, its
// multiccd perturbations, and the plane against a convex geom's support point.
#include "collision/convex.h"

#include <immintrin.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>

#include "model/mesh_graph.h"

namespace joco::narrow {

using namespace joco::math;

namespace {

constexpr double kMulticcdAngle = 1e-3;  // radians, the perturbation of the multiccd flag
constexpr double kNormalTolerance = 1e-6;
constexpr int kNormalIterations = 30;      // MuJoCo's cap; elongated ellipsoids stop short
constexpr double kPlaneMeshSpacing = 0.3;  // of rbound: extra plane-mesh contacts' distance
constexpr double kBoxGap = 1e-9;  // relative gap of boxes_apart (rounding is ~1e-16 relative)

double sign(double x) { return x > 0 ? 1 : (x < 0 ? -1 : 0); }

double vertex_dot(const float* v, const double* dir) {
  return v[0] * dir[0] + v[1] * dir[1] + v[2] * dir[2];
}

// Projections of neighbours [begin, end) of a hull graph vertex on (d0, d1, d2), two at a time,
// each rounded as vertex_dot's: their largest, and the first neighbour with it. Reads the entry
// after an odd list's last (its -1's slot, inside the graph) and ignores it. Needs finite
// projections (no NaN: maxpd and == would not order them as the scalar comparisons do).
struct Projector {
  __m128d d0, d1, d2;
  explicit Projector(const double* dir)
      : d0(_mm_set1_pd(dir[0])), d1(_mm_set1_pd(dir[1])), d2(_mm_set1_pd(dir[2])) {}
  __m128d pair(const HullGraph& g, int c) const {
    const __m128d x = _mm_cvtps_pd(_mm_castsi128_ps(_mm_loadl_epi64((const __m128i*)(g.x + c))));
    const __m128d y = _mm_cvtps_pd(_mm_castsi128_ps(_mm_loadl_epi64((const __m128i*)(g.y + c))));
    const __m128d z = _mm_cvtps_pd(_mm_castsi128_ps(_mm_loadl_epi64((const __m128i*)(g.z + c))));
    return _mm_add_pd(_mm_add_pd(_mm_mul_pd(x, d0), _mm_mul_pd(y, d1)), _mm_mul_pd(z, d2));
  }
  double largest(const HullGraph& g, int begin, int end) const {
    const __m128d low = _mm_set1_pd(-std::numeric_limits<double>::infinity());
    __m128d best = low;
    int c = begin;
    for (; c + 1 < end; c += 2) best = _mm_max_pd(best, pair(g, c));
    if (c < end) best = _mm_max_pd(best, _mm_move_sd(low, pair(g, c)));  // the lower lane only
    return std::max(_mm_cvtsd_f64(best), _mm_cvtsd_f64(_mm_unpackhi_pd(best, best)));
  }
  int first_equal(const HullGraph& g, int begin, double value) const {
    const __m128d v = _mm_set1_pd(value);
    for (int c = begin;; c += 2) {
      const int mask = _mm_movemask_pd(_mm_cmpeq_pd(pair(g, c), v));
      if (mask) return c + (mask & 1 ? 0 : 1);
    }
  }
  // The largest projection of neighbours [begin, end) in *top and, when it exceeds `above`, the
  // first entry with it (else -1).
  int best(const HullGraph& g, int begin, int end, double above, double* top) const {
    *top = largest(g, begin, end);
    return *top > above ? first_equal(g, begin, *top) : -1;
  }
};

// The same four at a time with AVX (chosen at run time): a hull vertex has about six neighbours,
// two loads of four instead of three of two. The products and sums are rounded as above (AVX has
// no fused multiply-add), and the maximum of exact values does not depend on the order, so the
// climb ends where the SSE2 one does. Reads up to three entries after a list's last: the rest of
// the graph's edge block in mesh_graphvert (its face slots follow the edges), ignored.
#define JOCO_AVX __attribute__((target("avx"), always_inline)) inline
struct ProjectorAvx {
  // masks of the first 1, 2, 3 lanes
  static constexpr int64_t kFirstLanes[4][4] = {
      {0, 0, 0, 0}, {-1, 0, 0, 0}, {-1, -1, 0, 0}, {-1, -1, -1, 0}};
  __m256d d0, d1, d2;
  JOCO_AVX explicit ProjectorAvx(const double* dir)
      : d0(_mm256_set1_pd(dir[0])), d1(_mm256_set1_pd(dir[1])), d2(_mm256_set1_pd(dir[2])) {}
  JOCO_AVX __m256d quad(const HullGraph& g, int c) const {
    const __m256d x = _mm256_cvtps_pd(_mm_loadu_ps(g.x + c));
    const __m256d y = _mm256_cvtps_pd(_mm_loadu_ps(g.y + c));
    const __m256d z = _mm256_cvtps_pd(_mm_loadu_ps(g.z + c));
    return _mm256_add_pd(_mm256_add_pd(_mm256_mul_pd(x, d0), _mm256_mul_pd(y, d1)),
                         _mm256_mul_pd(z, d2));
  }
  JOCO_AVX double largest(const HullGraph& g, int begin, int end) const {
    const __m256d low = _mm256_set1_pd(-std::numeric_limits<double>::infinity());
    __m256d best = low;
    int c = begin;
    for (; c + 3 < end; c += 4) best = _mm256_max_pd(best, quad(g, c));
    if (c < end) {  // the lanes before end only
      const __m256d keep = _mm256_castsi256_pd(
          _mm256_loadu_si256(reinterpret_cast<const __m256i*>(kFirstLanes[end - c])));
      best = _mm256_max_pd(best, _mm256_blendv_pd(low, quad(g, c), keep));
    }
    const __m128d half = _mm_max_pd(_mm256_castpd256_pd128(best), _mm256_extractf128_pd(best, 1));
    return std::max(_mm_cvtsd_f64(half), _mm_cvtsd_f64(_mm_unpackhi_pd(half, half)));
  }
  JOCO_AVX int first_equal(const HullGraph& g, int begin, double value) const {
    const __m256d v = _mm256_set1_pd(value);
    for (int c = begin;; c += 4) {
      const int mask = _mm256_movemask_pd(_mm256_cmp_pd(quad(g, c), v, _CMP_EQ_OQ));
      if (mask) return c + __builtin_ctz(static_cast<unsigned>(mask));
    }
  }
  // x with its lanes from `lanes` on (when below 4) set to -inf.
  JOCO_AVX __m256d first_lanes(__m256d x, int lanes) const {
    if (lanes >= 4) return x;
    const __m256d keep = _mm256_castsi256_pd(
        _mm256_loadu_si256(reinterpret_cast<const __m256i*>(kFirstLanes[lanes])));
    return _mm256_blendv_pd(_mm256_set1_pd(-std::numeric_limits<double>::infinity()), x, keep);
  }
  // As Projector::best. Up to eight neighbours (most hull vertices) the two quads are kept for
  // the search of the first entry instead of being projected again; lanes past end are -inf, so
  // they neither raise the largest nor match it.
  JOCO_AVX int best(const HullGraph& g, int begin, int end, double above, double* top) const {
    const int n = end - begin;
    if (n <= 0 || n > 8) {
      *top = largest(g, begin, end);
      return *top > above ? first_equal(g, begin, *top) : -1;
    }
    const __m256d a = first_lanes(quad(g, begin), n);
    const __m256d b = n > 4 ? first_lanes(quad(g, begin + 4), n - 4)
                            : _mm256_set1_pd(-std::numeric_limits<double>::infinity());
    const __m256d both = _mm256_max_pd(a, b);
    const __m128d half = _mm_max_pd(_mm256_castpd256_pd128(both), _mm256_extractf128_pd(both, 1));
    *top = std::max(_mm_cvtsd_f64(half), _mm_cvtsd_f64(_mm_unpackhi_pd(half, half)));
    if (!(*top > above)) return -1;
    const __m256d v = _mm256_set1_pd(*top);
    const int in_a = _mm256_movemask_pd(_mm256_cmp_pd(a, v, _CMP_EQ_OQ));
    if (in_a) return begin + __builtin_ctz(static_cast<unsigned>(in_a));
    const int in_b = _mm256_movemask_pd(_mm256_cmp_pd(b, v, _CMP_EQ_OQ));
    return begin + 4 + __builtin_ctz(static_cast<unsigned>(in_b));
  }
};
#undef JOCO_AVX

// Steepest ascent from graph vertex cur (projection best_dot): to the first neighbour of largest
// projection while that exceeds the current vertex's. Returns the end; *strict tells whether all
// its neighbours project below it (no tie). (The AVX instance is compiled for AVX as a whole, so
// that its projector inlines.)
#define JOCO_CLIMB(P)                                                         \
  for (const P p(dir);;) {                                                    \
    double top;                                                               \
    const int e = p.best(g, g.edgeadr[cur], g.edge_end(cur), best_dot, &top); \
    if (e < 0) {                                                              \
      *strict = top < best_dot;                                               \
      return cur;                                                             \
    }                                                                         \
    best_dot = top;                                                           \
    cur = g.edges[e];                                                         \
  }

int climb_sse2(const HullGraph& g, const double* dir, int cur, double best_dot, bool* strict) {
  JOCO_CLIMB(Projector)
}

__attribute__((target("avx"))) int climb_avx(const HullGraph& g, const double* dir, int cur,
                                             double best_dot, bool* strict) {
  JOCO_CLIMB(ProjectorAvx)
}
#undef JOCO_CLIMB

// The widest vector path this processor runs (2 or 4), once.
int detect_climb_width() {
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx") ? 4 : 2;
}
const int kClimbWidth = detect_climb_width();

// mesh_support_vertex (convex.h), inlined into the support function; the neighbours' positions
// come in a row from mesh_graphvert.
// *remembered (when given), where this direction's climb ended at the pair's last test, starts the
// climb instead of *last when it projects higher (and is overwritten with the end).
__attribute__((always_inline)) inline int support_vertex(const Model& m, int mesh,
                                                         const double* dir, int* last, int width,
                                                         int* remembered = nullptr) {
  const float* vert = m.mesh_vert + 3 * m.mesh_vertadr[mesh];
  HullGraph g;
  if (!hull_graph(m, mesh, &g)) {
    const int n = m.mesh_vertnum[mesh];
    int best = 0;
    double best_dot = vertex_dot(vert, dir);
    for (int i = 1; i < n; ++i) {
      const double v = vertex_dot(vert + 3 * i, dir);
      if (v > best_dot) {
        best_dot = v;
        best = i;
      }
    }
    return best;
  }
  int cur = 0;
  // float positions times components up to 1e30 give finite projections
  constexpr double kFinite = 1e30;
  const bool finite =
      std::abs(dir[0]) <= kFinite && std::abs(dir[1]) <= kFinite && std::abs(dir[2]) <= kFinite;
  // A climb from where the last one ended (*last, when a graph vertex), usually next to this one's
  // end. On the convex hull a vertex projecting strictly above all its neighbours is the one vertex
  // of largest projection, where the climb from vertex 0 ends too; a tie at the end (a face or edge
  // square to dir, where the start decides the vertex) climbs again from vertex 0.
  auto dot_of = [&](int v) { return vertex_dot(vert + 3 * g.globalid[v], dir); };
  int start = last && *last > 0 && *last < g.nvert ? *last : 0;
  double start_dot = dot_of(start);
  if (remembered && *remembered > 0 && *remembered < g.nvert && *remembered != start) {
    const double r = dot_of(*remembered);
    if (r > start_dot) {
      start = *remembered;
      start_dot = r;
    }
  }
  bool strict = false;
  if (finite && width >= 4) {
    cur = climb_avx(g, dir, start, start_dot, &strict);
    if (!strict && start) cur = climb_avx(g, dir, 0, dot_of(0), &strict);
  } else if (finite && width >= 2) {
    cur = climb_sse2(g, dir, start, start_dot, &strict);
    if (!strict && start) cur = climb_sse2(g, dir, 0, dot_of(0), &strict);
  } else {  // the same climb from vertex 0, one neighbour at a time
    double best_dot = dot_of(0);
    for (int next = cur;; cur = next) {
      for (int e = g.edgeadr[cur]; e < g.edge_end(cur); ++e) {
        const double v = g.x[e] * dir[0] + g.y[e] * dir[1] + g.z[e] * dir[2];
        if (v > best_dot) {
          best_dot = v;
          next = g.edges[e];
        }
      }
      if (next == cur) break;
    }
  }
  if (last) *last = cur;
  if (remembered) *remembered = cur;
  return g.globalid[cur];
}

}  // namespace

int mesh_support_vertex(const Model& m, int mesh, const double* dir, int* last, int width) {
  return support_vertex(m, mesh, dir, last, width < 0 ? kClimbWidth : width);
}

int mesh_climb_width() { return kClimbWidth; }

namespace {

// ---- normals of smooth geoms
// ---------------------------------------------------------------------

// Outward normal of an ellipsoid (radii r) near local point p. Inside: the surface point whose
// normal line passes through p, found by casting a ray from p along the current normal and taking
// the normal there, from `guess`. Outside: the nearest surface point.
void ellipsoid_normal(const double* r, const double* p, const double* guess, double* normal) {
  const double r2[3] = {r[0] * r[0], r[1] * r[1], r[2] * r[2]};
  const double inside = p[0] * p[0] / r2[0] + p[1] * p[1] / r2[1] + p[2] * p[2] / r2[2];
  if (inside < 1) {
    double n[3];
    copy3(n, guess);
    normalize3(n);
    for (int iter = 0; iter < kNormalIterations; ++iter) {
      double a = 0, b = 0;
      for (int i = 0; i < 3; ++i) {
        a += n[i] * n[i] / r2[i];
        b += p[i] * n[i] / r2[i];
      }
      const double c = inside - 1;
      const double t = (-b + std::sqrt(b * b - a * c)) / a;
      double next[3];
      for (int i = 0; i < 3; ++i) next[i] = (p[i] + t * n[i]) / r2[i];
      normalize3(next);
      double step[3];
      sub3(step, next, n);
      copy3(n, next);
      if (norm3(step) < kNormalTolerance) break;
    }
    copy3(normal, n);
    return;
  }
  // outside: the nearest surface point x_i = r2_i p_i / (r2_i + t), Newton on t from 0, stopping
  // (the step not taken) once a step is below kNormalTolerance, as MuJoCo 2.2.2 does (measured: its
  // normals are exactly those of these iterates)
  double t = 0;
  for (int iter = 0; iter < kNormalIterations; ++iter) {
    double f = -1, df = 0;
    for (int i = 0; i < 3; ++i) {
      const double q = r[i] * p[i] / (r2[i] + t);
      f += q * q;
      df -= 2 * q * q / (r2[i] + t);
    }
    if (df == 0) break;
    const double step = f / df;
    if (std::abs(step) < kNormalTolerance) break;
    t -= step;
  }
  for (int i = 0; i < 3; ++i) normal[i] = p[i] / (r2[i] + t);
  normalize3(normal);
}

// Outward unit normal (world) of a smooth geom near point p (world), or false where the geom is not
// smooth (boxes, meshes, prisms, the caps and rims of cylinders). `guess` (world) starts the
// ellipsoid's search.
bool smooth_normal(const ConvexObject& obj, const double* p, const double* guess, double* normal) {
  const Model& m = *obj.model;
  if (obj.type != kGeomSphere && obj.type != kGeomCapsule && obj.type != kGeomEllipsoid &&
      obj.type != kGeomCylinder) {
    return false;
  }
  const double* size = m.geom_size + 3 * obj.geom;
  double dif[3], local[3], n[3];
  sub3(dif, p, obj.pos);
  mat_t_vec3(local, obj.mat, dif);
  switch (obj.type) {
    case kGeomSphere: copy3(n, local); break;
    case kGeomCapsule: {
      const double z = local[2] > size[1] ? size[1] : (local[2] < -size[1] ? -size[1] : local[2]);
      n[0] = local[0];
      n[1] = local[1];
      n[2] = local[2] - z;
      break;
    }
    case kGeomEllipsoid: {
      double g[3];
      mat_t_vec3(g, obj.mat, guess);
      ellipsoid_normal(size, local, g, n);
      break;
    }
    default: {  // cylinder: only the side, away from the rims
      const double z = std::abs(local[2]);
      const double rad = std::sqrt(local[0] * local[0] + local[1] * local[1]);
      if (z >= 0.95 * size[1] || std::abs(size[0] - rad) >= 4 * (size[1] - z)) return false;
      n[0] = local[0];
      n[1] = local[1];
      n[2] = 0;
      break;
    }
  }
  normalize3(n);
  mat_vec3(normal, obj.mat, n);
  return true;
}

// Replaces the MPR normal by the surface normals of the smooth geoms at the contact point: the
// normalised sum of a's outward normal and b's inward normal, or the one that exists.
void fix_normal(const ConvexObject& a, const ConvexObject& b, Contact* con) {
  double n1[3], n2[3], back[3];
  scale3(back, con->frame, -1);
  const bool has1 = smooth_normal(a, con->pos, con->frame, n1);
  const bool has2 = smooth_normal(b, con->pos, back, n2);
  if (has1 && has2) {
    sub3(con->frame, n1, n2);
    normalize3(con->frame);
  } else if (has1) {
    copy3(con->frame, n1);
  } else if (has2) {
    scale3(con->frame, n2, -1);
  }
}

// obj rotated by `angle` about the unit axis through point p.
void rotate_object(ConvexObject* obj, const double* axis, double angle, const double* p) {
  double q[4], rot[9], mat[9], dif[3], moved[3];
  axis_angle_to_quat(q, axis, angle);
  quat_to_mat(rot, q);
  mat_mat3(mat, rot, obj->mat);
  for (int i = 0; i < 9; ++i) obj->mat[i] = mat[i];
  // the centre moves by R d - d (d its offset from p), rounded as MuJoCo 2.2.2 rounds it: its
  // turned centres (seen through libccd's centre callback) are these bit for bit, while p + R d
  // differs in the last bit in about half of them, enough to flip ties between the support points
  // of faces lying on each other
  sub3(dif, obj->pos, p);
  mat_vec3(moved, rot, dif);
  for (int i = 0; i < 3; ++i) obj->pos[i] += moved[i] - dif[i];
  obj->vertex = -1;
}

// Half-extents along its local axes of a box centred at geom g's frame that holds every support
// point of the geom (before the margin); false for types without one. A mesh geom's size is the
// symmetric box of its vertices (rbound is that box's half diagonal; 0 when the mesh is
// degenerate).
bool local_half_extents(const Model& m, int g, double* half) {
  if (g < 0 || m.geom_rbound[g] <= 0) return false;
  const double* size = m.geom_size + 3 * g;
  switch (m.geom_type[g]) {
    case kGeomSphere: half[0] = half[1] = half[2] = size[0]; return true;
    case kGeomCapsule:
      half[0] = half[1] = size[0];
      half[2] = size[0] + size[1];
      return true;
    case kGeomCylinder:
      half[0] = half[1] = size[0];
      half[2] = size[1];
      return true;
    case kGeomEllipsoid:
    case kGeomBox:
    case kGeomMesh: copy3(half, size); return true;
    default: return false;
  }
}

}  // namespace

bool boxes_apart(const ConvexObject& a, const ConvexObject& b, double margin) {
  if (a.type == kGeomHfield || b.type == kGeomHfield) return false;
  double ha[3], hb[3];
  if (!local_half_extents(*a.model, a.geom, ha) || !local_half_extents(*b.model, b.geom, hb)) {
    return false;
  }
  for (int k = 0; k < 3; ++k) {
    ha[k] += margin / 2;
    hb[k] += margin / 2;
  }
  // r = A'B (b's axes in a's frame), t = A'(pb - pa): the separating axis test over a's axes, b's
  // axes and their 9 cross products, each asking for a gap far above the rounding of these sums and
  // of MPR's own points
  double r[9], ar[9], dif[3], t[3];
  mat_t_mat3(r, a.mat, b.mat);
  sub3(dif, b.pos, a.pos);
  mat_t_vec3(t, a.mat, dif);
  double scale = 0;
  for (int k = 0; k < 3; ++k) scale += std::abs(a.pos[k]) + std::abs(b.pos[k]) + ha[k] + hb[k];
  const double gap = kBoxGap * scale;
  for (int i = 0; i < 9; ++i) ar[i] = std::abs(r[i]) + kBoxGap;
  for (int i = 0; i < 3; ++i) {
    const double rb = hb[0] * ar[3 * i] + hb[1] * ar[3 * i + 1] + hb[2] * ar[3 * i + 2];
    if (std::abs(t[i]) > ha[i] + rb + gap) return true;
  }
  for (int j = 0; j < 3; ++j) {
    const double ra = ha[0] * ar[j] + ha[1] * ar[3 + j] + ha[2] * ar[6 + j];
    const double tj = t[0] * r[j] + t[1] * r[3 + j] + t[2] * r[6 + j];
    if (std::abs(tj) > ra + hb[j] + gap) return true;
  }
  for (int i = 0; i < 3; ++i) {
    const int i1 = (i + 1) % 3, i2 = (i + 2) % 3;
    for (int j = 0; j < 3; ++j) {
      const int j1 = (j + 1) % 3, j2 = (j + 2) % 3;
      const double ra = ha[i1] * ar[3 * i2 + j] + ha[i2] * ar[3 * i1 + j];
      const double rb = hb[j1] * ar[3 * i + j2] + hb[j2] * ar[3 * i + j1];
      const double tij = t[i2] * r[3 * i1 + j] - t[i1] * r[3 * i2 + j];
      if (std::abs(tij) > ra + rb + gap) return true;
    }
  }
  return false;
}

void convex_object(ConvexObject* obj, const Model& m, const Data& d, int g, double margin) {
  obj->model = &m;
  obj->geom = g;
  obj->type = m.geom_type[g];
  obj->margin = margin;
  copy3(obj->pos, d.geom_xpos + 3 * g);
  for (int i = 0; i < 9; ++i) obj->mat[i] = d.geom_xmat[9 * g + i];
  obj->vertex = -1;
  obj->climb_starts = nullptr;
}

namespace {

// Support point in local coordinates for the local direction `local` (unnormalised), pushed out by
// margin / 2 along it.
void local_support(const ConvexObject& obj, const double* local, double margin, double* res) {
  const Model& m = *obj.model;
  const double* size = m.geom_size + 3 * obj.geom;
  switch (obj.type) {
    case kGeomSphere: scale3(res, local, size[0]); break;
    case kGeomCapsule:
      scale3(res, local, size[0]);
      res[2] += sign(local[2]) * size[1];
      break;
    case kGeomEllipsoid: {
      double scaled[3] = {local[0] * size[0], local[1] * size[1], local[2] * size[2]};
      normalize3(scaled);
      for (int i = 0; i < 3; ++i) res[i] = scaled[i] * size[i];
      break;
    }
    case kGeomCylinder: {
      const double len = std::sqrt(local[0] * local[0] + local[1] * local[1]);
      if (len < kMinVal) {
        res[0] = res[1] = 0;
      } else {
        res[0] = local[0] / len * size[0];
        res[1] = local[1] / len * size[0];
      }
      res[2] = sign(local[2]) * size[1];
      break;
    }
    case kGeomBox:
      for (int i = 0; i < 3; ++i) res[i] = sign(local[i]) * size[i];
      break;
    case kGeomMesh: {
      const int mesh = m.geom_dataid[obj.geom];
      int* remembered = obj.climb_starts && obj.support_calls <= kClimbStartCalls
                            ? obj.climb_starts + obj.support_calls - 1
                            : nullptr;
      const int v = support_vertex(m, mesh, local, &obj.vertex, kClimbWidth, remembered);
      const float* f = m.mesh_vert + 3 * (m.mesh_vertadr[mesh] + v);
      res[0] = f[0];
      res[1] = f[1];
      res[2] = f[2];
      break;
    }
    default: zero3(res);
  }
  if (margin != 0) add_scaled3(res, res, local, margin / 2);
}

void support_with_margin(const ConvexObject& obj, const double* dir, double margin, double* out) {
  if (obj.type == kGeomHfield) {
    // prism (height field frame, z up): the top vertices unless the direction points down
    const int first = dir[2] < 0 ? 3 : 0;
    int best = first;
    double best_dot = dot3(obj.prism[first], dir);
    for (int i = first + 1; i < first + 3; ++i) {
      const double v = dot3(obj.prism[i], dir);
      if (v > best_dot) {
        best_dot = v;
        best = i;
      }
    }
    copy3(out, obj.prism[best]);
    if (margin != 0) add_scaled3(out, out, dir, margin / 2);
    return;
  }
  double local[3], res[3];
  mat_t_vec3(local, obj.mat, dir);
  local_support(obj, local, margin, res);
  mat_vec3(out, obj.mat, res);
  add3(out, out, obj.pos);
}

}  // namespace

void support_point(const ConvexObject& obj, const double* dir, double* out) {
  support_with_margin(obj, dir, 0, out);
}

void convex_support(const void* obj, const ccd_vec3_t* dir, ccd_vec3_t* out) {
  const ConvexObject& o = *static_cast<const ConvexObject*>(obj);
  if (o.support_budget == 0) {
    for (double& x : out->v) x = std::numeric_limits<double>::quiet_NaN();
    return;
  }
  if (o.support_budget > 0) --o.support_budget;
  ++o.support_calls;
  copy3(o.last_dir, dir->v);
  support_with_margin(o, dir->v, o.margin, out->v);
}

void convex_center(const void* obj, ccd_vec3_t* center) {
  const ConvexObject& o = *static_cast<const ConvexObject*>(obj);
  if (o.type == kGeomHfield) {
    zero3(center->v);
    for (int i = 0; i < 6; ++i) add3(center->v, center->v, o.prism[(i + 3) % 6]);  // bottom first
    scale3(center->v, center->v, 1.0 / 6);
  } else {
    copy3(center->v, o.pos);
  }
}

int mpr_penetration(const Model& m, ConvexObject* a, ConvexObject* b, double margin, Contact* con,
                    int support_budget) {
  ccd_t ccd;
  ccd.first_dir = ccdFirstDirDefault;
  ccd.support1 = convex_support;
  ccd.support2 = convex_support;
  ccd.center1 = convex_center;
  ccd.center2 = convex_center;
  ccd.max_iterations = static_cast<unsigned long>(m.opt.mpr_iterations);
  ccd.mpr_tolerance = m.opt.mpr_tolerance;
  ccd.epa_tolerance = 0;
  ccd.dist_tolerance = 0;
  ccd_real_t depth;
  ccd_vec3_t dir, pos;
  a->support_budget = b->support_budget = support_budget;
  a->support_calls = b->support_calls = 0;
  const int status = ccdMPRPenetration(a, b, &ccd, &depth, &dir, &pos);
  const bool exhausted = a->support_budget == 0 || b->support_budget == 0;
  a->support_budget = b->support_budget = -1;
  if (status != 0 || exhausted) return 0;
  if (norm3(dir.v) < kMinVal) return 0;  // touching with no direction: no contact
  set_contact(con, margin - depth, pos.v, dir.v);
  fix_normal(*a, *b, con);
  return 1;
}

int mpr_contact(const Model& m, ConvexObject* a, ConvexObject* b, double margin, Contact* con) {
  if (boxes_apart(*a, *b, margin)) return 0;  // most candidate pairs, at a fraction of MPR's cost
  return mpr_penetration(m, a, b, margin, con);
}

bool multiccd_applies(const Model& m, int type1, int type2) {
  if (!(m.opt.enableflags & kEnableMulticcd)) return false;
  return type1 != kGeomSphere && type1 != kGeomEllipsoid && type2 != kGeomSphere &&
         type2 != kGeomEllipsoid;
}

int multiccd_contacts(const Model& m, const ConvexObject& a, const ConvexObject& b, double margin,
                      Contact* con, int n) {
  double frame[9] = {};
  copy3(frame, con[0].frame);
  make_contact_frame(frame);
  const double rb1 = a.geom >= 0 ? m.geom_rbound[a.geom] : 0;
  const double rb2 = b.geom >= 0 ? m.geom_rbound[b.geom] : 0;
  const double tolerance = kMulticcdAngle * (rb1 < rb2 ? rb1 : rb2);
  for (int k = 0; k < 2; ++k) {
    for (const double s : {-1.0, 1.0}) {
      if (n >= kMaxConPair) return n;
      ConvexObject pa = a, pb = b;
      rotate_object(&pa, frame + 3 * (k + 1), s * kMulticcdAngle, con[0].pos);
      rotate_object(&pb, frame + 3 * (k + 1), -s * kMulticcdAngle, con[0].pos);
      Contact candidate;
      if (!mpr_contact(m, &pa, &pb, margin, &candidate)) continue;
      bool fresh = true;
      for (int i = 0; i < n && fresh; ++i) {
        fresh = dist3(candidate.pos, con[i].pos) > tolerance;
      }
      if (!fresh) continue;
      candidate.dist = con[0].dist;
      con[n++] = candidate;
    }
  }
  return n;
}

namespace {

uint32_t pair_hash(int g1, int g2) {
  return static_cast<uint32_t>(g1) * 73856093u ^ static_cast<uint32_t>(g2) * 19349663u;
}

SeparatingAxis& separating_axis_slot(const Data& d, int g1, int g2) {
  return d.separating_axes[pair_hash(g1, g2) & (kSeparatingAxisSlots - 1)];
}

// The pair's slot of climb starts, taken over (cleared) when another pair held it; nullptr when
// neither is a mesh or the Data keeps none.
ClimbStarts* climb_starts_slot(const Data& d, const ConvexObject& a, const ConvexObject& b) {
  if (d.climb_start_slots == 0 || (a.type != kGeomMesh && b.type != kGeomMesh)) return nullptr;
  ClimbStarts& slot = d.climb_starts[pair_hash(a.geom, b.geom) & (d.climb_start_slots - 1)];
  if (slot.geom1 != a.geom || slot.geom2 != b.geom) {
    slot = ClimbStarts{};
    slot.geom1 = a.geom;
    slot.geom2 = b.geom;
  }
  return &slot;
}

// Whether the slot's unit direction separates a and b, their margins included, by more than the
// rounding of these sums and of MPR's own points (kBoxGap, as boxes_apart): a's farthest point
// along it falls short of b's nearest. MPR then finds no contact (it reports one only with the
// origin inside a tetrahedron of points of a - b, which all lie beyond that gap). The mesh hill
// climbs start where the slot's last ended (any start finds the same farthest distance), and a's
// and b's own starts are put back, so that MPR's climbs start where they would have.
bool separated_along(const ConvexObject& a, const ConvexObject& b, SeparatingAxis& slot) {
  const int start_a = a.vertex, start_b = b.vertex;
  a.vertex = slot.vertex1;
  b.vertex = slot.vertex2;
  double pa[3], pb[3], back[3];
  support_with_margin(a, slot.dir, a.margin, pa);
  scale3(back, slot.dir, -1);
  support_with_margin(b, back, b.margin, pb);
  slot.vertex1 = a.vertex;
  slot.vertex2 = b.vertex;
  a.vertex = start_a;
  b.vertex = start_b;
  double scale = 0;
  for (int k = 0; k < 3; ++k) scale += std::abs(a.pos[k]) + std::abs(b.pos[k]);
  scale += a.model->geom_rbound[a.geom] + b.model->geom_rbound[b.geom] + a.margin;
  return dot3(pb, slot.dir) - dot3(pa, slot.dir) > kBoxGap * scale;
}

}  // namespace

int convex_convex(const Model& m, const Data& d, Contact* con, int g1, int g2, double margin) {
  ConvexObject a, b;
  convex_object(&a, m, d, g1, margin);
  convex_object(&b, m, d, g2, margin);
  if (boxes_apart(a, b, margin)) return 0;  // most candidate pairs, at a fraction of MPR's cost
  // Pairs that are near stay apart along the same axis from one step to the next: MPR's last
  // direction when it found none, kept per pair, spares most of its calls (UR5: three in four).
  SeparatingAxis& slot = separating_axis_slot(d, g1, g2);
  if (slot.geom1 == g1 && slot.geom2 == g2 && separated_along(a, b, slot)) return 0;
  // A resting contact's MPR asks the same directions step after step: its mesh climbs start where
  // the last test's ended, call by call.
  if (ClimbStarts* starts = climb_starts_slot(d, a, b)) {
    a.climb_starts = starts->vertex[0];
    b.climb_starts = starts->vertex[1];
  }
  const int touching = mpr_penetration(m, &a, &b, margin, con);
  a.climb_starts = b.climb_starts = nullptr;
  if (!touching) {
    const double norm = norm3(a.last_dir);
    if (norm > kMinVal && std::isfinite(norm)) {
      SeparatingAxis found{g1, g2, a.vertex, b.vertex, {}};
      scale3(found.dir, a.last_dir, 1 / norm);
      if (separated_along(a, b, found)) slot = found;
    }
    return 0;
  }
  if (slot.geom1 == g1 && slot.geom2 == g2) slot.geom1 = -1;  // in contact: no axis to try next
  if (!multiccd_applies(m, a.type, b.type)) return 1;
  convex_object(&a, m, d, g1, margin);
  convex_object(&b, m, d, g2, margin);
  return multiccd_contacts(m, a, b, margin, con, 1);
}

int plane_convex(const Model& m, const Data& d, Contact* con, int g1, int g2, double margin) {
  const double* plane_pos = d.geom_xpos + 3 * g1;
  double normal[3], down[3], point[3];
  mat_column(normal, d.geom_xmat + 9 * g1, 2);
  scale3(down, normal, -1);
  ConvexObject obj;
  convex_object(&obj, m, d, g2, 0);
  support_point(obj, down, point);
  int n = plane_point(con, plane_pos, normal, point, margin);
  if (n == 0) return 0;

  // meshes: the hull neighbours of the deepest vertex within the margin, up to three contacts in
  // all, skipping those (the vertices themselves) within 0.3 rbound of the first contact's point:
  // MuJoCo 2.2.2's rule, found by scanning depths (a neighbour joins and leaves as the first
  // point, midway to the plane, moves; the switch lies between 0.2989 and 0.3046 rbound)
  HullGraph g;
  if (obj.type != kGeomMesh || !hull_graph(m, m.geom_dataid[g2], &g)) return n;
  const int mesh = m.geom_dataid[g2];
  const float* vert = m.mesh_vert + 3 * m.mesh_vertadr[mesh];
  const double far = kPlaneMeshSpacing * m.geom_rbound[g2];
  for (int e = g.edgeadr[obj.vertex]; g.edges[e] >= 0 && n < 3; ++e) {
    const float* v = vert + 3 * g.globalid[g.edges[e]];
    const double local[3] = {v[0], v[1], v[2]};
    mat_vec3(point, obj.mat, local);
    add3(point, point, obj.pos);
    if (dist3(point, con[0].pos) <= far) continue;
    n += plane_point(con + n, plane_pos, normal, point, margin);
  }
  return n;
}

}  // namespace joco::narrow
