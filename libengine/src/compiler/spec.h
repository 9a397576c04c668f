// The model specification: what an MJCF file says, after parsing and defaults, before compilation.
// One struct per MJCF element with MuJoCo 2.2.2's attribute defaults; the compiler turns a
// ModelSpec into a Model. Values that may be left unspecified (and whose absence changes the
// result) are std::optional. It is the compiler's input and the interface between reading and
// compiling: xml/ writes it, compile_model (compile.h) reads it.
#pragma once

#include <array>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "joco/constants.h"
#include "joco/model.h"

namespace joco::compiler {

using Vec3 = std::array<double, 3>;
using Quat = std::array<double, 4>;

// Where an element came from, for messages ("model.xml:12: <geom 'foot'>").
struct Origin {
  std::shared_ptr<const std::string> file;
  int line = 0;
  std::string element;
  std::string describe(const std::string& name = "") const;
};

// One of MJCF's ways of giving an orientation; resolved to a quaternion by the compiler (which
// knows the angle unit and Euler sequence).
struct Orientation {
  enum Kind { kNone, kQuat, kAxisAngle, kXYAxes, kZAxis, kEuler } kind = kNone;
  std::array<double, 6> values{};
};

// MuJoCo's limited/ctrllimited/...: false, true, or decided by the presence of a range
// (autolimits).
enum class TriState { kFalse = 0, kTrue = 1, kAuto = 2 };

inline constexpr std::array<double, kNREF> kDefaultSolref = {0.02, 1};
inline constexpr std::array<double, kNIMP> kDefaultSolimp = {0.9, 0.95, 0.001, 0.5, 2};

struct CompilerSettings {
  bool autolimits = false;
  double boundmass = 0;
  double boundinertia = 0;
  double settotalmass = -1;
  bool balanceinertia = false;
  bool strippath = false;
  bool global_coordinates = false;
  bool degree = true;
  bool fitaabb = false;
  std::string eulerseq = "xyz";
  std::string meshdir, texturedir;
  bool discardvisual = false;
  bool convexhull = true;
  bool usethread = true;
  bool fusestatic = false;
  int inertiafromgeom = 2;  // 0 false, 1 true, 2 auto
  bool exactmeshinertia = false;
  std::array<int, 2> inertiagrouprange = {0, 5};
  // <lengthrange>
  struct LengthRange {
    int mode = 1;  // 0 none, 1 muscle, 2 muscleuser, 3 all
    bool useexisting = true;
    bool uselimit = false;
    double accel = 20, maxforce = 0, timeconst = 1, timestep = 0.01, inttotal = 10, inteval = 2,
           tolrange = 0.05;
  } lengthrange;
};

struct SizeSettings {
  int njmax = -1, nconmax = -1, nstack = -1, nuserdata = 0, nkey = 0;
  int nuser_body = -1, nuser_jnt = -1, nuser_geom = -1, nuser_site = -1, nuser_cam = -1,
      nuser_tendon = -1, nuser_actuator = -1, nuser_sensor = -1;
};

struct StatisticSettings {
  std::optional<double> meaninertia, meanmass, meansize, extent;
  std::optional<Vec3> center;
};

// ---- assets -------------------------------------------------------------------------------------

struct MeshSpec {
  Origin origin;
  std::string name, classname, file;
  Vec3 scale = {1, 1, 1};
  bool smoothnormal = false;
  std::vector<double> vertex, normal, texcoord;
  std::vector<int> face;
  Vec3 refpos = {0, 0, 0};
  Quat refquat = {1, 0, 0, 0};
  // The geom density of the mesh's default class: MuJoCo scales second moments by it before
  // rounding, so exact agreement needs it.
  double class_geom_density = 1000;
};

struct TextureSpec {
  Origin origin;
  std::string name, file;
  int type = kTextureCube;
  std::array<int, 2> gridsize = {1, 1};
  std::string gridlayout = "............";
  std::array<std::string, 6> cubefiles;  // right, left, up, down, front, back
  int builtin = 0;                       // 0 none, 1 gradient, 2 checker, 3 flat
  Vec3 rgb1 = {0.8, 0.8, 0.8}, rgb2 = {0.5, 0.5, 0.5};
  int mark = 0;  // 0 none, 1 edge, 2 cross, 3 random
  Vec3 markrgb = {0, 0, 0};
  double random = 0.01;
  int width = 0, height = 0;
  bool hflip = false, vflip = false;
};

struct MaterialSpec {
  Origin origin;
  std::string name, classname, texture;
  std::array<double, 2> texrepeat = {1, 1};
  bool texuniform = false;
  double emission = 0, specular = 0.5, shininess = 0.5, reflectance = 0;
  std::array<double, 4> rgba = {1, 1, 1, 1};
};

struct HfieldSpec {
  Origin origin;
  std::string name, file;
  int nrow = 0, ncol = 0;
  std::array<double, 4> size{};
  bool size_given = false;
};

struct SkinBoneSpec {
  Origin origin;
  std::string body;
  Vec3 bindpos{};
  Quat bindquat{};
  std::vector<int> vertid;
  std::vector<double> vertweight;
};

struct SkinSpec {
  Origin origin;
  std::string name, file, material;
  std::vector<double> vertex, texcoord;
  std::vector<int> face;
  double inflate = 0;
  int group = 0;
  std::array<double, 4> rgba = {0.5, 0.5, 0.5, 1};
  std::vector<SkinBoneSpec> bones;
};

// ---- kinematic tree
// ------------------------------------------------------------------------------

struct JointSpec {
  Origin origin;
  std::string name, classname;
  int type = kJointHinge;
  int group = 0;
  Vec3 pos = {0, 0, 0};
  Vec3 axis = {0, 0, 1};
  std::array<double, 2> springdamper = {0, 0};
  TriState limited = TriState::kAuto;
  std::array<double, kNREF> solref_limit = kDefaultSolref, solref_friction = kDefaultSolref;
  std::array<double, kNIMP> solimp_limit = kDefaultSolimp, solimp_friction = kDefaultSolimp;
  double stiffness = 0;
  std::array<double, 2> range = {0, 0};
  bool range_given = false;
  double margin = 0, ref = 0, springref = 0, armature = 0, damping = 0, frictionloss = 0;
  std::vector<double> user;
};

struct GeomSpec {
  Origin origin;
  std::string name, classname;
  int type = kGeomSphere;
  int contype = 1, conaffinity = 1, condim = 3, group = 0, priority = 0;
  Vec3 size = {0, 0, 0};
  std::string material;
  std::array<double, 4> rgba = {0.5, 0.5, 0.5, 1};
  Vec3 friction = {1, 0.005, 0.0001};
  std::optional<double> mass;
  double density = 1000;
  double solmix = 1;
  std::array<double, kNREF> solref = kDefaultSolref;
  std::array<double, kNIMP> solimp = kDefaultSolimp;
  double margin = 0, gap = 0;
  std::optional<std::array<double, 6>> fromto;
  Vec3 pos = {0, 0, 0};
  Orientation orientation;
  std::string hfield, mesh;
  double fitscale = 1;
  bool fluid_ellipsoid = false;
  std::array<double, 5> fluidcoef = {0.5, 0.25, 1.5, 1.0, 1.0};
  std::vector<double> user;
  bool shellinertia = false;
};

struct SiteSpec {
  Origin origin;
  std::string name, classname;
  int type = kGeomSphere;
  int group = 0;
  std::string material;
  std::array<double, 4> rgba = {0.5, 0.5, 0.5, 1};
  Vec3 size = {0.005, 0.005, 0.005};
  std::optional<std::array<double, 6>> fromto;
  Vec3 pos = {0, 0, 0};
  Orientation orientation;
  std::vector<double> user;
};

struct CameraSpec {
  Origin origin;
  std::string name, classname, target;
  int mode = kCamLightFixed;
  double fovy = 45, ipd = 0.068;
  Vec3 pos = {0, 0, 0};
  Orientation orientation;
  std::vector<double> user;
};

struct LightSpec {
  Origin origin;
  std::string name, classname, target;
  int mode = kCamLightFixed;
  bool directional = false, castshadow = true, active = true;
  Vec3 pos = {0, 0, 0};
  Vec3 dir = {0, 0, -1};
  Vec3 attenuation = {1, 0, 0};
  double cutoff = 45, exponent = 10;
  Vec3 ambient = {0, 0, 0}, diffuse = {0.7, 0.7, 0.7}, specular = {0.3, 0.3, 0.3};
};

struct InertialSpec {
  Origin origin;
  Vec3 pos = {0, 0, 0};
  Orientation orientation;
  double mass = 0;
  std::optional<Vec3> diaginertia;
  std::optional<std::array<double, 6>> fullinertia;
};

struct BodySpec {
  Origin origin;
  std::string name, childclass;
  bool mocap = false;
  std::optional<Vec3> pos;  // unset: inferred in global coordinates
  Orientation orientation;
  std::vector<double> user;
  std::optional<InertialSpec> inertial;
  std::vector<JointSpec> joints;  // free joints included (type kJointFree)
  std::vector<GeomSpec> geoms;
  std::vector<SiteSpec> sites;
  std::vector<CameraSpec> cameras;
  std::vector<LightSpec> lights;
  std::vector<BodySpec> bodies;
};

// ---- contact, equality, tendons, actuators, sensors
// ------------------------------------------------

struct PairSpec {
  Origin origin;
  std::string name, classname, geom1, geom2;
  int condim = 3;
  std::array<double, 5> friction = {1, 1, 0.005, 0.0001, 0.0001};
  std::array<double, kNREF> solref = kDefaultSolref;
  std::array<double, kNIMP> solimp = kDefaultSolimp;
  double margin = 0, gap = 0;
};

struct ExcludeSpec {
  Origin origin;
  std::string name, body1, body2;
};

struct EqualitySpec {
  Origin origin;
  std::string name, classname;
  int type = kEqConnect;
  std::string name1, name2;  // bodies, joints, tendons or geoms
  bool active = true;
  std::array<double, kNREF> solref = kDefaultSolref;
  std::array<double, kNIMP> solimp = kDefaultSolimp;
  Vec3 anchor = {0, 0, 0};
  bool anchor_given = false;
  std::array<double, 7> relpose = {0, 1, 0, 0, 0, 0, 0};
  double torquescale = 1;
  std::array<double, 5> polycoef = {0, 1, 0, 0, 0};
  double distance = 0;
};

struct WrapSpec {
  Origin origin;
  int type = kWrapSite;
  std::string target;    // site, geom or joint name
  std::string sidesite;  // geom wraps
  double coef = 0;       // joint coefficient, pulley divisor
};

struct TendonSpec {
  Origin origin;
  std::string name, classname, material;
  bool spatial = true;
  int group = 0;
  TriState limited = TriState::kAuto;
  std::array<double, 2> range = {0, 0};
  bool range_given = false;
  std::array<double, kNREF> solref_limit = kDefaultSolref, solref_friction = kDefaultSolref;
  std::array<double, kNIMP> solimp_limit = kDefaultSolimp, solimp_friction = kDefaultSolimp;
  double margin = 0, frictionloss = 0, width = 0.003, springlength = -1, stiffness = 0, damping = 0;
  std::array<double, 4> rgba = {0.5, 0.5, 0.5, 1};
  std::vector<double> user;
  std::vector<WrapSpec> path;
};

struct ActuatorSpec {
  Origin origin;
  std::string name, classname;
  int group = 0;
  TriState ctrllimited = TriState::kAuto, forcelimited = TriState::kAuto,
           actlimited = TriState::kAuto;
  std::array<double, 2> ctrlrange = {0, 0}, forcerange = {0, 0}, actrange = {0, 0},
                        lengthrange = {0, 0};
  bool ctrlrange_given = false, forcerange_given = false, actrange_given = false;
  std::array<double, 6> gear = {1, 0, 0, 0, 0, 0};
  double cranklength = 0;
  std::vector<double> user;
  // transmission: exactly one target kind
  int trntype = kTrnUndefined;
  std::string target, slidersite, refsite;
  int dyntype = kDynNone, gaintype = kGainFixed, biastype = kBiasNone;
  std::array<double, kNDYN> dynprm = {1, 0, 0, 0, 0, 0, 0, 0, 0, 0};
  std::array<double, kNGAIN> gainprm = {1, 0, 0, 0, 0, 0, 0, 0, 0, 0};
  std::array<double, kNBIAS> biasprm = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
};

struct SensorSpec {
  Origin origin;
  std::string name;
  int type = kSensTouch;
  int objtype = kObjUnknown;
  std::string objname;
  int reftype = kObjUnknown;
  std::string refname;
  double cutoff = 0, noise = 0;
  std::vector<double> user;
  // user sensors
  int datatype = kDataReal, needstage = kStageAcc, dim = 0;
};

struct NumericSpec {
  Origin origin;
  std::string name;
  std::vector<double> data;
};

struct TextSpec {
  Origin origin;
  std::string name, data;
};

struct TupleSpec {
  Origin origin;
  std::string name;
  struct Element {
    int objtype = kObjUnknown;
    std::string objname;
    double prm = 0;
  };
  std::vector<Element> elements;
};

struct KeySpec {
  Origin origin;
  std::string name;
  double time = 0;
  std::optional<std::vector<double>> qpos, qvel, act, ctrl, mpos, mquat;
};

// Everything an MJCF file says.
struct ModelSpec {
  std::string modelname = "MuJoCo Model";
  std::string source;    // the main file, for messages
  std::string base_dir;  // where relative asset paths start
  CompilerSettings compiler;
  Option option = default_option();
  Visual visual = default_visual();
  SizeSettings size;
  StatisticSettings statistic;

  std::vector<MeshSpec> meshes;
  std::vector<TextureSpec> textures;
  std::vector<MaterialSpec> materials;
  std::vector<HfieldSpec> hfields;
  std::vector<SkinSpec> skins;

  BodySpec world;  // the world body and the tree below it

  std::vector<PairSpec> pairs;
  std::vector<ExcludeSpec> excludes;
  std::vector<EqualitySpec> equalities;
  std::vector<TendonSpec> tendons;
  std::vector<ActuatorSpec> actuators;
  std::vector<SensorSpec> sensors;
  std::vector<NumericSpec> numerics;
  std::vector<TextSpec> texts;
  std::vector<TupleSpec> tuples;
  std::vector<KeySpec> keys;
};

}  // namespace joco::compiler
