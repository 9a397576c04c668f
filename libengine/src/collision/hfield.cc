// Height field against a convex geom, in the height field's frame: the grid cells under the geom's
// bounding box, each split into two triangular prisms reaching down to the base, each prism
// against the geom by MPR. The margin raises the prisms' tops.
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

  // the geom in the height field's frame
  ConvexObject geom;
  convex_object(&geom, m, d, g2, margin);
  double dif[3];
  sub3(dif, d.geom_xpos + 3 * g2, hpos);
  mat_t_vec3(geom.pos, hmat, dif);
  mat_t_mat3(geom.mat, hmat, d.geom_xmat + 9 * g2);

  // its bounding box
  double lo[3], hi[3];
  for (int k = 0; k < 3; ++k) {
    double axis[3] = {0, 0, 0}, point[3];
    axis[k] = 1;
    support_point(geom, axis, point);
    hi[k] = point[k];
    axis[k] = -1;
    support_point(geom, axis, point);
    lo[k] = point[k];
  }
  if (hi[0] < -size[0] || lo[0] > size[0] || hi[1] < -size[1] || lo[1] > size[1] ||
      hi[2] < -size[3] || lo[2] > size[2] + margin) {
    return 0;
  }

  // cells overlapping the box
  const double dx = 2 * size[0] / (ncol - 1), dy = 2 * size[1] / (nrow - 1);
  // Clamped while still doubles: a box far outside the grid (huge or NaN coordinates) has cell
  // numbers no int holds.
  auto cell_range = [](double a, double b, double half, double step, int n, int* first, int* last) {
    const auto cell = [n](double x) {
      return x > 0 ? (x < n - 1 ? static_cast<int>(x) : n - 1) : 0;
    };
    *first = cell(std::floor((a + half) / step));
    *last = cell(std::ceil((b + half) / step));
  };
  int c0, c1, r0, r1;
  cell_range(lo[0], hi[0], size[0], dx, ncol, &c0, &c1);
  cell_range(lo[1], hi[1], size[1], dy, nrow, &r0, &r1);

  ConvexObject prism;
  prism.model = &m;
  prism.type = kGeomHfield;
  prism.margin = 0;
  int n = 0;
  for (int r = r0; r < r1; ++r) {
    for (int c = c0; c < c1; ++c) {
      // the cell's corners as a triangle strip: (c, r+1), (c, r), (c+1, r+1), (c+1, r)
      const int strip[4][2] = {{c, r + 1}, {c, r}, {c + 1, r + 1}, {c + 1, r}};
      for (int t = 0; t < 2; ++t) {
        double ztop = -size[3];
        for (int i = 0; i < 3; ++i) {
          const int cc = strip[t + i][0], rr = strip[t + i][1];
          double* top = prism.prism[i];
          double* bottom = prism.prism[i + 3];
          top[0] = bottom[0] = dx * cc - size[0];
          top[1] = bottom[1] = dy * rr - size[1];
          top[2] = data[rr * ncol + cc] * size[2] + margin;
          bottom[2] = -size[3];
          ztop = top[2] > ztop ? top[2] : ztop;
        }
        if (ztop < lo[2]) continue;  // the prism lies below the geom
        Contact* c_out = con + n;
        if (!mpr_contact(m, &prism, &geom, margin, c_out)) continue;
        c_out->dist -= margin;  // MuJoCo 2.2.2 reports minus the inflated depth here
        // back to world coordinates
        double v[3];
        mat_vec3(v, hmat, c_out->pos);
        add3(c_out->pos, v, hpos);
        mat_vec3(v, hmat, c_out->frame);
        copy3(c_out->frame, v);
        if (++n >= kMaxConPair) return n;
      }
    }
  }
  return n;
}

}  // namespace joco::narrow
