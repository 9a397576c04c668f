// A read-only XML element tree that remembers where every element came from (file and line), with
// MJCF's <include> elements already expanded. The MJCF and URDF readers work on this.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace joco::compiler {

struct XmlElement {
  std::string name;
  std::vector<std::pair<std::string, std::string>> attributes;  // in document order
  std::vector<XmlElement> children;
  std::string text;  // the element's own character data, trimmed (URDF keeps values there)
  std::shared_ptr<const std::string> file;  // the file it was read from
  int line = 0;

  // The attribute's text, if present.
  const std::string* find(std::string_view attribute) const;
  // "robot.xml:12: <geom>" for messages.
  std::string where() const;
};

// Loads an XML document. `source` names it in messages; `base_dir` resolves <include file="...">
// (MuJoCo resolves includes relative to the main model's directory). With expand_includes, every
// <include file="F"/> is replaced by the children of F's top-level element; a file may be included
// only once. Throws InputError (file:line: reason) for unreadable or malformed XML.
XmlElement load_xml(const std::string& text, const std::string& source, const std::string& base_dir,
                    bool expand_includes);

// Reads a file and loads it (see load_xml).
XmlElement load_xml_file(const std::string& path, bool expand_includes);

}  // namespace joco::compiler
