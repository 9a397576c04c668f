// Collision detection (the spec's "Collision detection" section, MuJoCo 2.2.2's mj_collision):
// from the global geom frames (geom_xpos, geom_xmat) to the contact list d.contact[0..d.ncon).
#pragma once

#include "joco/data.h"
#include "joco/model.h"

namespace joco {

// Fills d.contact[0..d.ncon) from d.geom_xpos and d.geom_xmat: the predefined <pair>s and the
// dynamically generated geom pairs (broad phase over bodies, exclusions, the contype/conaffinity,
// same-body, parent-child and bounding-sphere filters), each pair's contacts with its contact
// parameters. Contacts past nconmax are dropped with the kWarnContactFull warning. Allocation-free.
void collision(const Model& m, Data& d);

// Whether the dynamic pairs of bodies b1 and b2 are filtered out before any geom test: the same
// (welded) body, or parent and child (by their welds) unless the parent is the world or the
// filterparent flag is disabled. <contact><exclude> and contype/conaffinity are apart from this.
bool bodies_filtered(const Model& m, int b1, int b2);

// The narrow phase of one geom pair, g1's type no larger than g2's: writes at most kMaxConPair
// contacts with distance below `margin` to con (dist, pos and the contact normal in frame[0..3),
// pointing from g1 to g2; a tangent hint in frame[3..6) or zeros) and returns how many.
using CollisionFunction = int (*)(const Model& m, const Data& d, Contact* con, int g1, int g2,
                                  double margin);

// The narrow-phase function of two geom types (type1 <= type2); nullptr when the pair is not
// collided (plane-plane, plane-hfield, hfield-hfield).
CollisionFunction collision_function(int type1, int type2);

// Completes a contact frame in place: normalises the normal (row 0), makes row 1 a unit tangent
// (from the hint in row 1 when it has length, else from the y or z axis) and row 2 = row 0 x row 1.
void make_contact_frame(double frame[9]);

}  // namespace joco
