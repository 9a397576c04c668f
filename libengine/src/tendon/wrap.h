// Wrapping of a spatial tendon segment around a sphere or an (infinite) cylinder: the shortest path
// from p0 to p1 that stays outside the geom, or, when the side site lies inside the geom, the
// shortest path that touches it. Internal to the tendon stage; exposed for its tests.
#pragma once

namespace joco::wrap {

// The path around a circle of radius r centred at the origin, in 2D, from q0 to q1:
// tangent points u0 (where the path meets the circle) and u1 (where it leaves), and the length of
// the arc between them. Returns the arc length, or -1 when the straight segment is the path.
//
//   side == nullptr: wrap only when the segment q0-q1 crosses the circle, around the shorter arc.
//   side outside the circle: no wrap when the segment misses the circle and the side lies towards
//     the segment's point closest to the centre; otherwise wrap on the side of the side site (of
//     the two tangent paths whose straight parts do not cross each other, the one whose tangent
//     points lie in the direction of the side), even the long way around.
//   side inside the circle: the path must touch the circle; when the segment misses it, the path
//     goes through the point of the circle that makes it shortest (u0 == u1, arc 0).
// Either end inside the circle gives -1.
double circle(const double q0[2], const double q1[2], const double* side, double r, double u0[2],
              double u1[2]);

// The point u of the circle of radius r (centred at the origin) on the arc between the directions
// of q0 and q1 that minimises |q0 - u| + |u - q1|, found as MuJoCo 2.2.2 finds it (to about 1e-6
// in the reflection law; the direction of q0 + q1 when the segment nearly grazes the circle); both
// ends must be outside the circle and the segment must miss it.
void inside_point(const double q0[2], const double q1[2], double r, double u[2]);

// Wraps the segment p0-p1 (global) around a sphere (is_sphere) or a cylinder along the z axis of
// the frame (xpos, xmat) of radius r. `side` is the global position of the side site or null.
// On a wrap returns the length of the path on the surface (the arc, a helix for cylinders) and the
// global tangent points t0, t1; otherwise returns -1.
double geom(const double p0[3], const double p1[3], const double xpos[3], const double xmat[9],
            double r, bool is_sphere, const double* side, double t0[3], double t1[3]);

}  // namespace joco::wrap
