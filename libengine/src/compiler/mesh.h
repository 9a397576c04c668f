// Mesh assets of the MJCF compiler: loading (STL, OBJ, MSH or inline data), the processing MuJoCo
// 2.2.2 applies (repeated-vertex removal, normals, scale/refpos/refquat, convex hull graph, volume,
// centre of mass, principal axes, re-centring and alignment), and the geom quantities derived from
// a mesh (mesh geoms and primitives fitted to a mesh).
//
// The numbers follow MuJoCo 2.2.2 to float precision: vertices are held in single precision, as in
// mjModel, and every step rounds where MuJoCo's compiler does.
#pragma once

#include <string>
#include <vector>

namespace joco {

// One <mesh> asset after defaults are applied.
struct MeshSpec {
  std::string name;
  std::string file;            // resolved path of an .stl, .obj or .msh file; empty for inline data
  std::vector<double> vertex;  // inline data (3 per vertex); not allowed together with a file
  std::vector<double> normal;  // 3 per vertex
  std::vector<double> texcoord;  // 2 per vertex
  std::vector<int> face;         // 3 per face
  double scale[3] = {1, 1, 1};
  double refpos[3] = {0, 0, 0};
  double refquat[4] = {1, 0, 0, 0};
  bool smoothnormal = false;
  // The geom density of the mesh's defaults class (<default><geom density>, 1000 unless changed).
  // It does not change the results mathematically, but MuJoCo scales the second moments by it
  // before rounding, so it is needed to reproduce them to the last bit.
  double density = 1000;
};

// The compiler settings that change how a mesh is compiled.
struct MeshOptions {
  bool convexhull = true;         // <compiler convexhull>
  bool exactmeshinertia = false;  // <compiler exactmeshinertia>
  // Whether some geom of type mesh that is not visual (contype or conaffinity nonzero) uses the
  // mesh; only then is the convex hull built (always when the mesh has no faces).
  bool needhull = true;
};

// Which mass distribution a geom infers from its mesh (<geom shellinertia>).
enum class MeshInertia : int { kVolume = 0, kShell = 1 };

// The mass properties of a mesh for unit density, in the mesh's file frame (after scale, refpos,
// refquat): where the centre of mass is, how the principal axes are oriented, and the equivalent
// inertia box.
struct MeshMassFrame {
  double pos[3] = {0, 0, 0};      // centre of mass
  double quat[4] = {1, 0, 0, 0};  // principal axes
  double box[3] = {0, 0, 0};      // half sizes of the box with the same inertia (unit density)
  double volume = 0;              // volume, or surface area for the shell
  bool valid = false;             // false: degenerate (see error); using it is an error
  std::string error;              // why it is invalid
};

// A compiled mesh: exactly what mjModel holds for it, and what geoms need.
struct CompiledMesh {
  std::string name;
  std::vector<float> vert;      // mesh_vert: re-centred at the volume centre of mass and aligned
  std::vector<float> normal;    // mesh_normal
  std::vector<float> texcoord;  // mesh_texcoord (empty: mesh_texcoordadr = -1)
  std::vector<int> face;        // mesh_face
  std::vector<int> graph;       // mesh_graph (empty: mesh_graphadr = -1)
  MeshMassFrame mass[2];        // indexed by MeshInertia
  double half_extent[3] = {0, 0, 0};  // max |vert| per axis in the aligned frame
  double aabb_center[3] = {0, 0, 0};  // centre of the axis-aligned bounding box, aligned frame
  double aabb_half[3] = {0, 0, 0};    // half sizes of the axis-aligned bounding box
  bool exactmeshinertia = false;      // compiled with <compiler exactmeshinertia>

  int nvert() const { return static_cast<int>(vert.size() / 3); }
  int nface() const { return static_cast<int>(face.size() / 3); }
};

// Loads and compiles one mesh. `where` prefixes error messages (e.g. "model.xml: mesh 'arm'").
// Throws InputError for anything MuJoCo 2.2.2 rejects.
CompiledMesh compile_mesh(const MeshSpec& spec, const MeshOptions& options,
                          const std::string& where);

// A geom that references a mesh: of type mesh, or a primitive (sphere, capsule, ellipsoid,
// cylinder, box) fitted to the mesh.
struct MeshGeomSpec {
  int type = 7;  // GeomType
  bool shellinertia = false;
  bool fitaabb = false;  // <compiler fitaabb>
  double fitscale = 1;
};

// What the compiler assigns to such a geom.
struct MeshGeom {
  // The offset to compose with the geom's own frame: geom_pos = pos_g + R(quat_g) pos, geom_quat =
  // quat_g * quat (see compose_mesh_frame).
  double pos[3] = {0, 0, 0};
  double quat[4] = {1, 0, 0, 0};
  double size[3] = {0, 0, 0};  // geom_size
  double rbound = 0;           // geom_rbound
  // Mass properties for unit density: mass = density * volume (or density = mass / volume when the
  // geom gives its mass), and the principal inertia is density * unit_inertia. For fitted
  // primitives these are the primitive's, from its fitted size.
  double volume = 0;
  double unit_inertia[3] = {0, 0, 0};
  std::string error;  // not empty: the mesh has no mass frame, and a body needing it is an error
};

// Throws InputError (prefixed by `where`) for an unsupported type, or a primitive fitted to a
// degenerate mesh (a mesh geom of one gets `error` set instead).
MeshGeom mesh_geom(const CompiledMesh& mesh, const MeshGeomSpec& geom, const std::string& where);

// geom_pos / geom_quat of a geom with frame (pos, quat) in its body that uses the mesh offset.
void compose_mesh_frame(double res_pos[3], double res_quat[4], const double pos[3],
                        const double quat[4], const MeshGeom& offset);

}  // namespace joco
