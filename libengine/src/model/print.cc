#include <cctype>
#include <cmath>
#include <cstdio>
#include <map>
#include <string>

#include "joco/jmb.h"
#include "joco/keywords.h"
#include "joco/model_print.h"

namespace joco {

namespace {

void json_number(std::ostream& out, double v, ScalarType type) {
  if (!std::isfinite(v)) {
    out << "null";
    return;
  }
  char buf[32];
  if (type == ScalarType::kFloat32) {
    std::snprintf(buf, sizeof(buf), "%.9g", v);
  } else if (type == ScalarType::kFloat64) {
    std::snprintf(buf, sizeof(buf), "%.17g", v);
  } else {
    std::snprintf(buf, sizeof(buf), "%lld", static_cast<long long>(v));
  }
  out << buf;
}

void json_string(std::ostream& out, const char* s, size_t n) {
  out << '"';
  for (size_t i = 0; i < n; ++i) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c == '"' || c == '\\') {
      out << '\\' << s[i];
    } else if (c < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof(buf), "\\u%04x", c);
      out << buf;
    } else {
      out << s[i];
    }
  }
  out << '"';
}

// The object type whose count is an array's row count, for grouping the text dump.
const char* object_label(const std::string& field) {
  static const std::pair<const char*, const char*> prefixes[] = {
      {"body_", "BODY"}, {"jnt_", "JOINT"},         {"dof_", "DOF"},       {"geom_", "GEOM"},
      {"site_", "SITE"}, {"cam_", "CAMERA"},        {"light_", "LIGHT"},   {"mesh_", "MESH"},
      {"skin_", "SKIN"}, {"hfield_", "HFIELD"},     {"tex_", "TEXTURE"},   {"mat_", "MATERIAL"},
      {"pair_", "PAIR"}, {"exclude_", "EXCLUDE"},   {"eq_", "EQUALITY"},   {"tendon_", "TENDON"},
      {"wrap_", "WRAP"}, {"actuator_", "ACTUATOR"}, {"sensor_", "SENSOR"}, {"numeric_", "NUMERIC"},
      {"text_", "TEXT"}, {"tuple_", "TUPLE"},       {"key_", "KEY"}};
  for (const auto& [prefix, label] : prefixes) {
    if (field.rfind(prefix, 0) == 0) return label;
  }
  return nullptr;
}

}  // namespace

void print_model_json(const Model& m, std::ostream& out) {
  char checksum[32];
  std::snprintf(checksum, sizeof(checksum), "%016llx",
                static_cast<unsigned long long>(model_checksum(m)));
  out << "{\n  \"format\": \"joco.model\",\n  \"format_version\": 1,\n  \"model_name\": ";
  const std::string_view model_name = m.model_name();
  json_string(out, model_name.data(), model_name.size());
  out << ",\n  \"model_checksum\": \"" << checksum << "\",\n  \"sizes\": {";
  bool first = true;
  for (const auto& [name, value] : m.size_list()) {
    out << (first ? "\n" : ",\n") << "    \"" << name << "\": " << value;
    first = false;
  }
  out << "\n  },\n  \"options\": {";
  first = true;
  for (const StructField& f : m.struct_fields()) {
    out << (first ? "\n" : ",\n") << "    \"" << f.name << "\": ";
    first = false;
    const ArrayField view{"", f.type, 1, f.count, field_check::any, f.data};
    if (f.count > 1) out << '[';
    for (int i = 0; i < f.count; ++i) {
      if (i) out << ", ";
      json_number(out, view.value(i), f.type);
    }
    if (f.count > 1) out << ']';
  }
  out << "\n  },\n  \"arrays\": {";
  first = true;
  for (const ArrayField& f : m.arrays()) {
    out << (first ? "\n" : ",\n") << "    \"" << f.name << "\": ";
    first = false;
    if (f.type == ScalarType::kChar) {
      json_string(out, static_cast<const char*>(f.data), static_cast<size_t>(f.count()));
      continue;
    }
    out << '[';
    for (int64_t r = 0; r < f.rows; ++r) {
      if (r) out << ", ";
      if (f.cols != 1) out << '[';
      for (int64_t c = 0; c < f.cols; ++c) {
        if (c) out << ", ";
        json_number(out, f.value(r * f.cols + c), f.type);
      }
      if (f.cols != 1) out << ']';
    }
    out << ']';
  }
  out << "\n  }\n}\n";
}

void print_model_text(const Model& m, std::ostream& out) {
  char line[256];
  out << "joco model \"" << m.model_name() << "\"\n\n";
  for (const auto& [name, value] : m.size_list()) {
    if (value == 0) continue;
    std::snprintf(line, sizeof(line), "%-22s%d\n", name, value);
    out << line;
  }
  out << '\n';
  auto values = [](ScalarType type, const void* data, int64_t from, int64_t n) {
    const ArrayField view{"", type, 1, from + n, field_check::any, const_cast<void*>(data)};
    std::string s;
    char buf[40];
    for (int64_t i = from; i < from + n; ++i) {
      if (type == ScalarType::kFloat64 || type == ScalarType::kFloat32) {
        std::snprintf(buf, sizeof(buf), "%-10.4g", view.value(i));
      } else {
        std::snprintf(buf, sizeof(buf), "%lld ", static_cast<long long>(view.int_value(i)));
      }
      s += buf;
    }
    return s;
  };
  for (const StructField& f : m.struct_fields()) {
    if (f.name.rfind("vis.", 0) == 0) continue;  // rendering settings: in the JSON dump
    std::snprintf(line, sizeof(line), "%-22s", f.name.c_str());
    out << line << values(f.type, f.data, 0, f.count) << '\n';
  }
  out << '\n';
  // Per-object blocks: for each object type, each object lists its fields.
  std::map<std::string, std::vector<ArrayField>> groups;
  std::vector<std::string> order;
  for (const ArrayField& f : m.arrays()) {
    const char* label = object_label(f.name);
    if (!label || f.type == ScalarType::kChar || f.cols == 0) continue;
    if (!groups.count(label)) order.push_back(label);
    groups[label].push_back(f);
  }
  // The object type of a label: MuJoCo's type name in upper case (BODY, JOINT, ...).
  const auto type_of = [](const std::string& label) {
    for (const auto& [name, type] : object_type_keywords()) {
      std::string upper = name;
      for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
      if (upper == label) return static_cast<ObjType>(type);
    }
    return kObjUnknown;
  };
  for (const std::string& label : order) {
    const std::vector<ArrayField>& fields = groups[label];
    const int64_t rows = fields.front().rows;
    for (int64_t i = 0; i < rows; ++i) {
      out << label << ' ' << i << ":\n";
      // dofs have no names of their own (MuJoCo prints none)
      if (const ObjType type = type_of(label); type != kObjUnknown && type != kObjDof) {
        out << "  name                  " << m.name(type, static_cast<int>(i)) << '\n';
      }
      for (const ArrayField& f : fields) {
        if (f.rows != rows) continue;  // per-element data of another extent (mesh_vert, ...)
        std::snprintf(line, sizeof(line), "  %-22s", f.name);
        out << line << values(f.type, f.data, i * f.cols, f.cols) << '\n';
      }
      out << '\n';
    }
  }
}

}  // namespace joco
