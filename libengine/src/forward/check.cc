#include <cmath>

#include "joco/forward.h"

namespace joco {

namespace {

// The index of the first bad element (NaN, infinite or beyond kMaxVal), or -1.
int first_bad(const double* values, int n) {
  for (int i = 0; i < n; ++i) {
    if (!(std::abs(values[i]) <= kMaxVal)) return i;
  }
  return -1;
}

bool check(const Model& m, Data& d, const double* values, int n, Warning warning) {
  const int bad = first_bad(values, n);
  if (bad < 0) return true;
  // Keep the warning statistics across the reset, as MuJoCo does.
  WarningStat saved[kNWarning];
  for (int w = 0; w < kNWarning; ++w) saved[w] = d.warning[w];
  reset_data(m, d);
  for (int w = 0; w < kNWarning; ++w) d.warning[w] = saved[w];
  raise_warning(d, warning, bad);
  return false;
}

}  // namespace

bool check_pos(const Model& m, Data& d) { return check(m, d, d.qpos, m.nq, kWarnBadQpos); }
bool check_vel(const Model& m, Data& d) { return check(m, d, d.qvel, m.nv, kWarnBadQvel); }
bool check_acc(const Model& m, Data& d) { return check(m, d, d.qacc, m.nv, kWarnBadQacc); }

}  // namespace joco
