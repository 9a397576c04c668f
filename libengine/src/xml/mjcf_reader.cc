#include "xml/mjcf_reader.h"

#include <map>

#include "joco/error.h"
#include "joco/keywords.h"
#include "xml/attributes.h"
#include "xml/composite.h"
#include "xml/schema.h"

namespace joco::compiler {

std::string Origin::describe(const std::string& name) const {
  std::string s =
      (file ? *file : std::string("<input>")) + ":" + std::to_string(line) + ": <" + element;
  if (!name.empty()) s += " '" + name + "'";
  return s + ">";
}

namespace {

using Keywords = std::initializer_list<std::pair<const char*, int>>;

const Keywords kTriState = {{"false", 0}, {"true", 1}, {"auto", 2}};
const Keywords kCamLightMode = {{"fixed", kCamLightFixed},
                                {"track", kCamLightTrack},
                                {"trackcom", kCamLightTrackCom},
                                {"targetbody", kCamLightTargetBody},
                                {"targetbodycom", kCamLightTargetBodyCom}};
const Keywords kFrameObjType = {{"body", kObjBody},
                                {"xbody", kObjXBody},
                                {"geom", kObjGeom},
                                {"site", kObjSite},
                                {"camera", kObjCamera}};

Origin origin_of(const XmlElement& e) { return Origin{e.file, e.line, e.name}; }

bool read_tristate(const AttributeReader& a, const char* name, TriState& out) {
  int v;
  if (!a.read_keyword(name, v, kTriState)) return false;
  out = static_cast<TriState>(v);
  return true;
}

void read_orientation(const AttributeReader& a, Orientation& o) {
  struct Alternative {
    const char* name;
    Orientation::Kind kind;
    size_t count;
  };
  static const Alternative alternatives[] = {{"quat", Orientation::kQuat, 4},
                                             {"axisangle", Orientation::kAxisAngle, 4},
                                             {"xyaxes", Orientation::kXYAxes, 6},
                                             {"zaxis", Orientation::kZAxis, 3},
                                             {"euler", Orientation::kEuler, 3}};
  const Alternative* given = nullptr;
  for (const Alternative& alt : alternatives) {
    if (!a.has(alt.name)) continue;
    if (given)
      a.fail(alt.name,
             std::string("only one orientation may be given, '") + given->name + "' is too");
    given = &alt;
  }
  if (!given) return;
  o = Orientation{};
  o.kind = given->kind;
  a.read_into(given->name, o.values.data(), given->count, given->count);
}

}  // namespace

// ---- element attribute readers, shared by defaults, elements and composites
// ------------------------

void read_joint(const AttributeReader& a, JointSpec& j) {
  a.read_keyword(
      "type", j.type,
      {{"free", kJointFree}, {"ball", kJointBall}, {"slide", kJointSlide}, {"hinge", kJointHinge}});
  a.read("group", j.group);
  a.read("pos", j.pos);
  a.read("axis", j.axis);
  a.read("springdamper", j.springdamper);
  read_tristate(a, "limited", j.limited);
  a.read("solreflimit", j.solref_limit, 1);
  a.read("solimplimit", j.solimp_limit, 1);
  a.read("solreffriction", j.solref_friction, 1);
  a.read("solimpfriction", j.solimp_friction, 1);
  a.read("stiffness", j.stiffness);
  if (a.read("range", j.range)) j.range_given = true;
  a.read("margin", j.margin);
  a.read("ref", j.ref);
  a.read("springref", j.springref);
  a.read("armature", j.armature);
  a.read("damping", j.damping);
  a.read("frictionloss", j.frictionloss);
  a.read_numbers("user", j.user);
}

const Keywords kGeomTypes = {{"plane", kGeomPlane},
                             {"hfield", kGeomHfield},
                             {"sphere", kGeomSphere},
                             {"capsule", kGeomCapsule},
                             {"ellipsoid", kGeomEllipsoid},
                             {"cylinder", kGeomCylinder},
                             {"box", kGeomBox},
                             {"mesh", kGeomMesh}};

void read_geom(const AttributeReader& a, GeomSpec& g) {
  a.read_keyword("type", g.type, kGeomTypes);
  a.read("contype", g.contype);
  a.read("conaffinity", g.conaffinity);
  a.read("condim", g.condim);
  a.read("group", g.group);
  a.read("priority", g.priority);
  a.read("size", g.size, 1);
  a.read("material", g.material);
  a.read("rgba", g.rgba);
  a.read("friction", g.friction, 1);
  double mass;
  if (a.read("mass", mass)) g.mass = mass;
  a.read("density", g.density);
  a.read("solmix", g.solmix);
  a.read("solref", g.solref, 1);
  a.read("solimp", g.solimp, 1);
  a.read("margin", g.margin);
  a.read("gap", g.gap);
  std::array<double, 6> fromto;
  if (a.read("fromto", fromto)) g.fromto = fromto;
  a.read("pos", g.pos);
  read_orientation(a, g.orientation);
  a.read("hfield", g.hfield);
  a.read("mesh", g.mesh);
  a.read("fitscale", g.fitscale);
  int shape = g.fluid_ellipsoid ? 1 : 0;
  if (a.read_keyword("fluidshape", shape, {{"none", 0}, {"ellipsoid", 1}}))
    g.fluid_ellipsoid = shape == 1;
  a.read("fluidcoef", g.fluidcoef, 1);
  a.read_numbers("user", g.user);
  a.read_bool("shellinertia", g.shellinertia);
  if (g.condim != 1 && g.condim != 3 && g.condim != 4 && g.condim != 6) {
    a.fail("condim", "must be 1, 3, 4 or 6");
  }
}

void read_site(const AttributeReader& a, SiteSpec& s) {
  a.read_keyword("type", s.type,
                 {{"sphere", kGeomSphere},
                  {"capsule", kGeomCapsule},
                  {"ellipsoid", kGeomEllipsoid},
                  {"cylinder", kGeomCylinder},
                  {"box", kGeomBox}});
  a.read("group", s.group);
  a.read("material", s.material);
  a.read("rgba", s.rgba);
  a.read("size", s.size, 1);
  std::array<double, 6> fromto;
  if (a.read("fromto", fromto)) s.fromto = fromto;
  a.read("pos", s.pos);
  read_orientation(a, s.orientation);
  a.read_numbers("user", s.user);
}

void read_tendon(const AttributeReader& a, TendonSpec& t) {
  a.read("group", t.group);
  read_tristate(a, "limited", t.limited);
  if (a.read("range", t.range)) t.range_given = true;
  a.read("solreflimit", t.solref_limit, 1);
  a.read("solimplimit", t.solimp_limit, 1);
  a.read("solreffriction", t.solref_friction, 1);
  a.read("solimpfriction", t.solimp_friction, 1);
  a.read("frictionloss", t.frictionloss);
  a.read("springlength", t.springlength);
  a.read("width", t.width);
  a.read("material", t.material);
  a.read("margin", t.margin);
  a.read("stiffness", t.stiffness);
  a.read("damping", t.damping);
  a.read("rgba", t.rgba);
  a.read_numbers("user", t.user);
}

namespace {

void read_camera(const AttributeReader& a, CameraSpec& c) {
  a.read_keyword("mode", c.mode, kCamLightMode);
  a.read("target", c.target);
  a.read("fovy", c.fovy);
  a.read("ipd", c.ipd);
  a.read("pos", c.pos);
  read_orientation(a, c.orientation);
  a.read_numbers("user", c.user);
}

void read_light(const AttributeReader& a, LightSpec& l) {
  a.read_keyword("mode", l.mode, kCamLightMode);
  a.read("target", l.target);
  a.read_bool("directional", l.directional);
  a.read_bool("castshadow", l.castshadow);
  a.read_bool("active", l.active);
  a.read("pos", l.pos);
  a.read("dir", l.dir);
  a.read("attenuation", l.attenuation);
  a.read("cutoff", l.cutoff);
  a.read("exponent", l.exponent);
  a.read("ambient", l.ambient);
  a.read("diffuse", l.diffuse);
  a.read("specular", l.specular);
}

void read_mesh(const AttributeReader& a, MeshSpec& m) {
  a.read("file", m.file);
  a.read("scale", m.scale);
  a.read_bool("smoothnormal", m.smoothnormal);
  a.read_numbers("vertex", m.vertex);
  a.read_numbers("normal", m.normal);
  a.read_numbers("texcoord", m.texcoord);
  a.read_ints("face", m.face);
  a.read("refpos", m.refpos);
  a.read("refquat", m.refquat);
}

void read_material(const AttributeReader& a, MaterialSpec& m) {
  a.read("texture", m.texture);
  a.read("texrepeat", m.texrepeat);
  a.read_bool("texuniform", m.texuniform);
  a.read("emission", m.emission);
  a.read("specular", m.specular);
  a.read("shininess", m.shininess);
  a.read("reflectance", m.reflectance);
  a.read("rgba", m.rgba);
}

void read_pair(const AttributeReader& a, PairSpec& p) {
  a.read("geom1", p.geom1);
  a.read("geom2", p.geom2);
  a.read("condim", p.condim);
  a.read("friction", p.friction, 1);
  a.read("solref", p.solref, 1);
  a.read("solimp", p.solimp, 1);
  a.read("margin", p.margin);
  a.read("gap", p.gap);
  if (p.condim != 1 && p.condim != 3 && p.condim != 4 && p.condim != 6)
    a.fail("condim", "must be 1, 3, 4 or 6");
}

void read_equality(const AttributeReader& a, EqualitySpec& q) {
  a.read_bool("active", q.active);
  a.read("solref", q.solref, 1);
  a.read("solimp", q.solimp, 1);
}

// Attributes every actuator element has (general and the shortcuts).
void read_actuator_common(const AttributeReader& a, ActuatorSpec& u) {
  a.read("group", u.group);
  read_tristate(a, "ctrllimited", u.ctrllimited);
  read_tristate(a, "forcelimited", u.forcelimited);
  read_tristate(a, "actlimited", u.actlimited);
  if (a.read("ctrlrange", u.ctrlrange)) u.ctrlrange_given = true;
  if (a.read("forcerange", u.forcerange)) u.forcerange_given = true;
  if (a.read("actrange", u.actrange)) u.actrange_given = true;
  a.read("lengthrange", u.lengthrange);
  a.read("gear", u.gear, 1);
  a.read("cranklength", u.cranklength);
  a.read_numbers("user", u.user);
}

// The transmission target of an actuator element (not in defaults).
void read_transmission(const AttributeReader& a, ActuatorSpec& u) {
  struct Target {
    const char* attribute;
    int type;
  };
  static const Target targets[] = {{"joint", kTrnJoint},   {"jointinparent", kTrnJointInParent},
                                   {"tendon", kTrnTendon}, {"cranksite", kTrnSliderCrank},
                                   {"site", kTrnSite},     {"body", kTrnBody}};
  int found = 0;
  for (const Target& t : targets) {
    if (!a.has(t.attribute)) continue;
    ++found;
    u.trntype = t.type;
    a.read(t.attribute, u.target);
  }
  if (found > 1) {
    throw InputError(a.element().where() +
                     ": an actuator must have exactly one transmission target "
                     "(joint, jointinparent, tendon, cranksite, site or body)");
  }
  a.read("slidersite", u.slidersite);
  a.read("refsite", u.refsite);
}

// One actuator element (general or a shortcut) applied onto `u`, which holds the class defaults.
// The shortcuts set the dynamics, gain and bias of MuJoCo's general actuator from their parameters.
void read_actuator(const AttributeReader& a, const std::string& kind, ActuatorSpec& u) {
  read_actuator_common(a, u);
  auto zero = [](auto& arr) { arr.fill(0); };
  if (kind == "general") {
    a.read_keyword("dyntype", u.dyntype,
                   {{"none", kDynNone},
                    {"integrator", kDynIntegrator},
                    {"filter", kDynFilter},
                    {"muscle", kDynMuscle},
                    {"user", kDynUser}});
    a.read_keyword("gaintype", u.gaintype,
                   {{"fixed", kGainFixed},
                    {"affine", kGainAffine},
                    {"muscle", kGainMuscle},
                    {"user", kGainUser}});
    a.read_keyword("biastype", u.biastype,
                   {{"none", kBiasNone},
                    {"affine", kBiasAffine},
                    {"muscle", kBiasMuscle},
                    {"user", kBiasUser}});
    a.read("dynprm", u.dynprm, 1);
    a.read("gainprm", u.gainprm, 1);
    a.read("biasprm", u.biasprm, 1);
  } else if (kind == "motor") {
    u.dyntype = kDynNone;
    u.gaintype = kGainFixed;
    u.biastype = kBiasNone;
    zero(u.gainprm);
    u.gainprm[0] = 1;
    zero(u.biasprm);
  } else if (kind == "position") {
    u.dyntype = kDynNone;
    u.gaintype = kGainFixed;
    u.biastype = kBiasAffine;
    zero(u.biasprm);
    a.read("kp", u.gainprm[0]);
    u.biasprm[1] = -u.gainprm[0];
  } else if (kind == "velocity") {
    u.dyntype = kDynNone;
    u.gaintype = kGainFixed;
    u.biastype = kBiasAffine;
    zero(u.biasprm);
    a.read("kv", u.gainprm[0]);
    u.biasprm[2] = -u.gainprm[0];
  } else if (kind == "intvelocity") {
    u.dyntype = kDynIntegrator;
    u.gaintype = kGainFixed;
    u.biastype = kBiasAffine;
    zero(u.biasprm);
    a.read("kp", u.gainprm[0]);
    u.biasprm[1] = -u.gainprm[0];
    u.actlimited = TriState::kTrue;
  } else if (kind == "damper") {
    u.dyntype = kDynNone;
    u.gaintype = kGainAffine;
    u.biastype = kBiasNone;
    zero(u.biasprm);
    double kv = -u.gainprm[2];
    a.read("kv", kv);
    zero(u.gainprm);
    u.gainprm[2] = -kv;
    u.ctrllimited = TriState::kTrue;
  } else if (kind == "cylinder") {
    u.dyntype = kDynFilter;
    u.gaintype = kGainFixed;
    u.biastype = kBiasAffine;
    a.read("timeconst", u.dynprm[0]);
    double area = u.gainprm[0];
    a.read("area", area);
    double diameter;
    if (a.read("diameter", diameter)) area = kPi / 4 * diameter * diameter;
    u.gainprm[0] = area;
    a.read_into("bias", u.biasprm.data(), 3, 3);
  } else if (kind == "muscle") {
    // Parameters still at the general actuator's defaults take the muscle's defaults instead.
    static constexpr double muscle_dyn[2] = {0.01, 0.04};
    static constexpr double general_gain[9] = {1, 0, 0, 0, 0, 0, 0, 0, 0};
    static constexpr double muscle_gain[9] = {0.75, 1.05, -1, 200, 0.5, 1.6, 1.5, 1.3, 1.2};
    if (u.dynprm[0] == 1) u.dynprm[0] = muscle_dyn[0];
    if (u.dynprm[1] == 0) u.dynprm[1] = muscle_dyn[1];
    for (size_t i = 0; i < 9; ++i) {
      if (u.gainprm[i] == general_gain[i]) u.gainprm[i] = muscle_gain[i];
    }
    u.dyntype = kDynMuscle;
    u.gaintype = kGainMuscle;
    u.biastype = kBiasMuscle;
    a.read_into("timeconst", u.dynprm.data(), 2, 2);
    a.read_into("range", u.gainprm.data(), 2, 2);
    a.read("force", u.gainprm[2]);
    a.read("scale", u.gainprm[3]);
    a.read("lmin", u.gainprm[4]);
    a.read("lmax", u.gainprm[5]);
    a.read("vmax", u.gainprm[6]);
    a.read("fpmax", u.gainprm[7]);
    a.read("fvmax", u.gainprm[8]);
    for (int i = 0; i < 9; ++i) u.biasprm[i] = u.gainprm[i];
  } else if (kind == "adhesion") {
    u.dyntype = kDynNone;
    u.gaintype = kGainFixed;
    u.biastype = kBiasNone;
    zero(u.biasprm);
    a.read("gain", u.gainprm[0]);
    u.ctrllimited = TriState::kTrue;
  }
}

// ---- default classes ----------------------------------------------------------------------------

struct DefaultClass {
  std::string name;
  MeshSpec mesh;
  MaterialSpec material;
  JointSpec joint;
  GeomSpec geom;
  SiteSpec site;
  CameraSpec camera;
  LightSpec light;
  PairSpec pair;
  EqualitySpec equality;
  TendonSpec tendon;
  ActuatorSpec actuator;
};

class Reader {
 public:
  Reader(ModelSpec& spec) : spec_(spec) {
    classes_.emplace("", DefaultClass{});  // unnamed until a top-level <default> names it
  }

  void read(const XmlElement& root) {
    AttributeReader(root).read("model", spec_.modelname);
    // Sections are read in a fixed order, whatever their order in the file, so that e.g. the
    // compiler settings apply to every orientation.
    for_each(root, "compiler", [&](const XmlElement& e) { read_compiler(e); });
    for_each(root, "option", [&](const XmlElement& e) { read_option(e); });
    for_each(root, "size", [&](const XmlElement& e) { read_size(e); });
    for_each(root, "visual", [&](const XmlElement& e) { read_visual(e); });
    for_each(root, "statistic", [&](const XmlElement& e) { read_statistic(e); });
    // Every top-level <default> refines the root class, and names it ("main" when its class
    // attribute is missing or empty): as in MuJoCo 2.2.2 the last top-level <default> gives the
    // name. A model without one keeps the root class's name empty, so that there (and only there)
    // class="" and childclass="" name the root class.
    for_each(root, "default", [&](const XmlElement& e) {
      std::string name;
      AttributeReader(e).read("class", name);
      if (name.empty()) name = "main";
      if (name != root_class_) {
        if (classes_.count(name))
          throw InputError(e.where() + ": repeated default class '" + name + "'");
        auto node = classes_.extract(root_class_);
        node.key() = name;
        classes_.insert(std::move(node));
        root_class_ = name;
      }
      read_default(e, name, nullptr);
    });
    for_each(root, "custom", [&](const XmlElement& e) { read_custom(e); });
    for_each(root, "asset", [&](const XmlElement& e) { read_assets(e); });
    spec_.world.origin = Origin{root.file, root.line, "worldbody"};
    spec_.world.name = "world";
    for_each(root, "worldbody", [&](const XmlElement& e) {
      AttributeReader a(e);
      for (const auto& [name, value] : e.attributes) {
        throw InputError(e.where() + ": the world body cannot have attributes ('" + name + "')");
      }
      read_body_children(e, spec_.world, "");
    });
    for_each(root, "contact", [&](const XmlElement& e) { read_contact(e); });
    for_each(root, "equality", [&](const XmlElement& e) { read_equalities(e); });
    for_each(root, "tendon", [&](const XmlElement& e) { read_tendons(e); });
    for_each(root, "actuator", [&](const XmlElement& e) { read_actuators(e); });
    for_each(root, "sensor", [&](const XmlElement& e) { read_sensors(e); });
    for_each(root, "keyframe", [&](const XmlElement& e) { read_keyframes(e); });
  }

 private:
  template <class F>
  static void for_each(const XmlElement& parent, const char* name, F f) {
    for (const XmlElement& c : parent.children) {
      if (c.name == name) f(c);
    }
  }

  // The class an element uses: its own class attribute, else the nearest childclass, else the root
  // class. An empty class attribute is a class name like any other (see read()).
  const DefaultClass& class_of(const XmlElement& e, const std::string& childclass) const {
    std::string name;
    if (!AttributeReader(e).read("class", name))
      name = childclass.empty() ? root_class_ : childclass;
    auto it = classes_.find(name);
    if (it == classes_.end()) throw InputError(e.where() + ": " + unknown_class(name));
    return it->second;
  }

  // The reason for rejecting a reference to the class `name`, which does not exist.
  std::string unknown_class(const std::string& name) const {
    std::string reason = "unknown default class '" + name + "'";
    if (name.empty()) {
      reason +=
          " (an empty class names the top-level default class only in a model without "
          "<default>; here that class is '" +
          root_class_ + "')";
    }
    return reason;
  }

  // ---- global settings ----

  void read_compiler(const XmlElement& e) {
    AttributeReader a(e);
    CompilerSettings& c = spec_.compiler;
    a.read_bool("autolimits", c.autolimits);
    a.read("boundmass", c.boundmass);
    a.read("boundinertia", c.boundinertia);
    a.read("settotalmass", c.settotalmass);
    a.read_bool("balanceinertia", c.balanceinertia);
    a.read_bool("strippath", c.strippath);
    int coordinate = c.global_coordinates;
    if (a.read_keyword("coordinate", coordinate, {{"local", 0}, {"global", 1}}))
      c.global_coordinates = coordinate;
    int degree = c.degree;
    if (a.read_keyword("angle", degree, {{"radian", 0}, {"degree", 1}})) c.degree = degree;
    a.read_bool("fitaabb", c.fitaabb);
    // Its letters are checked where an euler orientation uses it, as in MuJoCo 2.2.2.
    if (a.read("eulerseq", c.eulerseq)) {
      if (c.eulerseq.size() != 3) {
        a.fail("eulerseq", "must be 3 characters from x, y, z, X, Y, Z");
      }
    }
    a.read("meshdir", c.meshdir);
    a.read("texturedir", c.texturedir);
    a.read_bool("discardvisual", c.discardvisual);
    a.read_bool("convexhull", c.convexhull);
    a.read_bool("usethread", c.usethread);
    a.read_bool("fusestatic", c.fusestatic);
    a.read_keyword("inertiafromgeom", c.inertiafromgeom, {{"false", 0}, {"true", 1}, {"auto", 2}});
    a.read_bool("exactmeshinertia", c.exactmeshinertia);
    a.read("inertiagrouprange", c.inertiagrouprange);
    for_each(e, "lengthrange", [&](const XmlElement& l) {
      AttributeReader r(l);
      auto& lr = c.lengthrange;
      r.read_keyword("mode", lr.mode, {{"none", 0}, {"muscle", 1}, {"muscleuser", 2}, {"all", 3}});
      r.read_bool("useexisting", lr.useexisting);
      r.read_bool("uselimit", lr.uselimit);
      r.read("accel", lr.accel);
      r.read("maxforce", lr.maxforce);
      r.read("timeconst", lr.timeconst);
      r.read("timestep", lr.timestep);
      r.read("inttotal", lr.inttotal);
      r.read("inteval", lr.inteval);
      r.read("tolrange", lr.tolrange);
    });
  }

  void read_option(const XmlElement& e) {
    AttributeReader a(e);
    Option& o = spec_.option;
    a.read("timestep", o.timestep);
    a.read("apirate", o.apirate);
    a.read("impratio", o.impratio);
    a.read("tolerance", o.tolerance);
    a.read("noslip_tolerance", o.noslip_tolerance);
    a.read("mpr_tolerance", o.mpr_tolerance);
    a.read_into("gravity", o.gravity, 3, 3);
    a.read_into("wind", o.wind, 3, 3);
    a.read_into("magnetic", o.magnetic, 3, 3);
    a.read("density", o.density);
    a.read("viscosity", o.viscosity);
    a.read("o_margin", o.o_margin);
    a.read_into("o_solref", o.o_solref, kNREF, 1);
    a.read_into("o_solimp", o.o_solimp, kNIMP, 1);
    const std::pair<const char*, int*> enumerated[] = {{"integrator", &o.integrator},
                                                       {"collision", &o.collision},
                                                       {"cone", &o.cone},
                                                       {"jacobian", &o.jacobian},
                                                       {"solver", &o.solver}};
    for (const auto& [name, field] : enumerated)
      a.read_keyword(name, *field, option_keywords(name));
    a.read("iterations", o.iterations);
    a.read("noslip_iterations", o.noslip_iterations);
    a.read("mpr_iterations", o.mpr_iterations);
    for_each(e, "flag", [&](const XmlElement& f) { read_flags(f); });
  }

  void read_flags(const XmlElement& e) {
    AttributeReader a(e);
    static const std::pair<const char*, int> disable[] = {{"constraint", kDisableConstraint},
                                                          {"equality", kDisableEquality},
                                                          {"frictionloss", kDisableFrictionloss},
                                                          {"limit", kDisableLimit},
                                                          {"contact", kDisableContact},
                                                          {"passive", kDisablePassive},
                                                          {"gravity", kDisableGravity},
                                                          {"clampctrl", kDisableClampctrl},
                                                          {"warmstart", kDisableWarmstart},
                                                          {"filterparent", kDisableFilterparent},
                                                          {"actuation", kDisableActuation},
                                                          {"refsafe", kDisableRefsafe},
                                                          {"sensor", kDisableSensor}};
    static const std::pair<const char*, int> enable[] = {{"override", kEnableOverride},
                                                         {"energy", kEnableEnergy},
                                                         {"fwdinv", kEnableFwdinv},
                                                         {"sensornoise", kEnableSensornoise},
                                                         {"multiccd", kEnableMulticcd}};
    const Keywords on_off = {{"disable", 0}, {"enable", 1}};
    Option& o = spec_.option;
    for (const auto& [name, bit] : disable) {
      int v;
      if (a.read_keyword(name, v, on_off))
        o.disableflags = v ? (o.disableflags & ~bit) : (o.disableflags | bit);
    }
    for (const auto& [name, bit] : enable) {
      int v;
      if (a.read_keyword(name, v, on_off))
        o.enableflags = v ? (o.enableflags | bit) : (o.enableflags & ~bit);
    }
  }

  void read_size(const XmlElement& e) {
    AttributeReader a(e);
    SizeSettings& s = spec_.size;
    a.read("njmax", s.njmax);
    a.read("nconmax", s.nconmax);
    a.read("nstack", s.nstack);
    a.read("nuserdata", s.nuserdata);
    a.read("nkey", s.nkey);
    a.read("nuser_body", s.nuser_body);
    a.read("nuser_jnt", s.nuser_jnt);
    a.read("nuser_geom", s.nuser_geom);
    a.read("nuser_site", s.nuser_site);
    a.read("nuser_cam", s.nuser_cam);
    a.read("nuser_tendon", s.nuser_tendon);
    a.read("nuser_actuator", s.nuser_actuator);
    a.read("nuser_sensor", s.nuser_sensor);
    for (const char* n : {"nuser_body", "nuser_jnt", "nuser_geom", "nuser_site", "nuser_cam",
                          "nuser_tendon", "nuser_actuator", "nuser_sensor"}) {
      int v = 0;
      if (a.read(n, v) && v < -1) a.fail(n, "must be -1 (automatic) or more");
    }
  }

  // <visual>: each child element sets the fields of the Visual group of the same name.
  void read_visual(const XmlElement& e) {
    Visual& v = spec_.visual;
    for (const XmlElement& c : e.children) {
      AttributeReader a(c);
      auto read_field = [&a](const char* name, auto& field) {
        using Field = std::remove_reference_t<decltype(field)>;
        if constexpr (std::is_array_v<Field>) {
          constexpr size_t n = std::extent_v<Field>;
          double values[n];
          for (size_t i = 0; i < n; ++i) values[i] = field[i];
          if (a.read_into(name, values, n, n)) {
            for (size_t i = 0; i < n; ++i)
              field[i] = static_cast<std::remove_extent_t<Field>>(values[i]);
          }
        } else if constexpr (std::is_same_v<Field, int>) {
          a.read(name, field);
        } else {
          double value;
          if (a.read(name, value)) field = static_cast<Field>(value);
        }
      };
#define JOCO_VISUAL_READ(group, type, name, count) read_field(#name, v.group.name);
#define JOCO_VISUAL_READ_GROUP(group, FIELDS) \
  if (c.name == #group) {                     \
    FIELDS(JOCO_VISUAL_READ, group)           \
  }
      JOCO_VISUAL_GROUPS(JOCO_VISUAL_READ_GROUP)
#undef JOCO_VISUAL_READ_GROUP
#undef JOCO_VISUAL_READ
    }
  }

  void read_statistic(const XmlElement& e) {
    AttributeReader a(e);
    StatisticSettings& s = spec_.statistic;
    double v;
    if (a.read("meaninertia", v)) s.meaninertia = v;
    if (a.read("meanmass", v)) s.meanmass = v;
    if (a.read("meansize", v)) s.meansize = v;
    if (a.read("extent", v)) s.extent = v;
    Vec3 center;
    if (a.read("center", center)) s.center = center;
  }

  // ---- defaults ----

  void read_default(const XmlElement& e, const std::string& name, const DefaultClass* parent) {
    DefaultClass cls = parent ? *parent : classes_.at(root_class_);
    cls.name = name;
    for (const XmlElement& c : e.children) {
      AttributeReader a(c);
      if (c.name == "mesh")
        read_mesh(a, cls.mesh);
      else if (c.name == "material")
        read_material(a, cls.material);
      else if (c.name == "joint")
        read_joint(a, cls.joint);
      else if (c.name == "geom")
        read_geom(a, cls.geom);
      else if (c.name == "site")
        read_site(a, cls.site);
      else if (c.name == "camera")
        read_camera(a, cls.camera);
      else if (c.name == "light")
        read_light(a, cls.light);
      else if (c.name == "pair")
        read_pair(a, cls.pair);
      else if (c.name == "equality")
        read_equality(a, cls.equality);
      else if (c.name == "tendon")
        read_tendon(a, cls.tendon);
      else if (c.name != "default") {
        // ... and on a damper's default too (not an adhesion's).
        if (c.name == "damper" && !a.has("ctrlrange"))
          throw InputError(c.where() + ": missing required attribute 'ctrlrange'");
        read_actuator(a, c.name, cls.actuator);
      }
    }
    classes_[name] = cls;
    for (const XmlElement& c : e.children) {
      if (c.name != "default") continue;
      std::string child;
      if (!AttributeReader(c).read("class", child) || child.empty()) {
        throw InputError(c.where() + ": a nested default class needs a non-empty class name");
      }
      if (classes_.count(child))
        throw InputError(c.where() + ": repeated default class '" + child + "'");
      read_default(c, child, &classes_.at(name));
    }
  }

  // ---- custom ----

  void read_custom(const XmlElement& e) {
    for (const XmlElement& c : e.children) {
      AttributeReader a(c);
      if (c.name == "numeric") {
        NumericSpec n;
        n.origin = origin_of(c);
        n.name = a.required_string("name");
        a.read_numbers("data", n.data);
        int size = -1;
        if (a.read("size", size)) {
          if (size < static_cast<int>(n.data.size())) a.fail("size", "is smaller than the data");
          n.data.resize(static_cast<size_t>(size), 0.0);
        } else if (n.data.empty()) {
          a.fail("data", "a numeric field needs data or a size");
        }
        spec_.numerics.push_back(std::move(n));
      } else if (c.name == "text") {
        TextSpec t;
        t.origin = origin_of(c);
        t.name = a.required_string("name");
        t.data = a.required_string("data");
        if (t.data.empty()) a.fail("data", "is empty");
        spec_.texts.push_back(std::move(t));
      } else if (c.name == "tuple") {
        TupleSpec t;
        t.origin = origin_of(c);
        t.name = a.required_string("name");
        for (const XmlElement& el : c.children) {
          AttributeReader r(el);
          TupleSpec::Element item;
          read_object_type(r, "objtype", item.objtype, true);
          item.objname = r.required_string("objname");
          r.read("prm", item.prm);
          t.elements.push_back(std::move(item));
        }
        spec_.tuples.push_back(std::move(t));
      }
    }
  }

  // Any named object type (custom tuples, user sensors).
  static void read_object_type(const AttributeReader& a, const char* attribute, int& out,
                               bool required) {
    if (!a.read_keyword(attribute, out, object_type_keywords()) && required) {
      throw InputError(a.element().where() + ": missing required attribute '" + attribute + "'");
    }
  }

  // ---- assets ----

  void read_assets(const XmlElement& e) {
    for (const XmlElement& c : e.children) {
      AttributeReader a(c);
      if (c.name == "mesh") {
        const DefaultClass& cls = class_of(c, "");
        MeshSpec m = cls.mesh;
        m.class_geom_density = cls.geom.density;
        m.origin = origin_of(c);
        a.read("name", m.name);
        a.read("class", m.classname);
        read_mesh(a, m);
        spec_.meshes.push_back(std::move(m));
      } else if (c.name == "material") {
        MaterialSpec m = class_of(c, "").material;
        m.origin = origin_of(c);
        m.name = a.required_string("name");
        a.read("class", m.classname);
        read_material(a, m);
        spec_.materials.push_back(std::move(m));
      } else if (c.name == "texture") {
        spec_.textures.push_back(read_texture(c));
      } else if (c.name == "hfield") {
        HfieldSpec h;
        h.origin = origin_of(c);
        a.read("name", h.name);
        a.read("file", h.file);
        a.read("nrow", h.nrow);
        a.read("ncol", h.ncol);
        h.size_given = a.read("size", h.size);
        if (!h.size_given) throw InputError(c.where() + ": missing required attribute 'size'");
        spec_.hfields.push_back(std::move(h));
      } else if (c.name == "skin") {
        spec_.skins.push_back(read_skin(c));
      }
    }
  }

  TextureSpec read_texture(const XmlElement& c) {
    AttributeReader a(c);
    TextureSpec t;
    t.origin = origin_of(c);
    a.read("name", t.name);
    a.read_keyword("type", t.type,
                   {{"2d", kTexture2D}, {"cube", kTextureCube}, {"skybox", kTextureSkybox}});
    a.read("file", t.file);
    a.read("gridsize", t.gridsize);
    if (a.read("gridlayout", t.gridlayout)) {
      // checked when given, as MuJoCo's parser does (the default is twelve dots whatever the grid)
      if (t.gridlayout.size() > 12) a.fail("gridlayout", "must not exceed 12 characters");
      if (static_cast<int64_t>(t.gridlayout.size()) != int64_t{t.gridsize[0]} * t.gridsize[1]) {
        a.fail("gridlayout", "length must equal the number of grid cells (gridsize)");
      }
    }
    static const char* faces[6] = {"fileright", "fileleft",  "fileup",
                                   "filedown",  "filefront", "fileback"};
    for (int i = 0; i < 6; ++i) a.read(faces[i], t.cubefiles[static_cast<size_t>(i)]);
    a.read_keyword("builtin", t.builtin,
                   {{"none", 0}, {"gradient", 1}, {"checker", 2}, {"flat", 3}});
    a.read("rgb1", t.rgb1);
    a.read("rgb2", t.rgb2);
    a.read_keyword("mark", t.mark, {{"none", 0}, {"edge", 1}, {"cross", 2}, {"random", 3}});
    a.read("markrgb", t.markrgb);
    a.read("random", t.random);
    a.read("width", t.width);
    a.read("height", t.height);
    a.read_bool("hflip", t.hflip);
    a.read_bool("vflip", t.vflip);
    return t;
  }

  SkinSpec read_skin(const XmlElement& c) {
    AttributeReader a(c);
    SkinSpec s;
    s.origin = origin_of(c);
    a.read("name", s.name);
    a.read("file", s.file);
    a.read("material", s.material);
    a.read("rgba", s.rgba);
    a.read("inflate", s.inflate);
    a.read("group", s.group);
    a.read_numbers("vertex", s.vertex);
    a.read_numbers("texcoord", s.texcoord);
    a.read_ints("face", s.face);
    for (const XmlElement& b : c.children) {
      AttributeReader r(b);
      SkinBoneSpec bone;
      bone.origin = origin_of(b);
      bone.body = r.required_string("body");
      if (!r.read("bindpos", bone.bindpos))
        throw InputError(b.where() + ": missing required attribute 'bindpos'");
      if (!r.read("bindquat", bone.bindquat))
        throw InputError(b.where() + ": missing required attribute 'bindquat'");
      if (!r.read_ints("vertid", bone.vertid))
        throw InputError(b.where() + ": missing required attribute 'vertid'");
      if (!r.read_numbers("vertweight", bone.vertweight)) {
        throw InputError(b.where() + ": missing required attribute 'vertweight'");
      }
      if (bone.vertid.size() != bone.vertweight.size()) {
        r.fail("vertweight", "must have as many values as vertid");
      }
      s.bones.push_back(std::move(bone));
    }
    return s;
  }

  // ---- bodies ----

  void read_body_children(const XmlElement& e, BodySpec& body, const std::string& childclass) {
    for (const XmlElement& c : e.children) {
      AttributeReader a(c);
      if (c.name == "inertial") {
        if (&body == &spec_.world)
          throw InputError(c.where() + ": the world body cannot have an inertial");
        InertialSpec in;
        in.origin = origin_of(c);
        if (!a.read("pos", in.pos))
          throw InputError(c.where() + ": missing required attribute 'pos'");
        read_orientation(a, in.orientation);
        if (!a.read("mass", in.mass))
          throw InputError(c.where() + ": missing required attribute 'mass'");
        Vec3 diag;
        if (a.read("diaginertia", diag)) in.diaginertia = diag;
        std::array<double, 6> full;
        if (a.read("fullinertia", full)) {
          // fullinertia gives the principal axes too: as in 2.2.2, no orientation beside it.
          if (in.orientation.kind != Orientation::kNone)
            a.fail("fullinertia", "an orientation and 'fullinertia' cannot both be given");
          in.fullinertia = full;
        }
        if (in.fullinertia) in.diaginertia.reset();  // MuJoCo 2.2.2 takes fullinertia if both
        if (!in.diaginertia && !in.fullinertia) {
          throw InputError(c.where() +
                           ": missing required attribute 'diaginertia' (or 'fullinertia')");
        }
        body.inertial = in;
      } else if (c.name == "joint") {
        JointSpec j = class_of(c, childclass).joint;
        j.origin = origin_of(c);
        a.read("name", j.name);
        a.read("class", j.classname);
        read_joint(a, j);
        body.joints.push_back(std::move(j));
      } else if (c.name == "freejoint") {
        JointSpec j;  // a free joint does not take joint defaults
        j.origin = origin_of(c);
        j.type = kJointFree;
        j.limited = TriState::kFalse;
        a.read("name", j.name);
        a.read("group", j.group);
        body.joints.push_back(std::move(j));
      } else if (c.name == "geom") {
        GeomSpec g = class_of(c, childclass).geom;
        g.origin = origin_of(c);
        a.read("name", g.name);
        a.read("class", g.classname);
        read_geom(a, g);
        if (spec_.compiler.discardvisual && g.contype == 0 && g.conaffinity == 0) continue;
        body.geoms.push_back(std::move(g));
      } else if (c.name == "site") {
        SiteSpec s = class_of(c, childclass).site;
        s.origin = origin_of(c);
        a.read("name", s.name);
        a.read("class", s.classname);
        read_site(a, s);
        body.sites.push_back(std::move(s));
      } else if (c.name == "camera") {
        CameraSpec cam = class_of(c, childclass).camera;
        cam.origin = origin_of(c);
        a.read("name", cam.name);
        a.read("class", cam.classname);
        read_camera(a, cam);
        body.cameras.push_back(std::move(cam));
      } else if (c.name == "light") {
        LightSpec l = class_of(c, childclass).light;
        l.origin = origin_of(c);
        a.read("name", l.name);
        a.read("class", l.classname);
        read_light(a, l);
        body.lights.push_back(std::move(l));
      } else if (c.name == "body") {
        BodySpec child;
        child.origin = origin_of(c);
        a.read("name", child.name);
        // childclass="" names the root class where that is unnamed (no <default>), which is then
        // the class of every element anyway: passing "" down as "no childclass" is the same.
        if (a.read("childclass", child.childclass) && !classes_.count(child.childclass)) {
          throw InputError(c.where() +
                           ": attribute 'childclass': " + unknown_class(child.childclass));
        }
        a.read_bool("mocap", child.mocap);
        Vec3 pos;
        if (a.read("pos", pos)) child.pos = pos;
        read_orientation(a, child.orientation);
        a.read_numbers("user", child.user);
        read_body_children(c, child, child.childclass.empty() ? childclass : child.childclass);
        body.bodies.push_back(std::move(child));
      } else if (c.name == "composite") {
        expand_composite(c, body, spec_);
      }
    }
  }

  // ---- contact, equality, tendons, actuators, sensors, keyframes ----

  void read_contact(const XmlElement& e) {
    for (const XmlElement& c : e.children) {
      AttributeReader a(c);
      if (c.name == "pair") {
        PairSpec p = class_of(c, "").pair;
        p.origin = origin_of(c);
        a.read("name", p.name);
        a.read("class", p.classname);
        read_pair(a, p);
        p.geom1 = a.required_string("geom1");
        p.geom2 = a.required_string("geom2");
        spec_.pairs.push_back(std::move(p));
      } else if (c.name == "exclude") {
        ExcludeSpec x;
        x.origin = origin_of(c);
        a.read("name", x.name);
        x.body1 = a.required_string("body1");
        x.body2 = a.required_string("body2");
        spec_.excludes.push_back(std::move(x));
      }
    }
  }

  void read_equalities(const XmlElement& e) {
    for (const XmlElement& c : e.children) {
      AttributeReader a(c);
      EqualitySpec q = class_of(c, "").equality;
      q.origin = origin_of(c);
      a.read("name", q.name);
      a.read("class", q.classname);
      read_equality(a, q);
      if (c.name == "connect") {
        q.type = kEqConnect;
        q.name1 = a.required_string("body1");
        a.read("body2", q.name2);
        if (!a.read("anchor", q.anchor))
          throw InputError(c.where() + ": missing required attribute 'anchor'");
        q.anchor_given = true;
      } else if (c.name == "weld") {
        q.type = kEqWeld;
        q.name1 = a.required_string("body1");
        a.read("body2", q.name2);
        a.read("relpose", q.relpose);
        q.anchor_given = a.read("anchor", q.anchor);
        a.read("torquescale", q.torquescale);
      } else if (c.name == "joint") {
        q.type = kEqJoint;
        q.name1 = a.required_string("joint1");
        a.read("joint2", q.name2);
        a.read("polycoef", q.polycoef);
      } else if (c.name == "tendon") {
        q.type = kEqTendon;
        q.name1 = a.required_string("tendon1");
        a.read("tendon2", q.name2);
        a.read("polycoef", q.polycoef);
      } else if (c.name == "distance") {
        q.type = kEqDistance;
        q.name1 = a.required_string("geom1");
        q.name2 = a.required_string("geom2");
        a.read("distance", q.distance);
      }
      spec_.equalities.push_back(std::move(q));
    }
  }

  void read_tendons(const XmlElement& e) {
    for (const XmlElement& c : e.children) {
      AttributeReader a(c);
      TendonSpec t = class_of(c, "").tendon;
      t.origin = origin_of(c);
      t.spatial = c.name == "spatial";
      a.read("name", t.name);
      a.read("class", t.classname);
      read_tendon(a, t);
      for (const XmlElement& p : c.children) {
        AttributeReader r(p);
        WrapSpec w;
        w.origin = origin_of(p);
        if (p.name == "site") {
          w.type = kWrapSite;
          w.target = r.required_string("site");
        } else if (p.name == "geom") {
          w.type = kWrapSphere;  // sphere or cylinder: decided by the geom's type when compiling
          w.target = r.required_string("geom");
          r.read("sidesite", w.sidesite);
        } else if (p.name == "pulley") {
          w.type = kWrapPulley;
          if (!r.read("divisor", w.coef))
            throw InputError(p.where() + ": missing required attribute 'divisor'");
        } else if (p.name == "joint") {
          w.type = kWrapJoint;
          w.target = r.required_string("joint");
          if (!r.read("coef", w.coef))
            throw InputError(p.where() + ": missing required attribute 'coef'");
        }
        t.path.push_back(std::move(w));
      }
      spec_.tendons.push_back(std::move(t));
    }
  }

  void read_actuators(const XmlElement& e) {
    for (const XmlElement& c : e.children) {
      AttributeReader a(c);
      ActuatorSpec u = class_of(c, "").actuator;
      u.origin = origin_of(c);
      a.read("name", u.name);
      a.read("class", u.classname);
      read_transmission(a, u);
      // MuJoCo 2.2.2 wants an adhesion's and a damper's ctrlrange on the element itself.
      if ((c.name == "adhesion" || c.name == "damper") && !a.has("ctrlrange"))
        throw InputError(c.where() + ": missing required attribute 'ctrlrange'");
      read_actuator(a, c.name, u);
      if ((c.name == "adhesion" || c.name == "damper") &&
          (u.ctrlrange[0] < 0 || u.ctrlrange[1] < 0))
        throw InputError(c.where() + ": the ctrlrange of " + c.name +
                         " actuators cannot be negative");
      spec_.actuators.push_back(std::move(u));
    }
  }

  void read_sensors(const XmlElement& e) {
    struct Kind {
      const char* element;
      int type;
      const char* attribute;  // the object attribute, or nullptr (frame and user sensors, clock)
      int objtype;
    };
    static const Kind kinds[] = {
        {"touch", kSensTouch, "site", kObjSite},
        {"accelerometer", kSensAccelerometer, "site", kObjSite},
        {"velocimeter", kSensVelocimeter, "site", kObjSite},
        {"gyro", kSensGyro, "site", kObjSite},
        {"force", kSensForce, "site", kObjSite},
        {"torque", kSensTorque, "site", kObjSite},
        {"magnetometer", kSensMagnetometer, "site", kObjSite},
        {"rangefinder", kSensRangefinder, "site", kObjSite},
        {"jointpos", kSensJointPos, "joint", kObjJoint},
        {"jointvel", kSensJointVel, "joint", kObjJoint},
        {"tendonpos", kSensTendonPos, "tendon", kObjTendon},
        {"tendonvel", kSensTendonVel, "tendon", kObjTendon},
        {"actuatorpos", kSensActuatorPos, "actuator", kObjActuator},
        {"actuatorvel", kSensActuatorVel, "actuator", kObjActuator},
        {"actuatorfrc", kSensActuatorFrc, "actuator", kObjActuator},
        {"ballquat", kSensBallQuat, "joint", kObjJoint},
        {"ballangvel", kSensBallAngVel, "joint", kObjJoint},
        {"jointlimitpos", kSensJointLimitPos, "joint", kObjJoint},
        {"jointlimitvel", kSensJointLimitVel, "joint", kObjJoint},
        {"jointlimitfrc", kSensJointLimitFrc, "joint", kObjJoint},
        {"tendonlimitpos", kSensTendonLimitPos, "tendon", kObjTendon},
        {"tendonlimitvel", kSensTendonLimitVel, "tendon", kObjTendon},
        {"tendonlimitfrc", kSensTendonLimitFrc, "tendon", kObjTendon},
        {"framepos", kSensFramePos, nullptr, kObjUnknown},
        {"framequat", kSensFrameQuat, nullptr, kObjUnknown},
        {"framexaxis", kSensFrameXAxis, nullptr, kObjUnknown},
        {"frameyaxis", kSensFrameYAxis, nullptr, kObjUnknown},
        {"framezaxis", kSensFrameZAxis, nullptr, kObjUnknown},
        {"framelinvel", kSensFrameLinVel, nullptr, kObjUnknown},
        {"frameangvel", kSensFrameAngVel, nullptr, kObjUnknown},
        {"framelinacc", kSensFrameLinAcc, nullptr, kObjUnknown},
        {"frameangacc", kSensFrameAngAcc, nullptr, kObjUnknown},
        {"subtreecom", kSensSubtreeCom, "body", kObjBody},
        {"subtreelinvel", kSensSubtreeLinVel, "body", kObjBody},
        {"subtreeangmom", kSensSubtreeAngMom, "body", kObjBody},
        {"clock", kSensClock, nullptr, kObjUnknown},
        {"user", kSensUser, nullptr, kObjUnknown},
    };
    for (const XmlElement& c : e.children) {
      AttributeReader a(c);
      const Kind* kind = nullptr;
      for (const Kind& k : kinds) {
        if (c.name == k.element) kind = &k;
      }
      if (!kind) continue;  // the schema check rejects unknown elements
      SensorSpec s;
      s.origin = origin_of(c);
      s.type = kind->type;
      a.read("name", s.name);
      a.read("cutoff", s.cutoff);
      a.read("noise", s.noise);
      if (s.cutoff < 0) a.fail("cutoff", "cannot be negative");
      if (s.noise < 0) a.fail("noise", "cannot be negative");
      a.read_numbers("user", s.user);
      if (kind->attribute) {
        s.objtype = kind->objtype;
        s.objname = a.required_string(kind->attribute);
      } else if (s.type == kSensUser) {
        // All five are required in MuJoCo 2.2.2.
        for (const char* required : {"objtype", "objname", "datatype", "needstage", "dim"}) {
          if (!a.has(required))
            throw InputError(c.where() + ": missing required attribute '" + required + "'");
        }
        read_object_type(a, "objtype", s.objtype, false);
        a.read("objname", s.objname);
        a.read_keyword("datatype", s.datatype,
                       {{"real", kDataReal},
                        {"positive", kDataPositive},
                        {"axis", kDataAxis},
                        {"quaternion", kDataQuaternion}});
        a.read_keyword("needstage", s.needstage,
                       {{"pos", kStagePos}, {"vel", kStageVel}, {"acc", kStageAcc}});
        a.read("dim", s.dim);
      } else if (s.type != kSensClock) {
        if (!a.read_keyword("objtype", s.objtype, kFrameObjType)) {
          throw InputError(c.where() + ": missing required attribute 'objtype'");
        }
        s.objname = a.required_string("objname");
        if (a.read_keyword("reftype", s.reftype, kFrameObjType)) a.read("refname", s.refname);
      }
      spec_.sensors.push_back(std::move(s));
    }
  }

  void read_keyframes(const XmlElement& e) {
    for (const XmlElement& c : e.children) {
      AttributeReader a(c);
      KeySpec k;
      k.origin = origin_of(c);
      a.read("name", k.name);
      a.read("time", k.time);
      std::vector<double> v;
      if (a.read_numbers("qpos", v)) k.qpos = v;
      if (a.read_numbers("qvel", v)) k.qvel = v;
      if (a.read_numbers("act", v)) k.act = v;
      if (a.read_numbers("ctrl", v)) k.ctrl = v;
      if (a.read_numbers("mpos", v)) k.mpos = v;
      if (a.read_numbers("mquat", v)) k.mquat = v;
      spec_.keys.push_back(std::move(k));
    }
  }

  ModelSpec& spec_;
  std::map<std::string, DefaultClass> classes_;
  std::string root_class_;  // the name of the top-level default class ("" until one is read)
};

}  // namespace

ModelSpec read_mjcf(const XmlElement& root, const std::string& source,
                    const std::string& base_dir) {
  check_schema(root);
  ModelSpec spec;
  spec.source = source;
  spec.base_dir = base_dir;
  Reader(spec).read(root);
  return spec;
}

}  // namespace joco::compiler
