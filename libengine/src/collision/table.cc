// The narrow-phase function of each pair of geom types, as MuJoCo 2.2.2's collision table.
#include "collision/narrowphase.h"

namespace joco {

namespace {

using namespace joco::narrow;

// Rows and columns: plane, hfield, sphere, capsule, ellipsoid, cylinder, box, mesh (upper
// triangle).
constexpr CollisionFunction kTable[kNGeomTypes][kNGeomTypes] = {
    {nullptr, nullptr, plane_sphere, plane_capsule, plane_convex, plane_cylinder, plane_box,
     plane_convex},
    {nullptr, nullptr, hfield_convex, hfield_convex, hfield_convex, hfield_convex, hfield_convex,
     hfield_convex},
    {nullptr, nullptr, sphere_sphere, sphere_capsule, convex_convex, convex_convex, sphere_box,
     convex_convex},
    {nullptr, nullptr, nullptr, capsule_capsule, convex_convex, convex_convex, capsule_box,
     convex_convex},
    {nullptr, nullptr, nullptr, nullptr, convex_convex, convex_convex, convex_convex,
     convex_convex},
    {nullptr, nullptr, nullptr, nullptr, nullptr, convex_convex, convex_convex, convex_convex},
    {nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, box_box, convex_convex},
    {nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, convex_convex},
};

}  // namespace

CollisionFunction collision_function(int type1, int type2) {
  if (type1 < 0 || type2 < 0 || type1 >= kNGeomTypes || type2 >= kNGeomTypes) return nullptr;
  return kTable[type1][type2];
}

}  // namespace joco
