// The reports tools write for programs: JSON (joco-fwdinv-check --report json, joco-profile --json)
// and JUnit XML (joco-fwdinv-check --report junit, for CI).
#pragma once

#include <concepts>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace joco::tools {

// `text` as a JSON string: quoted, with '"', '\' and control characters escaped.
std::string json_string(std::string_view text);

// A JSON document written value by value. An object or array is laid out as a block (each member
// on its own line, indented two spaces a level; empty: {} or []) or inline ({"a": 1, "b": [2, 3]}).
// Numbers that are not finite are written as null: JSON has no inf or nan.
class JsonWriter {
 public:
  enum class Layout { kBlock, kInline };

  JsonWriter& begin_object(Layout layout = Layout::kBlock);
  JsonWriter& end_object();
  JsonWriter& begin_array(Layout layout = Layout::kBlock);
  JsonWriter& end_array();
  // The name of the next member of the current object.
  JsonWriter& key(std::string_view name);

  JsonWriter& value(std::string_view text);
  JsonWriter& value(const char* text) { return value(std::string_view(text)); }
  JsonWriter& value(const std::string& text) { return value(std::string_view(text)); }
  JsonWriter& value(bool b);
  template <std::integral T>
  JsonWriter& value(T n) {
    return raw(std::to_string(n));
  }
  JsonWriter& value(double x) { return number(x); }
  // x with `digits` significant digits (printf's %.*g); 17, the default, keeps every bit; 0 writes
  // the shortest text that reads back as x.
  JsonWriter& number(double x, int digits = 17);
  JsonWriter& null() { return raw("null"); }

  // The document, ended by a newline.
  std::string text() const { return out_ + "\n"; }

 private:
  struct Level {
    bool array;
    Layout layout;
    int count;  // members or elements so far
  };
  // Writes text that is one value, after the separator it needs.
  JsonWriter& raw(std::string_view text);
  void separate();  // before a member or element: a comma and the layout's spacing
  JsonWriter& open(bool array, Layout layout);
  JsonWriter& close(bool array);

  std::string out_;
  std::vector<Level> levels_;
  bool after_key_ = false;
};

// `text` as XML character data or an attribute value: &, <, >, " and ' as entities; control
// characters other than newline and tab (which XML 1.0 cannot hold) left out.
std::string xml_escape(std::string_view text);

// One test case of a JUnit report.
struct JUnitCase {
  std::string classname, name, file;
  double seconds = 0;
  struct Failure {
    std::string message, type, text;
  };
  std::optional<Failure> failure;  // the check ran and failed
  std::string system_out;
  std::optional<Failure> error;  // the check could not run (written as <error>, not <failure>)
};

// A JUnit XML report: one <testsuites> holding one <testsuite> named `suite` with the cases, their
// failures and errors counted and their times summed (seconds with three decimals).
std::string junit_report(const std::string& suite, const std::vector<JUnitCase>& cases);

}  // namespace joco::tools
