#include "compiler/mesh.h"

#include <algorithm>
#include <cmath>

#include "compiler/convex_hull.h"
#include "decode/mesh_file.h"
#include "joco/constants.h"
#include "joco/error.h"
#include "math/eig3.h"
#include "math/vec.h"

namespace joco {
namespace {

using math::cross3;
using math::dot3;

// Area, unit normal and centroid of a triangle of single-precision vertices. The edges and the
// centroid are formed in single precision (as MuJoCo does), the rest in double. Degenerate
// triangles have area 0 and normal 0.
double triangle(double normal[3], double center[3], const float* a, const float* b,
                const float* c) {
  for (int k = 0; k < 3; ++k)
    center[k] = static_cast<float>(static_cast<float>(a[k] + b[k]) + c[k]) / 3.0f;
  const double e1[3] = {static_cast<float>(b[0] - a[0]), static_cast<float>(b[1] - a[1]),
                        static_cast<float>(b[2] - a[2])};
  const double e2[3] = {static_cast<float>(c[0] - a[0]), static_cast<float>(c[1] - a[1]),
                        static_cast<float>(c[2] - a[2])};
  cross3(normal, e1, e2);
  const double len = std::sqrt(dot3(normal, normal));
  if (len < kMinVal) {
    math::zero3(normal);
    return 0;
  }
  for (int k = 0; k < 3; ++k) normal[k] /= len;
  return len / 2;
}

// Vertex normals from the faces: area-weighted face normals, leaving out (unless smooth) the faces
// whose normal is far from the vertex's average, so that sharp edges stay sharp.
std::vector<float> make_normals(const std::vector<float>& vert, const std::vector<int>& face,
                                bool smooth) {
  const int nvert = static_cast<int>(vert.size() / 3);
  const int nface = static_cast<int>(face.size() / 3);
  std::vector<float> normal(3 * nvert, 0.0f);
  auto face_normal = [&](int f, double nrm[3]) {
    const float* v0 = &vert[3 * face[3 * f]];
    const float* v1 = &vert[3 * face[3 * f + 1]];
    const float* v2 = &vert[3 * face[3 * f + 2]];
    const double e1[3] = {static_cast<float>(v1[0] - v0[0]), static_cast<float>(v1[1] - v0[1]),
                          static_cast<float>(v1[2] - v0[2])};
    const double e2[3] = {static_cast<float>(v2[0] - v0[0]), static_cast<float>(v2[1] - v0[1]),
                          static_cast<float>(v2[2] - v0[2])};
    cross3(nrm, e1, e2);
    return math::normalize3(nrm);
  };
  for (int f = 0; f < nface; ++f) {
    double nrm[3];
    const double area = face_normal(f, nrm);
    for (int j = 0; j < 3; ++j)
      for (int k = 0; k < 3; ++k) {
        float& n = normal[3 * face[3 * f + j] + k];
        n = static_cast<float>(n + nrm[k] * area);
      }
  }
  if (!smooth) {
    std::vector<float> removed(3 * nvert, 0.0f);
    for (int f = 0; f < nface; ++f) {
      double nrm[3];
      const double area = face_normal(f, nrm);
      for (int j = 0; j < 3; ++j) {
        const int v = face[3 * f + j];
        double vn[3] = {normal[3 * v], normal[3 * v + 1], normal[3 * v + 2]};
        math::normalize3(vn);
        if (dot3(nrm, vn) < 0.8) {
          for (int k = 0; k < 3; ++k) {
            float& r = removed[3 * v + k];
            r = static_cast<float>(r + nrm[k] * area);
          }
        }
      }
    }
    for (int i = 0; i < 3 * nvert; ++i) normal[i] -= removed[i];
  }
  for (int v = 0; v < nvert; ++v) {
    float* n = &normal[3 * v];
    const float len = std::sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
    if (len > kMinVal) {
      n[0] /= len;
      n[1] /= len;
      n[2] /= len;
    } else {
      n[0] = n[1] = 0;
      n[2] = 1;
    }
  }
  return normal;
}

// Second moments of the mesh about the origin, scaled by the defaults' geom density (the results do
// not depend on it, but MuJoCo's rounding does): of the solid (pyramids from the origin to each
// face, signed when exact) or of the shell (the faces). Returns the volume (or area) and the
// principal moments and axes.
double principal_inertia(const CompiledMesh& mesh, double density, bool exact, bool shell,
                         double eigval[3], double quat[4]) {
  static constexpr int kPair[6][2] = {{0, 0}, {1, 1}, {2, 2}, {0, 1}, {0, 2}, {1, 2}};
  double prod[6] = {0, 0, 0, 0, 0, 0};
  double total = 0;
  for (int f = 0; f < mesh.nface(); ++f) {
    const float* a = &mesh.vert[3 * mesh.face[3 * f]];
    const float* b = &mesh.vert[3 * mesh.face[3 * f + 1]];
    const float* c = &mesh.vert[3 * mesh.face[3 * f + 2]];
    double nrm[3], cen[3];
    const double area = triangle(nrm, cen, a, b, c);
    double vol = shell ? area : dot3(cen, nrm) * area / 3;
    if (!exact) vol = std::fabs(vol);
    total += vol;
    for (int j = 0; j < 6; ++j) {
      const int p = kPair[j][0], q = kPair[j][1];
      // The vertex products are single precision, as MuJoCo forms them.
      const float sum = 2 * (a[p] * a[q] + b[p] * b[q] + c[p] * c[q]) + a[p] * b[q] + a[q] * b[p] +
                        a[p] * c[q] + a[q] * c[p] + b[p] * c[q] + b[q] * c[p];
      prod[j] += density * vol / (shell ? 12 : 20) * sum;
    }
  }
  const double inertia[9] = {prod[1] + prod[2], -prod[3],          -prod[4],
                             -prod[3],          prod[0] + prod[2], -prod[5],
                             -prod[4],          -prod[5],          prod[0] + prod[1]};
  math::eig3(eigval, quat, inertia);
  return total;
}

// Half sizes of the box with the principal moments `eigval` (scaled by `density`).
void equivalent_box(double box[3], const double eigval[3], double density, double volume) {
  const double mass = density * volume;
  box[0] = 0.5 * std::sqrt(6 * (eigval[1] + eigval[2] - eigval[0]) / mass);
  box[1] = 0.5 * std::sqrt(6 * (eigval[0] + eigval[2] - eigval[1]) / mass);
  box[2] = 0.5 * std::sqrt(6 * (eigval[0] + eigval[1] - eigval[2]) / mass);
}

// Faces given in the XML must be consistently oriented: no directed edge may appear twice.
void check_orientation(const std::vector<int>& face, const std::string& where) {
  std::vector<std::pair<int, int>> edges;
  edges.reserve(face.size());
  for (size_t f = 0; f + 2 < face.size(); f += 3)
    for (int k = 0; k < 3; ++k) edges.emplace_back(face[f + k], face[f + (k + 1) % 3]);
  std::sort(edges.begin(), edges.end());
  const auto repeated = std::adjacent_find(edges.begin(), edges.end());
  if (repeated != edges.end())
    throw InputError(where + ": faces have inconsistent orientation (edge " +
                     std::to_string(repeated->first) + "-" + std::to_string(repeated->second) +
                     " appears twice in the same direction)");
}

}  // namespace

CompiledMesh compile_mesh(const MeshSpec& spec, const MeshOptions& options,
                          const std::string& where) {
  mesh_file::RawMesh raw;
  if (!spec.file.empty()) {
    if (!spec.vertex.empty())
      throw InputError(where + ": vertex data given both in the file and in the XML");
    raw = mesh_file::load(spec.file, where);
    // A mirroring scale would turn the file's faces inside out; MuJoCo 2.2.2 reverses them when it
    // reads a file (STL, OBJ or MSH), not for inline data.
    if (spec.scale[0] * spec.scale[1] * spec.scale[2] < 0)
      for (size_t f = 0; f + 2 < raw.face.size(); f += 3)
        std::swap(raw.face[f + 1], raw.face[f + 2]);
  }
  if (!spec.vertex.empty()) raw.vert.assign(spec.vertex.begin(), spec.vertex.end());
  if (!spec.normal.empty()) raw.normal.assign(spec.normal.begin(), spec.normal.end());
  if (!spec.texcoord.empty()) raw.texcoord.assign(spec.texcoord.begin(), spec.texcoord.end());
  if (!spec.face.empty()) raw.face = spec.face;

  CompiledMesh mesh;
  mesh.name = spec.name;
  mesh.vert = std::move(raw.vert);
  mesh.normal = std::move(raw.normal);
  mesh.texcoord = std::move(raw.texcoord);
  mesh.face = std::move(raw.face);

  if (mesh.vert.empty()) throw InputError(where + ": no vertices");
  if (mesh.vert.size() % 3) throw InputError(where + ": vertex data must be a multiple of 3");
  if (mesh.face.size() % 3) throw InputError(where + ": face data must be a multiple of 3");
  const int nvert = mesh.nvert();
  if (nvert < 4) throw InputError(where + ": at least 4 vertices required");
  if (!mesh.normal.empty() && mesh.normal.size() != mesh.vert.size())
    throw InputError(where + ": vertex and normal data incompatible size");
  if (!mesh.texcoord.empty() && mesh.texcoord.size() != 2 * static_cast<size_t>(nvert))
    throw InputError(where + ": vertex and texcoord data incompatible size");
  for (size_t i = 0; i < mesh.face.size(); ++i)
    if (mesh.face[i] < 0 || mesh.face[i] >= nvert)
      throw InputError(where + ": vertex index out of range in face " + std::to_string(i / 3) +
                       " (index = " + std::to_string(mesh.face[i]) + ")");
  if (!spec.face.empty()) check_orientation(mesh.face, where);

  const bool had_faces = !mesh.face.empty();
  if ((options.convexhull && options.needhull) || !had_faces) {
    mesh.graph = convex_hull_graph(mesh.vert, where);
    if (!had_faces) {
      const int numvert = mesh.graph[0], numface = mesh.graph[1];
      const int* face_globalid = &mesh.graph[2 + 3 * numvert + 3 * numface];
      mesh.face.assign(face_globalid, face_globalid + 3 * numface);
    }
  }
  if (mesh.normal.empty()) mesh.normal = make_normals(mesh.vert, mesh.face, spec.smoothnormal);

  // The reference frame, then the scale: subtract refpos (in single precision), rotate by
  // conj(refquat), scale. Normals are rotated and scaled alike (not by the inverse scale, as a
  // normal transform would be), then renormalised in single precision, multiplying by the
  // reciprocal length; a normal whose squared length is below kMinVal (a zero normal, or a tiny one
  // in a file) becomes +z. Measured on MuJoCo 2.2.2 with explicit normals: bit for bit.
  double refquat[4] = {spec.refquat[0], spec.refquat[1], spec.refquat[2], spec.refquat[3]};
  math::quat_normalize(refquat);
  double refmat[9];
  math::quat_to_mat(refmat, refquat);
  for (int i = 0; i < nvert; ++i) {
    float* v = &mesh.vert[3 * i];
    double p[3], r[3];
    for (int k = 0; k < 3; ++k) p[k] = v[k] - static_cast<float>(spec.refpos[k]);
    math::mat_t_vec3(r, refmat, p);
    for (int k = 0; k < 3; ++k) v[k] = static_cast<float>(static_cast<float>(r[k]) * spec.scale[k]);
    float* n = &mesh.normal[3 * i];
    const double q[3] = {n[0], n[1], n[2]};
    math::mat_t_vec3(r, refmat, q);
    for (int k = 0; k < 3; ++k) n[k] = static_cast<float>(static_cast<float>(r[k]) * spec.scale[k]);
    const float len2 = n[0] * n[0] + n[1] * n[1] + n[2] * n[2];
    if (len2 > kMinVal) {
      const float inv = 1 / std::sqrt(len2);
      for (int k = 0; k < 3; ++k) n[k] *= inv;
    } else {
      n[0] = n[1] = 0;
      n[2] = 1;
    }
  }

  const int nface = mesh.nface();
  auto triangle_of = [&](int f, double nrm[3], double cen[3]) {
    return triangle(nrm, cen, &mesh.vert[3 * mesh.face[3 * f]],
                    &mesh.vert[3 * mesh.face[3 * f + 1]], &mesh.vert[3 * mesh.face[3 * f + 2]]);
  };

  // Centroid of the surface (area-weighted face centroids): the apex of the pyramids.
  double facecen[3] = {0, 0, 0};
  double area_total = 0;
  for (int f = 0; f < nface; ++f) {
    double nrm[3], cen[3];
    const double area = triangle_of(f, nrm, cen);
    for (int k = 0; k < 3; ++k) facecen[k] += area * cen[k];
    area_total += area;
  }
  MeshMassFrame& frame = mesh.mass[static_cast<int>(MeshInertia::kVolume)];
  MeshMassFrame& shell = mesh.mass[static_cast<int>(MeshInertia::kShell)];
  // A surface without area, or (below) a volume without volume, is an error only where a body
  // needs the mesh's mass (see mesh_geom): MuJoCo 2.2.2 compiles such a mesh when it is unused,
  // in a world geom or in a body with an explicit inertial, and keeps it as scaled.
  auto mark_without_mass_frame = [&](const char* error) {
    frame.error = shell.error = error;
    mesh.exactmeshinertia = options.exactmeshinertia;
  };
  if (area_total < kMinVal) {
    mark_without_mass_frame("mesh surface area is too small");
    return mesh;
  }
  for (int k = 0; k < 3; ++k) facecen[k] /= area_total;

  // Volume and centre of mass of the union of pyramids; the legacy computation counts every
  // pyramid as positive, which is exact only for convex meshes.
  double volume = 0;
  double com[3] = {0, 0, 0};
  for (int f = 0; f < nface; ++f) {
    double nrm[3], cen[3];
    const double area = triangle_of(f, nrm, cen);
    const double d[3] = {cen[0] - facecen[0], cen[1] - facecen[1], cen[2] - facecen[2]};
    double vol = dot3(d, nrm) * area / 3;
    if (!options.exactmeshinertia) vol = std::fabs(vol);
    volume += vol;
    for (int k = 0; k < 3; ++k) com[k] += vol * (cen[k] * 3.0 / 4.0 + facecen[k] / 4.0);
  }
  if (volume < kMinVal) {
    mark_without_mass_frame("mesh volume is too small");
    return mesh;
  }
  for (int k = 0; k < 3; ++k) com[k] /= volume;
  for (int i = 0; i < nvert; ++i)
    for (int k = 0; k < 3; ++k) {
      float& v = mesh.vert[3 * i + k];
      v = static_cast<float>(v - com[k]);
    }

  // Second moments about the centre of mass, then the principal axes.
  double eigval[3];
  volume = principal_inertia(mesh, spec.density, options.exactmeshinertia, /*shell=*/false, eigval,
                             frame.quat);
  if (eigval[2] <= 0) throw InputError(where + ": eigenvalue of mesh inertia must be positive");
  frame.volume = volume;
  math::copy3(frame.pos, com);
  equivalent_box(frame.box, eigval, spec.density, volume);
  frame.valid = true;

  // Align the mesh with its principal axes.
  double mat[9];
  math::quat_to_mat(mat, frame.quat);
  for (int i = 0; i < nvert; ++i) {
    float* v = &mesh.vert[3 * i];
    float* n = &mesh.normal[3 * i];
    double p[3] = {v[0], v[1], v[2]}, r[3];
    math::mat_t_vec3(r, mat, p);
    for (int k = 0; k < 3; ++k) v[k] = static_cast<float>(r[k]);
    double q[3] = {n[0], n[1], n[2]};
    math::mat_t_vec3(r, mat, q);
    for (int k = 0; k < 3; ++k) n[k] = static_cast<float>(r[k]);
  }

  // The shell (mass on the surface), computed in the aligned frame as MuJoCo 2.2.2 does: its
  // "centre" is 3/4 of the area centroid (the pyramid formula with the apex left at the origin),
  // and its axes and box come from the second moments about the origin, not about that centre.
  double area = 0;
  for (int f = 0; f < nface; ++f) {
    double nrm[3], cen[3];
    const double a = triangle_of(f, nrm, cen);
    area += a;
    for (int k = 0; k < 3; ++k) shell.pos[k] += a * (cen[k] * 3.0 / 4.0 + 0.0 / 4.0);
  }
  for (int k = 0; k < 3; ++k) shell.pos[k] /= area;
  area = principal_inertia(mesh, spec.density, false, /*shell=*/true, eigval, shell.quat);
  shell.volume = area;
  equivalent_box(shell.box, eigval, spec.density, area);
  shell.valid = eigval[2] > 0;
  if (!shell.valid) shell.error = "eigenvalue of mesh shell inertia must be positive";

  for (int k = 0; k < 3; ++k) {
    double lo = mesh.vert[k], hi = mesh.vert[k], ext = 0;
    for (int i = 0; i < nvert; ++i) {
      const double v = mesh.vert[3 * i + k];
      lo = std::min(lo, v);
      hi = std::max(hi, v);
      ext = std::max(ext, std::fabs(v));
    }
    mesh.half_extent[k] = ext;
    mesh.aabb_center[k] = (lo + hi) / 2;
    mesh.aabb_half[k] = (hi - lo) / 2;
  }
  mesh.exactmeshinertia = options.exactmeshinertia;
  return mesh;
}

MeshGeom mesh_geom(const CompiledMesh& mesh, const MeshGeomSpec& geom, const std::string& where) {
  if (geom.shellinertia && geom.type != kGeomMesh)
    throw InputError(where + ": shellinertia is only available for mesh geoms");
  const MeshMassFrame& volume_frame = mesh.mass[static_cast<int>(MeshInertia::kVolume)];
  const MeshMassFrame& frame =
      geom.shellinertia ? mesh.mass[static_cast<int>(MeshInertia::kShell)] : volume_frame;
  if (!frame.valid) {
    // A mesh geom of a degenerate mesh has no offset or size; using its mass is the error.
    if (geom.type != kGeomMesh) throw InputError(where + ": " + frame.error);
    MeshGeom out;
    out.error = frame.error;
    return out;
  }
  MeshGeom out;
  math::copy3(out.pos, frame.pos);
  math::copy4(out.quat, frame.quat);
  double* size = out.size;
  const int nvert = mesh.nvert();
  const float* vert = mesh.vert.data();

  if (geom.type == kGeomMesh) {
    math::copy3(size, mesh.half_extent);
    out.rbound = math::norm3(size);
  } else if (!geom.fitaabb) {
    // Fitted to the equivalent inertia box.
    const double* box = volume_frame.box;
    switch (geom.type) {
      case kGeomSphere: size[0] = (box[0] + box[1] + box[2]) / 3; break;
      case kGeomCapsule:
        size[0] = (box[0] + box[1]) / 2;
        size[1] = std::max(0.0, box[2] - size[0] / 2);
        break;
      case kGeomCylinder:
        size[0] = (box[0] + box[1]) / 2;
        size[1] = box[2];
        break;
      case kGeomEllipsoid:
      case kGeomBox: math::copy3(size, box); break;
      default: throw InputError(where + ": invalid geom type in fitting mesh");
    }
  } else {
    // Fitted to the axis-aligned bounding box. MuJoCo 2.2.2 places the primitive at the box centre
    // taken as an offset from the geom frame (not from the mesh's centre of mass).
    const double* cen = mesh.aabb_center;
    math::copy3(out.pos, cen);
    switch (geom.type) {
      case kGeomSphere:
        for (int i = 0; i < nvert; ++i) {
          const double d[3] = {vert[3 * i] - cen[0], vert[3 * i + 1] - cen[1],
                               vert[3 * i + 2] - cen[2]};
          size[0] = std::max(size[0], math::norm3(d));
        }
        break;
      case kGeomCapsule:
      case kGeomCylinder:
        for (int i = 0; i < nvert; ++i) {
          const double dx = vert[3 * i] - cen[0], dy = vert[3 * i + 1] - cen[1];
          size[0] = std::max(size[0], std::sqrt(dx * dx + dy * dy));
          size[1] = std::max(size[1], std::fabs(vert[3 * i + 2] - cen[2]));
        }
        if (geom.type == kGeomCapsule) {
          // The half-length that keeps every vertex inside the rounded caps.
          size[1] = 0;
          for (int i = 0; i < nvert; ++i) {
            const double dx = vert[3 * i] - cen[0], dy = vert[3 * i + 1] - cen[1];
            const double r = std::sqrt(dx * dx + dy * dy);
            const double h = size[0] * std::sin(std::acos(r / size[0]));
            size[1] = std::max(size[1], std::fabs(vert[3 * i + 2] - cen[2]) - h);
          }
        }
        break;
      case kGeomEllipsoid:
      case kGeomBox: math::copy3(size, mesh.aabb_half); break;
      default: throw InputError(where + ": invalid geom type in fitting mesh");
    }
  }
  if (geom.type != kGeomMesh) {
    for (int k = 0; k < 3; ++k) size[k] *= geom.fitscale;
    switch (geom.type) {
      case kGeomSphere: out.rbound = size[0]; break;
      case kGeomCapsule: out.rbound = size[0] + size[1]; break;
      case kGeomCylinder: out.rbound = std::sqrt(size[0] * size[0] + size[1] * size[1]); break;
      case kGeomEllipsoid: out.rbound = std::max(std::max(size[0], size[1]), size[2]); break;
      default: out.rbound = math::norm3(size); break;
    }
  }

  // Mass properties of a mesh geom: the equivalent box of the chosen frame; its mass is that of
  // the box (legacy) or of the mesh volume (exactmeshinertia).
  const double* box = frame.box;
  const double* vbox = volume_frame.box;
  out.volume = mesh.exactmeshinertia ? volume_frame.volume : 8 * vbox[0] * vbox[1] * vbox[2];
  out.unit_inertia[0] = out.volume * (box[1] * box[1] + box[2] * box[2]) / 3;
  out.unit_inertia[1] = out.volume * (box[0] * box[0] + box[2] * box[2]) / 3;
  out.unit_inertia[2] = out.volume * (box[0] * box[0] + box[1] * box[1]) / 3;
  return out;
}

void compose_mesh_frame(double res_pos[3], double res_quat[4], const double pos[3],
                        const double quat[4], const MeshGeom& offset) {
  math::frame_mul(res_pos, res_quat, pos, quat, offset.pos, offset.quat);
}

}  // namespace joco
