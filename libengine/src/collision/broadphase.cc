// Overlapping body bounding boxes: every pair for small models, else sweep and prune. Every geom
// pair that can pass the bounding-sphere test of the narrow phase lies in an overlapping body pair,
// so the pairs found here, processed in signature order, give the same contacts as MuJoCo's broad
// phase.
#include "collision/broadphase.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace joco {

namespace {

struct BodyBox {
  double lo[3], hi[3];
  int body;
  int contype, conaffinity;  // the union of its collidable geoms' bits
};

// Box of body b from its dynamically collidable geoms; false when it has none.
bool body_box(const Model& m, const Data& d, int b, BodyBox* box) {
  constexpr double kInf = std::numeric_limits<double>::infinity();
  bool any = false;
  for (int k = 0; k < 3; ++k) {
    box->lo[k] = kInf;
    box->hi[k] = -kInf;
  }
  box->body = b;
  box->contype = box->conaffinity = 0;
  const int first = m.body_geomadr[b], count = m.body_geomnum[b];
  for (int g = first; g < first + count; ++g) {
    if (!m.geom_contype[g] && !m.geom_conaffinity[g]) continue;
    any = true;
    box->contype |= m.geom_contype[g];
    box->conaffinity |= m.geom_conaffinity[g];
    const double rbound = m.geom_rbound[g];
    if (rbound <= 0) {  // planes (and anything without a bound) reach everywhere
      for (int k = 0; k < 3; ++k) {
        box->lo[k] = -kInf;
        box->hi[k] = kInf;
      }
      continue;
    }
    // the geom's own margin even under the contact override, as MuJoCo 2.2.2
    const double half = rbound + m.geom_margin[g];
    for (int k = 0; k < 3; ++k) {
      box->lo[k] = std::min(box->lo[k], d.geom_xpos[3 * g + k] - half);
      box->hi[k] = std::max(box->hi[k], d.geom_xpos[3 * g + k] + half);
    }
  }
  return any;
}

// Whether any geom of a body can collide with any of the other's by the contype/conaffinity test.
// A pair that cannot has no dynamic contact, so it is left out here (a composite's particles
// overlap in thousands of pairs that may collide only with the world's geoms).
inline bool may_collide(const BodyBox& a, const BodyBox& b) {
  return (a.contype & b.conaffinity) || (b.contype & a.conaffinity);
}

// Whether boxes a and b overlap along axis k.
inline bool overlap(const BodyBox& a, const BodyBox& b, int k) {
  return !(a.lo[k] > b.hi[k] || b.lo[k] > a.hi[k]);
}

// Up to this many bodies with boxes, every pair is tested: fewer operations than sorting for the
// sweep, and pairs taken in body order come out sorted.
constexpr int kAllPairsMax = 48;

// Sorts the signatures of distinct body pairs ascending: below a few dozen by comparisons, else by
// two stable counting passes over the body numbers, by the second body then by the first (a few
// operations per pair where comparison sorting takes dozens; a composite's particles overlap in
// thousands of pairs).
void sort_signatures(const Model& m, StackFrame& frame, int* sig, int count) {
  if (count < 64) {
    std::sort(sig, sig + count);
    return;
  }
  const int keys = m.nbody + 1;  // body + 1: 1..nbody
  int* other = frame.ints(count);
  int* start = frame.ints(keys + 1);
  auto pass = [&](const int* from, int* to, auto key) {
    std::fill(start, start + keys + 1, 0);
    for (int k = 0; k < count; ++k) ++start[key(from[k]) + 1];
    for (int b = 0; b < keys; ++b) start[b + 1] += start[b];
    for (int k = 0; k < count; ++k) to[start[key(from[k])]++] = from[k];
  };
  pass(sig, other, [](int s) { return s & 0xFFFF; });
  pass(other, sig, [](int s) { return s >> 16; });
}

}  // namespace

int broadphase(const Model& m, const Data& d, StackFrame& frame, int** signatures) {
  BodyBox* boxes = frame.array<BodyBox>(m.nbody);
  int n = 0;
  for (int b = 0; b < m.nbody; ++b) n += body_box(m, d, b, &boxes[n]);

  if (n <= kAllPairsMax) {
    int* out = frame.ints(int64_t{n} * (n - 1) / 2);
    int count = 0;
    for (int i = 0; i < n; ++i) {
      for (int j = i + 1; j < n; ++j) {
        if (may_collide(boxes[i], boxes[j]) && overlap(boxes[i], boxes[j], 0) &&
            overlap(boxes[i], boxes[j], 1) && overlap(boxes[i], boxes[j], 2)) {
          out[count++] = body_pair_signature(boxes[i].body, boxes[j].body);
        }
      }
    }
    *signatures = out;
    return count;
  }

  // the spread of the finite box centres along each axis
  double lo[3], hi[3];
  for (int k = 0; k < 3; ++k) {
    lo[k] = std::numeric_limits<double>::infinity();
    hi[k] = -lo[k];
  }
  for (int i = 0; i < n; ++i) {
    for (int k = 0; k < 3; ++k) {
      const double c = (boxes[i].lo[k] + boxes[i].hi[k]) / 2;
      if (!std::isfinite(c)) continue;
      lo[k] = std::min(lo[k], c);
      hi[k] = std::max(hi[k], c);
    }
  }

  // sweep along the axis where the centres spread most
  int axis = 0;
  double spread = -1;
  for (int k = 0; k < 3; ++k) {
    if (hi[k] - lo[k] > spread) {
      spread = hi[k] - lo[k];
      axis = k;
    }
  }
  std::sort(boxes, boxes + n,
            [axis](const BodyBox& a, const BodyBox& b) { return a.lo[axis] < b.lo[axis]; });

  // The boxes j after i that start within i's extent along the axis overlap it there (lo_i <=
  // lo_j <= hi_i): they are the candidates, and only the other two axes are left to test.
  int candidates = 0;
  for (int i = 0; i < n; ++i) {
    for (int j = i + 1; j < n && boxes[j].lo[axis] <= boxes[i].hi[axis]; ++j) ++candidates;
  }
  int* out = frame.ints(candidates);
  const int a1 = (axis + 1) % 3, a2 = (axis + 2) % 3;
  int count = 0;
  for (int i = 0; i < n; ++i) {
    const BodyBox& bi = boxes[i];
    for (int j = i + 1; j < n && boxes[j].lo[axis] <= bi.hi[axis]; ++j) {
      const BodyBox& bj = boxes[j];
      if (!may_collide(bi, bj) || !overlap(bi, bj, a1) || !overlap(bi, bj, a2)) continue;
      out[count++] = bi.body < bj.body ? body_pair_signature(bi.body, bj.body)
                                       : body_pair_signature(bj.body, bi.body);
    }
  }
  sort_signatures(m, frame, out, count);
  *signatures = out;
  return count;
}

}  // namespace joco
