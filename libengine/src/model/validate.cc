#include "joco/validate.h"

#include <cmath>
#include <cstdio>
#include <optional>
#include <string>
#include <string_view>

#include "joco/data.h"
#include "joco/error.h"
#include "model/derived.h"

namespace joco {

namespace {

// No size may exceed kMaxModelSize (joco/validate.h).
// nstack is the exception: no table multiplies it, and the stack is addressed by int offsets, so
// any int count of doubles is valid (MuJoCo 2.2.2 derives 5 * njmax^2 doubles and more from
// njmax).
constexpr int kMaxSize = kMaxModelSize;
// The largest Data a model may ask for (bytes).
constexpr double kMaxDataBytes = double(int64_t{1} << 40);

// What a real (double or float) element must be beyond finite, for the fields that have a range:
// no stage of the pipeline is defined on NaN or infinite parameters, and these have a sign or a
// norm the pipeline divides by or takes roots of.
enum class RealRange { kNonNeg, kPositive, kQuat };
struct RealFieldRange {
  std::string_view field;
  RealRange range;
};
constexpr RealFieldRange kRealRanges[] = {
    {"body_mass", RealRange::kNonNeg},
    {"body_subtreemass", RealRange::kNonNeg},
    {"body_inertia", RealRange::kNonNeg},
    {"body_invweight0", RealRange::kNonNeg},
    {"dof_invweight0", RealRange::kNonNeg},
    {"dof_M0", RealRange::kNonNeg},
    {"geom_size", RealRange::kNonNeg},
    {"geom_rbound", RealRange::kNonNeg},
    {"hfield_size", RealRange::kPositive},
    {"tendon_invweight0", RealRange::kNonNeg},
    {"sensor_cutoff", RealRange::kNonNeg},
    {"sensor_noise", RealRange::kNonNeg},
    // each 4 in a row a quaternion that can be normalised
    {"body_quat", RealRange::kQuat},
    {"body_iquat", RealRange::kQuat},
    {"geom_quat", RealRange::kQuat},
    {"site_quat", RealRange::kQuat},
    {"cam_quat", RealRange::kQuat},
    {"key_mquat", RealRange::kQuat},
    {"skin_bonebindquat", RealRange::kQuat},
};

bool is_real(ScalarType type) {
  return type == ScalarType::kFloat64 || type == ScalarType::kFloat32;
}

std::string number(double v) {
  char text[32];
  std::snprintf(text, sizeof(text), "%.9g", v);
  return text;
}

class Validator {
 public:
  Validator(const Model& m, const std::string& source) : m_(m), source_(source) {}

  [[noreturn]] void fail(const std::string& field, int64_t element, const std::string& what) const {
    std::string where = field;
    if (element >= 0) where += "[" + std::to_string(element) + "]";
    throw InputError(source_ + ": invalid model: " + where + " " + what);
  }

  // values[i] must satisfy `ok`; `what` says what it should be.
  template <class Pred>
  void each(const char* field, const int* values, int n, Pred ok, const std::string& what) const {
    for (int i = 0; i < n; ++i) {
      if (!ok(i, values[i]))
        fail(field, i, "= " + std::to_string(values[i]) + ", expected " + what);
    }
  }

  // Spans adr[i] .. adr[i]+num[i] (times `scale`) must lie inside [0, total).
  void spans(const char* adr_field, const int* adr, const int* num, int n, int total,
             int scale = 1) const {
    for (int i = 0; i < n; ++i) {
      if (num[i] == 0) continue;
      const int64_t end = int64_t{adr[i]} + int64_t{num[i]} * scale;
      if (adr[i] < 0 || end > total) {
        fail(adr_field, i,
             "= " + std::to_string(adr[i]) + " with " + std::to_string(num[i]) +
                 " elements runs past the end (" + std::to_string(total) + ")");
      }
    }
  }

  void run() {
    check_sizes();
    check_table();
    check_options();
    check_tree();
    check_joints_and_dofs();
    check_geoms_and_assets();
    check_tendons();
    check_actuators();
    check_sensors();
    check_equalities();
    check_custom_and_names();
  }

 private:
  void check_sizes() const {
    for (const auto& [name, value] : m_.size_list()) {
      const std::string_view size = name;
      if (value < 0 || (value > kMaxSize && size != "nstack")) {
        // The sizes a model states itself (the others count its elements).
        const bool stated = size == "njmax" || size == "nconmax" || size == "nuserdata" ||
                            size == "nkey" || size.starts_with("nuser_");
        fail(name, -1,
             "= " + std::to_string(value) + " is out of range [0, " + std::to_string(kMaxSize) +
                 "]" + (stated ? ": lower it in <size>" : ""));
      }
    }
    if (m_.nbody < 1) fail("nbody", -1, "= 0, but every model has the world body");
    if (m_.na > m_.nu) fail("na", -1, "exceeds nu");
    if (m_.nmocap > m_.nbody) fail("nmocap", -1, "exceeds nbody");
    if (m_.nnames < 1) fail("nnames", -1, "= 0, but the world body has a name");
    // The Data's allocation, refused before it is tried when it cannot succeed.
    const DataBytes data = data_bytes(m_.sizes());
    if (data.total > kMaxDataBytes) {
      throw InputError(source_ + ": invalid model: its sizes ask for " + data.describe(m_.sizes()) +
                       ", more than the 1024 GiB limit: lower njmax, " +
                       "nconmax or nstack in <size>");
    }
  }

  // Every field: integers against their check in the table (model_fields.h), reals (the arrays and
  // the fields of opt, vis and stat) finite and in their range (kRealRanges).
  void check_table() const {
    for (const StructField& f : m_.struct_fields()) {
      if (!is_real(f.type)) continue;
      check_reals({f.name.c_str(), f.type, 1, f.count, field_check::any, f.data}, f.count == 1);
    }
    for (const ArrayField& f : m_.arrays()) {
      if (is_real(f.type)) {
        check_reals(f, false);
        continue;
      }
      if (f.check.kind == FieldCheck::kAny) continue;
      for (int64_t i = 0; i < f.count(); ++i) {
        const int64_t v = f.int_value(i);
        if (!f.check.accepts(v)) {
          fail(f.name, i, "= " + std::to_string(v) + ", expected " + f.check.describe());
        }
      }
    }
  }

  // A real field's elements: finite, and in the field's range if it has one. `scalar`: a field of
  // one element, named without an index.
  void check_reals(const ArrayField& f, bool scalar) const {
    std::optional<RealRange> range;
    for (const RealFieldRange& r : kRealRanges) {
      if (r.field == f.name) range = r.range;
    }
    const auto where = [scalar](int64_t i) { return scalar ? int64_t{-1} : i; };
    if (range == RealRange::kQuat) {
      for (int64_t i = 0; i + 4 <= f.count(); i += 4) {
        const double q[4] = {f.value(i), f.value(i + 1), f.value(i + 2), f.value(i + 3)};
        // Normalising divides by |q|: neither 0 (nor so small that its square is 0) nor overflowing
        // (components of 1e155 and beyond), nor NaN.
        const double norm2 = q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3];
        if (!(norm2 > 0 && std::isfinite(norm2))) {
          fail(f.name, where(i),
               "= (" + number(q[0]) + ", " + number(q[1]) + ", " + number(q[2]) + ", " +
                   number(q[3]) + "), expected a quaternion that can be normalised");
        }
      }
      return;
    }
    const bool nonneg = range == RealRange::kNonNeg, positive = range == RealRange::kPositive;
    for (int64_t i = 0; i < f.count(); ++i) {
      const double v = f.value(i);
      if (!std::isfinite(v) || (nonneg && v < 0) || (positive && v <= 0)) {
        fail(f.name, where(i),
             "= " + number(v) + ", expected a finite number" +
                 (nonneg     ? " >= 0"
                  : positive ? " > 0"
                             : ""));
      }
    }
  }

  void check_options() const {
    const Option& o = m_.opt;
    if (!(o.timestep > 0) || !std::isfinite(o.timestep))
      fail("opt.timestep", -1, "must be positive");
    if (o.integrator < 0 || o.integrator > kIntImplicitFast)
      fail("opt.integrator", -1, "is unknown");
    if (o.collision < 0 || o.collision > kCollisionDynamic) fail("opt.collision", -1, "is unknown");
    if (o.cone < 0 || o.cone > kConeElliptic) fail("opt.cone", -1, "is unknown");
    if (o.jacobian < 0 || o.jacobian > kJacAuto) fail("opt.jacobian", -1, "is unknown");
    if (o.solver < 0 || o.solver > kSolverNewton) fail("opt.solver", -1, "is unknown");
    if (o.iterations < 0) fail("opt.iterations", -1, "is negative");
    if (o.noslip_iterations < 0) fail("opt.noslip_iterations", -1, "is negative");
    if (o.mpr_iterations < 0) fail("opt.mpr_iterations", -1, "is negative");
  }

  void check_tree() const {
    const Model& m = m_;
    if (m.body_parentid[0] != 0)
      fail("body_parentid", 0, "must be 0 (the world is its own parent)");
    each(
        "body_parentid", m.body_parentid, m.nbody, [](int i, int v) { return i == 0 || v < i; },
        "a body listed before this one");
    each(
        "body_rootid", m.body_rootid, m.nbody, [](int i, int v) { return v <= i; },
        "a body at or before this one");
    each(
        "body_weldid", m.body_weldid, m.nbody, [](int i, int v) { return v <= i; },
        "a body at or before this one");
    spans("body_jntadr", m.body_jntadr, m.body_jntnum, m.nbody, m.njnt);
    spans("body_dofadr", m.body_dofadr, m.body_dofnum, m.nbody, m.nv);
    spans("body_geomadr", m.body_geomadr, m.body_geomnum, m.nbody, m.ngeom);
    for (int b = 0; b < m.nbody; ++b) {
      for (int j = 0; j < m.body_jntnum[b]; ++j) {
        if (m.jnt_bodyid[m.body_jntadr[b] + j] != b) {
          fail("body_jntadr", b, "lists a joint of another body");
        }
      }
      for (int k = 0; k < m.body_dofnum[b]; ++k) {
        if (m.dof_bodyid[m.body_dofadr[b] + k] != b)
          fail("body_dofadr", b, "lists a dof of another body");
      }
    }
    int mocap_seen = 0;
    for (int b = 0; b < m.nbody; ++b) mocap_seen += m.body_mocapid[b] >= 0;
    if (mocap_seen != m.nmocap) fail("body_mocapid", -1, "does not number nmocap bodies");
  }

  void check_joints_and_dofs() const {
    const Model& m = m_;
    for (int j = 0; j < m.njnt; ++j) {
      const int type = m.jnt_type[j];
      if (m.jnt_qposadr[j] + joint_nq(type) > m.nq) fail("jnt_qposadr", j, "runs past nq");
      if (m.jnt_dofadr[j] + joint_nv(type) > m.nv) fail("jnt_dofadr", j, "runs past nv");
      for (int k = 0; k < joint_nv(type); ++k) {
        if (m.dof_jntid[m.jnt_dofadr[j] + k] != j)
          fail("jnt_dofadr", j, "points at dofs of another joint");
      }
    }
    // The dof tree: parents come first, and M's sparse layout (dof_Madr, nM) matches it.
    int64_t madr = 0;
    for (int i = 0; i < m.nv; ++i) {
      if (m.dof_parentid[i] >= i) fail("dof_parentid", i, "must point at an earlier dof or be -1");
      int depth = 1;
      for (int p = m.dof_parentid[i]; p >= 0; p = m.dof_parentid[p]) ++depth;
      if (m.dof_Madr[i] != madr) {
        fail("dof_Madr", i,
             "= " + std::to_string(m.dof_Madr[i]) + ", but the dof tree puts it at " +
                 std::to_string(madr));
      }
      madr += depth;
      if (m.dof_simplenum[i] > m.nv - i) fail("dof_simplenum", i, "runs past nv");
    }
    if (madr != m.nM)
      fail("nM", -1,
           "= " + std::to_string(m.nM) + ", but the dof tree needs " + std::to_string(madr));
    if (m.nD < m.nv) fail("nD", -1, "is smaller than nv");
  }

  void check_geoms_and_assets() const {
    const Model& m = m_;
    for (int g = 0; g < m.ngeom; ++g) {
      const int type = m.geom_type[g];
      const int id = m.geom_dataid[g];
      if (type == kGeomMesh && (id < 0 || id >= m.nmesh))
        fail("geom_dataid", g, "must name a mesh");
      if (type == kGeomHfield && (id < 0 || id >= m.nhfield))
        fail("geom_dataid", g, "must name a height field");
    }
    spans("mesh_vertadr", m.mesh_vertadr, m.mesh_vertnum, m.nmesh, m.nmeshvert);
    spans("mesh_faceadr", m.mesh_faceadr, m.mesh_facenum, m.nmesh, m.nmeshface);
    for (int i = 0; i < m.nmesh; ++i) {
      if (m.mesh_texcoordadr[i] >= 0) {
        const int vertnum[1] = {m.mesh_vertnum[i]};
        spans("mesh_texcoordadr", m.mesh_texcoordadr + i, vertnum, 1, m.nmeshtexvert);
      }
      for (int f = 0; f < 3 * m.mesh_facenum[i]; ++f) {
        const int v = m.mesh_face[3 * m.mesh_faceadr[i] + f];
        if (v < 0 || v >= m.mesh_vertnum[i])
          fail("mesh_face", 3 * int64_t{m.mesh_faceadr[i]} + f, "is not a vertex of its mesh");
      }
      check_mesh_graph(i);
    }
    const char* derived = nullptr;
    int64_t element = 0;
    if (derived_mismatch(m, &derived, &element))
      fail(derived, element, "differs from the fields it is derived from");
    for (int i = 0; i < m.nhfield; ++i) {
      const int64_t end = int64_t{m.hfield_adr[i]} + int64_t{m.hfield_nrow[i]} * m.hfield_ncol[i];
      if (end > m.nhfielddata) fail("hfield_adr", i, "with nrow x ncol runs past nhfielddata");
    }
    for (int i = 0; i < m.ntex; ++i) {
      const int64_t end = int64_t{m.tex_adr[i]} + 3 * int64_t{m.tex_width[i]} * m.tex_height[i];
      if (end > m.ntexdata) fail("tex_adr", i, "with width x height runs past ntexdata");
    }
    spans("skin_vertadr", m.skin_vertadr, m.skin_vertnum, m.nskin, m.nskinvert);
    spans("skin_faceadr", m.skin_faceadr, m.skin_facenum, m.nskin, m.nskinface);
    spans("skin_boneadr", m.skin_boneadr, m.skin_bonenum, m.nskin, m.nskinbone);
    spans("skin_bonevertadr", m.skin_bonevertadr, m.skin_bonevertnum, m.nskinbone, m.nskinbonevert);
    for (int i = 0; i < m.nskin; ++i) {
      if (m.skin_texcoordadr[i] >= 0) {
        const int vertnum[1] = {m.skin_vertnum[i]};
        spans("skin_texcoordadr", m.skin_texcoordadr + i, vertnum, 1, m.nskintexvert);
      }
    }
    each(
        "skin_bonevertid", m.skin_bonevertid, m.nskinbonevert,
        [&m](int, int v) { return v < m.nskinvert; }, "a skin vertex");
    each(
        "skin_face", m.skin_face, 3 * m.nskinface,
        [&m](int, int v) { return v >= 0 && v < m.nskinvert; }, "a skin vertex");
  }

  // The convex-hull graph of a mesh: numvert, numface, then vert_edgeadr, vert_globalid,
  // edge_localid and face_globalid; every index must stay inside the graph and the mesh.
  void check_mesh_graph(int i) const {
    const Model& m = m_;
    const int adr = m.mesh_graphadr[i];
    if (adr < 0) return;
    if (adr + 2 > m.nmeshgraph) fail("mesh_graphadr", i, "runs past nmeshgraph");
    const int* g = m.mesh_graph + adr;
    const int numvert = g[0];
    const int numface = g[1];
    if (numvert < 0 || numface < 0 || numvert > m.mesh_vertnum[i])
      fail("mesh_graph", adr, "has bad counts");
    const int64_t edges = int64_t{3} * numface + numvert;  // edge_localid holds 3*numface + numvert
    const int64_t end = int64_t{adr} + 2 + 2 * int64_t{numvert} + edges + 3 * int64_t{numface};
    if (end > m.nmeshgraph) fail("mesh_graph", adr, "runs past nmeshgraph");
    const int* edgeadr = g + 2;
    const int* globalid = edgeadr + numvert;
    const int* localid = globalid + numvert;
    const int* faceid = localid + edges;
    for (int v = 0; v < numvert; ++v) {
      if (edgeadr[v] < 0 || edgeadr[v] >= edges)
        fail("mesh_graph", adr, "has a bad vertex edge address");
      if (globalid[v] < 0 || globalid[v] >= m.mesh_vertnum[i])
        fail("mesh_graph", adr, "has a bad vertex id");
    }
    for (int64_t e = 0; e < edges; ++e) {
      if (localid[e] < -1 || localid[e] >= numvert) fail("mesh_graph", adr, "has a bad edge");
    }
    // the edge lists follow each other in vertex order, each ended by -1 (hill climbing reads a
    // vertex's list up to where the next begins)
    for (int v = 0; v < numvert; ++v) {
      const int64_t begin = edgeadr[v];
      const int64_t last = v + 1 < numvert ? int64_t{edgeadr[v + 1]} - 1 : edges - 1;
      if ((v == 0 && begin != 0) || last < begin || localid[last] != -1)
        fail("mesh_graph", adr, "has an edge list that does not end where the next begins");
      for (int64_t e = begin; e < last; ++e) {
        if (localid[e] < 0) fail("mesh_graph", adr, "has an edge list that ends early");
      }
    }
    for (int64_t f = 0; f < 3 * int64_t{numface}; ++f) {
      if (faceid[f] < 0 || faceid[f] >= m.mesh_vertnum[i])
        fail("mesh_graph", adr, "has a bad face vertex");
    }
  }

  void check_tendons() const {
    const Model& m = m_;
    spans("tendon_adr", m.tendon_adr, m.tendon_num, m.ntendon, m.nwrap);
    for (int w = 0; w < m.nwrap; ++w) {
      const int id = m.wrap_objid[w];
      bool ok = true;
      switch (m.wrap_type[w]) {
        case kWrapJoint: ok = id >= 0 && id < m.njnt; break;
        case kWrapSite: ok = id >= 0 && id < m.nsite; break;
        case kWrapSphere:
        case kWrapCylinder: {
          ok = id >= 0 && id < m.ngeom;
          const double side = m.wrap_prm[w];
          ok = ok && side >= -1 && side < m.nsite;
          break;
        }
        default: break;
      }
      if (!ok)
        fail("wrap_objid", w, "= " + std::to_string(id) + " is not an object of its wrap type");
    }
  }

  void check_actuators() const {
    const Model& m = m_;
    for (int i = 0; i < m.nu; ++i) {
      const int* id = m.actuator_trnid + 2 * i;
      bool ok = true;
      switch (m.actuator_trntype[i]) {
        case kTrnJoint:
        case kTrnJointInParent: ok = id[0] >= 0 && id[0] < m.njnt; break;
        case kTrnSliderCrank:
          ok = id[0] >= 0 && id[0] < m.nsite && id[1] >= 0 && id[1] < m.nsite;
          break;
        case kTrnTendon: ok = id[0] >= 0 && id[0] < m.ntendon; break;
        case kTrnSite: ok = id[0] >= 0 && id[0] < m.nsite && id[1] >= -1 && id[1] < m.nsite; break;
        case kTrnBody: ok = id[0] >= 0 && id[0] < m.nbody; break;
        default: break;
      }
      if (!ok)
        fail("actuator_trnid", 2 * int64_t{i},
             "is not an object of the actuator's transmission type");
    }
    // Activations belong to the last na actuators.
    for (int i = 0; i < m.nu; ++i) {
      const bool stateful = m.actuator_dyntype[i] != kDynNone;
      if (stateful != (i >= m.nu - m.na)) {
        fail("actuator_dyntype", i,
             "does not match na: actuators with activation must be the last na");
      }
    }
  }

  bool valid_object(int type, int id, bool allow_none) const {
    if (allow_none && id == -1) return true;
    if (type == kObjUnknown) return allow_none && id == -1;
    return id >= 0 && id < object_count(m_, static_cast<ObjType>(type));
  }

  void check_sensors() const {
    const Model& m = m_;
    for (int i = 0; i < m.nsensor; ++i) {
      if (int64_t{m.sensor_adr[i]} + m.sensor_dim[i] > m.nsensordata)
        fail("sensor_adr", i, "runs past nsensordata");
      const bool global = m.sensor_type[i] == kSensClock || m.sensor_type[i] == kSensUser;
      if (!valid_object(m.sensor_objtype[i], m.sensor_objid[i], global)) {
        fail("sensor_objid", i, "is not an object of its sensor_objtype");
      }
      if (!valid_object(m.sensor_reftype[i], m.sensor_refid[i], true)) {
        fail("sensor_refid", i, "is not an object of its sensor_reftype");
      }
    }
  }

  void check_equalities() const {
    const Model& m = m_;
    for (int i = 0; i < m.neq; ++i) {
      int count = 0;
      switch (m.eq_type[i]) {
        case kEqConnect:
        case kEqWeld: count = m.nbody; break;
        case kEqJoint: count = m.njnt; break;
        case kEqTendon: count = m.ntendon; break;
        case kEqDistance: count = m.ngeom; break;
        default: break;
      }
      if (m.eq_obj1id[i] >= count) fail("eq_obj1id", i, "is not an object of the equality's type");
      if (m.eq_obj2id[i] < -1 || m.eq_obj2id[i] >= count)
        fail("eq_obj2id", i, "is not an object of the equality's type");
    }
  }

  void check_custom_and_names() const {
    const Model& m = m_;
    spans("numeric_adr", m.numeric_adr, m.numeric_size, m.nnumeric, m.nnumericdata);
    spans("text_adr", m.text_adr, m.text_size, m.ntext, m.ntextdata);
    spans("tuple_adr", m.tuple_adr, m.tuple_size, m.ntuple, m.ntupledata);
    for (int i = 0; i < m.ntupledata; ++i) {
      if (!valid_object(m.tuple_objtype[i], m.tuple_objid[i], false)) {
        fail("tuple_objid", i, "is not an object of its tuple_objtype");
      }
    }
    if (m.names[m.nnames - 1] != '\0') fail("names", m.nnames - 1, "must end with a zero byte");
    if (m.ntextdata > 0 && m.text_data[m.ntextdata - 1] != '\0') {
      fail("text_data", m.ntextdata - 1, "must end with a zero byte");
    }
  }

  const Model& m_;
  const std::string& source_;
};

}  // namespace

void validate_model(const Model& m, const std::string& source) { Validator(m, source).run(); }

}  // namespace joco
