// The Compiler class that compile_model runs, private to the compiler: its state (the flattened
// tree and what each stage derives) and its stages, each defined in the file named beside it.
#pragma once

#include <algorithm>
#include <array>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "compiler/assets.h"
#include "compiler/body_inertia.h"
#include "compiler/spec.h"
#include "joco/error.h"
#include "joco/model.h"

namespace joco::compiler {

[[noreturn]] inline void fail(const Origin& origin, const std::string& name,
                              const std::string& reason) {
  throw InputError(origin.describe(name) + ": " + reason);
}

inline bool is_identity(const Quat& q) { return q[0] == 1 && q[1] == 0 && q[2] == 0 && q[3] == 0; }
inline bool is_zero(const Vec3& v) { return v[0] == 0 && v[1] == 0 && v[2] == 0; }

template <size_t N>
inline void copy_to(double* dst, const std::array<double, N>& src) {
  std::copy(src.begin(), src.end(), dst);
}
template <size_t N>
inline void copy_to(float* dst, const std::array<double, N>& src) {
  for (size_t i = 0; i < N; ++i) dst[i] = static_cast<float>(src[i]);
}

// One body of the flattened tree, with what compilation derives for it.
struct FlatBody {
  BodySpec* spec = nullptr;
  int parent = 0;
  int depth = 0;
  Vec3 pos{};
  Quat quat{1, 0, 0, 0};
  // inertial frame and properties
  Vec3 ipos{};
  Quat iquat{1, 0, 0, 0};
  double mass = 0;
  Vec3 inertia{};
  int first_joint = 0, first_geom = 0, first_site = 0;
  int first_dof = 0, ndof = 0;
  bool has_children = false;
  // Mass, inertia, ipos and iquat already set (a body whose frame is that of its inertia).
  bool inertia_in_frame = false;
};

struct FlatGeom {
  GeomSpec* spec;
  int body;
  Vec3 pos;
  Quat quat;
  int mesh = -1, hfield = -1, material = -1;
  MeshGeom mesh_geom;  // for geoms that reference a mesh
  double mass = 0;
  Vec3 inertia{};  // principal moments in the geom frame
};

struct FlatSite {
  SiteSpec* spec;
  int body;
  Vec3 pos;
  Quat quat;
  int material = -1;
};

class Compiler {
 public:
  explicit Compiler(ModelSpec& spec) : spec_(spec) {}

  Model run();  // compile.cc: the stages in order

 private:
  void fill(Model& m);  // compile.cc: the field writers in order

  // tree.cc: the flattened tree (bodies and their elements in order), with pairs and excludes
  // sorted by body.
  void flatten(BodySpec* body, int parent, int depth);
  void sort_pairs_and_excludes();

  // frames.cc: each frame in its body: orientations, fromto, global coordinates to local, frames
  // inferred from inertia.
  Quat orientation(const Orientation& o, const Origin& origin, const std::string& name) const;
  void resolve_frames();
  void elements_to_local(int body);
  void infer_global_frames();
  bool has_inertia_geoms(int body) const;
  static void to_local(const Vec3& parent_pos, const Quat& parent_quat, Vec3& pos, Quat& quat);
  static void apply_fromto(const std::array<double, 6>& ft, int type, Vec3& size, Vec3& pos,
                           Quat& quat, const Origin& origin, const std::string& name);

  // geom_assets.cc: geom asset references, primitives fitted to meshes, sizes checked.
  void resolve_geoms();
  static int find_asset(const std::map<std::string, int>& ids, const std::string& name,
                        const Origin& origin, const std::string& element, const char* kind);
  void fit_to_mesh(FlatGeom& g);
  // Geoms and sites alike (MuJoCo 2.2.2 checks both).
  template <class Spec>
  static void check_size(const Spec& s) {
    int needed = 0;
    switch (s.type) {
      case kGeomSphere: needed = 1; break;
      case kGeomCapsule:
      case kGeomCylinder: needed = 2; break;
      case kGeomEllipsoid:
      case kGeomBox: needed = 3; break;
      case kGeomPlane:
        if (s.size[2] < 0) fail(s.origin, s.name, "plane size must be non-negative");
        return;
      default: return;
    }
    for (int i = 0; i < needed; ++i) {
      if (!(s.size[static_cast<size_t>(i)] > 0)) {
        fail(s.origin, s.name, "size " + std::to_string(i) + " must be positive");
      }
    }
  }

  // masses.cc: masses and inertia of the geoms, then of the bodies.
  void compute_geom_masses();
  bool inertia_from_geoms_mode(const FlatBody& b) const;
  bool gives_inertia(const FlatGeom& g) const;  // in inertiagrouprange
  bool uses_inertial_for_want_of_geoms(int body) const;
  void compute_inertia();
  void check_moving_masses() const;
  void scale_to_total_mass();
  void set_explicit_inertia(FlatBody& b, const InertialSpec& in);
  void inertia_from_geoms(int body);
  static FlatBody& zero_inertia(FlatBody& b);
  static void combine(FlatBody& b, const std::vector<MassElement>& elements);

  // fusestatic.cc: static bodies fused into their parents.
  void fuse_static_bodies();

  // dofs.cc: joint and dof addresses, dof parents and the sparsity of M.
  void build_dofs();

  // sizes.cc: the Model's sizes.
  int user_size(int declared, size_t largest, const char* what) const;
  template <class T>
  static size_t longest_user(const std::vector<T>& items) {
    size_t n = 0;
    for (const auto& item : items) n = std::max(n, item.user.size());
    return n;
  }
  ModelSizes sizes();
  static int sensor_dimension(const SensorSpec& s);

  // names.cc: the names buffer, unique names, the name-to-id maps and name addresses.
  const std::string& names_buffer();
  void check_unique_names();
  int id_of(ObjType type, const std::string& name, const Origin& origin, const std::string& element,
            const char* what) const;
  void index_names();
  void fill_names(Model& m);

  // fill_tree.cc: the fields of options, bodies, joints, geoms, sites, cameras and lights.
  void fill_options(Model& m);
  void fill_bodies(Model& m);
  static bool simple_joints(const BodySpec& s);
  void fill_joints(Model& m);
  static bool resolve_limited(TriState limited, bool range_given, bool autolimits,
                              const Origin& origin, const std::string& name, const char* flag,
                              const char* range);
  void fill_geoms(Model& m);
  uint8_t sameframe(const Vec3& pos, const Quat& quat, int body) const;
  double bounding_radius(int type, const Vec3& size, const FlatGeom& f) const;
  void fill_sites(Model& m);
  void fill_cameras_and_lights(Model& m);
  int target_body(int mode, const std::string& target, int own, const Origin& origin,
                  const std::string& name) const;

  // fill_constraints.cc: the fields of contact pairs and excludes, equalities and tendons.
  void fill_pairs_and_excludes(Model& m);
  Vec3 anchor_in(int body, Vec3 anchor) const;
  void fill_equalities(Model& m);
  static void check_scalar_joint(const Model& m, int j1, int j2, const EqualitySpec& e);
  static void check_spatial_path(const TendonSpec& s);
  void fill_tendons(Model& m);

  // fill_actuators_sensors.cc: the fields of actuators and sensors.
  void fill_actuators(Model& m);
  void fill_sensors(Model& m);
  static int sensor_datatype(const SensorSpec& s);
  static int sensor_stage(const SensorSpec& s);
  static void check_sensor_object(const Model& m, const SensorSpec& s, int i);

  // fill_custom_keys.cc: the fields of custom numeric, text and tuple data, and of keyframes.
  void fill_custom(Model& m);
  void fill_keys(Model& m);

  ModelSpec& spec_;
  CompiledAssets assets_;
  std::vector<FlatBody> bodies_;
  std::vector<std::pair<JointSpec*, int>> joints_;
  std::vector<FlatGeom> geoms_;
  std::vector<FlatSite> sites_;
  std::vector<std::pair<CameraSpec*, int>> cameras_;
  std::vector<Quat> camera_quat_;
  std::vector<std::pair<LightSpec*, int>> lights_;
  std::vector<Vec3> xpos_;
  std::vector<Quat> xquat_;
  // In global coordinates, bodies without pos whose frame infer_global_frames has yet to set.
  std::vector<bool> frame_from_inertia_;
  std::vector<int> jnt_qposadr_, jnt_dofadr_, dof_parent_, dof_body_, dof_joint_, dof_madr_,
      last_dof_;
  int nq_ = 0, nv_ = 0, nM_ = 0, nD_ = 0;
  std::string names_;
  std::map<int, std::vector<int>> name_adr_;
  std::map<int, std::map<std::string, int>> ids_;
};

}  // namespace joco::compiler
