#include "compiler/geom_inertia.h"

#include <algorithm>
#include <cmath>

#include "math/vec.h"

namespace joco::compiler {

GeomMassProperties primitive_mass_properties(int type, const Vec3& size, bool /*shell*/) {
  GeomMassProperties p;
  const double r = size[0];
  switch (type) {
    case kGeomSphere:
      p.volume = 4.0 / 3.0 * kPi * r * r * r;
      p.inertia.fill(0.4 * p.volume * r * r);
      break;
    case kGeomCapsule: {
      // A cylinder of length L plus a sphere split into two hemispheres at its ends.
      const double length = 2 * size[1];
      const double cylinder = kPi * r * r * length;
      const double sphere = 4.0 / 3.0 * kPi * r * r * r;
      p.volume = cylinder + sphere;
      const double axial = cylinder * r * r / 2 + sphere * 0.4 * r * r;
      const double transverse =
          cylinder * (r * r / 4 + length * length / 12) +
          sphere * (0.4 * r * r + length * length / 4 + 3.0 / 8.0 * r * length);
      p.inertia = {transverse, transverse, axial};
      break;
    }
    case kGeomCylinder: {
      const double length = 2 * size[1];
      p.volume = kPi * r * r * length;
      const double transverse = p.volume * (3 * r * r + length * length) / 12;
      p.inertia = {transverse, transverse, p.volume * r * r / 2};
      break;
    }
    case kGeomEllipsoid: {
      const double a = size[0], b = size[1], c = size[2];
      p.volume = 4.0 / 3.0 * kPi * a * b * c;
      p.inertia = {p.volume * (b * b + c * c) / 5, p.volume * (a * a + c * c) / 5,
                   p.volume * (a * a + b * b) / 5};
      break;
    }
    case kGeomBox: {
      const double a = size[0], b = size[1], c = size[2];
      p.volume = 8 * a * b * c;
      p.inertia = {p.volume * (b * b + c * c) / 3, p.volume * (a * a + c * c) / 3,
                   p.volume * (a * a + b * b) / 3};
      break;
    }
    default: break;
  }
  return p;
}

}  // namespace joco::compiler
