// Compiler stages (compiler/compiler.h): the fields of contact pairs and excludes, equalities and
// tendons.
#include <algorithm>
#include <string>
#include <vector>

#include "compiler/compiler.h"
#include "joco/constraint.h"

namespace joco::compiler {

void Compiler::fill_pairs_and_excludes(Model& m) {
  for (int i = 0; i < m.npair; ++i) {
    const PairSpec& p = spec_.pairs[static_cast<size_t>(i)];
    const int g1 = id_of(kObjGeom, p.geom1, p.origin, p.name, "geom");
    const int g2 = id_of(kObjGeom, p.geom2, p.origin, p.name, "geom");
    m.pair_dim[i] = p.condim;
    m.pair_geom1[i] = g1;
    m.pair_geom2[i] = g2;
    const int b1 = m.geom_bodyid[g1], b2 = m.geom_bodyid[g2];
    m.pair_signature[i] = ((std::min(b1, b2) + 1) << 16) + std::max(b1, b2) + 1;
    copy_to(m.pair_solref + kNREF * i, p.solref);
    copy_to(m.pair_solimp + kNIMP * i, p.solimp);
    m.pair_margin[i] = p.margin;
    m.pair_gap[i] = p.gap;
    copy_to(m.pair_friction + 5 * i, p.friction);
  }
  for (int i = 0; i < m.nexclude; ++i) {
    const ExcludeSpec& x = spec_.excludes[static_cast<size_t>(i)];
    const int b1 = id_of(kObjBody, x.body1, x.origin, x.name, "body");
    const int b2 = id_of(kObjBody, x.body2, x.origin, x.name, "body");
    m.exclude_signature[i] = ((std::min(b1, b2) + 1) << 16) + std::max(b1, b2) + 1;
  }
}

// An equality's anchor in the frame of `body`, which it is written in (in global coordinates,
// converted: the connect's into body1, the weld's into body2).
Vec3 Compiler::anchor_in(int body, Vec3 anchor) const {
  if (spec_.compiler.global_coordinates) {
    Quat unused{1, 0, 0, 0};
    to_local(xpos_[static_cast<size_t>(body)], xquat_[static_cast<size_t>(body)], anchor, unused);
  }
  return anchor;
}

void Compiler::fill_equalities(Model& m) {
  for (int i = 0; i < m.neq; ++i) {
    const EqualitySpec& e = spec_.equalities[static_cast<size_t>(i)];
    m.eq_type[i] = e.type;
    m.eq_active[i] = e.active;
    copy_to(m.eq_solref + kNREF * i, e.solref);
    copy_to(m.eq_solimp + kNIMP * i, e.solimp);
    double* data = m.eq_data + kNEQDATA * i;
    data[10] = e.torquescale;  // MuJoCo keeps it in the last slot for every type
    ObjType type = kObjBody;
    const char* what = "body";
    if (e.type == kEqJoint) {
      type = kObjJoint;
      what = "joint";
    } else if (e.type == kEqTendon) {
      type = kObjTendon;
      what = "tendon";
    } else if (e.type == kEqDistance) {
      type = kObjGeom;
      what = "geom";
    }
    m.eq_obj1id[i] = id_of(type, e.name1, e.origin, e.name, what);
    if (e.name2.empty()) {
      m.eq_obj2id[i] = (type == kObjBody) ? 0 : -1;
    } else {
      m.eq_obj2id[i] = id_of(type, e.name2, e.origin, e.name, what);
    }
    if (m.eq_obj1id[i] == m.eq_obj2id[i]) {
      fail(e.origin, e.name,
           "an equality constraint cannot relate " + std::string(what) + " '" +
               (e.name1.empty() ? "world" : e.name1) + "' to itself");
    }
    switch (e.type) {
      case kEqConnect: copy_to(data, anchor_in(m.eq_obj1id[i], e.anchor)); break;
      case kEqWeld:
        copy_to(data, anchor_in(m.eq_obj2id[i], e.anchor));
        copy_to(data + 3, e.relpose);
        data[10] = e.torquescale;
        break;
      case kEqJoint:
      case kEqTendon:
        copy_to(data, e.polycoef);
        if (e.type == kEqJoint) check_scalar_joint(m, m.eq_obj1id[i], m.eq_obj2id[i], e);
        break;
      case kEqDistance:
        data[0] = e.distance;
        if (!geom_distance_supported(m.geom_type[m.eq_obj1id[i]], m.geom_type[m.eq_obj2id[i]])) {
          fail(e.origin, e.name,
               "distance equality between geom types " +
                   std::string(kGeomTypeNames[m.geom_type[m.eq_obj1id[i]]]) + " and " +
                   kGeomTypeNames[m.geom_type[m.eq_obj2id[i]]] +
                   " is not supported (spheres and capsules with each other, a box with a sphere "
                   "or capsule, a plane with any geom but a plane or height field)");
        }
        break;
      default: break;
    }
  }
}

void Compiler::check_scalar_joint(const Model& m, int j1, int j2, const EqualitySpec& e) {
  for (int j : {j1, j2}) {
    if (j >= 0 && m.jnt_type[j] != kJointHinge && m.jnt_type[j] != kJointSlide) {
      fail(e.origin, e.name, "joint equality is only for hinge and slide joints");
    }
  }
}

// The shape of a spatial tendon's path as MuJoCo 2.2.2 requires it (each rule observed as an
// error there): at least two elements; no pulley at the end or next to another; a wrapping geom
// between two sites; a site next to at least one element that is not a pulley.
void Compiler::check_spatial_path(const TendonSpec& s) {
  const std::vector<WrapSpec>& path = s.path;
  const size_t n = path.size();
  if (n < 2) fail(s.origin, s.name, "a spatial tendon's path needs at least two elements");
  auto is = [&](size_t i, int type) { return i < n && path[i].type == type; };
  if (is(n - 1, kWrapPulley)) fail(path[n - 1].origin, s.name, "a path cannot end with a pulley");
  for (size_t i = 0; i < n; ++i) {
    const WrapSpec& w = path[i];
    if (w.type == kWrapPulley && is(i + 1, kWrapPulley))
      fail(path[i + 1].origin, s.name, "two pulleys in a row");
    if (w.type == kWrapSphere && !(i > 0 && is(i - 1, kWrapSite) && is(i + 1, kWrapSite)))
      fail(w.origin, s.name, "a wrapping geom must have a site on each side");
    if (w.type == kWrapSite && !(i > 0 && !is(i - 1, kWrapPulley)) &&
        !(i + 1 < n && !is(i + 1, kWrapPulley))) {
      fail(w.origin, s.name, "a site needs a neighbour in the path that is not a pulley");
    }
  }
}

void Compiler::fill_tendons(Model& m) {
  int wrap = 0;
  const bool autolimits = spec_.compiler.autolimits;
  for (int t = 0; t < m.ntendon; ++t) {
    const TendonSpec& s = spec_.tendons[static_cast<size_t>(t)];
    if (s.path.empty()) fail(s.origin, s.name, "a tendon needs at least one path element");
    if (s.spatial) check_spatial_path(s);
    m.tendon_adr[t] = wrap;
    m.tendon_num[t] = static_cast<int>(s.path.size());
    m.tendon_matid[t] =
        s.material.empty() ? -1 : id_of(kObjMaterial, s.material, s.origin, s.name, "material");
    m.tendon_group[t] = s.group;
    m.tendon_limited[t] =
        resolve_limited(s.limited, s.range_given, autolimits, s.origin, s.name, "limited", "range");
    if (m.tendon_limited[t] && !(s.range[0] < s.range[1]))
      fail(s.origin, s.name, "range[0] must be smaller than range[1]");
    m.tendon_width[t] = s.width;
    copy_to(m.tendon_solref_lim + kNREF * t, s.solref_limit);
    copy_to(m.tendon_solimp_lim + kNIMP * t, s.solimp_limit);
    copy_to(m.tendon_solref_fri + kNREF * t, s.solref_friction);
    copy_to(m.tendon_solimp_fri + kNIMP * t, s.solimp_friction);
    copy_to(m.tendon_range + 2 * t, s.range);
    m.tendon_margin[t] = s.margin;
    m.tendon_stiffness[t] = s.stiffness;
    m.tendon_damping[t] = s.damping;
    m.tendon_frictionloss[t] = s.frictionloss;
    m.tendon_lengthspring[t] = s.springlength;
    std::copy(s.user.begin(), s.user.end(), m.tendon_user + t * m.nuser_tendon);
    copy_to(m.tendon_rgba + 4 * t, s.rgba);
    for (const WrapSpec& w : s.path) {
      int type = w.type;
      int id = -1;
      double prm = 0;
      switch (w.type) {
        case kWrapJoint:
          if (s.spatial) fail(w.origin, s.name, "joints can only be in fixed tendons");
          id = id_of(kObjJoint, w.target, w.origin, s.name, "joint");
          prm = w.coef;
          break;
        case kWrapSite: id = id_of(kObjSite, w.target, w.origin, s.name, "site"); break;
        case kWrapPulley: prm = w.coef; break;
        default: {
          id = id_of(kObjGeom, w.target, w.origin, s.name, "geom");
          const int gtype = m.geom_type[id];
          if (gtype == kGeomSphere)
            type = kWrapSphere;
          else if (gtype == kGeomCylinder)
            type = kWrapCylinder;
          else
            fail(w.origin, s.name, "wrapping geoms must be spheres or cylinders");
          prm =
              w.sidesite.empty() ? -1 : id_of(kObjSite, w.sidesite, w.origin, s.name, "side site");
        }
      }
      m.wrap_type[wrap] = type;
      m.wrap_objid[wrap] = id;
      m.wrap_prm[wrap] = prm;
      ++wrap;
    }
  }
}

}  // namespace joco::compiler
