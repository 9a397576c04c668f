// joco's MJCF schema against MuJoCo 2.2.2's: for every element path of joco's schema, MuJoCo knows
// the element, accepts every attribute joco accepts and rejects every other attribute name used
// anywhere in MJCF; and it rejects, under each element, every element name joco rejects there.
#include <gtest/gtest.h>
#include <mujoco/mujoco.h>

#include <cstring>
#include <exception>
#include <iostream>
#include <set>
#include <string>
#include <vector>

#include "oracle/oracle.h"
#include "xml/schema.h"

namespace joco::compiler {
namespace {

// MuJoCo's error for an XML text ("" when it loads).
std::string mujoco_error(const std::string& xml) {
  static mjVFS vfs;
  static bool ready = (mj_defaultVFS(&vfs), true);
  (void)ready;
  const char* name = "schema_probe.xml";
  mj_makeEmptyFileVFS(&vfs, name, static_cast<int>(xml.size()));
  std::memcpy(vfs.filedata[mj_findFileVFS(&vfs, name)], xml.data(), xml.size());
  char error[1000] = "";
  std::string thrown;
  mjModel* m = nullptr;
  try {  // MuJoCo lets a C++ exception escape (file="0" without an extension), after its schema
         // check
    m = mj_loadXML(name, &vfs, error, sizeof(error));
  } catch (const std::exception& e) {
    thrown = std::string("exception: ") + e.what();
  }
  mj_deleteFileVFS(&vfs, name);
  if (m) mj_deleteModel(m);
  return thrown.empty() ? std::string(error) : thrown;
}

bool unrecognized(const std::string& error, const char* what) {
  return error.find(std::string("unrecognized ") + what) != std::string::npos;
}

struct Path {
  std::vector<const SchemaNode*> nodes;  // from <mujoco>
  std::string name() const {
    std::string s;
    for (const SchemaNode* n : nodes) s += (s.empty() ? "" : "/") + n->name;
    return s;
  }
  // The nested elements, the last one with `attribute` (if any) and `child` (if any) inside.
  std::string xml(const std::string& attribute, const std::string& child = "") const {
    std::string open, close;
    for (size_t i = 0; i < nodes.size(); ++i) {
      open += "<" + nodes[i]->name;
      if (i + 1 == nodes.size() && !attribute.empty()) open += " " + attribute + "=\"0\"";
      open += ">";
      close = "</" + nodes[i]->name + ">" + close;
    }
    if (!child.empty()) open += "<" + child + "/>";
    return open + close;
  }
};

// Every element path, each recursive element (body, default) descended into once.
void collect(Path path, std::set<const SchemaNode*>& seen, std::vector<Path>& out) {
  out.push_back(path);
  const SchemaNode* node = path.nodes.back();
  if (!seen.insert(node).second) return;
  for (const SchemaNode* child : node->children) {
    Path next = path;
    next.nodes.push_back(child);
    collect(next, seen, out);
  }
}

TEST(SchemaOracle, ElementsAndAttributesAreMuJoCos) {
  std::vector<Path> paths;
  std::set<const SchemaNode*> seen;
  collect(Path{{&mjcf_schema()}}, seen, paths);
  std::set<std::string> attributes = {"bogus"}, elements = {"bogus"};
  for (const Path& p : paths) {
    attributes.insert(p.nodes.back()->attributes.begin(), p.nodes.back()->attributes.end());
    elements.insert(p.nodes.back()->name);
  }
  elements.erase("mujoco");
  elements.erase("include");  // expanded before the schema applies, in joco and MuJoCo
  int probes = 0;
  for (const Path& p : paths) {
    const SchemaNode* node = p.nodes.back();
    EXPECT_FALSE(unrecognized(mujoco_error(p.xml("")), "element")) << p.name();
    for (const std::string& a : attributes) {
      const std::string error = mujoco_error(p.xml(a));
      ++probes;
      EXPECT_EQ(node->allows(a), !unrecognized(error, "attribute"))
          << p.name() << " attribute " << a << ": joco "
          << (node->allows(a) ? "accepts" : "rejects") << ", MuJoCo says: " << error;
    }
    for (const std::string& e : elements) {
      if (node->child(e)) continue;
      ++probes;
      EXPECT_TRUE(unrecognized(mujoco_error(p.xml("", e)), "element"))
          << p.name() << " child " << e << ": joco rejects it, MuJoCo does not";
    }
  }
  oracle::count_compared(probes);
  std::cout << paths.size() << " element paths, " << attributes.size() << " attribute names, "
            << elements.size() << " element names, " << probes << " probes\n";
}

}  // namespace
}  // namespace joco::compiler
