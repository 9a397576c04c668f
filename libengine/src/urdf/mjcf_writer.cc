#include "urdf/mjcf_writer.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <map>

namespace joco::urdf {

XmlNode& XmlNode::set(const std::string& attribute, const std::string& value) {
  for (auto& [key, v] : attributes) {
    if (key == attribute) {
      v = value;
      return *this;
    }
  }
  attributes.emplace_back(attribute, value);
  return *this;
}

const std::string* XmlNode::find(const std::string& attribute) const {
  for (const auto& [key, v] : attributes) {
    if (key == attribute) return &v;
  }
  return nullptr;
}

void XmlNode::erase(const std::string& attribute) {
  for (auto it = attributes.begin(); it != attributes.end(); ++it) {
    if (it->first == attribute) {
      attributes.erase(it);
      return;
    }
  }
}

XmlNode& XmlNode::add(XmlNode child) {
  children.push_back(std::move(child));
  return children.back();
}

std::string format_number(double v) {
  if (v == 0) return "0";
  char buf[64];
  const auto result = std::to_chars(buf, buf + sizeof buf, v);
  return std::string(buf, result.ptr);
}

std::string format_computed(double v, double scale) {
  if (std::abs(v) <= std::abs(scale) * 1e-12 || v == 0) return "0";
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.12g", v);
  return buf;
}

std::string format_numbers(const double* v, int n, bool computed) {
  double scale = 0;
  for (int i = 0; i < n; ++i) scale = std::max(scale, std::abs(v[i]));
  std::string s;
  for (int i = 0; i < n; ++i) {
    if (i) s += ' ';
    s += computed ? format_computed(v[i], scale) : format_number(v[i]);
  }
  return s;
}

namespace {

void collect(XmlNode& node, const DefaultGroup& g, std::vector<XmlNode*>& out) {
  if (node.name == g.element) {
    const std::string* c = node.find("class");
    if ((c ? *c : std::string()) == g.classname) out.push_back(&node);
  }
  for (XmlNode& child : node.children) collect(child, g, out);
}

}  // namespace

XmlNode factor_defaults(XmlNode& scope, const std::vector<DefaultGroup>& groups) {
  XmlNode top("default");
  for (const DefaultGroup& g : groups) {
    std::vector<XmlNode*> elements;
    collect(scope, g, elements);
    if (elements.empty()) continue;
    // Plan: the values worth moving, and what moving them saves (attributes no longer written,
    // less the MuJoCo defaults that must now be written).
    std::vector<std::pair<std::string, std::string>> moved;  // attribute, value
    long saved = 0;
    for (const auto& [attribute, mujoco_default] : g.candidates) {
      std::map<std::string, int> counts;
      for (const XmlNode* e : elements) {
        const std::string* v = e->find(attribute);
        ++counts[v ? *v : mujoco_default];
      }
      std::string best;
      int best_count = 0;
      for (const auto& [value, count] : counts) {
        if (value != mujoco_default && count > best_count) {
          best = value;
          best_count = count;
        }
      }
      const int with_default = counts.count(mujoco_default) ? counts[mujoco_default] : 0;
      if (best_count < 2 || best_count - 1 - with_default < 1) continue;
      moved.emplace_back(attribute, best);
      saved += best_count - with_default;
    }
    // A class costs a class attribute on each element: worth it for what it fixes, or when it
    // saves more than that.
    const bool named = !g.classname.empty();
    if (named && g.fixed.empty() && saved <= static_cast<long>(elements.size())) moved.clear();
    if (named && g.fixed.empty() && moved.empty()) {
      for (XmlNode* e : elements) e->erase("class");
      continue;
    }
    XmlNode defaults(g.element);
    for (const auto& [key, value] : g.fixed) defaults.set(key, value);
    for (const auto& [attribute, value] : moved) {
      defaults.set(attribute, value);
      // (captured by an init-capture: clang 14, the fuzz build's, cannot capture a binding)
      const std::string& mujoco_default =
          std::find_if(g.candidates.begin(), g.candidates.end(),
                       [&name = attribute](const auto& c) { return c.first == name; })
              ->second;
      for (XmlNode* e : elements) {
        const std::string* v = e->find(attribute);
        if (v && *v == value) {
          e->erase(attribute);
        } else if (!v) {
          e->set(attribute, mujoco_default);
        }
      }
    }
    if (!named) {
      if (!defaults.attributes.empty())
        top.children.insert(top.children.begin(), std::move(defaults));
      continue;
    }
    XmlNode cls("default");
    cls.set("class", g.classname);
    if (!g.comment.empty()) cls.comments.push_back(g.comment);
    cls.add(std::move(defaults));
    top.add(std::move(cls));
  }
  return top;
}

namespace {

std::string escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      default: out += c;
    }
  }
  return out;
}

// Comment text cannot contain "--" nor end with "-".
std::string comment_text(std::string s) {
  for (size_t i = s.find("--"); i != std::string::npos; i = s.find("--", i)) s.replace(i, 2, "- -");
  if (!s.empty() && s.back() == '-') s += ' ';
  return s;
}

void write_node(const XmlNode& n, int depth, std::string& out) {
  const std::string indent(static_cast<size_t>(2 * depth), ' ');
  for (const std::string& c : n.comments) out += indent + "<!-- " + comment_text(c) + " -->\n";
  out += indent + "<" + n.name;
  for (const auto& [key, value] : n.attributes) out += " " + key + "=\"" + escape(value) + "\"";
  if (n.children.empty()) {
    out += "/>";
  } else {
    out += ">";
  }
  if (!n.trailing_comment.empty()) out += "  <!-- " + comment_text(n.trailing_comment) + " -->";
  out += "\n";
  if (n.children.empty()) return;
  for (const XmlNode& c : n.children) write_node(c, depth + 1, out);
  out += indent + "</" + n.name + ">\n";
}

}  // namespace

std::string write_xml(const XmlNode& root, const std::vector<std::string>& header) {
  std::string out;
  if (!header.empty()) {
    out += "<!--\n";
    for (const std::string& line : header)
      out += line.empty() ? "\n" : "  " + comment_text(line) + "\n";
    out += "-->\n";
  }
  write_node(root, 0, out);
  return out;
}

}  // namespace joco::urdf
