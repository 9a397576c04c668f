// Ray casting (MuJoCo's mj_ray family): where the ray pnt + x * vec, x >= 0, first meets a geom's
// surface. Distances are in units of |vec| (x itself); -1 means no intersection. A ray that starts
// inside a geom meets its surface from the inside. They read geom poses from Data (kinematics must
// have run) and never allocate. Used by the rangefinder sensor.
#pragma once

#include <cstdint>

#include "joco/data.h"
#include "joco/model.h"

namespace joco {

inline constexpr int kNGroup = 6;  // geom groups a ray can select (MuJoCo's mjNGROUP)

// The nearest geom the ray meets, as mj_ray in MuJoCo 2.2.2. Geoms are skipped when they belong to
// body `bodyexclude` (-1: none); when they are invisible (alpha 0 in their material's rgba when
// they have a material, else in geom_rgba); when geomgroup (kNGroup flags, null for all) excludes
// their group (groups outside 0..5 count as the nearest of them); or when include_static is false
// and they belong to the world body itself (geoms of bodies welded to the world count as moving in
// 2.2.2). As in 2.2.2, planes and height fields ignore the group filter (MuJoCo 2.3.6 changed
// that). Returns the distance and the geom's id in *geomid (-1 when nothing is hit; may be null).
double ray(const Model& m, const Data& d, const double pnt[3], const double vec[3],
           const uint8_t* geomgroup, bool include_static, int bodyexclude, int* geomid);

// A ray against one primitive geom (plane, sphere, capsule, ellipsoid, cylinder, box) of size
// `size` at pose (pos, mat), mat row-major with the geom's axes as columns (mju_rayGeom). Planes
// are one-sided, seen from their +z side, and bounded by size[0], size[1] when these are positive.
// Returns -1 for other types.
double ray_geom(const double pos[3], const double mat[9], const double size[3], const double pnt[3],
                const double vec[3], int geomtype);

// A ray against the triangles of a mesh geom (mj_rayMesh), both faces of each.
double ray_mesh(const Model& m, const Data& d, int geom, const double pnt[3], const double vec[3]);

// A ray against a height field geom (mj_rayHfield), as 2.2.2 builds it: a base box from z =
// -size[3] to 0 and, on it, two triangles a grid cell (seen from both sides) with vertical sides
// from z = 0 up to the surface's edge. The parts are separate surfaces: a ray starting inside the
// field meets the face z = 0. On the sides x = +-size[0], 2.2.2 reads the edge heights with the
// wrong row stride (element r * nrow + c); joco does the same (clamped to the data where 2.2.2
// would read past it, for nrow > ncol).
double ray_hfield(const Model& m, const Data& d, int geom, const double pnt[3],
                  const double vec[3]);

}  // namespace joco
