// MJCF <composite>: expands into the bodies, joints, geoms, sites, tendons, equalities, skins and
// contact exclusions that MuJoCo 2.2.2 generates for each composite type.
#pragma once

#include <functional>

#include "compiler/spec.h"
#include "compiler/xml_tree.h"

namespace joco::compiler {

// What a composite needs from the reader: the model (for tendons, equalities, skins, excludes) and the
// default-class settings in effect at the composite element.
struct CompositeContext {
  ModelSpec& spec;
  std::function<const GeomSpec&()> geom_defaults;
  std::function<const SiteSpec&()> site_defaults;
  std::function<const JointSpec&()> joint_defaults;
  std::function<const TendonSpec&()> tendon_defaults;
};

// Adds what the <composite> element `e` generates to `parent` (and to the model). Throws InputError
// for invalid composites.
void expand_composite(const XmlElement& e, BodySpec& parent, const CompositeContext& context);

}  // namespace joco::compiler
