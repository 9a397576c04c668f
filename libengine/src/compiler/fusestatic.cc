// Compiler stages (compiler/compiler.h): static bodies fused into their parents.
#include <algorithm>
#include <utility>
#include <vector>

#include "compiler/compiler.h"
#include "math/vec.h"

namespace joco::compiler {

// MuJoCo's fusestatic: bodies without joints (static relative to their parent) are merged into
// their parent, their geoms and sites moved there with composed frames and their children
// re-attached; their mass joins the parent's. Only done when nothing in the model refers to
// bodies inside the tree by name (the elements the XML reference lists).
void Compiler::fuse_static_bodies() {
  const ModelSpec& s = spec_;
  if (!s.compiler.fusestatic) return;
  if (!s.skins.empty() || !s.pairs.empty() || !s.excludes.empty() || !s.tendons.empty() ||
      !s.actuators.empty() || !s.sensors.empty() || !s.tuples.empty() || !cameras_.empty() ||
      !lights_.empty()) {
    return;
  }
  const size_t n = bodies_.size();
  std::vector<int> target(n);  // the body each body ends up in
  std::vector<Vec3> rel_pos(n, Vec3{0, 0, 0});
  std::vector<Quat> rel_quat(n, Quat{1, 0, 0, 0});
  std::vector<bool> fused(n, false);
  for (size_t i = 0; i < n; ++i) {
    FlatBody& b = bodies_[i];
    target[i] = static_cast<int>(i);
    if (i == 0 || !b.spec->joints.empty() || b.spec->mocap) {
      // Kept: its pose is now relative to where its parent ended up.
      if (i > 0) {
        const size_t p = static_cast<size_t>(b.parent);
        math::frame_mul(b.pos.data(), b.quat.data(), rel_pos[p].data(), rel_quat[p].data(),
                        b.pos.data(), b.quat.data());
        b.parent = target[p];
      }
      continue;
    }
    const size_t p = static_cast<size_t>(b.parent);
    fused[i] = true;
    target[i] = target[p];
    math::frame_mul(rel_pos[i].data(), rel_quat[i].data(), rel_pos[p].data(), rel_quat[p].data(),
                    b.pos.data(), b.quat.data());
  }
  // Each body's mass and inertia are final (compute_inertia: bounded and balanced on its own);
  // as MuJoCo 2.2.2, each fused body joins its target one at a time in tree order, the total
  // brought to principal axes each time, and one without mass (below kMinVal) adds nothing. The
  // world keeps no mass.
  for (size_t i = 1; i < n; ++i) {
    const FlatBody& f = bodies_[i];
    if (!fused[i] || target[i] == 0 || f.mass < kMinVal) continue;
    FlatBody& t = bodies_[static_cast<size_t>(target[i])];
    MassElement e{f.mass, {}, {}, f.inertia};
    math::frame_mul(e.pos.data(), e.quat.data(), rel_pos[i].data(), rel_quat[i].data(),
                    f.ipos.data(), f.iquat.data());
    combine(t, {{t.mass, t.ipos, t.iquat, t.inertia}, e});
  }
  // Geoms and sites of fused bodies move to the target, their frames composed.
  auto move_to_target = [&](auto& elements) {
    for (auto& e : elements) {
      const size_t b = static_cast<size_t>(e.body);
      if (!fused[b]) continue;
      math::frame_mul(e.pos.data(), e.quat.data(), rel_pos[b].data(), rel_quat[b].data(),
                      e.pos.data(), e.quat.data());
      e.body = target[b];
    }
  };
  move_to_target(geoms_);
  move_to_target(sites_);
  // Renumber the remaining bodies in order, and keep geoms and sites grouped by body.
  std::vector<int> new_index(n, -1);
  std::vector<FlatBody> kept;
  for (size_t i = 0; i < n; ++i) {
    if (fused[i]) continue;
    new_index[i] = static_cast<int>(kept.size());
    kept.push_back(std::move(bodies_[i]));
  }
  for (FlatBody& b : kept) b.parent = new_index[static_cast<size_t>(b.parent)];
  for (size_t i = 0; i < kept.size(); ++i) kept[i].has_children = false;
  for (size_t i = 1; i < kept.size(); ++i)
    kept[static_cast<size_t>(kept[i].parent)].has_children = true;
  bodies_ = std::move(kept);
  for (FlatGeom& g : geoms_) g.body = new_index[static_cast<size_t>(g.body)];
  for (FlatSite& t : sites_) t.body = new_index[static_cast<size_t>(t.body)];
  for (auto& j : joints_) j.second = new_index[static_cast<size_t>(j.second)];
  std::stable_sort(geoms_.begin(), geoms_.end(),
                   [](const FlatGeom& a, const FlatGeom& b) { return a.body < b.body; });
  std::stable_sort(sites_.begin(), sites_.end(),
                   [](const FlatSite& a, const FlatSite& b) { return a.body < b.body; });
  // Global frames of the kept bodies (used for global-coordinate inertials).
  std::vector<Vec3> xpos;
  std::vector<Quat> xquat;
  for (size_t i = 0; i < n; ++i) {
    if (new_index[i] < 0) continue;
    xpos.push_back(xpos_[i]);
    xquat.push_back(xquat_[i]);
  }
  xpos_ = std::move(xpos);
  xquat_ = std::move(xquat);
}

}  // namespace joco::compiler
