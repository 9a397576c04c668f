// MJCF (MuJoCo 2.2.2's XML dialect) to ModelSpec: schema check, default classes, every element.
#pragma once

#include <string>

#include "compiler/spec.h"
#include "xml/attributes.h"
#include "xml/xml_tree.h"

namespace joco::compiler {

// Reads a schema-checked-or-not MJCF tree (includes already expanded). `base_dir` is the main
// file's directory. Throws InputError naming file, line and element.
ModelSpec read_mjcf(const XmlElement& root, const std::string& source, const std::string& base_dir);

// The attributes of one joint, geom, site or tendon element (or default) that are present, applied
// onto `out`; shared with the composite expansion.
void read_joint(const AttributeReader& a, JointSpec& out);
void read_geom(const AttributeReader& a, GeomSpec& out);
void read_site(const AttributeReader& a, SiteSpec& out);
void read_tendon(const AttributeReader& a, TendonSpec& out);

}  // namespace joco::compiler
