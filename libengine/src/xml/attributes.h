// Reading typed attribute values from an XmlElement, with errors that name the file, line, element
// and attribute. Shared by the MJCF and URDF readers.
#pragma once

#include <array>
#include <initializer_list>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "xml/xml_tree.h"

namespace joco::compiler {

class AttributeReader {
 public:
  explicit AttributeReader(const XmlElement& e) : e_(e) {}

  bool has(const char* name) const { return e_.find(name) != nullptr; }
  [[noreturn]] void fail(const char* attribute, const std::string& reason) const;

  // Strings.
  bool read(const char* name, std::string& out) const;
  std::string required_string(const char* name) const;

  // Numbers: whitespace-separated reals. Arrays need exactly N values unless min_count says fewer
  // are accepted (the rest keep their current values). Integers are read as MuJoCo 2.2.2 reads
  // them, which differs by kind of attribute:
  //  - a single int is the text's leading decimal integer, whatever follows ("3.7" is 3, "2x" is
  //    2, "1e1" is 1, "0x3" is 0);
  //  - an int array of fixed size (std::array<int, N>) takes only whitespace-separated decimal
  //    integers, each [+-]digits within 32 bits ("3.0", "3e0", "3." and "0x3" are refused);
  //  - a variable-length int list (read_ints) is the decimal integers read one after another from
  //    the start, up to the first text that does not start one, or one beyond 32 bits: the rest is
  //    ignored ("0 1 2.7" is 0 1 2, "0 1 2.7 3" too, "0 1-2" is 0 1 -2).
  bool read(const char* name, double& out) const;
  bool read(const char* name, int& out) const;
  template <size_t N>
  bool read(const char* name, std::array<double, N>& out, size_t min_count = N) const {
    return read_into(name, out.data(), N, min_count);
  }
  template <size_t N>
  bool read(const char* name, std::array<int, N>& out, size_t min_count = N) const {
    return read_into(name, out.data(), N, min_count);
  }
  bool read_into(const char* name, double* out, size_t max_count, size_t min_count) const;
  bool read_into(const char* name, int* out, size_t max_count, size_t min_count) const;
  // Any number of reals / ints.
  bool read_numbers(const char* name, std::vector<double>& out) const;
  bool read_ints(const char* name, std::vector<int>& out) const;

  // Booleans "true"/"false".
  bool read_bool(const char* name, bool& out) const;
  // One of a list of keywords, mapped to values.
  bool read_keyword(const char* name, int& out,
                    std::span<const std::pair<const char*, int>> keywords) const;
  bool read_keyword(const char* name, int& out,
                    std::initializer_list<std::pair<const char*, int>> keywords) const {
    return read_keyword(name, out, std::span(keywords.begin(), keywords.size()));
  }

  const XmlElement& element() const { return e_; }

 private:
  void check_count(const char* name, size_t count, size_t min_count, size_t max_count) const;
  const XmlElement& e_;
};

}  // namespace joco::compiler
