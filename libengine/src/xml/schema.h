// The MJCF schema of MuJoCo 2.2.2 (elements, nesting, multiplicity, attributes) and the check that
// turns violations into errors naming file, line and element.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "xml/xml_tree.h"

namespace joco::compiler {

struct SchemaNode {
  std::string name;
  char multiplicity = '*';  // '!' required once, '?' at most once, '*' any number, 'R' recursive
  std::vector<std::string> attributes;
  std::vector<const SchemaNode*> children;

  const SchemaNode* child(std::string_view element) const;
  bool allows(std::string_view attribute) const;
};

const SchemaNode& mjcf_schema();

// Throws InputError at the first unrecognized element or attribute, or repeated unique element.
void check_schema(const XmlElement& root);

}  // namespace joco::compiler
