// Sweep and prune over body bounding boxes. Every geom pair that can pass the bounding-sphere test
// of the narrow phase lies in an overlapping body pair, so the pairs found here, processed in
// signature order, give the same contacts as MuJoCo's broad phase.
#include "collision/broadphase.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace joco {

namespace {

// Box of body b from its dynamically collidable geoms; false when it has none.
bool body_box(const Model& m, const Data& d, int b, double* lo, double* hi) {
  constexpr double kInf = std::numeric_limits<double>::infinity();
  bool any = false;
  for (int k = 0; k < 3; ++k) {
    lo[k] = kInf;
    hi[k] = -kInf;
  }
  const int first = m.body_geomadr[b], count = m.body_geomnum[b];
  for (int g = first; g < first + count; ++g) {
    if (!m.geom_contype[g] && !m.geom_conaffinity[g]) continue;
    any = true;
    const double rbound = m.geom_rbound[g];
    if (rbound <= 0) {  // planes (and anything without a bound) reach everywhere
      for (int k = 0; k < 3; ++k) {
        lo[k] = -kInf;
        hi[k] = kInf;
      }
      continue;
    }
    // the geom's own margin even under the contact override, as MuJoCo 2.2.2
    const double half = rbound + m.geom_margin[g];
    for (int k = 0; k < 3; ++k) {
      lo[k] = std::min(lo[k], d.geom_xpos[3 * g + k] - half);
      hi[k] = std::max(hi[k], d.geom_xpos[3 * g + k] + half);
    }
  }
  return any;
}

}  // namespace

int broadphase(const Model& m, const Data& d, StackFrame& frame, int** signatures) {
  const int nbody = m.nbody;
  double* box = frame.doubles(6 * int64_t{nbody});  // lo[3], hi[3] per body
  int* order = frame.ints(nbody);
  int nactive = 0;
  for (int b = 0; b < nbody; ++b) {
    if (body_box(m, d, b, box + 6 * b, box + 6 * b + 3)) order[nactive++] = b;
  }

  // sweep along the axis where the finite box centres spread most
  int axis = 0;
  double spread = -1;
  for (int k = 0; k < 3; ++k) {
    double lo = std::numeric_limits<double>::infinity(), hi = -lo;
    for (int i = 0; i < nactive; ++i) {
      const double* bb = box + 6 * order[i];
      const double c = (bb[k] + bb[k + 3]) / 2;
      if (!std::isfinite(c)) continue;
      lo = std::min(lo, c);
      hi = std::max(hi, c);
    }
    if (hi - lo > spread) {
      spread = hi - lo;
      axis = k;
    }
  }
  std::sort(order, order + nactive, [&](int a, int b) {
    return box[6 * a + axis] < box[6 * b + axis] ||
           (box[6 * a + axis] == box[6 * b + axis] && a < b);
  });

  auto overlap = [&](int a, int b) {
    for (int k = 0; k < 3; ++k) {
      if (box[6 * a + k] > box[6 * b + k + 3] || box[6 * b + k] > box[6 * a + k + 3]) return false;
    }
    return true;
  };
  // count, then fill
  int count = 0;
  for (int i = 0; i < nactive; ++i) {
    const double end = box[6 * order[i] + axis + 3];
    for (int j = i + 1; j < nactive && box[6 * order[j] + axis] <= end; ++j) {
      count += overlap(order[i], order[j]);
    }
  }
  int* out = frame.ints(count);
  int n = 0;
  for (int i = 0; i < nactive; ++i) {
    const double end = box[6 * order[i] + axis + 3];
    for (int j = i + 1; j < nactive && box[6 * order[j] + axis] <= end; ++j) {
      const int a = order[i], b = order[j];
      if (overlap(a, b)) out[n++] = a < b ? body_pair_signature(a, b) : body_pair_signature(b, a);
    }
  }
  std::sort(out, out + n);
  *signatures = out;
  return n;
}

}  // namespace joco
