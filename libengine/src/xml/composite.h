// MJCF <composite>: expands into the bodies, joints, geoms, sites, tendons, equalities, skins and
// contact exclusions that MuJoCo 2.2.2 generates for each composite type.
#pragma once

#include "compiler/spec.h"
#include "xml/xml_tree.h"

namespace joco::compiler {

// Adds what the <composite> element `e` generates to `parent` (bodies, joints, geoms, sites) and to
// `spec` (tendons, equalities, skins, excludes). As in MuJoCo 2.2.2, default classes do not apply:
// the generated elements start from MJCF's built-in defaults, adjusted per composite type, and the
// composite's own subelements override them. Throws InputError for invalid composites.
void expand_composite(const XmlElement& e, BodySpec& parent, ModelSpec& spec);

}  // namespace joco::compiler
