#include "common/report.h"

#include <fmt/format.h>

#include <cmath>

namespace joco::tools {

std::string json_string(std::string_view text) {
  std::string out = "\"";
  for (const char ch : text) {
    switch (ch) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\t': out += "\\t"; break;
      default:
        if (static_cast<unsigned char>(ch) < 0x20) {
          out += fmt::format("\\u{:04x}", static_cast<int>(ch));
        } else {
          out += ch;
        }
    }
  }
  return out + "\"";
}

void JsonWriter::separate() {
  if (levels_.empty()) return;
  Level& level = levels_.back();
  if (level.count++ > 0) out_ += level.layout == Layout::kInline ? ", " : ",";
  if (level.layout == Layout::kBlock) {
    out_ += '\n';
    out_.append(2 * levels_.size(), ' ');
  }
}

JsonWriter& JsonWriter::raw(std::string_view text) {
  if (!after_key_) separate();
  after_key_ = false;
  out_ += text;
  return *this;
}

JsonWriter& JsonWriter::key(std::string_view name) {
  separate();
  out_ += json_string(name) + ": ";
  after_key_ = true;
  return *this;
}

JsonWriter& JsonWriter::open(bool array, Layout layout) {
  raw(array ? "[" : "{");
  levels_.push_back({array, layout, 0});
  return *this;
}

JsonWriter& JsonWriter::close(bool array) {
  const Level level = levels_.back();
  levels_.pop_back();
  if (level.layout == Layout::kBlock && level.count > 0) {
    out_ += '\n';
    out_.append(2 * levels_.size(), ' ');
  }
  out_ += array ? ']' : '}';
  return *this;
}

JsonWriter& JsonWriter::begin_object(Layout layout) { return open(false, layout); }
JsonWriter& JsonWriter::end_object() { return close(false); }
JsonWriter& JsonWriter::begin_array(Layout layout) { return open(true, layout); }
JsonWriter& JsonWriter::end_array() { return close(true); }

JsonWriter& JsonWriter::value(std::string_view text) { return raw(json_string(text)); }

JsonWriter& JsonWriter::value(bool b) { return raw(b ? "true" : "false"); }

JsonWriter& JsonWriter::number(double x, int digits) {
  if (!std::isfinite(x)) return null();
  return raw(digits > 0 ? fmt::format("{:.{}g}", x, digits) : fmt::format("{}", x));
}

std::string xml_escape(std::string_view text) {
  std::string out;
  for (const char ch : text) {
    switch (ch) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&apos;"; break;
      default:
        if (static_cast<unsigned char>(ch) >= 0x20 || ch == '\n' || ch == '\t') out += ch;
    }
  }
  return out;
}

std::string junit_report(const std::string& suite, const std::vector<JUnitCase>& cases) {
  int failures = 0, errors = 0;
  double seconds = 0;
  for (const JUnitCase& c : cases) {
    failures += c.failure ? 1 : 0;
    errors += c.error ? 1 : 0;
    seconds += c.seconds;
  }
  const std::string counts =
      fmt::format("tests=\"{}\" failures=\"{}\" errors=\"{}\"", cases.size(), failures, errors);
  std::string x = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  x += fmt::format("<testsuites name=\"{}\" {} time=\"{:.3f}\">\n", xml_escape(suite), counts,
                   seconds);
  x += fmt::format("  <testsuite name=\"{}\" {} skipped=\"0\" time=\"{:.3f}\">\n",
                   xml_escape(suite), counts, seconds);
  for (const JUnitCase& c : cases) {
    x += fmt::format("    <testcase classname=\"{}\" name=\"{}\" file=\"{}\" time=\"{:.3f}\">\n",
                     xml_escape(c.classname), xml_escape(c.name), xml_escape(c.file), c.seconds);
    const auto outcome = [&](const char* element, const std::optional<JUnitCase::Failure>& f) {
      if (!f) return;
      x += fmt::format("      <{0} message=\"{1}\" type=\"{2}\">{3}</{0}>\n", element,
                       xml_escape(f->message), xml_escape(f->type), xml_escape(f->text));
    };
    outcome("error", c.error);
    outcome("failure", c.failure);
    x += "      <system-out>" + xml_escape(c.system_out) + "</system-out>\n    </testcase>\n";
  }
  x += "  </testsuite>\n</testsuites>\n";
  return x;
}

}  // namespace joco::tools
