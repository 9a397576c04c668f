// The general convex collider: geoms as support functions for libccd's MPR (Minkowski Portal
// Refinement), the normal correction for smooth geoms, and multi-contact by small rotations.
#pragma once

#include <ccd/ccd.h>

#include "collision/narrowphase.h"

namespace joco::narrow {

// One convex shape for libccd: a geom in its current (or slightly rotated) frame, or a triangular
// prism of a height field.
struct ConvexObject {
  const Model* model = nullptr;
  int geom = -1;
  int type = -1;       // geom type; kGeomHfield for a prism
  double margin = 0;   // every support point is pushed out by margin / 2 along the direction
  double pos[3] = {};  // frame in use
  double mat[9] = {};
  mutable int vertex = -1;  // mesh hill climbing: where the last search ended, the next starts
  // Support points libccd may still ask for in this MPR call (mpr_penetration sets it). libccd's
  // portal discovery and refinement loop until a geometric test succeeds, with no iteration cap:
  // on absurd geometry (sizes of 9e43) they never end. Past the budget the support point is NaN,
  // which fails every test of those loops, so the call ends with no contact.
  mutable int support_budget = -1;  // -1: unlimited (support_point, outside MPR)
  mutable double last_dir[3] = {};  // the direction of the last support point MPR asked for
  // Mesh hill climbs: where the climb of each of this MPR call's support points ended at the
  // pair's last test (kClimbStartCalls of them, updated; nullptr: none kept), and the support
  // points MPR has asked for so far.
  int* climb_starts = nullptr;
  mutable int support_calls = 0;
  double prism[6][3] = {};  // prism vertices in world coordinates: the top three, then the bottom
};

// Support points per object and MPR call: far above what MPR asks on any sane pair (a few
// discovery steps, then at most mpr_iterations refinements), so a budget never runs out there.
constexpr int kMprSupportBudget = 1000;

// The geom g in its frame from d.
void convex_object(ConvexObject* obj, const Model& m, const Data& d, int g, double margin);

// libccd callbacks.
void convex_support(const void* obj, const ccd_vec3_t* dir, ccd_vec3_t* out);
void convex_center(const void* obj, ccd_vec3_t* center);

// Support point of obj in direction dir (world), without the margin offset.
void support_point(const ConvexObject& obj, const double dir[3], double out[3]);

// Index (into mesh's vertices) of the support vertex in local direction dir, MuJoCo 2.2.2's: by
// steepest ascent over the hull graph from its vertex 0 (the end, a graph index, left in *last when
// given), or the first of all vertices with the largest projection for a mesh without a graph.
// A graph vertex in *last (the previous search's end) starts the climb there instead, with the
// same end: kept unless it ties with a neighbour, when the climb from vertex 0 decides.
// width picks the climb's vector path: -1 the widest this processor runs (mesh_climb_width()),
// 4 AVX (only where it runs), 2 SSE2, 1 scalar; all give the same vertex.
int mesh_support_vertex(const Model& m, int mesh, const double dir[3], int* last, int width = -1);
int mesh_climb_width();

// Whether the bounding boxes of two geom objects (centred at their frames, from geom_size and the
// type), each grown by margin / 2, are apart by a clear gap. MPR finds no penetration then: the
// points it tests (support points and the difference of the centres) all lie in the Minkowski
// difference of the boxes, which excludes the origin. False for prisms and types without a box.
bool boxes_apart(const ConvexObject& a, const ConvexObject& b, double margin);

// MPR between two objects (libccd's, unconditionally). On penetration writes the contact as
// mpr_contact; returns 1, else 0 (also when either object asked for more than support_budget
// support points).
int mpr_penetration(const Model& m, ConvexObject* a, ConvexObject* b, double margin, Contact* con,
                    int support_budget = kMprSupportBudget);

// MPR between two objects, skipped when boxes_apart. On penetration writes the contact (dist =
// margin - depth, the portal point, the normal from a to b corrected for smooth geoms) and returns
// 1; else returns 0.
int mpr_contact(const Model& m, ConvexObject* a, ConvexObject* b, double margin, Contact* con);

// The extra contacts of the multiccd flag: a and b rotated by -+1e-3 radians about the tangents of
// con[0] at its point, MPR again, and kept when far enough from the contacts so far. Returns the
// new number of contacts (from n).
int multiccd_contacts(const Model& m, const ConvexObject& a, const ConvexObject& b, double margin,
                      Contact* con, int n);

// Whether the multiccd flag applies to a pair of geom types (not to spheres and ellipsoids).
bool multiccd_applies(const Model& m, int type1, int type2);

}  // namespace joco::narrow
