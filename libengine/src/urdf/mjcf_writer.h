// Writing MJCF for people: an element tree with comments, numbers in their shortest exact form,
// two-space indentation, and repeated attributes factored into default classes.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace joco::urdf {

struct XmlNode {
  std::string name;
  std::vector<std::pair<std::string, std::string>> attributes;  // written in this order
  std::vector<XmlNode> children;
  std::vector<std::string> comments;  // comment lines written before the element
  std::string trailing_comment;       // a comment after the element, on its line

  explicit XmlNode(std::string element = "") : name(std::move(element)) {}
  XmlNode& set(const std::string& attribute, const std::string& value);  // adds or replaces
  const std::string* find(const std::string& attribute) const;
  void erase(const std::string& attribute);
  XmlNode& add(XmlNode child);  // appends and returns the child
};

// Numbers as text: the shortest text that reads back as the same double ("0.1", not
// "0.10000000000000001"), with -0 written as 0.
std::string format_number(double v);
// A computed number (a composition of frames, a sum of inertias): rounded to 12 significant digits,
// which hides the last bits of rounding ("0.3", not "0.30000000000000004") and is still far below
// any tolerance that matters; values below `scale * 1e-12` are written as 0.
std::string format_computed(double v, double scale = 1);
// Several numbers separated by spaces.
std::string format_numbers(const double* v, int n, bool computed = false);

// One group of elements whose repeated attribute values go to a default class: every element named
// `element` whose class attribute equals `classname` ("" for elements without one). `candidates`
// lists the attributes that may be factored, each with MuJoCo's default value (elements without the
// attribute have that value). `fixed` attributes are always written in the class.
struct DefaultGroup {
  std::string element;
  std::string classname;
  std::vector<std::pair<std::string, std::string>> candidates;
  std::vector<std::pair<std::string, std::string>> fixed;
  std::string comment;  // written before the class
};

// Builds the <default> element for `groups` from the elements in `scope` (moving the factored
// values out of them): a value moves to the class when more than one element has it and doing so
// saves attributes overall (elements with MuJoCo's default then write it explicitly). A class
// without fixed attributes is made only when it saves more attributes than its class tags cost;
// otherwise its elements lose their class attribute. Classes come as children of the top-level
// default; groups with classname "" fill the top-level default itself.
XmlNode factor_defaults(XmlNode& scope, const std::vector<DefaultGroup>& groups);

// The document, with an XML comment header (lines) before the root element.
std::string write_xml(const XmlNode& root, const std::vector<std::string>& header);

}  // namespace joco::urdf
