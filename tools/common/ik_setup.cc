// Inverse kinematics set-up files (schemas/markers.md, "Set-up files").
#include "common/ik_setup.h"

#include <tinyxml2.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <numbers>
#include <sstream>

#include "common/io.h"
#include "joco/error.h"
#include "joco/xml_error.h"

namespace joco::tools {
namespace {

std::string trimmed(const std::string& s) {
  size_t a = 0, b = s.size();
  while (a < b && std::isspace(static_cast<unsigned char>(s[a]))) ++a;
  while (b > a && std::isspace(static_cast<unsigned char>(s[b - 1]))) --b;
  return s.substr(a, b - a);
}

std::optional<double> number(const std::string& text) {
  const std::string t = trimmed(text);
  double v = 0;
  const char* first = t.data() + (!t.empty() && t[0] == '+' ? 1 : 0);
  const auto [ptr, ec] = std::from_chars(first, t.data() + t.size(), v);
  if (t.empty() || ec != std::errc() || ptr != t.data() + t.size() || !std::isfinite(v)) {
    return std::nullopt;
  }
  return v;
}

// A joint value: a number in radians or metres, or with the suffix "deg" in degrees.
std::optional<double> joint_value(std::string text) {
  bool degrees = false;
  if (text.size() > 3 && text.substr(text.size() - 3) == "deg") {
    degrees = true;
    text.resize(text.size() - 3);
  }
  std::optional<double> v = number(text);
  if (v && degrees) *v *= std::numbers::pi / 180;
  return v;
}

[[noreturn]] void fail(const std::string& where, const std::string& what) {
  throw InputError(where + ": " + what);
}

}  // namespace

void IkSetup::merge(const IkSetup& other) {
  for (const IkMarkerSetting& s : other.markers) {
    auto it = std::find_if(markers.begin(), markers.end(),
                           [&](const IkMarkerSetting& e) { return e.marker == s.marker; });
    if (it != markers.end()) {
      *it = s;
    } else {
      markers.push_back(s);
    }
  }
  for (const IkJointSetting& s : other.joints) {
    auto it = std::find_if(joints.begin(), joints.end(),
                           [&](const IkJointSetting& e) { return e.joint == s.joint; });
    if (it != joints.end()) {
      *it = s;
    } else {
      joints.push_back(s);
    }
  }
  only_listed = only_listed || other.only_listed;
  if (other.default_weight != 1) default_weight = other.default_weight;
  if (other.time_range) time_range = other.time_range;
  if (!other.units.empty()) units = other.units;
  if (other.up) up = other.up;
}

IkSetup parse_ik_setup_text(const std::string& text, const std::string& where) {
  IkSetup setup;
  std::istringstream in(text);
  std::string line;
  for (int n = 1; std::getline(in, line); ++n) {
    const std::string at = where + ":" + std::to_string(n);
    if (const size_t hash = line.find('#'); hash != std::string::npos) line.resize(hash);
    std::istringstream words(line);
    std::vector<std::string> w;
    for (std::string word; words >> word;) w.push_back(word);
    if (w.empty()) continue;
    const std::string& key = w[0];
    if (key == "marker") {
      if (w.size() < 2) fail(at, "marker: expected a marker name");
      IkMarkerSetting s;
      s.marker = w[1];
      s.where = at;
      for (size_t i = 2; i < w.size(); ++i) {
        if (w[i] == "off") {
          s.apply = false;
        } else if (w[i] == "site" && i + 1 < w.size()) {
          s.site = w[++i];
        } else if (w[i] == "weight" && i + 1 < w.size()) {
          const std::optional<double> v = number(w[++i]);
          if (!v || *v < 0) fail(at, "marker " + s.marker + ": weight \"" + w[i] + "\"");
          s.weight = *v;
        } else {
          fail(at, "marker " + s.marker + ": unexpected \"" + w[i] +
                       "\" (expected site NAME, weight W or off)");
        }
      }
      setup.markers.push_back(s);
    } else if (key == "joint") {
      if (w.size() < 4 || (w[2] != "lock" && w[2] != "target")) {
        fail(at, "expected joint NAME lock VALUE or joint NAME target VALUE [weight W]");
      }
      IkJointSetting s;
      s.joint = w[1];
      s.lock = w[2] == "lock";
      s.where = at;
      const std::optional<double> v = joint_value(w[3]);
      if (!v) fail(at, "joint " + s.joint + ": value \"" + w[3] + "\" is not a number");
      s.value = *v;
      size_t i = 4;
      if (!s.lock && i + 1 < w.size() && w[i] == "weight") {
        const std::optional<double> wt = number(w[i + 1]);
        if (!wt || *wt < 0) fail(at, "joint " + s.joint + ": weight \"" + w[i + 1] + "\"");
        s.weight = *wt;
        i += 2;
      }
      if (i < w.size()) fail(at, "joint " + s.joint + ": unexpected \"" + w[i] + "\"");
      setup.joints.push_back(s);
    } else if (key == "time" && w.size() == 3) {
      const std::optional<double> a = number(w[1]), b = number(w[2]);
      if (!a || !b || *b < *a) fail(at, "time: expected START END with START <= END");
      setup.time_range = std::make_pair(*a, *b);
    } else if (key == "units" && w.size() == 2) {
      setup.units = w[1];
    } else if (key == "up" && w.size() == 2 && (w[1] == "y" || w[1] == "z")) {
      setup.up = w[1][0];
    } else if (key == "default-weight" && w.size() == 2) {
      const std::optional<double> v = number(w[1]);
      if (!v || *v < 0) fail(at, "default-weight \"" + w[1] + "\"");
      setup.default_weight = *v;
    } else if (key == "only-listed" && w.size() == 1) {
      setup.only_listed = true;
    } else {
      fail(at, "cannot read \"" + trimmed(line) +
                   "\" (expected marker, joint, time, units, up, default-weight or only-listed)");
    }
  }
  return setup;
}

IkSetup parse_opensim_ik_setup(const std::string& text, const std::string& where) {
  tinyxml2::XMLDocument doc;
  if (doc.Parse(text.data(), text.size()) != tinyxml2::XML_SUCCESS) {
    fail(where + ":" + std::to_string(doc.ErrorLineNum()),
         "malformed XML: " + joco::xml_error_in_words(doc.ErrorID(), doc.ErrorStr()));
  }
  const tinyxml2::XMLElement* root = doc.RootElement();
  const tinyxml2::XMLElement* tool =
      root ? root->FirstChildElement("InverseKinematicsTool") : nullptr;
  if (!tool) fail(where, "no <InverseKinematicsTool> in <OpenSimDocument>");
  const auto at = [&](const tinyxml2::XMLElement* e) {
    return where + ":" + std::to_string(e->GetLineNum());
  };
  const auto child_text = [&](const tinyxml2::XMLElement* e, const char* name) {
    const tinyxml2::XMLElement* c = e->FirstChildElement(name);
    return c && c->GetText() ? std::optional<std::string>(trimmed(c->GetText())) : std::nullopt;
  };
  const auto flag = [&](const tinyxml2::XMLElement* e, const char* name) {
    const std::optional<std::string> t = child_text(e, name);
    if (!t) return true;
    if (*t == "true") return true;
    if (*t == "false") return false;
    fail(at(e->FirstChildElement(name)), std::string("<") + name + ">: expected true or false");
  };
  const auto weight = [&](const tinyxml2::XMLElement* e) {
    const std::optional<std::string> t = child_text(e, "weight");
    if (!t) return 1.0;
    const std::optional<double> v = number(*t);
    if (!v || *v < 0) fail(at(e->FirstChildElement("weight")), "<weight> \"" + *t + "\"");
    return *v;
  };
  IkSetup setup;
  setup.only_listed = true;  // OpenSim uses the markers of its task set only
  const tinyxml2::XMLElement* tasks = tool->FirstChildElement("IKTaskSet");
  const tinyxml2::XMLElement* objects = tasks ? tasks->FirstChildElement("objects") : nullptr;
  for (const tinyxml2::XMLElement* e = objects ? objects->FirstChildElement() : nullptr; e;
       e = e->NextSiblingElement()) {
    const char* name = e->Attribute("name");
    if (!name) fail(at(e), std::string("<") + e->Name() + "> without a name");
    const std::string kind = e->Name();
    if (kind == "IKMarkerTask") {
      IkMarkerSetting s;
      s.marker = name;
      s.apply = flag(e, "apply");
      s.weight = weight(e);
      s.where = at(e);
      setup.markers.push_back(s);
    } else if (kind == "IKCoordinateTask") {
      if (!flag(e, "apply")) continue;
      IkJointSetting s;
      s.joint = name;
      s.weight = weight(e);
      s.where = at(e);
      const std::string type = child_text(e, "value_type").value_or("default_value");
      if (type == "default_value") {
        s.default_value = true;
      } else if (type == "manual_value") {
        const std::optional<std::string> t = child_text(e, "value");
        const std::optional<double> v = t ? number(*t) : std::nullopt;
        if (!v) fail(at(e), "IKCoordinateTask " + s.joint + ": <value> is not a number");
        s.value = *v;
      } else {
        fail(at(e), "IKCoordinateTask " + s.joint + ": value_type " + type +
                        " is not supported (default_value or manual_value)");
      }
      setup.joints.push_back(s);
    }
  }
  if (const std::optional<std::string> range = child_text(tool, "time_range")) {
    std::istringstream in(*range);
    double a = 0, b = 0;
    if (!(in >> a >> b) || b < a) {
      fail(at(tool->FirstChildElement("time_range")), "<time_range>: expected START END");
    }
    setup.time_range = std::make_pair(a, b);
  }
  return setup;
}

IkSetup read_ik_setup(const std::string& path) {
  const std::vector<uint8_t> bytes = read_input(path);
  const std::string text(bytes.begin(), bytes.end());
  const std::string where = display_name(path);
  if (text.find("<OpenSimDocument") != std::string::npos) {
    return parse_opensim_ik_setup(text, where);
  }
  return parse_ik_setup_text(text, where);
}

}  // namespace joco::tools
