// Compiler stages (compiler/compiler.h): the flattened tree (bodies and their elements in order),
// with pairs and excludes sorted by body.
#include <algorithm>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "compiler/compiler.h"

namespace joco::compiler {

void Compiler::flatten(BodySpec* body, int parent, int depth) {
  const int id = static_cast<int>(bodies_.size());
  FlatBody b;
  b.spec = body;
  b.parent = parent;
  b.depth = depth;
  if (id > 0) bodies_[static_cast<size_t>(parent)].has_children = true;
  bodies_.push_back(b);
  for (JointSpec& j : body->joints) joints_.push_back({&j, id});
  for (GeomSpec& g : body->geoms) geoms_.push_back({&g, id, g.pos, {1, 0, 0, 0}});
  for (SiteSpec& s : body->sites) sites_.push_back({&s, id, s.pos, {1, 0, 0, 0}});
  for (CameraSpec& c : body->cameras) cameras_.push_back({&c, id});
  for (LightSpec& l : body->lights) lights_.push_back({&l, id});
  for (BodySpec& child : body->bodies) flatten(&child, id, depth + 1);
}

// MuJoCo keeps explicit pairs and excluded body pairs sorted by their body signature (for binary
// search during collision), with each pair's geoms ordered by body. Names follow that order.
void Compiler::sort_pairs_and_excludes() {
  std::map<std::string, int> body_of_geom, geom_id, body_id;
  for (size_t g = 0; g < geoms_.size(); ++g) {
    if (geoms_[g].spec->name.empty()) continue;
    body_of_geom.emplace(geoms_[g].spec->name, geoms_[g].body);
    geom_id.emplace(geoms_[g].spec->name, static_cast<int>(g));
  }
  for (size_t b = 0; b < bodies_.size(); ++b) {
    if (!bodies_[b].spec->name.empty()) body_id.emplace(bodies_[b].spec->name, static_cast<int>(b));
  }
  auto lookup = [](const std::map<std::string, int>& ids, const std::string& name,
                   const Origin& origin, const std::string& element, const char* what) {
    auto it = ids.find(name);
    if (it == ids.end()) fail(origin, element, std::string("unknown ") + what + " '" + name + "'");
    return it->second;
  };
  auto signature = [](int b1, int b2) {
    return ((std::min(b1, b2) + 1) << 16) + std::max(b1, b2) + 1;
  };
  std::vector<std::pair<int, PairSpec>> pairs;
  for (PairSpec& p : spec_.pairs) {
    int g1 = lookup(geom_id, p.geom1, p.origin, p.name, "geom");
    int g2 = lookup(geom_id, p.geom2, p.origin, p.name, "geom");
    int b1 = body_of_geom.at(p.geom1), b2 = body_of_geom.at(p.geom2);
    if (b1 > b2 || (b1 == b2 && g1 > g2)) {
      std::swap(p.geom1, p.geom2);
      std::swap(b1, b2);
      std::swap(g1, g2);
    }
    pairs.emplace_back(signature(b1, b2), std::move(p));
  }
  std::stable_sort(pairs.begin(), pairs.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  spec_.pairs.clear();
  for (auto& entry : pairs) spec_.pairs.push_back(std::move(entry.second));
  std::vector<std::pair<int, ExcludeSpec>> excludes;
  for (ExcludeSpec& x : spec_.excludes) {
    const int b1 = lookup(body_id, x.body1, x.origin, x.name, "body");
    const int b2 = lookup(body_id, x.body2, x.origin, x.name, "body");
    excludes.emplace_back(signature(b1, b2), std::move(x));
  }
  std::stable_sort(excludes.begin(), excludes.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  spec_.excludes.clear();
  for (auto& entry : excludes) spec_.excludes.push_back(std::move(entry.second));
}

}  // namespace joco::compiler
