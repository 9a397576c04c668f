#include "joco/ray.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "math/vec.h"
#include "model/mesh_bvh.h"
#include "ray/ray_hfield.h"
#include "ray/ray_mesh.h"

namespace joco {

namespace {

using namespace math;

// Keeps the nearest non-negative distance: best < 0 means none yet.
inline void keep_nearest(double& best, double x) {
  if (x >= 0 && (best < 0 || x < best)) best = x;
}

// The ray in a geom's frame: p = mat' (pnt - pos), v = mat' vec.
inline void to_local(double* p, double* v, const double* pos, const double* mat, const double* pnt,
                     const double* vec) {
  double dif[3];
  sub3(dif, pnt, pos);
  mat_t_vec3(p, mat, dif);
  mat_t_vec3(v, mat, vec);
}

// Nearest non-negative root of a x^2 + 2 b x + c = 0 (a > 0), -1 when there is none. From inside
// (c < 0) that is the larger root.
double nearest_root(double a, double b, double c) {
  const double disc = b * b - a * c;
  if (a < kMinVal || disc < 0) return -1;
  const double s = std::sqrt(disc);
  const double x1 = (-b - s) / a;
  if (x1 >= 0) return x1;
  const double x2 = (-b + s) / a;
  return x2 >= 0 ? x2 : -1;
}

// Unit-radius sphere-like quadric: |p + x v|^2 = r^2.
double ray_sphere(const double* p, const double* v, double radius) {
  return nearest_root(dot3(v, v), dot3(p, v), dot3(p, p) - radius * radius);
}

// Nearest hit of the lateral surface of the z-axis cylinder of radius r with |z| <= h.
double ray_cylinder_side(const double* p, const double* v, double radius, double half) {
  const double a = v[0] * v[0] + v[1] * v[1];
  const double b = p[0] * v[0] + p[1] * v[1];
  const double c = p[0] * p[0] + p[1] * p[1] - radius * radius;
  const double disc = b * b - a * c;
  if (a < kMinVal || disc < 0) return -1;
  const double s = std::sqrt(disc);
  double best = -1;
  for (const double x : {(-b - s) / a, (-b + s) / a}) {
    if (x >= 0 && std::abs(p[2] + x * v[2]) <= half) keep_nearest(best, x);
  }
  return best;
}

double ray_capsule(const double* p, const double* v, const double* size) {
  double best = ray_cylinder_side(p, v, size[0], size[1]);
  const double a = dot3(v, v);
  for (const double z : {size[1], -size[1]}) {
    // both crossings of the cap's sphere: only its outer half belongs to the surface, and a ray
    // leaving the cylinder part may enter the sphere through its inner half first
    const double q[3] = {p[0], p[1], p[2] - z};
    const double b = dot3(q, v), c = dot3(q, q) - size[0] * size[0];
    const double disc = b * b - a * c;
    if (a < kMinVal || disc < 0) continue;
    const double s = std::sqrt(disc);
    for (const double x : {(-b - s) / a, (-b + s) / a}) {
      if (x >= 0 && (q[2] + x * v[2]) * z >= 0) keep_nearest(best, x);
    }
  }
  return best;
}

double ray_ellipsoid(const double* p, const double* v, const double* size) {
  const double ps[3] = {p[0] / size[0], p[1] / size[1], p[2] / size[2]};
  const double vs[3] = {v[0] / size[0], v[1] / size[1], v[2] / size[2]};
  return ray_sphere(ps, vs, 1);
}

double ray_cylinder(const double* p, const double* v, const double* size) {
  double best = ray_cylinder_side(p, v, size[0], size[1]);
  if (std::abs(v[2]) >= kMinVal) {
    for (const double z : {size[1], -size[1]}) {
      const double x = (z - p[2]) / v[2];
      const double px = p[0] + x * v[0], py = p[1] + x * v[1];
      if (x >= 0 && px * px + py * py <= size[0] * size[0]) keep_nearest(best, x);
    }
  }
  return best;
}

double ray_box(const double* p, const double* v, const double* size) {
  double best = -1;
  for (int i = 0; i < 3; ++i) {
    if (std::abs(v[i]) < kMinVal) continue;
    const int j = (i + 1) % 3, k = (i + 2) % 3;
    for (const double side : {size[i], -size[i]}) {
      const double x = (side - p[i]) / v[i];
      if (x >= 0 && std::abs(p[j] + x * v[j]) <= size[j] && std::abs(p[k] + x * v[k]) <= size[k]) {
        keep_nearest(best, x);
      }
    }
  }
  return best;
}

double ray_plane(const double* p, const double* v, const double* size) {
  // seen only from above: the ray must go down towards z = 0 from z >= 0
  if (p[2] < 0 || v[2] >= 0) return -1;
  const double x = -p[2] / v[2];
  const double px = p[0] + x * v[0], py = p[1] + x * v[1];
  if ((size[0] > 0 && std::abs(px) > size[0]) || (size[1] > 0 && std::abs(py) > size[1])) {
    return -1;
  }
  return x;
}

// Ray against triangle (a, b, c), both sides (Moller-Trumbore).
double ray_triangle(const double* p, const double* v, const double* a, const double* b,
                    const double* c) {
  double e1[3], e2[3], h[3], s[3], q[3];
  sub3(e1, b, a);
  sub3(e2, c, a);
  cross3(h, v, e2);
  const double det = dot3(e1, h);
  if (std::abs(det) < kMinVal) return -1;
  const double inv = 1 / det;
  sub3(s, p, a);
  const double u = inv * dot3(s, h);
  if (u < 0 || u > 1) return -1;
  cross3(q, s, e1);
  const double w = inv * dot3(v, q);
  if (w < 0 || u + w > 1) return -1;
  return inv * dot3(e2, q);
}

// Face f of a mesh (vertices vert, faces face) against the ray.
inline double ray_face(const float* vert, const int* face, int f, const double* p,
                       const double* v) {
  double corner[3][3];
  for (int k = 0; k < 3; ++k) {
    const float* c = vert + 3 * face[3 * f + k];
    corner[k][0] = c[0];
    corner[k][1] = c[1];
    corner[k][2] = c[2];
  }
  return ray_triangle(p, v, corner[0], corner[1], corner[2]);
}

// Invisible: alpha 0 in the material's rgba when the geom has one (it overrides the geom's), else
// in the geom's.
bool visible(const Model& m, int g) {
  const int mat = m.geom_matid[g];
  return (mat >= 0 ? m.mat_rgba[4 * mat + 3] : m.geom_rgba[4 * g + 3]) != 0;
}

// Whether the ray certainly misses the sphere of radius r around c (widened far above rounding):
// then it misses every geom inside. Degenerate rays (vec = 0) are left to the geom tests.
bool misses_sphere(const double* c, double r, const double* pnt, const double* vec) {
  const double vv = dot3(vec, vec);
  if (vv == 0) return false;
  double w[3];
  sub3(w, c, pnt);
  const double t = std::max(0.0, dot3(w, vec) / vv);  // the ray's point nearest the centre
  const double q[3] = {w[0] - t * vec[0], w[1] - t * vec[1], w[2] - t * vec[2]};
  const double reach = r * (1 + 1e-6) + 1e-9;
  return dot3(q, q) > reach * reach;
}

}  // namespace

double ray_geom(const double pos[3], const double mat[9], const double size[3], const double pnt[3],
                const double vec[3], int geomtype) {
  double p[3], v[3];
  to_local(p, v, pos, mat, pnt, vec);
  switch (geomtype) {
    case kGeomPlane: return ray_plane(p, v, size);
    case kGeomSphere: return ray_sphere(p, v, size[0]);
    case kGeomCapsule: return ray_capsule(p, v, size);
    case kGeomEllipsoid: return ray_ellipsoid(p, v, size);
    case kGeomCylinder: return ray_cylinder(p, v, size);
    case kGeomBox: return ray_box(p, v, size);
    default: return -1;
  }
}

double ray_mesh_faces(const Model& m, int mesh, const double p[3], const double v[3]) {
  const float* vert = m.mesh_vert + 3 * m.mesh_vertadr[mesh];
  const int* face = m.mesh_face + 3 * m.mesh_faceadr[mesh];
  double best = -1;
  for (int f = 0; f < m.mesh_facenum[mesh]; ++f) keep_nearest(best, ray_face(vert, face, f, p, v));
  return best;
}

double ray_mesh_local(const Model& m, int mesh, const double p[3], const double v[3],
                      double bound) {
  const MeshBvh bvh = mesh_bvh(m, mesh);
  if (bvh.nface == 0) return -1;
  // Where the ray enters node n's box (0 from inside), -1 when it misses it. An axis the ray is
  // parallel to only asks whether p is within the box's slab.
  double inv[3];
  for (int k = 0; k < 3; ++k) inv[k] = v[k] != 0 ? 1 / v[k] : 0;
  auto enter = [&](int n) {
    const float* box = bvh.box + 6 * n;
    double tlo = 0, thi = std::numeric_limits<double>::infinity();
    for (int k = 0; k < 3; ++k) {
      if (v[k] == 0) {
        if (p[k] < box[k] || p[k] > box[k + 3]) return -1.0;
        continue;
      }
      double t1 = (box[k] - p[k]) * inv[k], t2 = (box[k + 3] - p[k]) * inv[k];
      if (t1 > t2) std::swap(t1, t2);
      tlo = std::max(tlo, t1);
      thi = std::min(thi, t2);
    }
    return tlo <= thi ? tlo : -1.0;
  };
  const float* vert = m.mesh_vert + 3 * m.mesh_vertadr[mesh];
  const int* face = m.mesh_face + 3 * m.mesh_faceadr[mesh];
  double best = -1;
  // nodes still to visit with their entry distances, the nearest on top
  int stack[kMeshBvhMaxDepth + 1];
  double stack_t[kMeshBvhMaxDepth + 1];
  int top = 0;
  const double t_root = enter(0);
  if (t_root < 0) return -1;
  stack[0] = 0, stack_t[0] = t_root, top = 1;
  while (top > 0) {
    --top;
    const int n = stack[top];
    // boxes entered beyond the nearest hit so far hold no nearer face
    const double nearest = best < 0 ? bound : (bound < 0 ? best : std::min(best, bound));
    if (nearest >= 0 && stack_t[top] > nearest * (1 + 1e-9)) continue;
    if (bvh.leaf(n)) {
      const int* f = bvh.face - bvh.child[2 * n];
      for (int i = 0; i < bvh.child[2 * n + 1]; ++i) {
        keep_nearest(best, ray_face(vert, face, f[i], p, v));
      }
      continue;
    }
    const int a = bvh.child[2 * n], b = bvh.child[2 * n + 1];
    double ta = enter(a), tb = enter(b);
    if (ta < 0 && tb < 0) continue;
    if (ta < 0) {
      stack[top] = b, stack_t[top++] = tb;
    } else if (tb < 0) {
      stack[top] = a, stack_t[top++] = ta;
    } else if (ta <= tb) {  // the farther first, so that the nearer is visited next
      stack[top] = b, stack_t[top++] = tb;
      stack[top] = a, stack_t[top++] = ta;
    } else {
      stack[top] = a, stack_t[top++] = ta;
      stack[top] = b, stack_t[top++] = tb;
    }
  }
  return best;
}

namespace {

// The ray against mesh geom `geom` as ray_mesh_local (nearest hit at most `bound`).
double ray_mesh_bounded(const Model& m, const Data& d, int geom, const double pnt[3],
                        const double vec[3], double bound) {
  const int mesh = m.geom_dataid[geom];
  if (m.geom_type[geom] != kGeomMesh || mesh < 0) return -1;
  double p[3], v[3];
  to_local(p, v, d.geom_xpos + 3 * geom, d.geom_xmat + 9 * geom, pnt, vec);
  return ray_mesh_local(m, mesh, p, v, bound);
}

}  // namespace

double ray_mesh(const Model& m, const Data& d, int geom, const double pnt[3], const double vec[3]) {
  return ray_mesh_bounded(m, d, geom, pnt, vec, -1);
}

double ray_hfield_cell(const Model& m, int hf, const double p[3], const double v[3], int r, int c) {
  const double* size = m.hfield_size + 4 * hf;
  const int nrow = m.hfield_nrow[hf], ncol = m.hfield_ncol[hf];
  const float* data = m.hfield_data + m.hfield_adr[hf];
  const double dx = 2 * size[0] / (ncol - 1), dy = 2 * size[1] / (nrow - 1);
  auto vertex = [&](int row, int col, double* out) {
    out[0] = -size[0] + col * dx;
    out[1] = -size[1] + row * dy;
    out[2] = size[2] * data[row * ncol + col];
  };
  double v00[3], v01[3], v10[3], v11[3];
  vertex(r, c, v00);
  vertex(r, c + 1, v01);
  vertex(r + 1, c, v10);
  vertex(r + 1, c + 1, v11);
  double best = -1;
  keep_nearest(best, ray_triangle(p, v, v00, v11, v10));
  keep_nearest(best, ray_triangle(p, v, v00, v01, v11));
  return best;
}

namespace {

// floor(u) clamped to [0, last], in floating point before the conversion: a coordinate far off
// the grid (or NaN, which goes to 0) never becomes an int out of range.
int grid_index(double u, int last) {
  const double i = std::floor(u);
  return i >= 0 ? (i < last ? static_cast<int>(i) : last) : 0;
}

}  // namespace

double ray_hfield_surface(const Model& m, int hf, const double p[3], const double v[3],
                          double bound) {
  const double* size = m.hfield_size + 4 * hf;
  const int ncell[2] = {m.hfield_ncol[hf] - 1, m.hfield_nrow[hf] - 1};  // along x, along y
  const double cell[2] = {2 * size[0] / ncell[0], 2 * size[1] / ncell[1]};
  // Every cell is widened by a margin far above the rounding of the triangle tests, so that a
  // triangle the exhaustive loop could accept (a ray along an edge or through a corner) is
  // tested here too.
  const double margin = 1e-6 * std::max(cell[0], cell[1]);
  auto index = [&](int k, double coord) {
    return grid_index((coord + size[k]) / cell[k], ncell[k] - 1);
  };
  // the part of the ray over the (widened) grid: t in [tlo, thi]
  double tlo = 0, thi = std::numeric_limits<double>::infinity();
  for (int k = 0; k < 2; ++k) {
    const double lo = -size[k] - margin, hi = size[k] + margin;
    if (v[k] == 0) {
      if (!(p[k] >= lo && p[k] <= hi)) return -1;  // NaN included
      continue;
    }
    const double t1 = (lo - p[k]) / v[k], t2 = (hi - p[k]) / v[k];
    tlo = std::max(tlo, std::min(t1, t2));
    thi = std::min(thi, std::max(t1, t2));
  }
  if (!(tlo <= thi)) return -1;

  const int ncol = m.hfield_ncol[hf];
  const float* data = m.hfield_data + m.hfield_adr[hf];
  const double zmargin = 1e-6 * size[2];
  double best = -1;
  // the cells j of strip i, where the ray's heights are within [zlo, zhi]: a cell whose corners
  // are all below zlo or all above zhi has no triangle the ray meets
  auto test_cells = [&](int axis, int i, int jlo, int jhi, double zlo, double zhi) {
    for (int j = jlo; j <= jhi; ++j) {
      const int r = axis == 0 ? j : i, c = axis == 0 ? i : j;
      const float* h = data + r * ncol + c;
      const double hlo = size[2] * std::min(std::min(h[0], h[1]), std::min(h[ncol], h[ncol + 1]));
      const double hhi = size[2] * std::max(std::max(h[0], h[1]), std::max(h[ncol], h[ncol + 1]));
      if (zlo > hhi + zmargin || zhi < hlo - zmargin) continue;
      keep_nearest(best, ray_hfield_cell(m, hf, p, v, r, c));
    }
  };
  const double inf = std::numeric_limits<double>::infinity();
  // the major axis of the ray's projection: strips of cells across it, in the ray's order
  const int a = std::abs(v[0]) >= std::abs(v[1]) ? 0 : 1, b = 1 - a;
  if (v[a] == 0) {  // vertical: the cells around the one point under the ray
    for (int i = index(a, p[a] - margin); i <= index(a, p[a] + margin); ++i) {
      test_cells(a, i, index(b, p[b] - margin), index(b, p[b] + margin), -inf, inf);
    }
    return best;
  }
  const double a0 = p[a] + tlo * v[a], a1 = p[a] + thi * v[a];
  const int ifirst = index(a, (v[a] > 0 ? a0 : a1) - margin);
  const int ilast = index(a, (v[a] > 0 ? a1 : a0) + margin);
  const int step = v[a] > 0 ? 1 : -1;
  for (int i = v[a] > 0 ? ifirst : ilast; i >= ifirst && i <= ilast; i += step) {
    const double lo = -size[a] + i * cell[a] - margin, hi = lo + cell[a] + 2 * margin;
    const double t1 = (lo - p[a]) / v[a], t2 = (hi - p[a]) / v[a];
    const double ts0 = std::max(tlo, std::min(t1, t2)), ts1 = std::min(thi, std::max(t1, t2));
    if (ts0 > ts1) continue;
    // strips further on start beyond the nearest hit so far: their triangles cannot be nearer
    const double nearest = best < 0 ? bound : (bound < 0 ? best : std::min(best, bound));
    if (nearest >= 0 && ts0 > nearest * (1 + 1e-9)) break;
    const double b0 = p[b] + ts0 * v[b], b1 = p[b] + ts1 * v[b];
    const double z0 = p[2] + ts0 * v[2], z1 = p[2] + ts1 * v[2];
    test_cells(a, i, index(b, std::min(b0, b1) - margin), index(b, std::max(b0, b1) + margin),
               std::min(z0, z1), std::max(z0, z1));
  }
  return best;
}

double ray_hfield(const Model& m, const Data& d, int geom, const double pnt[3],
                  const double vec[3]) {
  const int hf = m.geom_dataid[geom];
  if (m.geom_type[geom] != kGeomHfield || hf < 0) return -1;
  double p[3], v[3];
  to_local(p, v, d.geom_xpos + 3 * geom, d.geom_xmat + 9 * geom, pnt, vec);
  const double* size = m.hfield_size + 4 * hf;
  const int nrow = m.hfield_nrow[hf], ncol = m.hfield_ncol[hf];
  const float* data = m.hfield_data + m.hfield_adr[hf];

  // the base: a box under z = 0
  const double base_center[3] = {p[0], p[1], p[2] + 0.5 * size[3]};
  const double base_half[3] = {size[0], size[1], 0.5 * size[3]};
  double best = ray_box(base_center, v, base_half);
  if (nrow < 2 || ncol < 2) return best;

  // the top part, between z = 0 and the surface, only when the ray meets the box around it
  const double top_center[3] = {p[0], p[1], p[2] - 0.5 * size[2]};
  const double top_half[3] = {size[0], size[1], 0.5 * size[2]};
  const bool inside_top = std::abs(top_center[0]) <= top_half[0] &&
                          std::abs(top_center[1]) <= top_half[1] &&
                          std::abs(top_center[2]) <= top_half[2];
  if (!inside_top && ray_box(top_center, v, top_half) < 0) return best;

  const double dx = 2 * size[0] / (ncol - 1), dy = 2 * size[1] / (nrow - 1);
  // the four sides, from z = 0 up to the surface's edge. On the sides x = +-size[0], 2.2.2 reads
  // the edge heights with a row stride of nrow instead of ncol (element r * nrow + c), which
  // joco reproduces; where that would read past the data (nrow > ncol) it reads the last element.
  const int ndata = nrow * ncol;
  for (int axis = 0; axis < 2; ++axis) {
    if (std::abs(v[axis]) < kMinVal) continue;
    const int other = 1 - axis;
    for (const double side : {size[axis], -size[axis]}) {
      const double x = (side - p[axis]) / v[axis];
      if (x < 0) continue;
      const double t = p[other] + x * v[other];
      const double z = p[2] + x * v[2];
      if (std::abs(t) > size[other] || z < 0) continue;
      const int n = axis == 0 ? nrow : ncol;  // grid points along this side
      double u = (t + size[other]) / (axis == 0 ? dy : dx);
      const int i = grid_index(u, n - 2);
      u -= i;
      double h0, h1;
      if (axis == 0) {
        const int c = side > 0 ? ncol - 1 : 0;
        h0 = data[std::min(i * nrow + c, ndata - 1)];
        h1 = data[std::min((i + 1) * nrow + c, ndata - 1)];
      } else {
        const int r = side > 0 ? nrow - 1 : 0;
        h0 = data[r * ncol + i];
        h1 = data[r * ncol + i + 1];
      }
      if (z <= size[2] * ((1 - u) * h0 + u * h1)) keep_nearest(best, x);
    }
  }
  // the surface, two triangles a cell: the nearest of all, found walking the cells under the ray
  // up to the nearest hit of the base and sides
  keep_nearest(best, ray_hfield_surface(m, hf, p, v, best));
  return best;
}

double ray(const Model& m, const Data& d, const double pnt[3], const double vec[3],
           const uint8_t* geomgroup, bool include_static, int bodyexclude, int* geomid) {
  double best = -1;
  int best_geom = -1;
  for (int g = 0; g < m.ngeom; ++g) {
    const int type = m.geom_type[g];
    const int body = m.geom_bodyid[g];
    if (body == bodyexclude || !visible(m, g)) continue;
    if (!include_static && body == 0) continue;
    // 2.2.2 applies the group filter to all but planes and height fields, clamping the group
    if (geomgroup && type != kGeomPlane && type != kGeomHfield) {
      const int group = std::clamp(m.geom_group[g], 0, kNGroup - 1);
      if (!geomgroup[group]) continue;
    }
    // planes and height fields have no bounding sphere (geom_rbound 0)
    if (m.geom_rbound[g] > 0 && misses_sphere(d.geom_xpos + 3 * g, m.geom_rbound[g], pnt, vec)) {
      continue;
    }
    double x;
    switch (type) {
      case kGeomMesh: x = ray_mesh_bounded(m, d, g, pnt, vec, best); break;  // nearer than best
      case kGeomHfield: x = ray_hfield(m, d, g, pnt, vec); break;
      default:
        x = ray_geom(d.geom_xpos + 3 * g, d.geom_xmat + 9 * g, m.geom_size + 3 * g, pnt, vec, type);
    }
    if (x >= 0 && (best < 0 || x < best)) {
      best = x;
      best_geom = g;
    }
  }
  if (geomid) *geomid = best_geom;
  return best;
}

}  // namespace joco
