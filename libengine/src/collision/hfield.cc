// Height field against a convex geom: the grid cells under the geom's bounding box, each split into
// two triangular prisms reaching down to the base, each prism against the geom by MPR.
#include <cmath>

#include "collision/convex.h"

namespace joco::narrow {

using namespace joco::math;

int hfield_convex(const Model& m, const Data& d, Contact* con, int g1, int g2, double margin) {
  const int hid = m.geom_dataid[g1];
  const double* size = m.hfield_size + 4 * hid;
  const int nrow = m.hfield_nrow[hid], ncol = m.hfield_ncol[hid];
  const float* data = m.hfield_data + m.hfield_adr[hid];
  const double* hpos = d.geom_xpos + 3 * g1;
  const double* hmat = d.geom_xmat + 9 * g1;

  ConvexObject geom;
  convex_object(&geom, m, d, g2, margin);

  // the geom's bounding box in the height field's frame
  double lo[3], hi[3];
  for (int k = 0; k < 3; ++k) {
    double axis[3], point[3], dif[3];
    mat_column(axis, hmat, k);
    support_point(geom, axis, point);
    sub3(dif, point, hpos);
    hi[k] = dot3(dif, axis) + margin / 2;
    scale3(axis, axis, -1);
    support_point(geom, axis, point);
    sub3(dif, point, hpos);
    lo[k] = -dot3(dif, axis) - margin / 2;
  }
  if (hi[0] < -size[0] || lo[0] > size[0] || hi[1] < -size[1] || lo[1] > size[1] ||
      hi[2] < -size[3] || lo[2] > size[2]) {
    return 0;
  }

  // cells overlapping the box
  const double dx = 2 * size[0] / (ncol - 1), dy = 2 * size[1] / (nrow - 1);
  auto cell_range = [](double a, double b, double half, double step, int n, int* first, int* last) {
    *first = static_cast<int>(std::floor((a + half) / step));
    *last = static_cast<int>(std::ceil((b + half) / step));
    *first = *first < 0 ? 0 : *first;
    *last = *last > n - 1 ? n - 1 : *last;
  };
  int c0, c1, r0, r1;
  cell_range(lo[0], hi[0], size[0], dx, ncol, &c0, &c1);
  cell_range(lo[1], hi[1], size[1], dy, nrow, &r0, &r1);

  ConvexObject prism;
  prism.model = &m;
  prism.type = kGeomHfield;
  prism.margin = margin;
  int n = 0;
  for (int r = r0; r < r1; ++r) {
    for (int c = c0; c < c1; ++c) {
      // the cell's corners as a triangle strip: (c, r+1), (c, r), (c+1, r+1), (c+1, r)
      const int strip[4][2] = {{c, r + 1}, {c, r}, {c + 1, r + 1}, {c + 1, r}};
      for (int t = 0; t < 2; ++t) {
        for (int i = 0; i < 3; ++i) {
          const int cc = strip[t + i][0], rr = strip[t + i][1];
          const double top[3] = {dx * cc - size[0], dy * rr - size[1],
                                 data[rr * ncol + cc] * size[2]};
          const double bottom[3] = {top[0], top[1], -size[3]};
          mat_vec3(prism.prism[i], hmat, top);
          add3(prism.prism[i], prism.prism[i], hpos);
          mat_vec3(prism.prism[i + 3], hmat, bottom);
          add3(prism.prism[i + 3], prism.prism[i + 3], hpos);
        }
        if (mpr_contact(m, &prism, &geom, margin, con + n)) {
          if (++n >= kMaxConPair) return n;
        }
      }
    }
  }
  return n;
}

}  // namespace joco::narrow
