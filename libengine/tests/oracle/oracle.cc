#include "oracle/oracle.h"

#include <mujoco/mjxmacro.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <map>
#include <sstream>
#include <stdexcept>

#include "model/derived.h"

namespace joco::oracle {

namespace {

// One MuJoCo field: where it is and its shape.
struct MjField {
  ScalarType type;
  int64_t rows;
  int64_t cols;
  const void* data;
};

template <class T>
constexpr ScalarType mj_type() {
  if constexpr (std::is_same_v<T, mjtNum>)
    return ScalarType::kFloat64;
  else if constexpr (std::is_same_v<T, float>)
    return ScalarType::kFloat32;
  else if constexpr (std::is_same_v<T, int>)
    return ScalarType::kInt32;
  else if constexpr (std::is_same_v<T, mjtByte>)
    return ScalarType::kUInt8;
  else
    return ScalarType::kChar;
}

std::map<std::string, MjField> mj_model_fields(const mjModel* m) {
  std::map<std::string, MjField> fields;
  MJMODEL_POINTERS_PREAMBLE(m)
#define X(type, name, nr, nc) \
  fields[#name] = {mj_type<type>(), int64_t{m->nr}, int64_t{nc}, static_cast<const void*>(m->name)};
  MJMODEL_POINTERS
#undef X
  return fields;
}

std::map<std::string, MjField> mj_data_fields(const mjModel* m, const mjData* d) {
  std::map<std::string, MjField> fields;
  MJDATA_POINTERS_PREAMBLE(m)
#define X(type, name, nr, nc)                                      \
  if constexpr (!std::is_same_v<type, mjContact>) {                \
    fields[#name] = {mj_type<type>(), int64_t{m->nr}, int64_t{nc}, \
                     static_cast<const void*>(d->name)};           \
  }
  MJDATA_POINTERS
#undef X
  return fields;
}

double mj_value(const MjField& f, int64_t i) {
  const ArrayField view{"", f.type, f.rows, f.cols, field_check::any, const_cast<void*>(f.data)};
  return view.value(i);
}

std::atomic<int64_t> compared{0};

// Resets the count when a test starts; fails the test when it ends having compared nothing (a test
// that failed already has said why).
class CountCompared : public ::testing::EmptyTestEventListener {
  void OnTestStart(const ::testing::TestInfo&) override { compared = 0; }
  void OnTestEnd(const ::testing::TestInfo& test) override {
    if (compared > 0 || test.result()->Failed()) return;
    ADD_FAILURE() << test.test_suite_name() << "." << test.name()
                  << " compared nothing with MuJoCo 2.2.2 (an oracle test must compare "
                     "something: see oracle::count_compared)";
  }
};

// Installed when the oracle library is linked (every oracle test uses it). End events reach
// listeners in reverse order, so this one runs before the result printer reports the test.
[[maybe_unused]] const bool count_compared_installed = [] {
  ::testing::UnitTest::GetInstance()->listeners().Append(new CountCompared);
  return true;
}();

double relative_error(double a, double b, double scale, const Tolerance& tol) {
  const double diff = std::abs(a - b);
  if (diff == 0) return 0;
  const double denom = std::max({std::abs(a), std::abs(b), tol.floor_fraction * scale, tol.tiny});
  return diff / denom;
}

bool is_integer(ScalarType t) {
  return t == ScalarType::kInt32 || t == ScalarType::kUInt8 || t == ScalarType::kChar;
}

// Compares count elements of two arrays given as value accessors.
template <class A, class B>
FieldResult compare_values(const std::string& name, int64_t count, bool integer, A joco_at, B mj_at,
                           const Tolerance& tol) {
  FieldResult r;
  r.name = name;
  r.count = count;
  count_compared(count);
  double scale = 0;
  for (int64_t i = 0; i < count; ++i) scale = std::max(scale, std::abs(mj_at(i)));
  for (int64_t i = 0; i < count; ++i) {
    const double a = joco_at(i);
    const double b = mj_at(i);
    double err;
    if (integer) {
      err = a == b ? 0 : 1;
    } else if (std::isnan(a) || std::isnan(b)) {
      err = (std::isnan(a) && std::isnan(b)) ? 0 : INFINITY;
    } else {
      err = relative_error(a, b, scale, tol);
    }
    if (r.worst < 0 || err > r.error) {
      r.error = err;
      r.worst = i;
      r.joco_value = a;
      r.mujoco_value = b;
    }
  }
  const double limit = integer ? 0 : tol.rel;
  r.status = r.error > limit ? FieldResult::kDiffer : FieldResult::kMatch;
  return r;
}

FieldResult compare_array(const ArrayField& ours, const MjField& theirs, const Tolerance& tol,
                          int64_t rows_limit = -1) {
  int64_t rows = ours.rows;
  int64_t mj_rows = theirs.rows;
  if (rows_limit >= 0) {
    rows = std::min(rows, rows_limit);
    mj_rows = std::min(mj_rows, rows_limit);
  }
  if (rows * ours.cols != mj_rows * theirs.cols) {
    FieldResult r;
    r.name = ours.name;
    r.status = FieldResult::kShape;
    r.detail = "joco " + std::to_string(rows) + "x" + std::to_string(ours.cols) + ", MuJoCo " +
               std::to_string(mj_rows) + "x" + std::to_string(theirs.cols);
    return r;
  }
  const bool integer = is_integer(ours.type) && is_integer(theirs.type);
  return compare_values(
      ours.name, rows * ours.cols, integer, [&](int64_t i) { return ours.value(i); },
      [&](int64_t i) { return mj_value(theirs, i); }, tol);
}

}  // namespace

MjModelPtr load(const std::string& path, std::string* error) {
  char buffer[1000] = "";
  mjModel* m = mj_loadXML(path.c_str(), nullptr, buffer, sizeof(buffer));
  if (!m && error) *error = buffer;
  return MjModelPtr(m);
}

MjDataPtr make_data(const mjModel* m) { return MjDataPtr(mj_makeData(m)); }

void count_compared(int64_t n) { compared += n; }

double element_error(double a, double b, double scale, const Tolerance& tol) {
  count_compared();
  return relative_error(a, b, scale, tol);
}

bool Comparison::all_match() const {
  return std::all_of(fields.begin(), fields.end(), [](const FieldResult& f) {
    return f.status == FieldResult::kMatch || f.status == FieldResult::kMissing;
  });
}

std::vector<std::string> Comparison::differing() const {
  std::vector<std::string> out;
  for (const FieldResult& f : fields) {
    if (f.status == FieldResult::kDiffer || f.status == FieldResult::kShape) out.push_back(f.name);
  }
  return out;
}

std::vector<std::string> Comparison::missing() const {
  std::vector<std::string> out;
  for (const FieldResult& f : fields) {
    if (f.status == FieldResult::kMissing) out.push_back(f.name);
  }
  return out;
}

std::string Comparison::table(bool only_problems) const {
  std::ostringstream out;
  char line[512];
  for (const FieldResult& f : fields) {
    if (only_problems && f.status == FieldResult::kMatch) continue;
    const char* status = f.status == FieldResult::kMatch    ? "match"
                         : f.status == FieldResult::kDiffer ? "DIFFER"
                         : f.status == FieldResult::kShape  ? "SHAPE"
                                                            : "missing";
    if (f.status == FieldResult::kShape || f.status == FieldResult::kMissing) {
      std::snprintf(line, sizeof(line), "  %-26s %-7s %s\n", f.name.c_str(), status,
                    f.detail.c_str());
    } else if (f.worst >= 0) {
      std::snprintf(line, sizeof(line),
                    "  %-26s %-7s n=%-7lld worst[%lld] joco %.17g mujoco %.17g err %.3g\n",
                    f.name.c_str(), status, static_cast<long long>(f.count),
                    static_cast<long long>(f.worst), f.joco_value, f.mujoco_value, f.error);
    } else {
      std::snprintf(line, sizeof(line), "  %-26s %-7s n=%lld exact\n", f.name.c_str(), status,
                    static_cast<long long>(f.count));
    }
    out << line;
  }
  return out.str();
}

Comparison compare_model(const Model& m, const mjModel* mj, const Tolerance& tolerance,
                         Tolerance (*tolerance_for)(const std::string&, const Tolerance&)) {
  Comparison c;
  auto tol_of = [&](const std::string& name) {
    return tolerance_for ? tolerance_for(name, tolerance) : tolerance;
  };
  // Sizes.
  {
    const ModelSizes& s = m.sizes();
#define JOCO_COMPARE_SIZE(name)                                \
  c.fields.push_back(compare_values(                           \
      #name, 1, true, [&](int64_t) { return double(s.name); }, \
      [&](int64_t) { return double(mj->name); }, tolerance));
    JOCO_MODEL_SIZES(JOCO_COMPARE_SIZE)
#undef JOCO_COMPARE_SIZE
  }
  // Options, visual settings and statistics, member by member (the member names are MuJoCo's).
  auto compare_struct = [&](const std::string& name, ScalarType type, int count, const void* ours,
                            const void* theirs) {
    const ArrayField a{"", type, 1, count, field_check::any, const_cast<void*>(ours)};
    const ArrayField b{"", type, 1, count, field_check::any, const_cast<void*>(theirs)};
    c.fields.push_back(compare_values(
        name, count, is_integer(type), [&](int64_t i) { return a.value(i); },
        [&](int64_t i) { return b.value(i); }, tol_of(name)));
  };
#define JOCO_COMPARE_OPTION(type, name, count) \
  compare_struct("opt." #name, scalar_type_of<type>(), count, &m.opt.name, &mj->opt.name);
  JOCO_OPTION_FIELDS(JOCO_COMPARE_OPTION)
#undef JOCO_COMPARE_OPTION
#define JOCO_COMPARE_VISUAL(group, type, name, count)                                       \
  compare_struct("vis." #group "." #name, scalar_type_of<type>(), count, &m.vis.group.name, \
                 &mj->vis.group.name);
#define JOCO_COMPARE_VISUAL_GROUP(group, FIELDS) FIELDS(JOCO_COMPARE_VISUAL, group)
  JOCO_VISUAL_GROUPS(JOCO_COMPARE_VISUAL_GROUP)
#undef JOCO_COMPARE_VISUAL_GROUP
#undef JOCO_COMPARE_VISUAL
#define JOCO_COMPARE_STAT(type, name, count) \
  compare_struct("stat." #name, scalar_type_of<type>(), count, &m.stat.name, &mj->stat.name);
  JOCO_STATISTIC_FIELDS(JOCO_COMPARE_STAT)
#undef JOCO_COMPARE_STAT

  // Arrays, by MuJoCo's list so that fields joco lacks show up as missing.
  const auto theirs = mj_model_fields(mj);
  std::map<std::string, ArrayField> ours;
  for (const ArrayField& f : m.arrays()) ours.emplace(f.name, f);
  for (const auto& [name, field] : theirs) {
    auto it = ours.find(name);
    if (it == ours.end()) {
      FieldResult r;
      r.name = name;
      r.status = FieldResult::kMissing;
      r.detail = "not in joco's model";
      c.fields.push_back(r);
      continue;
    }
    c.fields.push_back(compare_array(it->second, field, tol_of(name)));
  }
  return c;
}

Comparison compare_data(const Data& d, const mjData* md, const mjModel* mj,
                        const std::vector<std::string>& names, const Tolerance& tolerance) {
  Comparison c;
  const auto theirs = mj_data_fields(mj, md);
  std::map<std::string, ArrayField> ours;
  for (const ArrayField& f : d.arrays()) ours.emplace(f.name, f);
  std::vector<std::string> wanted = names;
  if (wanted.empty()) {
    for (const auto& [name, unused] : theirs) {
      if (ours.count(name)) wanted.push_back(name);
    }
  }
  for (const std::string& name : wanted) {
    auto a = ours.find(name);
    auto b = theirs.find(name);
    if (a == ours.end() || b == theirs.end()) {
      FieldResult r;
      r.name = name;
      r.status = FieldResult::kMissing;
      r.detail = a == ours.end() ? "not in joco's data" : "not in MuJoCo's data";
      c.fields.push_back(r);
      continue;
    }
    // Constraint rows: compare the rows in use. Rows of efc_JT / efc_AR index constraints too.
    int64_t rows_limit = -1;
    if (name.rfind("efc_", 0) == 0) {
      if (d.nefc != md->nefc) {
        FieldResult r;
        r.name = name;
        r.status = FieldResult::kShape;
        r.detail = "nefc: joco " + std::to_string(d.nefc) + ", MuJoCo " + std::to_string(md->nefc);
        c.fields.push_back(r);
        continue;
      }
      rows_limit = d.nefc;
    }
    c.fields.push_back(compare_array(a->second, b->second, tolerance, rows_limit));
  }
  return c;
}

Model model_from_mujoco(const mjModel* mj) {
  ModelSizes sizes;
#define JOCO_COPY_SIZE(name) sizes.name = mj->name;
  JOCO_MODEL_SIZES(JOCO_COPY_SIZE)
#undef JOCO_COPY_SIZE
  Model m(sizes);
#define JOCO_COPY_OPTION(type, name, count) \
  std::memcpy(&m.opt.name, &mj->opt.name, sizeof(m.opt.name));
  JOCO_OPTION_FIELDS(JOCO_COPY_OPTION)
#undef JOCO_COPY_OPTION
#define JOCO_COPY_VISUAL(group, type, name, count) \
  std::memcpy(&m.vis.group.name, &mj->vis.group.name, sizeof(m.vis.group.name));
#define JOCO_COPY_VISUAL_GROUP(group, FIELDS) FIELDS(JOCO_COPY_VISUAL, group)
  JOCO_VISUAL_GROUPS(JOCO_COPY_VISUAL_GROUP)
#undef JOCO_COPY_VISUAL_GROUP
#undef JOCO_COPY_VISUAL
#define JOCO_COPY_STAT(type, name, count) \
  std::memcpy(&m.stat.name, &mj->stat.name, sizeof(m.stat.name));
  JOCO_STATISTIC_FIELDS(JOCO_COPY_STAT)
#undef JOCO_COPY_STAT
  const auto theirs = mj_model_fields(mj);
  for (const ArrayField& f : m.arrays()) {
    if (is_derived_field(f.name)) continue;  // joco's own, filled below
    auto it = theirs.find(f.name);
    if (it == theirs.end() || it->second.type != f.type ||
        it->second.rows * it->second.cols != f.count()) {
      throw std::runtime_error(std::string("model_from_mujoco: cannot copy ") + f.name);
    }
    std::memcpy(f.data, it->second.data, f.bytes());
  }
  fill_derived(m);
  return m;
}

void copy_state(const mjModel* mj, const mjData* md, const Model& m, Data& d) {
  auto copy = [](double* dst, const double* src, int n) {
    if (n > 0) std::memcpy(dst, src, sizeof(double) * static_cast<size_t>(n));
  };
  d.time = md->time;
  copy(d.qpos, md->qpos, mj->nq);
  copy(d.qvel, md->qvel, mj->nv);
  copy(d.act, md->act, mj->na);
  copy(d.ctrl, md->ctrl, mj->nu);
  copy(d.qfrc_applied, md->qfrc_applied, mj->nv);
  copy(d.xfrc_applied, md->xfrc_applied, 6 * mj->nbody);
  copy(d.mocap_pos, md->mocap_pos, 3 * mj->nmocap);
  copy(d.mocap_quat, md->mocap_quat, 4 * mj->nmocap);
  copy(d.qacc_warmstart, md->qacc_warmstart, mj->nv);
  (void)m;
}

}  // namespace joco::oracle
