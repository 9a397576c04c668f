// Meshes against MuJoCo 2.2.2: each case is written as an MJCF file (one mesh asset, one free body
// per geom using it), compiled by MuJoCo, and compared with compile_mesh / mesh_geom field by
// field: mesh_vert, mesh_normal, mesh_texcoord (float precision), mesh_face and mesh_graph
// (exactly), geom_pos, geom_quat, geom_size, geom_rbound, body_mass and body_inertia (1e-7
// relative).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "compiler/mesh.h"
#include "joco/constants.h"
#include "joco/error.h"
#include "math/vec.h"
#include "oracle/oracle.h"
#include "support/test_support.h"

namespace joco {
namespace {

struct GeomCase {
  int type = kGeomMesh;
  bool shellinertia = false;
  double fitscale = 1;
  double pos[3] = {0, 0, 0};
  double quat[4] = {1, 0, 0, 0};
  double density = 1000;
  double mass = -1;     // >= 0: given mass instead of density
  bool visual = false;  // contype = conaffinity = 0
};

struct MeshCase {
  std::string label;
  MeshSpec spec;  // spec.file relative to testdata/
  MeshOptions options;
  bool fitaabb = false;
  std::vector<GeomCase> geoms = {GeomCase{}};
};

std::string join(const double* v, int n) {
  std::ostringstream s;
  s.precision(17);
  for (int i = 0; i < n; ++i) s << (i ? " " : "") << v[i];
  return s.str();
}
template <typename T>
std::string join(const std::vector<T>& v) {
  std::ostringstream s;
  s.precision(17);
  for (size_t i = 0; i < v.size(); ++i) s << (i ? " " : "") << v[i];
  return s.str();
}

// The MJCF text of a case; the mesh file is referenced by absolute path.
std::string case_xml(const MeshCase& c) {
  std::ostringstream x;
  x << "<mujoco model=\"" << c.label << "\">\n";
  x << "  <compiler convexhull=\"" << (c.options.convexhull ? "true" : "false")
    << "\" exactmeshinertia=\"" << (c.options.exactmeshinertia ? "true" : "false")
    << "\" fitaabb=\"" << (c.fitaabb ? "true" : "false") << "\"/>\n";
  const MeshSpec& s = c.spec;
  if (s.density != 1000)
    x << "  <default><default class=\"d\"><geom density=\"" << s.density
      << "\"/></default></default>\n";
  x << "  <asset>\n    <mesh name=\"m\"";
  if (s.density != 1000) x << " class=\"d\"";
  if (!s.file.empty()) x << " file=\"" << test::testdata(s.file) << "\"";
  x << " scale=\"" << join(s.scale, 3) << "\" refpos=\"" << join(s.refpos, 3) << "\" refquat=\""
    << join(s.refquat, 4) << "\" smoothnormal=\"" << (s.smoothnormal ? "true" : "false") << "\"";
  if (!s.vertex.empty()) x << " vertex=\"" << join(s.vertex) << "\"";
  if (!s.normal.empty()) x << " normal=\"" << join(s.normal) << "\"";
  if (!s.texcoord.empty()) x << " texcoord=\"" << join(s.texcoord) << "\"";
  if (!s.face.empty()) x << " face=\"" << join(s.face) << "\"";
  x << "/>\n  </asset>\n  <worldbody>\n";
  for (const GeomCase& g : c.geoms) {
    x << "    <body><freejoint/><geom type=\"" << kGeomTypeNames[g.type] << "\" mesh=\"m\" pos=\""
      << join(g.pos, 3) << "\" quat=\"" << join(g.quat, 4) << "\"";
    if (g.shellinertia) x << " shellinertia=\"true\"";
    if (g.fitscale != 1) x << " fitscale=\"" << g.fitscale << "\"";
    if (g.mass >= 0)
      x << " mass=\"" << g.mass << "\"";
    else
      x << " density=\"" << g.density << "\"";
    if (g.visual) x << " contype=\"0\" conaffinity=\"0\"";
    x << "/></body>\n";
  }
  x << "  </worldbody>\n</mujoco>\n";
  return x.str();
}

// Worst error of a field, for reports.
struct Worst {
  double error = 0;
  long index = -1;
  double ours = 0, theirs = 0;
  void add(double a, double b, double scale, long i) {
    const double e = oracle::element_error(a, b, scale, oracle::Tolerance{});
    if (e > error || index < 0) {
      if (e >= error) {
        error = e;
        index = i;
        ours = a;
        theirs = b;
      }
    }
  }
};

template <typename A, typename B>
Worst compare_reals(const A* ours, const B* theirs, long n) {
  double scale = 0;
  for (long i = 0; i < n; ++i) scale = std::max(scale, std::fabs(static_cast<double>(theirs[i])));
  Worst w;
  for (long i = 0; i < n; ++i) w.add(ours[i], theirs[i], scale, i);
  return w;
}

// Absolute differences, for unit vectors.
Worst compare_abs(const float* ours, const float* theirs, long n) {
  Worst w;
  for (long i = 0; i < n; ++i) {
    const double e = std::fabs(static_cast<double>(ours[i]) - theirs[i]);
    if (w.index < 0 || e > w.error) w = Worst{e, i, ours[i], theirs[i]};
  }
  return w;
}

// Loads a case in MuJoCo (writing its XML to a temporary file).
oracle::MjModelPtr load_case(const MeshCase& c, std::string* error) {
  const test::TempDir dir;
  const std::string path = dir / (c.label + ".xml");
  std::ofstream(path) << case_xml(c);
  return oracle::load(path, error);
}

MeshSpec resolved(const MeshSpec& spec) {
  MeshSpec s = spec;
  if (!s.file.empty()) s.file = test::testdata(s.file);
  return s;
}

constexpr double kRealTol = 1e-7;   // mesh-derived doubles
constexpr double kFloatTol = 2e-7;  // float arrays: within about one float ulp
// Unit normals: components within a few float ulps of 1 (MuJoCo's normal rounding is not
// reproduced bit for bit; they only serve rendering).
constexpr double kNormalTol = 1e-6;

// Compares one case; returns a report line per field and fails the test on a mismatch.
void check_case(const MeshCase& c, bool verbose = false) {
  SCOPED_TRACE(c.label);
  std::string error;
  auto mj = load_case(c, &error);
  ASSERT_TRUE(mj) << error << "\n" << case_xml(c);
  ASSERT_EQ(mj->nmesh, 1);
  const CompiledMesh mesh = compile_mesh(resolved(c.spec), c.options, "mesh 'm'");

  // Integer arrays exactly.
  ASSERT_EQ(mesh.nvert(), mj->mesh_vertnum[0]);
  ASSERT_EQ(mesh.nface(), mj->mesh_facenum[0]);
  const int nv = mesh.nvert();
  EXPECT_TRUE(std::equal(mesh.face.begin(), mesh.face.end(), mj->mesh_face)) << "mesh_face differs";
  const bool mj_graph = mj->mesh_graphadr[0] >= 0;
  EXPECT_EQ(!mesh.graph.empty(), mj_graph);
  if (mj_graph && !mesh.graph.empty()) {
    EXPECT_EQ(static_cast<int>(mesh.graph.size()), mj->nmeshgraph);
    EXPECT_TRUE(std::equal(mesh.graph.begin(), mesh.graph.end(), mj->mesh_graph))
        << "mesh_graph differs";
  }
  EXPECT_EQ(!mesh.texcoord.empty(), mj->mesh_texcoordadr[0] >= 0);

  std::vector<std::pair<std::string, Worst>> report;
  report.emplace_back("mesh_vert", compare_reals(mesh.vert.data(), mj->mesh_vert, 3L * nv));
  report.emplace_back("mesh_normal", compare_abs(mesh.normal.data(), mj->mesh_normal, 3L * nv));
  if (!mesh.texcoord.empty() && mj->mesh_texcoordadr[0] >= 0)
    report.emplace_back("mesh_texcoord",
                        compare_reals(mesh.texcoord.data(), mj->mesh_texcoord, 2L * nv));

  std::vector<double> pos, quat, size, rbound, mass, inertia;
  for (size_t i = 0; i < c.geoms.size(); ++i) {
    const GeomCase& g = c.geoms[i];
    MeshGeomSpec gs;
    gs.type = g.type;
    gs.shellinertia = g.shellinertia;
    gs.fitaabb = c.fitaabb;
    gs.fitscale = g.fitscale;
    const MeshGeom mg = mesh_geom(mesh, gs, "geom");
    double p[3], q[4], gq[4] = {g.quat[0], g.quat[1], g.quat[2], g.quat[3]};
    math::quat_normalize(gq);  // as the compiler does with every orientation
    compose_mesh_frame(p, q, g.pos, gq, mg);
    pos.insert(pos.end(), p, p + 3);
    quat.insert(quat.end(), q, q + 4);
    size.insert(size.end(), mg.size, mg.size + 3);
    rbound.push_back(mg.rbound);
    if (g.type == kGeomMesh) {
      const double density = g.mass >= 0 ? g.mass / mg.volume : g.density;
      mass.push_back(density * mg.volume);
      for (int k = 0; k < 3; ++k) inertia.push_back(density * mg.unit_inertia[k]);
    } else {
      mass.push_back(mj->body_mass[i + 1]);  // primitives: the compiler's, not ours
      for (int k = 0; k < 3; ++k) inertia.push_back(mj->body_inertia[3 * (i + 1) + k]);
    }
  }
  const long ng = static_cast<long>(c.geoms.size());
  report.emplace_back("geom_pos", compare_reals(pos.data(), mj->geom_pos, 3 * ng));
  report.emplace_back("geom_quat", compare_reals(quat.data(), mj->geom_quat, 4 * ng));
  report.emplace_back("geom_size", compare_reals(size.data(), mj->geom_size, 3 * ng));
  report.emplace_back("geom_rbound", compare_reals(rbound.data(), mj->geom_rbound, ng));
  report.emplace_back("body_mass", compare_reals(mass.data(), mj->body_mass + 1, ng));
  report.emplace_back("body_inertia", compare_reals(inertia.data(), mj->body_inertia + 3, 3 * ng));

  for (const auto& [name, w] : report) {
    const double tol = name == "mesh_normal"         ? kNormalTol
                       : name.rfind("mesh_", 0) == 0 ? kFloatTol
                                                     : kRealTol;
    EXPECT_LE(w.error, tol) << name << "[" << w.index << "]: joco " << w.ours << " MuJoCo "
                            << w.theirs;
    if (verbose)
      std::printf("  %-28s %-14s worst %.3g at %ld\n", c.label.c_str(), name.c_str(), w.error,
                  w.index);
  }
}

MeshSpec inline_mesh(std::vector<double> vertex, std::vector<int> face = {}) {
  MeshSpec s;
  s.vertex = std::move(vertex);
  s.face = std::move(face);
  return s;
}

const std::vector<double> kCube = {0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0,
                                   0, 0, 1, 1, 0, 1, 1, 1, 1, 0, 1, 1};
const std::vector<double> kTetra = {0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1};
const std::vector<int> kTetraFaces = {0, 2, 1, 0, 1, 3, 0, 3, 2, 1, 2, 3};

TEST(MeshOracle, InlineTetrahedron) {
  MeshCase c{"tetra", inline_mesh(kTetra, kTetraFaces)};
  check_case(c, true);
}

TEST(MeshOracle, InlineCubeHull) {
  MeshCase c{"cube", inline_mesh(kCube)};
  check_case(c, true);
}

TEST(MeshOracle, StlTetrahedron) {
  MeshSpec s;
  s.file = "mesh/tet.stl";
  check_case({"stl_tetra", s}, true);
}

}  // namespace
}  // namespace joco

namespace joco {
namespace {

class RealMesh : public ::testing::TestWithParam<const char*> {};

TEST_P(RealMesh, MatchesMuJoCo) {
  MeshSpec s;
  s.file = GetParam();
  std::string label = GetParam();
  std::replace(label.begin(), label.end(), '/', '_');
  check_case({label, s}, true);
}

INSTANTIATE_TEST_SUITE_P(Files, RealMesh,
                         ::testing::Values("real/franka_sim/meshes/collision/link0.stl",
                                           "real/franka_sim/meshes/collision/finger.stl",
                                           "real/franka_sim/meshes/collision/hand.stl",
                                           "real/franka_sim/meshes/visual/finger.stl",
                                           "real/wonik_allegro/assets/base_link.stl",
                                           "real/wonik_allegro/assets/link_13.0.stl",
                                           "real/wonik_allegro/assets/link_3.0_tip.stl"));

}  // namespace
}  // namespace joco

namespace joco {
namespace {

INSTANTIATE_TEST_SUITE_P(Obj, RealMesh,
                         ::testing::Values("mesh/quad_pyramid_vt_vn.obj",
                                           "mesh/quad_pyramid_vt.obj", "mesh/quad_pyramid_vn.obj",
                                           "mesh/tetra.msh",
                                           "real/anybotics_anymal_c/assets/base_0.obj",
                                           "real/anybotics_anymal_c/assets/battery.obj",
                                           "real/anybotics_anymal_c/assets/foot.obj",
                                           "real/shadow_hand/assets/f_knuckle.obj",
                                           "real/shadow_hand/assets/forearm_0.obj",
                                           "mujoco/model/mug/mug.obj"));

}  // namespace
}  // namespace joco

namespace joco {
namespace {

// A non-convex L-shaped prism with outward faces, and an irregular tetrahedron.
const std::vector<double> kLVert = {0, 0, 0, 2, 0, 0, 2, 1, 0, 1, 1, 0, 1, 3, 0, 0, 3, 0,
                                    0, 0, 1, 2, 0, 1, 2, 1, 1, 1, 1, 1, 1, 3, 1, 0, 3, 1};
const std::vector<int> kLFace = {
    // bottom (z = 0, normal -z) and top (z = 1, normal +z)
    0, 2, 1, 0, 3, 2, 0, 5, 3, 3, 5, 4, 6, 7, 8, 6, 8, 9, 6, 9, 11, 9, 10, 11,
    // sides
    0, 1, 7, 0, 7, 6, 1, 2, 8, 1, 8, 7, 2, 3, 9, 2, 9, 8, 3, 4, 10, 3, 10, 9, 4, 5, 11, 4, 11, 10,
    5, 0, 6, 5, 6, 11};
const std::vector<double> kIrregular = {0.1, -0.2, 0.05, 1.3, 0.2,  -0.1,
                                        0.2, 0.9,  0.3,  0.4, 0.35, 1.7};

MeshCase with_geoms(MeshCase c, std::vector<GeomCase> geoms) {
  c.geoms = std::move(geoms);
  return c;
}

GeomCase geom(int type) {
  GeomCase g;
  g.type = type;
  return g;
}

std::vector<GeomCase> all_fits(double fitscale = 1) {
  std::vector<GeomCase> gs;
  for (int t : {kGeomSphere, kGeomCapsule, kGeomEllipsoid, kGeomCylinder, kGeomBox, kGeomMesh}) {
    GeomCase g = geom(t);
    if (t != kGeomMesh) g.fitscale = fitscale;
    gs.push_back(g);
  }
  return gs;
}

TEST(MeshOracle, NonConvexLegacyAndExactInertia) {
  MeshCase c{"l_legacy", inline_mesh(kLVert, kLFace)};
  check_case(c, true);
  c.label = "l_exact";
  c.options.exactmeshinertia = true;
  check_case(c, true);
}

TEST(MeshOracle, ExactInertiaRealMeshes) {
  for (const char* file :
       {"real/franka_sim/meshes/collision/link1.stl", "real/shadow_hand/assets/f_middle.obj"}) {
    MeshSpec s;
    s.file = file;
    MeshCase c{"exact", s};
    c.options.exactmeshinertia = true;
    check_case(c, true);
  }
}

TEST(MeshOracle, ScaleRefposRefquat) {
  MeshSpec s = inline_mesh(kIrregular);
  s.scale[0] = 1.5, s.scale[1] = 0.7, s.scale[2] = 2.1;
  check_case({"scaled", s}, true);
  s.refpos[0] = 0.3, s.refpos[1] = -1.1, s.refpos[2] = 0.25;
  check_case({"refpos", s}, true);
  s.refquat[0] = 0.8, s.refquat[1] = 0.1, s.refquat[2] = -0.4, s.refquat[3] = 0.3;
  check_case({"refquat", s}, true);
  MeshSpec f;
  f.file = "real/franka_sim/meshes/collision/link2.stl";
  f.scale[0] = 0.9, f.scale[1] = 1.1, f.scale[2] = 1.3;
  f.refpos[2] = 0.1;
  f.refquat[0] = 0.5, f.refquat[1] = 0.5, f.refquat[2] = 0.5, f.refquat[3] = -0.5;
  check_case({"franka_transformed", f}, true);
}

TEST(MeshOracle, NegativeScale) {
  MeshSpec s = inline_mesh(kIrregular);
  s.scale[1] = -1;
  check_case({"mirrored", s}, true);
  MeshSpec l = inline_mesh(kLVert, kLFace);
  l.scale[0] = -2;
  check_case({"mirrored_l", l}, true);
  // Files: MuJoCo 2.2.2 reverses their faces.
  for (const char* file :
       {"real/franka_sim/meshes/collision/link3.stl", "real/shadow_hand/assets/f_middle.obj"}) {
    MeshSpec f;
    f.file = file;
    f.scale[0] = -0.5, f.scale[1] = 0.8, f.scale[2] = 1.1;
    f.refpos[1] = 0.02;
    check_case({"mirrored_file", f}, true);
  }
}

TEST(MeshOracle, FittedPrimitives) {
  for (bool aabb : {false, true}) {
    MeshCase c =
        with_geoms({aabb ? "fit_aabb" : "fit_inertia", inline_mesh(kIrregular)}, all_fits());
    c.fitaabb = aabb;
    check_case(c, true);
    MeshSpec f;
    f.file = "real/wonik_allegro/assets/link_14.0.stl";
    MeshCase d = with_geoms({aabb ? "fit_aabb_allegro" : "fit_inertia_allegro", f}, all_fits(1.3));
    d.fitaabb = aabb;
    check_case(d, true);
  }
}

TEST(MeshOracle, GeomFrameMassAndShell) {
  GeomCase g = geom(kGeomMesh);
  g.pos[0] = 0.1, g.pos[1] = -0.3, g.pos[2] = 0.7;
  g.quat[0] = 0.9, g.quat[1] = 0.1, g.quat[2] = 0.3, g.quat[3] = -0.2;
  GeomCase massive = g;
  massive.mass = 2.5;
  GeomCase dense = g;
  dense.density = 7.3;
  GeomCase shell = g;
  shell.shellinertia = true;
  GeomCase shell_mass = shell;
  shell_mass.mass = 0.4;
  MeshSpec f;
  f.file = "real/franka_sim/meshes/collision/link4.stl";
  check_case(with_geoms({"geom_frames", f}, {g, massive, dense, shell, shell_mass}), true);
  check_case(with_geoms({"geom_frames_l", inline_mesh(kLVert, kLFace)}, {g, shell}), true);
}

TEST(MeshOracle, HullOnlyWhenNeeded) {
  MeshSpec f;
  f.file = "real/franka_sim/meshes/collision/link5.stl";
  MeshCase no_hull{"no_hull", f};
  no_hull.options.convexhull = false;
  check_case(no_hull, true);
  GeomCase visual = geom(kGeomMesh);
  visual.visual = true;
  MeshCase visual_only = with_geoms({"visual_only", f}, {visual});
  visual_only.options.needhull = false;
  check_case(visual_only, true);
  // A point cloud gets its faces from the hull even without convexhull.
  MeshCase cloud{"cloud", inline_mesh(kIrregular)};
  cloud.options.convexhull = false;
  check_case(cloud, true);
}

TEST(MeshOracle, InlineNormalsTexcoordsSmooth) {
  MeshSpec s = inline_mesh(kLVert, kLFace);
  for (int i = 0; i < 12; ++i) {
    s.normal.insert(s.normal.end(), {0.3 * i - 1, 0.5, 1.0 + 0.1 * i});
    s.texcoord.insert(s.texcoord.end(), {0.05 * i, 1 - 0.07 * i});
  }
  check_case({"inline_normals", s}, true);
  MeshSpec smooth = inline_mesh(kLVert, kLFace);
  smooth.smoothnormal = true;
  check_case({"smooth", smooth}, true);
  MeshSpec obj;
  obj.file = "real/shadow_hand/assets/th_proximal.obj";
  obj.smoothnormal = true;
  check_case({"smooth_obj", obj}, true);
}

}  // namespace
}  // namespace joco

namespace joco {
namespace {

// Inputs MuJoCo 2.2.2 rejects are rejected here too.
TEST(MeshOracle, RejectsWhatMuJoCoRejects) {
  std::vector<std::pair<std::string, MeshSpec>> bad;
  bad.emplace_back("three_vertices", inline_mesh({0, 0, 0, 1, 0, 0, 0, 1, 0}));
  bad.emplace_back("face_index", inline_mesh(kTetra, {0, 2, 1, 0, 1, 3, 0, 3, 2, 1, 2, 4}));
  // (A negative face index crashes MuJoCo 2.2.2 itself; mesh_test.cc checks that joco rejects it.)
  bad.emplace_back("orientation", inline_mesh(kTetra, {0, 1, 2, 0, 1, 3, 0, 3, 2, 1, 2, 3}));
  bad.emplace_back("face_count", inline_mesh(kTetra, {0, 2, 1, 0, 1, 3, 0, 3, 2, 1, 2}));
  bad.emplace_back("flat_cloud", inline_mesh({0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 1, 0}));
  bad.emplace_back("flat_faces",
                   inline_mesh({0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 1, 0}, {0, 1, 2, 1, 3, 2}));
  MeshSpec normals = inline_mesh(kTetra, kTetraFaces);
  normals.normal = {0, 0, 1, 0, 0, 1};
  bad.emplace_back("normal_count", normals);
  for (const char* file : {"mesh/tet_ascii.stl", "mesh/truncated.stl", "mesh/pentagon.obj"}) {
    MeshSpec s;
    s.file = file;
    bad.emplace_back(std::string("file_") + std::filesystem::path(file).stem().string(), s);
  }
  for (const auto& [label, spec] : bad) {
    SCOPED_TRACE(label);
    MeshCase c{"bad_" + label, spec};
    std::string error;
    auto mj = load_case(c, &error);
    const bool ascii = label == "file_tet_ascii";  // joco reads ASCII STL, MuJoCo does not
    EXPECT_FALSE(mj) << "MuJoCo accepted it";
    if (ascii) continue;
    EXPECT_THROW(compile_mesh(resolved(spec), c.options, "mesh 'm'"), InputError)
        << "MuJoCo: " << error;
    oracle::count_compared();  // the verdicts
  }
}

TEST(MeshOracle, DefaultsDensityRounding) {
  MeshSpec s = inline_mesh(kIrregular);
  s.density = 7.3;
  check_case(with_geoms({"class_density", s}, all_fits()), true);
  MeshSpec f;
  f.file = "real/franka_sim/meshes/collision/link6.stl";
  f.density = 0.37;
  check_case({"class_density_franka", f}, true);
}

TEST(MeshOracle, UnusedVertexIsKept) {
  std::vector<double> v = kTetra;
  v.insert(v.end(), {0.2, 0.2, 0.2});
  check_case({"unused_vertex", inline_mesh(v, kTetraFaces)}, true);
}

}  // namespace
}  // namespace joco
