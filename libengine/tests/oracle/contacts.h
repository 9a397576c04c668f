// Comparison of contact lists: MuJoCo's mjContact array against joco's Contact array, element by
// element, reporting the worst element of each field. Test code only.
#pragma once

#include <mujoco/mujoco.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "joco/collision.h"
#include "joco/data.h"
#include "oracle/random_state.h"

namespace joco::oracle {

// The worst element of one contact field: absolute error, and where.
struct ContactFieldResult {
  std::string name;
  double error = 0;
  int contact = -1;  // index in the lists
  int element = -1;  // index within the field
  double joco_value = 0;
  double mujoco_value = 0;
};

struct ContactComparison {
  int joco_count = 0;
  int mujoco_count = 0;
  std::vector<ContactFieldResult> fields;

  bool counts_match() const { return joco_count == mujoco_count; }
  const ContactFieldResult& field(const std::string& name) const {
    for (const ContactFieldResult& f : fields) {
      if (f.name == name) return f;
    }
    static const ContactFieldResult none;
    return none;
  }
  // The worst error over the geometric fields (dist, pos, frame).
  double geometry_error() const {
    double e = 0;
    for (const char* name : {"dist", "pos", "frame"}) e = std::fmax(e, field(name).error);
    return e;
  }
  // The worst error over the parameter fields (includemargin, friction, solref, solimp) and whether
  // every integer field (dim, geom1, geom2, exclude, efc_address) agrees.
  double parameter_error() const {
    double e = 0;
    for (const char* name : {"includemargin", "friction", "solref", "solimp"}) {
      e = std::fmax(e, field(name).error);
    }
    return e;
  }
  bool integers_match() const {
    for (const char* name : {"dim", "geom1", "geom2", "exclude", "efc_address"}) {
      if (field(name).error != 0) return false;
    }
    return true;
  }
  std::string table() const {
    std::string s = "contacts: joco " + std::to_string(joco_count) + ", MuJoCo " +
                    std::to_string(mujoco_count) + "\n";
    char line[256];
    for (const ContactFieldResult& f : fields) {
      std::snprintf(line, sizeof line,
                    "  %-14s worst %.3e at contact %d [%d]: joco %.17g MuJoCo %.17g\n",
                    f.name.c_str(), f.error, f.contact, f.element, f.joco_value, f.mujoco_value);
      s += line;
    }
    return s;
  }
};

// Compares the first min(n, mn) contacts field by field (absolute errors; integers 0 or 1).
inline ContactComparison compare_contacts(const Contact* c, int n, const mjContact* mc, int mn) {
  ContactComparison r;
  r.joco_count = n;
  r.mujoco_count = mn;
  const int count = n < mn ? n : mn;
  count_compared(count);
  auto field = [&](const char* name, int size, auto joco_at, auto mujoco_at) {
    ContactFieldResult f;
    f.name = name;
    for (int i = 0; i < count; ++i) {
      for (int k = 0; k < size; ++k) {
        const double a = joco_at(c[i], k), b = mujoco_at(mc[i], k);
        const double e = std::isnan(a) || std::isnan(b) ? INFINITY : std::fabs(a - b);
        if (f.contact < 0 || e > f.error) {
          f.error = e;
          f.contact = i;
          f.element = k;
          f.joco_value = a;
          f.mujoco_value = b;
        }
      }
    }
    r.fields.push_back(f);
  };
  field(
      "dist", 1, [](const Contact& x, int) { return x.dist; },
      [](const mjContact& x, int) { return x.dist; });
  field(
      "pos", 3, [](const Contact& x, int k) { return x.pos[k]; },
      [](const mjContact& x, int k) { return x.pos[k]; });
  field(
      "frame", 9, [](const Contact& x, int k) { return x.frame[k]; },
      [](const mjContact& x, int k) { return x.frame[k]; });
  field(
      "includemargin", 1, [](const Contact& x, int) { return x.includemargin; },
      [](const mjContact& x, int) { return x.includemargin; });
  field(
      "friction", 5, [](const Contact& x, int k) { return x.friction[k]; },
      [](const mjContact& x, int k) { return x.friction[k]; });
  field(
      "solref", mjNREF, [](const Contact& x, int k) { return x.solref[k]; },
      [](const mjContact& x, int k) { return x.solref[k]; });
  field(
      "solimp", mjNIMP, [](const Contact& x, int k) { return x.solimp[k]; },
      [](const mjContact& x, int k) { return x.solimp[k]; });
  field(
      "dim", 1, [](const Contact& x, int) { return double(x.dim); },
      [](const mjContact& x, int) { return double(x.dim); });
  field(
      "geom1", 1, [](const Contact& x, int) { return double(x.geom1); },
      [](const mjContact& x, int) { return double(x.geom1); });
  field(
      "geom2", 1, [](const Contact& x, int) { return double(x.geom2); },
      [](const mjContact& x, int) { return double(x.geom2); });
  field(
      "exclude", 1, [](const Contact& x, int) { return double(x.exclude); },
      [](const mjContact& x, int) { return double(x.exclude); });
  field(
      "efc_address", 1, [](const Contact& x, int) { return double(x.efc_address); },
      [](const mjContact& x, int) { return double(x.efc_address); });
  return r;
}

// Collision detection alone in both engines, from the same geom frames (MuJoCo's, copied into
// joco's Data), after the caller has set MuJoCo's state and run its kinematics.
inline void collide_from_mujoco_frames(OracleCase& c) {
  std::memcpy(c.d.geom_xpos, c.md->geom_xpos, sizeof(double) * 3 * c.mj->ngeom);
  std::memcpy(c.d.geom_xmat, c.md->geom_xmat, sizeof(double) * 9 * c.mj->ngeom);
  mj_collision(c.mj.get(), c.md.get());  // fresh contacts: mj_forward's constraint stage edits them
  collision(c.m, c.d);
}

}  // namespace joco::oracle
