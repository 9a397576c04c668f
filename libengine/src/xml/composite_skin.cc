#include "xml/composite_skin.h"

#include <algorithm>
#include <vector>

namespace joco::compiler {

namespace {

SkinSpec skin_base(const CompositeSkin& skin) {
  SkinSpec s;
  s.material = skin.material;
  s.rgba = skin.rgba;
  s.inflate = skin.inflate;
  s.group = skin.group;
  return s;
}

void add_texcoord(SkinSpec& s, double u, double v) {
  s.texcoord.push_back(u);
  s.texcoord.push_back(v);
}

void add_face(SkinSpec& s, int a, int b, int c) {
  s.face.push_back(a);
  s.face.push_back(b);
  s.face.push_back(c);
}

}  // namespace

std::array<double, 16> bicubic_hermite_basis(double x, double y) {
  // Power coefficients (of 1, t, t^2, t^3) of the cubic Hermite functions: the value at 0, the
  // value at 1, the slope at 0, the slope at 1.
  static constexpr double kCubic[4][4] = {
      {1, 0, -3, 2}, {0, 0, 3, -2}, {0, 1, -2, 1}, {0, 0, -1, 1}};
  const double xp[4] = {1, x, x * x, x * x * x}, yp[4] = {1, y, y * y, y * y * y};
  std::array<double, 16> basis{};
  for (int k = 0; k < 16; ++k) {
    const int type = k / 4, cx = k & 1, cy = (k >> 1) & 1;
    const double* px = kCubic[(type == 1 || type == 3) ? 2 + cx : cx];
    const double* py = kCubic[(type == 2 || type == 3) ? 2 + cy : cy];
    double sum = 0;
    for (int i = 0; i < 4; ++i) {
      for (int j = 0; j < 4; ++j) sum += (xp[i] * yp[j]) * (px[i] * py[j]);
    }
    basis[static_cast<size_t>(k)] = sum;
  }
  return basis;
}

SkinSpec make_grid_skin(const CompositeSkin& skin, const std::array<int, 3>& count, double spacing,
                        const BodyNamer& body) {
  SkinSpec s = skin_base(skin);
  const int cx = count[0], cy = count[1], sub = skin.subgrid, step = sub + 1;
  const int nx = (cx - 1) * step + 1, ny = (cy - 1) * step + 1, n = nx * ny;
  // Two layers of vertices (the two sides of the surface), at the grid points in the frame where
  // the bodies sit at (ix, iy) * spacing; without subgrid the bones carry them entirely.
  for (int layer = 0; layer < 2; ++layer) {
    for (int ux = 0; ux < nx; ++ux) {
      for (int uy = 0; uy < ny; ++uy) {
        if (sub > 0) {
          s.vertex.insert(s.vertex.end(), {ux * spacing / step, uy * spacing / step, 0.0});
        } else {
          s.vertex.insert(s.vertex.end(), {0.0, 0.0, 0.0});
        }
        if (skin.texcoord)
          add_texcoord(s, static_cast<double>(ux) / (nx - 1), static_cast<double>(uy) / (ny - 1));
      }
    }
  }
  // Both sides, then the rims closing them along the four edges.
  auto v = [ny](int ux, int uy) { return ux * ny + uy; };
  for (int ux = 0; ux < nx - 1; ++ux) {
    for (int uy = 0; uy < ny - 1; ++uy) {
      add_face(s, v(ux, uy), v(ux + 1, uy), v(ux + 1, uy + 1));
      add_face(s, v(ux, uy), v(ux + 1, uy + 1), v(ux, uy + 1));
    }
  }
  for (int ux = 0; ux < nx - 1; ++ux) {
    for (int uy = 0; uy < ny - 1; ++uy) {
      add_face(s, n + v(ux, uy), n + v(ux + 1, uy + 1), n + v(ux + 1, uy));
      add_face(s, n + v(ux, uy), n + v(ux, uy + 1), n + v(ux + 1, uy + 1));
    }
  }
  for (int ux = 0; ux < nx - 1; ++ux) {
    const int a = v(ux, 0), b = v(ux + 1, 0);
    add_face(s, a, n + b, b);
    add_face(s, a, n + a, n + b);
  }
  for (int ux = 0; ux < nx - 1; ++ux) {
    const int a = v(ux, ny - 1), b = v(ux + 1, ny - 1);
    add_face(s, a, b, n + b);
    add_face(s, a, n + b, n + a);
  }
  for (int uy = 0; uy < ny - 1; ++uy) {
    const int a = v(0, uy), b = v(0, uy + 1);
    add_face(s, a, b, n + b);
    add_face(s, a, n + b, n + a);
  }
  for (int uy = 0; uy < ny - 1; ++uy) {
    const int a = v(nx - 1, uy), b = v(nx - 1, uy + 1);
    add_face(s, a, n + b, b);
    add_face(s, a, n + a, n + b);
  }
  // One bone per element. With subgrid, each vertex is the bicubic Hermite interpolation over its
  // cell, with the slopes at the cell's corners taken as finite differences of the elements
  // (central inside the grid, one-sided at its borders); vertices are visited cell by cell (a cell
  // owns its lower edges, and the last cells their upper edges too).
  //
  // MuJoCo 2.2.2 evaluates the 16 Hermite functions in power form (bicubic_hermite_basis) and
  // adds each one's finite-difference stencil into the weights of the 4 x 4 elements around the
  // cell. Done the same way, in the same order, the weights match its bit for bit, including the
  // rounding residue (|w| <= 8e-16) on the last row and column, where the x^i y^j terms cancel
  // only in exact arithmetic: MuJoCo lists those too. Measured on cloths and grids of 3 to 30
  // elements a side and subgrid 1 to 9.
  //
  // Each weight is then rounded to single precision and divided (in single precision) by the
  // single-precision sum of the vertex's weights over its elements in order (ix, then iy). That
  // sum is 1 in exact arithmetic but not always in float, and MuJoCo's weights carry the quotient.
  struct Stencil {
    int node[2];
    double coef[2];
    int size;
  };
  // The value at grid node c, or (slope) its finite-difference slope, along an axis of `nodes`.
  auto stencil = [](int c, bool slope, int nodes) -> Stencil {
    if (!slope) return {{c, 0}, {1, 0}, 1};
    if (c == 0) return {{0, 1}, {-1, 1}, 2};
    if (c == nodes - 1) return {{c - 1, c}, {-1, 1}, 2};
    return {{c - 1, c + 1}, {-0.5, 0.5}, 2};
  };
  // Per vertex: the weights of the elements (gx - 1 .. gx + 2) x (gy - 1 .. gy + 2) around its
  // cell (gx, gy), and their single-precision sum.
  std::vector<std::array<double, 16>> local_weight;
  std::vector<float> weight_sum;
  if (sub > 0) {
    local_weight.assign(static_cast<size_t>(n), {});
    weight_sum.assign(static_cast<size_t>(n), 0.0f);
    const double dt = 1.0 / step;
    for (int gx = 0; gx < cx - 1; ++gx) {
      for (int gy = 0; gy < cy - 1; ++gy) {
        const int sx_end = gx == cx - 2 ? step : sub, sy_end = gy == cy - 2 ? step : sub;
        for (int sx = 0; sx <= sx_end; ++sx) {
          for (int sy = 0; sy <= sy_end; ++sy) {
            const size_t k = static_cast<size_t>(v(gx * step + sx, gy * step + sy));
            const std::array<double, 16> basis = bicubic_hermite_basis(sx * dt, sy * dt);
            std::array<double, 16>& w = local_weight[k];
            for (int b = 0; b < 16; ++b) {
              const int type = b / 4;
              const Stencil ex = stencil(gx + (b & 1), type == 1 || type == 3, cx);
              const Stencil ey = stencil(gy + ((b >> 1) & 1), type == 2 || type == 3, cy);
              for (int a = 0; a < ex.size; ++a) {
                for (int c = 0; c < ey.size; ++c) {
                  const int node = (ex.node[a] - gx + 1) * 4 + (ey.node[c] - gy + 1);
                  w[static_cast<size_t>(node)] +=
                      basis[static_cast<size_t>(b)] * (ex.coef[a] * ey.coef[c]);
                }
              }
            }
            float sum = 0;
            for (double e : w) {
              if (e != 0) sum += static_cast<float>(e);
            }
            weight_sum[k] = sum;
          }
        }
      }
    }
  }
  for (int ix = 0; ix < cx; ++ix) {
    for (int iy = 0; iy < cy; ++iy) {
      SkinBoneSpec bone;
      bone.body = body(ix, iy, 0);
      bone.bindquat = {1, 0, 0, 0};
      if (sub == 0) {
        bone.bindpos = {0, 0, 0};
        for (int k : {v(ix, iy), n + v(ix, iy)}) {
          bone.vertid.push_back(k);
          bone.vertweight.push_back(1);
        }
        s.bones.push_back(std::move(bone));
        continue;
      }
      bone.bindpos = {ix * spacing, iy * spacing, 0};
      for (int gx = 0; gx < cx - 1; ++gx) {
        if (ix < gx - 1 || ix > gx + 2) continue;
        for (int gy = 0; gy < cy - 1; ++gy) {
          if (iy < gy - 1 || iy > gy + 2) continue;
          const int sx_end = gx == cx - 2 ? step : sub, sy_end = gy == cy - 2 ? step : sub;
          for (int sx = 0; sx <= sx_end; ++sx) {
            for (int sy = 0; sy <= sy_end; ++sy) {
              const int k = v(gx * step + sx, gy * step + sy);
              const double w = local_weight[static_cast<size_t>(k)]
                                           [static_cast<size_t>((ix - gx + 1) * 4 + (iy - gy + 1))];
              if (w == 0) continue;
              const float weight = static_cast<float>(w) / weight_sum[static_cast<size_t>(k)];
              bone.vertid.push_back(k);
              bone.vertweight.push_back(weight);
              bone.vertid.push_back(n + k);
              bone.vertweight.push_back(weight);
            }
          }
        }
      }
      s.bones.push_back(std::move(bone));
    }
  }
  return s;
}

SkinSpec make_shell_skin(const CompositeSkin& skin, CompositeType type,
                         const std::array<int, 3>& count, const BodyNamer& body) {
  SkinSpec s = skin_base(skin);
  struct Face {
    int axis;      // the fixed coordinate
    bool high;     // at its largest value
    int a, b;      // the in-plane coordinates
    bool flipped;  // triangles wound the other way (outward normals)
  };
  const Face z_low = {2, false, 0, 1, true}, z_high = {2, true, 0, 1, false};
  const Face y_low = {1, false, 0, 2, false}, y_high = {1, true, 0, 2, true};
  const Face x_low = {0, false, 1, 2, true}, x_high = {0, true, 1, 2, false};
  std::vector<Face> faces = {z_low, z_high, y_low, y_high, x_low, x_high};
  if (type == CompositeType::kCylinder) faces = {y_low, y_high, x_low, x_high, z_low, z_high};

  auto on_boundary = [&count](int k, int i) {
    return i == 0 || i == count[static_cast<size_t>(k)] - 1;
  };
  // Smooth surfaces share one vertex per element between faces: all faces of an ellipsoid, the
  // sides of a cylinder. Shared vertices are numbered in element order, before the faces' own.
  auto shared_face = [type](const Face& f) {
    return type == CompositeType::kEllipsoid || (type == CompositeType::kCylinder && f.axis != 2);
  };
  auto shares = [&](int ix, int iy, int iz) {
    if (type == CompositeType::kEllipsoid)
      return on_boundary(0, ix) || on_boundary(1, iy) || on_boundary(2, iz);
    if (type == CompositeType::kCylinder) return on_boundary(0, ix) || on_boundary(1, iy);
    return false;
  };
  std::vector<int> shared_index(static_cast<size_t>(count[0] * count[1] * count[2]), -1);
  int nvert = 0;
  for (int ix = 0; ix < count[0]; ++ix) {
    for (int iy = 0; iy < count[1]; ++iy) {
      for (int iz = 0; iz < count[2]; ++iz) {
        if (shares(ix, iy, iz))
          shared_index[static_cast<size_t>((ix * count[1] + iy) * count[2] + iz)] = nvert++;
      }
    }
  }
  // How many faces sharing vertices an element is on: its bones split the vertex among them.
  auto shared_faces_of = [&](const int* index) {
    int n = 0;
    for (const Face& f : faces) {
      if (shared_face(f) && index[f.axis] == (f.high ? count[static_cast<size_t>(f.axis)] - 1 : 0))
        ++n;
    }
    return n;
  };

  std::vector<std::array<double, 2>> texcoord;
  for (const Face& f : faces) {
    const int na = count[static_cast<size_t>(f.a)], nb = count[static_cast<size_t>(f.b)];
    std::vector<int> ids(static_cast<size_t>(na * nb));
    for (int ia = 0; ia < na; ++ia) {
      for (int ib = 0; ib < nb; ++ib) {
        int index[3];
        index[f.axis] = f.high ? count[static_cast<size_t>(f.axis)] - 1 : 0;
        index[f.a] = ia;
        index[f.b] = ib;
        int id;
        double weight = 1;
        if (shared_face(f)) {
          id = shared_index[static_cast<size_t>((index[0] * count[1] + index[1]) * count[2] +
                                                index[2])];
          weight = 1.0 / shared_faces_of(index);
        } else {
          id = nvert++;
        }
        ids[static_cast<size_t>(ia * nb + ib)] = id;
        if (texcoord.size() <= static_cast<size_t>(id))
          texcoord.resize(static_cast<size_t>(id) + 1);
        texcoord[static_cast<size_t>(id)] = {static_cast<double>(ia) / (na - 1),
                                             static_cast<double>(ib) / (nb - 1)};
        SkinBoneSpec bone;
        bone.body = body(index[0], index[1], index[2]);
        bone.bindpos = {0, 0, 0};
        bone.bindquat = {1, 0, 0, 0};
        bone.vertid = {id};
        bone.vertweight = {weight};
        s.bones.push_back(std::move(bone));
      }
    }
    for (int ia = 0; ia < na - 1; ++ia) {
      for (int ib = 0; ib < nb - 1; ++ib) {
        const int v00 = ids[static_cast<size_t>(ia * nb + ib)],
                  v01 = ids[static_cast<size_t>(ia * nb + ib + 1)];
        const int v10 = ids[static_cast<size_t>((ia + 1) * nb + ib)],
                  v11 = ids[static_cast<size_t>((ia + 1) * nb + ib + 1)];
        if (!f.flipped) {
          add_face(s, v00, v10, v11);
          add_face(s, v00, v11, v01);
        } else if (shared_face(f)) {
          add_face(s, v00, v01, v11);
          add_face(s, v00, v11, v10);
        } else {
          add_face(s, v00, v11, v10);
          add_face(s, v00, v01, v11);
        }
      }
    }
  }
  s.vertex.assign(static_cast<size_t>(3 * nvert), 0.0);
  if (skin.texcoord) {
    for (const auto& uv : texcoord) add_texcoord(s, uv[0], uv[1]);
  }
  return s;
}

}  // namespace joco::compiler
