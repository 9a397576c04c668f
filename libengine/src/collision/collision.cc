// The collision driver (mj_collision): candidate geom pairs from the predefined <pair>s and the
// broad phase, the filters, the contact parameters of each pair, and the contact list.
#include "joco/collision.h"

#include <algorithm>
#include <cmath>

#include "collision/broadphase.h"
#include "math/vec.h"

namespace joco {

using namespace joco::math;

void make_contact_frame(double frame[9]) {
  normalize3(frame);
  double* y = frame + 3;
  if (norm3(y) < 0.5) {  // no tangent hint: the y axis, or z when the normal is near y
    y[0] = 0;
    if (std::abs(frame[1]) < 0.5) {
      y[1] = 1;
      y[2] = 0;
    } else {
      y[1] = 0;
      y[2] = 1;
    }
  }
  add_scaled3(y, y, frame, -dot3(frame, y));
  normalize3(y);
  cross3(frame + 6, frame, y);
}

namespace {

// Contact parameters of one geom pair.
struct PairParams {
  int dim = 3;
  double margin = 0;
  double gap = 0;
  double friction[5] = {};
  double solref[kNREF] = {};
  double solimp[kNIMP] = {};
};

// The margin of a candidate pair (predefined pair p, or p < 0 for the dynamic pair g1, g2): the
// larger geom margin, or the override's.
double pair_margin(const Model& m, int p, int g1, int g2) {
  if (m.opt.enableflags & kEnableOverride) return m.opt.o_margin;
  return p >= 0 ? m.pair_margin[p] : std::max(m.geom_margin[g1], m.geom_margin[g2]);
}

void predefined_params(const Model& m, int p, PairParams* pp) {
  pp->dim = m.pair_dim[p];
  pp->gap = m.pair_gap[p];
  for (int i = 0; i < 5; ++i) pp->friction[i] = m.pair_friction[5 * p + i];
  for (int i = 0; i < kNREF; ++i) pp->solref[i] = m.pair_solref[kNREF * p + i];
  for (int i = 0; i < kNIMP; ++i) pp->solimp[i] = m.pair_solimp[kNIMP * p + i];
}

// The rules of the spec's contact parameters: priority wins; equal priorities take the larger
// condim and friction, and solref/solimp mixed by solmix (solref elementwise minimum when either
// uses the direct stiffness/damping format); gap is the larger of the two (margin: pair_margin).
void dynamic_params(const Model& m, int g1, int g2, PairParams* pp) {
  pp->gap = std::max(m.geom_gap[g1], m.geom_gap[g2]);
  const double* f1 = m.geom_friction + 3 * g1;
  const double* f2 = m.geom_friction + 3 * g2;
  const double* ref1 = m.geom_solref + kNREF * g1;
  const double* ref2 = m.geom_solref + kNREF * g2;
  const double* imp1 = m.geom_solimp + kNIMP * g1;
  const double* imp2 = m.geom_solimp + kNIMP * g2;
  const int p1 = m.geom_priority[g1], p2 = m.geom_priority[g2];
  if (p1 != p2) {
    const int g = p1 > p2 ? g1 : g2;
    const double* f = m.geom_friction + 3 * g;
    pp->dim = m.geom_condim[g];
    const double fr[5] = {f[0], f[0], f[1], f[2], f[2]};
    for (int i = 0; i < 5; ++i) pp->friction[i] = fr[i];
    for (int i = 0; i < kNREF; ++i) pp->solref[i] = m.geom_solref[kNREF * g + i];
    for (int i = 0; i < kNIMP; ++i) pp->solimp[i] = m.geom_solimp[kNIMP * g + i];
    return;
  }
  pp->dim = std::max(m.geom_condim[g1], m.geom_condim[g2]);
  const double fr1[5] = {f1[0], f1[0], f1[1], f1[2], f1[2]};
  const double fr2[5] = {f2[0], f2[0], f2[1], f2[2], f2[2]};
  for (int i = 0; i < 5; ++i) pp->friction[i] = std::max(fr1[i], fr2[i]);

  const double s1 = m.geom_solmix[g1], s2 = m.geom_solmix[g2];
  double mix;
  if (s1 >= kMinVal && s2 >= kMinVal) {
    mix = s1 / (s1 + s2);
  } else if (s1 < kMinVal && s2 < kMinVal) {
    mix = 0.5;
  } else {
    mix = s1 < kMinVal ? 0 : 1;
  }
  if (ref1[0] > 0 && ref2[0] > 0) {
    for (int i = 0; i < kNREF; ++i) pp->solref[i] = mix * ref1[i] + (1 - mix) * ref2[i];
  } else {
    for (int i = 0; i < kNREF; ++i) pp->solref[i] = std::min(ref1[i], ref2[i]);
  }
  for (int i = 0; i < kNIMP; ++i) pp->solimp[i] = mix * imp1[i] + (1 - mix) * imp2[i];
}

// The contact parameters of a candidate pair (as in pair_margin) with the given margin.
PairParams pair_params(const Model& m, int p, int g1, int g2, double margin) {
  PairParams pp;
  pp.margin = margin;
  if (p >= 0) {
    predefined_params(m, p, &pp);
  } else {
    dynamic_params(m, g1, g2, &pp);
  }
  if (m.opt.enableflags & kEnableOverride) {
    for (int i = 0; i < kNREF; ++i) pp.solref[i] = m.opt.o_solref[i];
    for (int i = 0; i < kNIMP; ++i) pp.solimp[i] = m.opt.o_solimp[i];
  }
  return pp;
}

// The bounding-sphere test (a plane against the other geom's sphere): true when the pair can be
// skipped.
bool far_apart(const Model& m, const Data& d, int g1, int g2, double margin) {
  const double r1 = m.geom_rbound[g1], r2 = m.geom_rbound[g2];
  const double* p1 = d.geom_xpos + 3 * g1;
  const double* p2 = d.geom_xpos + 3 * g2;
  if (r1 > 0 && r2 > 0) return dist3(p1, p2) > r1 + r2 + margin;
  if (m.geom_type[g1] == kGeomPlane && r2 > 0) {
    const double* mat = d.geom_xmat + 9 * g1;
    const double normal[3] = {mat[2], mat[5], mat[8]};
    double dif[3];
    sub3(dif, p2, p1);
    return dot3(dif, normal) > margin + r2;
  }
  return false;
}

// Completes a contact from the narrow phase with the pair's parameters (its frame is made at the
// end of collision).
void finish_contact(Contact& c, int g1, int g2, const PairParams& pp) {
  c.includemargin = pp.margin - pp.gap;
  for (int k = 0; k < 5; ++k) c.friction[k] = pp.friction[k];
  for (int k = 0; k < kNREF; ++k) c.solref[k] = pp.solref[k];
  for (int k = 0; k < kNIMP; ++k) c.solimp[k] = pp.solimp[k];
  c.mu = 0;
  c.dim = pp.dim;
  c.geom1 = g1;
  c.geom2 = g2;
  c.exclude = c.dist >= c.includemargin;  // in the gap: kept, but no constraint
  c.efc_address = -1;
}

// The narrow phase when the contact list may overflow: contacts are added while they fit; the
// first that does not raises kWarnContactFull and ends the pair.
void collide_near_full(const Model& m, Data& d, CollisionFunction f, int p, int g1, int g2,
                       double margin) {
  Contact buffer[kMaxConPair];
  const int num = f(m, d, buffer, g1, g2, margin);
  if (num == 0) return;
  const PairParams pp = pair_params(m, p, g1, g2, margin);
  for (int i = 0; i < num; ++i) {
    if (d.ncon >= m.nconmax) {
      raise_warning(d, kWarnContactFull, d.ncon);
      return;
    }
    d.contact[d.ncon] = buffer[i];
    finish_contact(d.contact[d.ncon++], g1, g2, pp);
  }
}

// Narrow phase of one candidate pair (predefined pair index p, or p < 0 for the dynamic pair g1,
// g2) and its contacts appended to d.contact.
void collide_geoms(const Model& m, Data& d, int p, int g1, int g2) {
  if (p >= 0) {
    g1 = m.pair_geom1[p];
    g2 = m.pair_geom2[p];
  }
  if (m.geom_type[g1] > m.geom_type[g2]) std::swap(g1, g2);
  if (p < 0 && !(m.geom_contype[g1] & m.geom_conaffinity[g2]) &&
      !(m.geom_contype[g2] & m.geom_conaffinity[g1])) {
    return;
  }
  // Most candidates fail the bounding-sphere test or the narrow phase, which need only the margin:
  // the other parameters are mixed for pairs in contact.
  const double margin = pair_margin(m, p, g1, g2);
  if (far_apart(m, d, g1, g2, margin)) return;
  const CollisionFunction f = collision_function(m.geom_type[g1], m.geom_type[g2]);
  if (!f) return;
  if (d.ncon + kMaxConPair <= m.nconmax) {
    const int num = f(m, d, d.contact + d.ncon, g1, g2, margin);
    if (num == 0) return;
    const PairParams pp = pair_params(m, p, g1, g2, margin);
    for (int i = 0; i < num; ++i) finish_contact(d.contact[d.ncon++], g1, g2, pp);
  } else {
    collide_near_full(m, d, f, p, g1, g2, margin);
  }
}

}  // namespace

bool bodies_filtered(const Model& m, int b1, int b2) {
  const int w1 = m.body_weldid[b1], w2 = m.body_weldid[b2];
  if (w1 == w2) return true;
  if (m.opt.disableflags & kDisableFilterparent) return false;
  const int p1 = m.body_weldid[m.body_parentid[w1]];
  const int p2 = m.body_weldid[m.body_parentid[w2]];
  return w1 != 0 && w2 != 0 && (w1 == p2 || w2 == p1);
}

namespace {

// The broad and narrow phases: the contacts of every pair, but their frames.
void collide_all(const Model& m, Data& d) {
  if (m.opt.collision == kCollisionPair) {
    for (int p = 0; p < m.npair; ++p) collide_geoms(m, d, p, -1, -1);
    return;
  }

  StackFrame frame(d);
  int* signatures = nullptr;
  const int npairs = broadphase(m, d, frame, &signatures);
  const bool merge = m.opt.collision == kCollisionAll;
  int pairadr = 0, exadr = 0;
  for (int i = 0; i < npairs; ++i) {
    const int signature = signatures[i];
    // predefined pairs up to this body pair come first
    int first_same = -1;
    if (merge) {
      while (pairadr < m.npair && m.pair_signature[pairadr] <= signature) {
        if (m.pair_signature[pairadr] == signature && first_same < 0) first_same = pairadr;
        collide_geoms(m, d, pairadr++, -1, -1);
      }
    }
    while (exadr < m.nexclude && m.exclude_signature[exadr] < signature) ++exadr;
    if (exadr < m.nexclude && m.exclude_signature[exadr] == signature) continue;

    const int b1 = signature_body1(signature), b2 = signature_body2(signature);
    if (bodies_filtered(m, b1, b2)) continue;
    const int a1 = m.body_geomadr[b1], n1 = m.body_geomnum[b1];
    const int a2 = m.body_geomadr[b2], n2 = m.body_geomnum[b2];
    // Geoms with neither contype nor conaffinity bits (visual ones) pass no dynamic contype test.
    auto inert = [&](int g) { return !m.geom_contype[g] && !m.geom_conaffinity[g]; };
    for (int g1 = a1; g1 < a1 + n1; ++g1) {
      if (inert(g1)) continue;
      for (int g2 = a2; g2 < a2 + n2; ++g2) {
        if (inert(g2)) continue;
        bool predefined = false;
        for (int p = first_same; p >= 0 && p < pairadr && !predefined; ++p) {
          predefined = (m.pair_geom1[p] == g1 && m.pair_geom2[p] == g2) ||
                       (m.pair_geom1[p] == g2 && m.pair_geom2[p] == g1);
        }
        if (!predefined) collide_geoms(m, d, -1, g1, g2);
      }
    }
  }
  if (merge) {
    while (pairadr < m.npair) collide_geoms(m, d, pairadr++, -1, -1);
  }
}

}  // namespace

void collision(const Model& m, Data& d) {
  d.ncon = 0;
  if ((m.opt.disableflags & (kDisableConstraint | kDisableContact)) || m.nconmax == 0 ||
      m.ngeom == 0) {
    return;
  }
  collide_all(m, d);
  // The frames in a loop of their own: each is a chain of square roots and divisions, and the
  // contacts' chains overlap here, where each would otherwise end its pair's narrow phase.
  for (int c = 0; c < d.ncon; ++c) make_contact_frame(d.contact[c].frame);
}

}  // namespace joco
