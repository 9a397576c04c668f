// Spheres and capsules against boxes, in the box's frame.
#include <cmath>

#include "collision/narrowphase.h"

namespace joco::narrow {

using namespace joco::math;

int sphere_box(const Model& m, const Data& d, Contact* con, int g1, int g2, double margin) {
  const double* center = d.geom_xpos + 3 * g1;
  const double radius = m.geom_size[3 * g1];
  const double* box_pos = d.geom_xpos + 3 * g2;
  const double* mat = d.geom_xmat + 9 * g2;
  const double* size = m.geom_size + 3 * g2;

  double local[3], dif[3];
  sub3(dif, center, box_pos);
  mat_t_vec3(local, mat, dif);

  // nearest box point
  double nearest[3];
  bool inside = true;
  for (int i = 0; i < 3; ++i) {
    if (local[i] > size[i]) {
      nearest[i] = size[i];
      inside = false;
    } else if (local[i] < -size[i]) {
      nearest[i] = -size[i];
      inside = false;
    } else {
      nearest[i] = local[i];
    }
  }

  double normal_local[3], pos_local[3], dist;
  if (!inside) {
    sub3(normal_local, nearest, local);
    dist = normalize3(normal_local) - radius;
    if (dist > margin) return 0;
    add_scaled3(pos_local, local, normal_local, radius + dist / 2);
  } else {
    // Centre inside: push out through the nearest face. MuJoCo 2.2.2 reports the distance as
    // minus the radius here, and the point midway between that face and the sphere's deepest point.
    int k = 0;
    double best = size[0] - std::abs(local[0]);
    for (int i = 1; i < 3; ++i) {
      const double gap = size[i] - std::abs(local[i]);
      if (gap < best) {
        best = gap;
        k = i;
      }
    }
    const double side = local[k] > 0 ? 1 : -1;
    zero3(normal_local);
    normal_local[k] = -side;
    dist = -radius;
    double face[3], deepest[3];
    copy3(face, local);
    face[k] = side * size[k];
    add_scaled3(deepest, local, normal_local, radius);
    add3(pos_local, face, deepest);
    scale3(pos_local, pos_local, 0.5);
  }
  double normal[3], pos[3];
  mat_vec3(normal, mat, normal_local);
  mat_vec3(pos, mat, pos_local);
  add3(pos, pos, box_pos);
  set_contact(con, dist, pos, normal);
  return 1;
}

int capsule_box(const Model& m, const Data& d, Contact* con, int g1, int g2, double margin) {
  return convex_convex(m, d, con, g1, g2, margin);  // TODO: MuJoCo's dedicated capsule-box
}

}  // namespace joco::narrow
