// Composite expansion: the interpolation behind subgrid skins, skin topology, and the errors for
// invalid composites. (Field-by-field agreement with MuJoCo is in compile_oracle_test.cc.)
#include "xml/composite.h"

#include <gtest/gtest.h>

#include <cmath>
#include <map>

#include "joco/error.h"
#include "joco/mjcf.h"
#include "xml/composite_skin.h"
#include "support/errors.h"

namespace joco::compiler {
namespace {

// The Hermite functions interpolate any bicubic polynomial from its values and derivatives at
// the corners, and at the corners only the corner's value counts, exactly.
TEST(BicubicHermite, ReproducesBicubicsAndIsExactAtTheCorners) {
  auto power = [](double t, int i) { return i == 0 ? 1.0 : i == 1 ? t : std::pow(t, i); };
  auto dpower = [](double t, int i) { return i == 0 ? 0.0 : i * std::pow(t, i - 1); };
  double coef[4][4];
  for (int i = 0; i < 4; ++i) {
    for (int j = 0; j < 4; ++j) coef[i][j] = 0.1 * (3 * i - 2 * j) + 0.05 * i * j - 0.3;
  }
  // The value (dx, dy = 0) or a derivative of the polynomial at (x, y).
  auto poly = [&](double x, double y, bool dx, bool dy) {
    double f = 0;
    for (int i = 0; i < 4; ++i) {
      for (int j = 0; j < 4; ++j)
        f += coef[i][j] * (dx ? dpower(x, i) : power(x, i)) * (dy ? dpower(y, j) : power(y, j));
    }
    return f;
  };
  for (double x : {0.0, 0.2, 1.0 / 3, 0.75, 1.0}) {
    for (double y : {0.0, 0.4, 2.0 / 3, 1.0}) {
      const std::array<double, 16> basis = bicubic_hermite_basis(x, y);
      double f = 0;
      for (int k = 0; k < 16; ++k) {
        const int type = k / 4;
        f += basis[static_cast<size_t>(k)] *
             poly(k & 1, (k >> 1) & 1, type == 1 || type == 3, type == 2 || type == 3);
      }
      EXPECT_NEAR(f, poly(x, y, false, false), 1e-14) << x << " " << y;
    }
  }
  for (int corner = 0; corner < 4; ++corner) {
    const std::array<double, 16> basis = bicubic_hermite_basis(corner & 1, (corner >> 1) & 1);
    for (int k = 0; k < 16; ++k) EXPECT_EQ(basis[static_cast<size_t>(k)], k == corner ? 1 : 0);
  }
}

// Each subgrid vertex is the weighted sum of its bones; in the reference pose (bones at their bind
// positions) that must give the vertex back, with weights summing to one. The weights are
// single-precision quotients, as MuJoCo 2.2.2 makes them, so both hold to float rounding.
TEST(CompositeSkin, SubgridWeightsReproduceTheReferenceSurface) {
  CompositeSkin options;
  options.given = true;
  for (int subgrid : {0, 1, 2, 3, 4}) {
    options.subgrid = subgrid;
    const double spacing = 0.07;
    const SkinSpec s = make_grid_skin(options, {5, 4, 1}, spacing, [](int ix, int iy, int) {
      return std::to_string(ix) + "_" + std::to_string(iy);
    });
    const size_t nvert = s.vertex.size() / 3;
    const int nx = 4 * (subgrid + 1) + 1, ny = 3 * (subgrid + 1) + 1;
    ASSERT_EQ(nvert, static_cast<size_t>(2 * nx * ny));
    // Both sides and the four rims.
    EXPECT_EQ(s.face.size() / 3,
              static_cast<size_t>(4 * (nx - 1) * (ny - 1) + 4 * (nx - 1) + 4 * (ny - 1)));
    std::vector<double> weight(nvert, 0), pos(3 * nvert, 0);
    for (const SkinBoneSpec& b : s.bones) {
      for (size_t k = 0; k < b.vertid.size(); ++k) {
        const size_t v = static_cast<size_t>(b.vertid[k]);
        weight[v] += b.vertweight[k];
        for (size_t i = 0; i < 3; ++i) pos[3 * v + i] += b.vertweight[k] * b.bindpos[i];
        EXPECT_NE(b.vertweight[k], 0);
      }
    }
    for (size_t v = 0; v < nvert; ++v) {
      EXPECT_NEAR(weight[v], 1, 5e-7) << "vertex " << v;
      if (subgrid > 0) {
        for (size_t i = 0; i < 3; ++i) EXPECT_NEAR(pos[3 * v + i], s.vertex[3 * v + i], 1e-7);
      }
    }
  }
}

// Shell skins: one bone per box-face element, vertices shared where the surface is smooth, and the
// shared vertices' weights summing to one.
TEST(CompositeSkin, ShellVerticesAndWeights) {
  CompositeSkin options;
  options.given = true;
  options.texcoord = true;
  const std::array<int, 3> n = {3, 4, 5};
  const int face_points = 2 * (n[0] * n[1] + n[0] * n[2] + n[1] * n[2]);
  const int elements = n[0] * n[1] * n[2] - (n[0] - 2) * (n[1] - 2) * (n[2] - 2);
  const int side_elements = (n[0] * n[1] - (n[0] - 2) * (n[1] - 2)) * n[2];
  const std::map<CompositeType, int> vertices = {
      {CompositeType::kBox, face_points},
      {CompositeType::kEllipsoid, elements},
      {CompositeType::kCylinder, side_elements + 2 * n[0] * n[1]}};
  for (const auto& [type, expected] : vertices) {
    const SkinSpec s = make_shell_skin(options, type, n, [](int, int, int) { return "b"; });
    EXPECT_EQ(s.vertex.size(), static_cast<size_t>(3 * expected));
    EXPECT_EQ(s.texcoord.size(), static_cast<size_t>(2 * expected));
    EXPECT_EQ(s.bones.size(), static_cast<size_t>(face_points));
    EXPECT_EQ(s.face.size() / 3,
              static_cast<size_t>(4 * ((n[0] - 1) * (n[1] - 1) + (n[0] - 1) * (n[2] - 1) +
                                       (n[1] - 1) * (n[2] - 1))));
    std::vector<double> weight(static_cast<size_t>(expected), 0);
    for (const SkinBoneSpec& b : s.bones)
      weight[static_cast<size_t>(b.vertid.at(0))] += b.vertweight.at(0);
    for (double w : weight) EXPECT_NEAR(w, 1, 1e-15);
  }
}

// ---- errors ----

std::string composite_error(const std::string& composite, const std::string& parent = "",
                            const std::string& compiler = "") {
  const std::string xml = "<mujoco>" + compiler + "<worldbody>\n<body name='" + parent +
                          "' pos='0 0 1'><freejoint/><geom size='0.1'/>\n" + composite +
                          "\n</body></worldbody></mujoco>";
  return test::input_error([&] { compile_mjcf(xml, "composite.xml", "."); });
}

// As in MuJoCo 2.2.2, a pin outside the grid is accepted and pins nothing.
TEST(Composite, PinsOutsideTheGridPinNothing) {
  const auto joints = [](const std::string& pin) {
    return compile_mjcf(
               "<mujoco><worldbody><composite type='grid' count='3 3' spacing='0.1'>"
               "<geom size='0.01'/>" +
                   pin + "</composite></worldbody></mujoco>",
               "composite.xml", ".")
        .njnt;
  };
  const int free = joints("");
  EXPECT_EQ(joints("<pin coord='1 1'/>"), free - 3);  // a pinned element loses its 3 slides
  for (const char* outside : {"<pin coord='3 0'/>", "<pin coord='-1'/>", "<pin coord='0 5'/>"})
    EXPECT_EQ(joints(outside), free) << outside;
}

TEST(CompositeErrors, NameFileLineAndElement) {
  struct Case {
    std::string composite, parent, expected;
  };
  const std::string geom = "<geom size='0.01'/>";
  const Case cases[] = {
      {"<composite type='grid' count='3 0 1' spacing='0.1'>" + geom + "</composite>", "",
       "counts must be positive"},
      {"<composite type='grid' count='3 1 2' spacing='0.1'>" + geom + "</composite>", "",
       "singleton counts"},
      {"<composite type='grid' count='3 3 3' spacing='0.1'>" + geom + "</composite>", "",
       "1D or 2D"},
      {"<composite type='grid' count='3 3' >" + geom + "</composite>", "", "'spacing'"},
      {"<composite type='grid' count='3 3' spacing='0'>" + geom + "</composite>", "",
       "must be positive"},
      {"<composite type='blob' count='3 3' spacing='0.1'>" + geom + "</composite>", "", "type"},
      {"<composite count='3 3' spacing='0.1'>" + geom + "</composite>", "", "'type'"},
      {"<composite type='grid' spacing='0.1'>" + geom + "</composite>", "", "'count'"},
      {"<composite type='particle' count='1000 1000 2' spacing='0.1'>" + geom + "</composite>", "",
       "too many elements"},
      {"<composite type='particle' count='2' spacing='0.1'><geom type='box' size='1 1 "
       "1'/></composite>",
       "", "spheres, capsules or ellipsoids"},
      {"<composite type='rope' count='3 2' spacing='0.1'>" + geom + "</composite>", "B0",
       "one-dimensional"},
      {"<composite type='rope' count='3' spacing='0.1'>" + geom + "</composite>", "body",
       "must be named 'B"},
      {"<composite type='rope' count='3' spacing='0.1'>" + geom + "</composite>", "B3", "outside"},
      {"<composite type='cloth' count='3 3' spacing='0.1'>" + geom + "</composite>", "B1",
       "coordinates"},
      {"<composite type='cloth' count='3' spacing='0.1'>" + geom + "</composite>", "B1_0",
       "two-dimensional"},
      {"<composite type='box' count='3 3' spacing='0.1'>" + geom + "</composite>", "",
       "three-dimensional"},
      {"<composite type='grid' count='3 2' spacing='0.1'>" + geom +
           "<skin subgrid='2'/></composite>",
       "", "3x3"},
      {"<composite type='grid' count='3' spacing='0.1'>" + geom + "<skin/></composite>", "",
       "two dimensions"},
      {"<composite type='grid' count='3' spacing='0.1'>" + geom +
           "<joint damping='1'/></composite>",
       "", "'kind'"},
  };
  for (const Case& c : cases) {
    const std::string message = composite_error(c.composite, c.parent);
    EXPECT_NE(message.find("composite.xml:3"), std::string::npos)
        << c.composite << " -> " << message;
    EXPECT_NE(message.find(c.expected), std::string::npos) << c.composite << " -> " << message;
  }
  const std::string global =
      composite_error("<composite type='grid' count='3' spacing='0.1'>" + geom + "</composite>", "",
                      "<compiler coordinate='global'/>");
  EXPECT_NE(global.find("local coordinates"), std::string::npos) << global;
}

}  // namespace
}  // namespace joco::compiler
