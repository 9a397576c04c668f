// The MJCF schema of MuJoCo 2.2.2: which elements may appear where, how often, and with which
// attributes. The attribute lists were established by probing MuJoCo 2.2.2 (every attribute name of
// the XML reference tried on every element) and agree with its XML reference.
#include "xml/schema.h"

#include <map>

#include "joco/error.h"

namespace joco::compiler {

namespace {

struct Builder {
  std::map<std::string, SchemaNode> nodes;  // keyed by a unique id

  SchemaNode* node(const std::string& id, const char* name, char multiplicity,
                   std::vector<std::string> attributes) {
    SchemaNode& n = nodes[id];
    n.name = name;
    n.multiplicity = multiplicity;
    n.attributes = std::move(attributes);
    return &n;
  }
};

const SchemaNode* build() {
  static Builder b;
  SchemaNode* mujoco = b.node("mujoco", "mujoco", '!', {"model"});
  SchemaNode* compiler =
      b.node("compiler", "compiler", '*',
             {"angle", "autolimits", "balanceinertia", "boundinertia", "boundmass", "convexhull",
              "coordinate", "discardvisual", "eulerseq", "exactmeshinertia", "fitaabb",
              "fusestatic", "inertiafromgeom", "inertiagrouprange", "meshdir", "settotalmass",
              "strippath", "texturedir", "usethread"});
  SchemaNode* lengthrange = b.node("lengthrange", "lengthrange", '?',
                                   {"accel", "inteval", "inttotal", "maxforce", "mode", "timeconst",
                                    "timestep", "tolrange", "useexisting", "uselimit"});
  SchemaNode* option = b.node("option", "option", '*', {"apirate",
                                                        "collision",
                                                        "cone",
                                                        "density",
                                                        "gravity",
                                                        "impratio",
                                                        "integrator",
                                                        "iterations",
                                                        "jacobian",
                                                        "magnetic",
                                                        "mpr_iterations",
                                                        "mpr_tolerance",
                                                        "noslip_iterations",
                                                        "noslip_tolerance",
                                                        "o_margin",
                                                        "o_solimp",
                                                        "o_solref",
                                                        "solver",
                                                        "timestep",
                                                        "tolerance",
                                                        "viscosity",
                                                        "wind"});
  SchemaNode* flag =
      b.node("flag", "flag", '?',
             {"actuation", "clampctrl", "constraint", "contact", "energy", "equality",
              "filterparent", "frictionloss", "fwdinv", "gravity", "limit", "multiccd", "override",
              "passive", "refsafe", "sensor", "sensornoise", "warmstart"});
  SchemaNode* size = b.node(
      "size", "size", '*',
      {"nconmax", "njmax", "nkey", "nstack", "nuser_actuator", "nuser_body", "nuser_cam",
       "nuser_geom", "nuser_jnt", "nuser_sensor", "nuser_site", "nuser_tendon", "nuserdata"});
  SchemaNode* visual = b.node("visual", "visual", '*', {});
  SchemaNode* vis_global =
      b.node("visual/global", "global", '?',
             {"azimuth", "elevation", "fovy", "glow", "ipd", "linewidth", "offheight", "offwidth"});
  SchemaNode* vis_quality =
      b.node("visual/quality", "quality", '?',
             {"numquads", "numslices", "numstacks", "offsamples", "shadowsize"});
  SchemaNode* vis_headlight =
      b.node("visual/headlight", "headlight", '?', {"active", "ambient", "diffuse", "specular"});
  SchemaNode* vis_map =
      b.node("visual/map", "map", '?',
             {"actuatortendon", "alpha", "fogend", "fogstart", "force", "haze", "shadowclip",
              "shadowscale", "stiffness", "stiffnessrot", "torque", "zfar", "znear"});
  SchemaNode* vis_scale =
      b.node("visual/scale", "scale", '?',
             {"actuatorlength", "actuatorwidth", "camera", "com", "connect", "constraint",
              "contactheight", "contactwidth", "forcewidth", "framelength", "framewidth",
              "jointlength", "jointwidth", "light", "selectpoint", "slidercrank"});
  SchemaNode* vis_rgba = b.node("visual/rgba", "rgba", '?',
                                {"actuator",
                                 "actuatornegative",
                                 "actuatorpositive",
                                 "camera",
                                 "com",
                                 "connect",
                                 "constraint",
                                 "contactforce",
                                 "contactfriction",
                                 "contactgap",
                                 "contactpoint",
                                 "contacttorque",
                                 "crankbroken",
                                 "fog",
                                 "force",
                                 "haze",
                                 "inertia",
                                 "joint",
                                 "light",
                                 "rangefinder",
                                 "selectpoint",
                                 "slidercrank"});
  SchemaNode* statistic = b.node("statistic", "statistic", '*',
                                 {"center", "extent", "meaninertia", "meanmass", "meansize"});
  SchemaNode* def = b.node("default", "default", 'R', {"class"});
  SchemaNode* def_mesh = b.node("default/mesh", "mesh", '?', {"scale"});
  SchemaNode* def_material = b.node("default/material", "material", '?',
                                    {"emission", "reflectance", "rgba", "shininess", "specular",
                                     "texrepeat", "texture", "texuniform"});
  SchemaNode* def_joint =
      b.node("default/joint", "joint", '?',
             {"armature", "axis", "damping", "frictionloss", "group", "limited", "margin", "pos",
              "range", "ref", "solimpfriction", "solimplimit", "solreffriction", "solreflimit",
              "springdamper", "springref", "stiffness", "type", "user"});
  SchemaNode* def_geom =
      b.node("default/geom", "geom", '?',
             {"axisangle", "conaffinity",  "condim",   "contype", "density", "euler",    "fitscale",
              "fluidcoef", "fluidshape",   "friction", "fromto",  "gap",     "group",    "hfield",
              "margin",    "mass",         "material", "mesh",    "pos",     "priority", "quat",
              "rgba",      "shellinertia", "size",     "solimp",  "solmix",  "solref",   "type",
              "user",      "xyaxes",       "zaxis"});
  SchemaNode* def_site = b.node("default/site", "site", '?',
                                {"axisangle", "euler", "fromto", "group", "material", "pos", "quat",
                                 "rgba", "size", "type", "user", "xyaxes", "zaxis"});
  SchemaNode* def_camera = b.node(
      "default/camera", "camera", '?',
      {"axisangle", "euler", "fovy", "ipd", "mode", "pos", "quat", "user", "xyaxes", "zaxis"});
  SchemaNode* def_light =
      b.node("default/light", "light", '?',
             {"active", "ambient", "attenuation", "castshadow", "cutoff", "diffuse", "dir",
              "directional", "exponent", "mode", "pos", "specular"});
  SchemaNode* def_pair = b.node("default/pair", "pair", '?',
                                {"condim", "friction", "gap", "margin", "solimp", "solref"});
  SchemaNode* def_equality =
      b.node("default/equality", "equality", '?', {"active", "solimp", "solref"});
  SchemaNode* def_tendon =
      b.node("default/tendon", "tendon", '?',
             {"damping", "frictionloss", "group", "limited", "margin", "material", "range", "rgba",
              "solimpfriction", "solimplimit", "solreffriction", "solreflimit", "springlength",
              "stiffness", "user", "width"});
  SchemaNode* def_general = b.node("default/general", "general", '?',
                                   {"actlimited", "actrange", "biasprm", "biastype", "cranklength",
                                    "ctrllimited", "ctrlrange", "dynprm", "dyntype", "forcelimited",
                                    "forcerange", "gainprm", "gaintype", "gear", "group", "user"});
  SchemaNode* def_motor = b.node("default/motor", "motor", '?',
                                 {"cranklength", "ctrllimited", "ctrlrange", "forcelimited",
                                  "forcerange", "gear", "group", "user"});
  SchemaNode* def_position = b.node("default/position", "position", '?',
                                    {"cranklength", "ctrllimited", "ctrlrange", "forcelimited",
                                     "forcerange", "gear", "group", "kp", "user"});
  SchemaNode* def_velocity = b.node("default/velocity", "velocity", '?',
                                    {"cranklength", "ctrllimited", "ctrlrange", "forcelimited",
                                     "forcerange", "gear", "group", "kv", "user"});
  SchemaNode* def_intvelocity =
      b.node("default/intvelocity", "intvelocity", '?',
             {"actrange", "cranklength", "ctrllimited", "ctrlrange", "forcelimited", "forcerange",
              "gear", "group", "kp", "user"});
  SchemaNode* def_damper = b.node(
      "default/damper", "damper", '?',
      {"cranklength", "ctrlrange", "forcelimited", "forcerange", "gear", "group", "kv", "user"});
  SchemaNode* def_cylinder =
      b.node("default/cylinder", "cylinder", '?',
             {"area", "bias", "cranklength", "ctrllimited", "ctrlrange", "diameter", "forcelimited",
              "forcerange", "gear", "group", "timeconst", "user"});
  SchemaNode* def_muscle = b.node(
      "default/muscle", "muscle", '?',
      {"cranklength", "ctrllimited", "ctrlrange", "force", "forcelimited", "forcerange", "fpmax",
       "fvmax", "gear", "group", "lmax", "lmin", "range", "scale", "timeconst", "user", "vmax"});
  SchemaNode* def_adhesion =
      b.node("default/adhesion", "adhesion", '?',
             {"ctrlrange", "forcelimited", "forcerange", "gain", "group", "user"});
  SchemaNode* custom = b.node("custom", "custom", '*', {});
  SchemaNode* numeric = b.node("custom/numeric", "numeric", '*', {"data", "name", "size"});
  SchemaNode* text = b.node("custom/text", "text", '*', {"data", "name"});
  SchemaNode* tuple = b.node("custom/tuple", "tuple", '*', {"name"});
  SchemaNode* element =
      b.node("custom/tuple/element", "element", '*', {"objname", "objtype", "prm"});
  SchemaNode* asset = b.node("asset", "asset", '*', {});
  SchemaNode* asset_texture =
      b.node("asset/texture", "texture", '*',
             {"builtin", "file",       "fileback", "filedown", "filefront", "fileleft", "fileright",
              "fileup",  "gridlayout", "gridsize", "height",   "hflip",     "mark",     "markrgb",
              "name",    "random",     "rgb1",     "rgb2",     "type",      "vflip",    "width"});
  SchemaNode* asset_hfield =
      b.node("asset/hfield", "hfield", '*', {"file", "name", "ncol", "nrow", "size"});
  SchemaNode* asset_mesh = b.node("asset/mesh", "mesh", '*',
                                  {"class", "face", "file", "name", "normal", "refpos", "refquat",
                                   "scale", "smoothnormal", "texcoord", "vertex"});
  SchemaNode* asset_skin = b.node(
      "asset/skin", "skin", '*',
      {"face", "file", "group", "inflate", "material", "name", "rgba", "texcoord", "vertex"});
  SchemaNode* asset_material =
      b.node("asset/material", "material", '*',
             {"class", "emission", "name", "reflectance", "rgba", "shininess", "specular",
              "texrepeat", "texture", "texuniform"});
  SchemaNode* bone = b.node("asset/skin/bone", "bone", '*',
                            {"bindpos", "bindquat", "body", "vertid", "vertweight"});
  SchemaNode* worldbody = b.node("worldbody", "worldbody", '*',
                                 {"axisangle", "childclass", "euler", "mocap", "name", "pos",
                                  "quat", "user", "xyaxes", "zaxis"});
  SchemaNode* body = b.node("body", "body", 'R',
                            {"axisangle", "childclass", "euler", "mocap", "name", "pos", "quat",
                             "user", "xyaxes", "zaxis"});
  SchemaNode* body_inertial = b.node("body/inertial", "inertial", '?',
                                     {"axisangle", "diaginertia", "euler", "fullinertia", "mass",
                                      "pos", "quat", "xyaxes", "zaxis"});
  SchemaNode* body_joint =
      b.node("body/joint", "joint", '*',
             {"armature",    "axis",         "class",          "damping",     "frictionloss",
              "group",       "limited",      "margin",         "name",        "pos",
              "range",       "ref",          "solimpfriction", "solimplimit", "solreffriction",
              "solreflimit", "springdamper", "springref",      "stiffness",   "type",
              "user"});
  SchemaNode* body_freejoint = b.node("body/freejoint", "freejoint", '*', {"group", "name"});
  SchemaNode* body_geom = b.node(
      "body/geom", "geom", '*',
      {"axisangle", "class",     "conaffinity", "condim",       "contype", "density", "euler",
       "fitscale",  "fluidcoef", "fluidshape",  "friction",     "fromto",  "gap",     "group",
       "hfield",    "margin",    "mass",        "material",     "mesh",    "name",    "pos",
       "priority",  "quat",      "rgba",        "shellinertia", "size",    "solimp",  "solmix",
       "solref",    "type",      "user",        "xyaxes",       "zaxis"});
  SchemaNode* body_site =
      b.node("body/site", "site", '*',
             {"axisangle", "class", "euler", "fromto", "group", "material", "name", "pos", "quat",
              "rgba", "size", "type", "user", "xyaxes", "zaxis"});
  SchemaNode* body_camera = b.node("body/camera", "camera", '*',
                                   {"axisangle", "class", "euler", "fovy", "ipd", "mode", "name",
                                    "pos", "quat", "target", "user", "xyaxes", "zaxis"});
  SchemaNode* body_light =
      b.node("body/light", "light", '*',
             {"active", "ambient", "attenuation", "castshadow", "class", "cutoff", "diffuse", "dir",
              "directional", "exponent", "mode", "name", "pos", "specular", "target"});
  SchemaNode* body_composite = b.node("body/composite", "composite", '*',
                                      {"count", "flatinertia", "offset", "prefix", "solimpsmooth",
                                       "solrefsmooth", "spacing", "type"});
  SchemaNode* comp_joint =
      b.node("composite/joint", "joint", '*',
             {"armature", "damping", "frictionloss", "group", "kind", "limited", "margin", "range",
              "solimpfix", "solimpfriction", "solimplimit", "solreffix", "solreffriction",
              "solreflimit", "stiffness"});
  SchemaNode* comp_tendon =
      b.node("composite/tendon", "tendon", '*',
             {"damping", "frictionloss", "group", "kind", "limited", "margin", "material", "range",
              "rgba", "solimpfix", "solimpfriction", "solimplimit", "solreffix", "solreffriction",
              "solreflimit", "stiffness", "width"});
  SchemaNode* comp_skin = b.node("composite/skin", "skin", '?',
                                 {"group", "inflate", "material", "rgba", "subgrid", "texcoord"});
  SchemaNode* comp_geom = b.node(
      "composite/geom", "geom", '?',
      {"conaffinity", "condim", "contype", "density", "friction", "gap", "group", "margin", "mass",
       "material", "priority", "rgba", "size", "solimp", "solmix", "solref", "type"});
  SchemaNode* comp_site =
      b.node("composite/site", "site", '?', {"group", "material", "rgba", "size"});
  SchemaNode* comp_pin = b.node("composite/pin", "pin", '*', {"coord"});
  SchemaNode* contact = b.node("contact", "contact", '*', {});
  SchemaNode* pair = b.node("contact/pair", "pair", '*',
                            {"class", "condim", "friction", "gap", "geom1", "geom2", "margin",
                             "name", "solimp", "solref"});
  SchemaNode* exclude = b.node("contact/exclude", "exclude", '*', {"body1", "body2", "name"});
  SchemaNode* equality = b.node("equality", "equality", '*', {});
  SchemaNode* eq_connect =
      b.node("equality/connect", "connect", '*',
             {"active", "anchor", "body1", "body2", "class", "name", "solimp", "solref"});
  SchemaNode* eq_weld = b.node("equality/weld", "weld", '*',
                               {"active", "anchor", "body1", "body2", "class", "name", "relpose",
                                "solimp", "solref", "torquescale"});
  SchemaNode* eq_joint =
      b.node("equality/joint", "joint", '*',
             {"active", "class", "joint1", "joint2", "name", "polycoef", "solimp", "solref"});
  SchemaNode* eq_tendon =
      b.node("equality/tendon", "tendon", '*',
             {"active", "class", "name", "polycoef", "solimp", "solref", "tendon1", "tendon2"});
  SchemaNode* eq_distance =
      b.node("equality/distance", "distance", '*',
             {"active", "class", "distance", "geom1", "geom2", "name", "solimp", "solref"});
  SchemaNode* tendon = b.node("tendon", "tendon", '*', {});
  SchemaNode* spatial =
      b.node("tendon/spatial", "spatial", '*',
             {"class", "damping", "frictionloss", "group", "limited", "margin", "material", "name",
              "range", "rgba", "solimpfriction", "solimplimit", "solreffriction", "solreflimit",
              "springlength", "stiffness", "user", "width"});
  SchemaNode* spatial_site = b.node("tendon/spatial/site", "site", '*', {"site"});
  SchemaNode* spatial_geom = b.node("tendon/spatial/geom", "geom", '*', {"geom", "sidesite"});
  SchemaNode* spatial_pulley = b.node("tendon/spatial/pulley", "pulley", '*', {"divisor"});
  SchemaNode* fixed = b.node("tendon/fixed", "fixed", '*',
                             {"class", "damping", "frictionloss", "group", "limited", "margin",
                              "name", "range", "solimpfriction", "solimplimit", "solreffriction",
                              "solreflimit", "springlength", "stiffness", "user"});
  SchemaNode* fixed_joint = b.node("tendon/fixed/joint", "joint", '*', {"coef", "joint"});
  SchemaNode* actuator = b.node("actuator", "actuator", '*', {});
  SchemaNode* act_general =
      b.node("actuator/general", "general", '*',
             {"actlimited",   "actrange",      "biasprm",     "biastype",  "body",    "class",
              "cranklength",  "cranksite",     "ctrllimited", "ctrlrange", "dynprm",  "dyntype",
              "forcelimited", "forcerange",    "gainprm",     "gaintype",  "gear",    "group",
              "joint",        "jointinparent", "lengthrange", "name",      "refsite", "site",
              "slidersite",   "tendon",        "user"});
  SchemaNode* act_motor =
      b.node("actuator/motor", "motor", '*',
             {"class", "cranklength", "cranksite", "ctrllimited", "ctrlrange", "forcelimited",
              "forcerange", "gear", "group", "joint", "jointinparent", "lengthrange", "name",
              "refsite", "site", "slidersite", "tendon", "user"});
  SchemaNode* act_position =
      b.node("actuator/position", "position", '*',
             {"class", "cranklength", "cranksite", "ctrllimited", "ctrlrange", "forcelimited",
              "forcerange", "gear", "group", "joint", "jointinparent", "kp", "lengthrange", "name",
              "refsite", "site", "slidersite", "tendon", "user"});
  SchemaNode* act_velocity =
      b.node("actuator/velocity", "velocity", '*',
             {"class", "cranklength", "cranksite", "ctrllimited", "ctrlrange", "forcelimited",
              "forcerange", "gear", "group", "joint", "jointinparent", "kv", "lengthrange", "name",
              "refsite", "site", "slidersite", "tendon", "user"});
  SchemaNode* act_intvelocity =
      b.node("actuator/intvelocity", "intvelocity", '*',
             {"actrange",  "class",         "cranklength", "cranksite",   "ctrllimited",
              "ctrlrange", "forcelimited",  "forcerange",  "gear",        "group",
              "joint",     "jointinparent", "kp",          "lengthrange", "name",
              "refsite",   "site",          "slidersite",  "tendon",      "user"});
  SchemaNode* act_damper =
      b.node("actuator/damper", "damper", '*',
             {"class", "cranklength", "cranksite", "ctrlrange", "forcelimited", "forcerange",
              "gear", "group", "joint", "jointinparent", "kv", "lengthrange", "name", "refsite",
              "site", "slidersite", "tendon", "user"});
  SchemaNode* act_cylinder = b.node(
      "actuator/cylinder", "cylinder", '*',
      {"area",       "bias",          "class",        "cranklength", "cranksite", "ctrllimited",
       "ctrlrange",  "diameter",      "forcelimited", "forcerange",  "gear",      "group",
       "joint",      "jointinparent", "lengthrange",  "name",        "refsite",   "site",
       "slidersite", "tendon",        "timeconst",    "user"});
  SchemaNode* act_muscle =
      b.node("actuator/muscle", "muscle", '*',
             {"class",      "cranklength",  "cranksite",  "ctrllimited",   "ctrlrange",
              "force",      "forcelimited", "forcerange", "fpmax",         "fvmax",
              "gear",       "group",        "joint",      "jointinparent", "lengthrange",
              "lmax",       "lmin",         "name",       "range",         "scale",
              "slidersite", "tendon",       "timeconst",  "user",          "vmax"});
  SchemaNode* act_adhesion = b.node("actuator/adhesion", "adhesion", '*',
                                    {"body", "class", "ctrlrange", "forcelimited", "forcerange",
                                     "gain", "group", "name", "user"});
  SchemaNode* sensor = b.node("sensor", "sensor", '*', {});
  SchemaNode* sens_touch =
      b.node("sensor/touch", "touch", '*', {"cutoff", "name", "noise", "site", "user"});
  SchemaNode* sens_accelerometer = b.node("sensor/accelerometer", "accelerometer", '*',
                                          {"cutoff", "name", "noise", "site", "user"});
  SchemaNode* sens_velocimeter =
      b.node("sensor/velocimeter", "velocimeter", '*', {"cutoff", "name", "noise", "site", "user"});
  SchemaNode* sens_gyro =
      b.node("sensor/gyro", "gyro", '*', {"cutoff", "name", "noise", "site", "user"});
  SchemaNode* sens_force =
      b.node("sensor/force", "force", '*', {"cutoff", "name", "noise", "site", "user"});
  SchemaNode* sens_torque =
      b.node("sensor/torque", "torque", '*', {"cutoff", "name", "noise", "site", "user"});
  SchemaNode* sens_magnetometer = b.node("sensor/magnetometer", "magnetometer", '*',
                                         {"cutoff", "name", "noise", "site", "user"});
  SchemaNode* sens_rangefinder =
      b.node("sensor/rangefinder", "rangefinder", '*', {"cutoff", "name", "noise", "site", "user"});
  SchemaNode* sens_jointpos =
      b.node("sensor/jointpos", "jointpos", '*', {"cutoff", "joint", "name", "noise", "user"});
  SchemaNode* sens_jointvel =
      b.node("sensor/jointvel", "jointvel", '*', {"cutoff", "joint", "name", "noise", "user"});
  SchemaNode* sens_tendonpos =
      b.node("sensor/tendonpos", "tendonpos", '*', {"cutoff", "name", "noise", "tendon", "user"});
  SchemaNode* sens_tendonvel =
      b.node("sensor/tendonvel", "tendonvel", '*', {"cutoff", "name", "noise", "tendon", "user"});
  SchemaNode* sens_actuatorpos = b.node("sensor/actuatorpos", "actuatorpos", '*',
                                        {"actuator", "cutoff", "name", "noise", "user"});
  SchemaNode* sens_actuatorvel = b.node("sensor/actuatorvel", "actuatorvel", '*',
                                        {"actuator", "cutoff", "name", "noise", "user"});
  SchemaNode* sens_actuatorfrc = b.node("sensor/actuatorfrc", "actuatorfrc", '*',
                                        {"actuator", "cutoff", "name", "noise", "user"});
  SchemaNode* sens_ballquat =
      b.node("sensor/ballquat", "ballquat", '*', {"cutoff", "joint", "name", "noise", "user"});
  SchemaNode* sens_ballangvel =
      b.node("sensor/ballangvel", "ballangvel", '*', {"cutoff", "joint", "name", "noise", "user"});
  SchemaNode* sens_jointlimitpos = b.node("sensor/jointlimitpos", "jointlimitpos", '*',
                                          {"cutoff", "joint", "name", "noise", "user"});
  SchemaNode* sens_jointlimitvel = b.node("sensor/jointlimitvel", "jointlimitvel", '*',
                                          {"cutoff", "joint", "name", "noise", "user"});
  SchemaNode* sens_jointlimitfrc = b.node("sensor/jointlimitfrc", "jointlimitfrc", '*',
                                          {"cutoff", "joint", "name", "noise", "user"});
  SchemaNode* sens_tendonlimitpos = b.node("sensor/tendonlimitpos", "tendonlimitpos", '*',
                                           {"cutoff", "name", "noise", "tendon", "user"});
  SchemaNode* sens_tendonlimitvel = b.node("sensor/tendonlimitvel", "tendonlimitvel", '*',
                                           {"cutoff", "name", "noise", "tendon", "user"});
  SchemaNode* sens_tendonlimitfrc = b.node("sensor/tendonlimitfrc", "tendonlimitfrc", '*',
                                           {"cutoff", "name", "noise", "tendon", "user"});
  SchemaNode* sens_framepos =
      b.node("sensor/framepos", "framepos", '*',
             {"cutoff", "name", "noise", "objname", "objtype", "refname", "reftype", "user"});
  SchemaNode* sens_framequat =
      b.node("sensor/framequat", "framequat", '*',
             {"cutoff", "name", "noise", "objname", "objtype", "refname", "reftype", "user"});
  SchemaNode* sens_framexaxis =
      b.node("sensor/framexaxis", "framexaxis", '*',
             {"cutoff", "name", "noise", "objname", "objtype", "refname", "reftype", "user"});
  SchemaNode* sens_frameyaxis =
      b.node("sensor/frameyaxis", "frameyaxis", '*',
             {"cutoff", "name", "noise", "objname", "objtype", "refname", "reftype", "user"});
  SchemaNode* sens_framezaxis =
      b.node("sensor/framezaxis", "framezaxis", '*',
             {"cutoff", "name", "noise", "objname", "objtype", "refname", "reftype", "user"});
  SchemaNode* sens_framelinvel =
      b.node("sensor/framelinvel", "framelinvel", '*',
             {"cutoff", "name", "noise", "objname", "objtype", "refname", "reftype", "user"});
  SchemaNode* sens_frameangvel =
      b.node("sensor/frameangvel", "frameangvel", '*',
             {"cutoff", "name", "noise", "objname", "objtype", "refname", "reftype", "user"});
  SchemaNode* sens_framelinacc = b.node("sensor/framelinacc", "framelinacc", '*',
                                        {"cutoff", "name", "noise", "objname", "objtype", "user"});
  SchemaNode* sens_frameangacc = b.node("sensor/frameangacc", "frameangacc", '*',
                                        {"cutoff", "name", "noise", "objname", "objtype", "user"});
  SchemaNode* sens_subtreecom =
      b.node("sensor/subtreecom", "subtreecom", '*', {"body", "cutoff", "name", "noise", "user"});
  SchemaNode* sens_subtreelinvel = b.node("sensor/subtreelinvel", "subtreelinvel", '*',
                                          {"body", "cutoff", "name", "noise", "user"});
  SchemaNode* sens_subtreeangmom = b.node("sensor/subtreeangmom", "subtreeangmom", '*',
                                          {"body", "cutoff", "name", "noise", "user"});
  SchemaNode* sens_clock =
      b.node("sensor/clock", "clock", '*', {"cutoff", "name", "noise", "user"});
  SchemaNode* sens_user = b.node(
      "sensor/user", "user", '*',
      {"cutoff", "datatype", "dim", "name", "needstage", "noise", "objname", "objtype", "user"});
  SchemaNode* keyframe = b.node("keyframe", "keyframe", '*', {});
  SchemaNode* key = b.node("keyframe/key", "key", '*',
                           {"act", "ctrl", "mpos", "mquat", "name", "qpos", "qvel", "time"});
  mujoco->children = {compiler,  option,  size,     visual, statistic, def,    custom,  asset,
                      worldbody, contact, equality, tendon, actuator,  sensor, keyframe};
  compiler->children = {lengthrange};
  option->children = {flag};
  visual->children = {vis_global, vis_quality, vis_headlight, vis_map, vis_scale, vis_rgba};
  def->children = {def_mesh,    def_material, def_joint,    def_geom,     def_site,
                   def_camera,  def_light,    def_pair,     def_equality, def_tendon,
                   def_general, def_motor,    def_position, def_velocity, def_intvelocity,
                   def_damper,  def_cylinder, def_muscle,   def_adhesion, def};
  custom->children = {numeric, text, tuple};
  tuple->children = {element};
  asset->children = {asset_texture, asset_hfield, asset_mesh, asset_skin, asset_material};
  asset_skin->children = {bone};
  worldbody->children = {body_inertial, body_joint, body_freejoint, body_geom, body_site,
                         body_camera,   body_light, body_composite, body};
  body->children = {body_inertial, body_joint, body_freejoint, body_geom, body_site,
                    body_camera,   body_light, body_composite, body};
  body_composite->children = {comp_joint, comp_tendon, comp_skin, comp_geom, comp_site, comp_pin};
  contact->children = {pair, exclude};
  equality->children = {eq_connect, eq_weld, eq_joint, eq_tendon, eq_distance};
  tendon->children = {spatial, fixed};
  spatial->children = {spatial_site, spatial_geom, spatial_pulley};
  fixed->children = {fixed_joint};
  actuator->children = {act_general, act_motor,    act_position, act_velocity, act_intvelocity,
                        act_damper,  act_cylinder, act_muscle,   act_adhesion};
  sensor->children = {sens_touch,
                      sens_accelerometer,
                      sens_velocimeter,
                      sens_gyro,
                      sens_force,
                      sens_torque,
                      sens_magnetometer,
                      sens_rangefinder,
                      sens_jointpos,
                      sens_jointvel,
                      sens_tendonpos,
                      sens_tendonvel,
                      sens_actuatorpos,
                      sens_actuatorvel,
                      sens_actuatorfrc,
                      sens_ballquat,
                      sens_ballangvel,
                      sens_jointlimitpos,
                      sens_jointlimitvel,
                      sens_jointlimitfrc,
                      sens_tendonlimitpos,
                      sens_tendonlimitvel,
                      sens_tendonlimitfrc,
                      sens_framepos,
                      sens_framequat,
                      sens_framexaxis,
                      sens_frameyaxis,
                      sens_framezaxis,
                      sens_framelinvel,
                      sens_frameangvel,
                      sens_framelinacc,
                      sens_frameangacc,
                      sens_subtreecom,
                      sens_subtreelinvel,
                      sens_subtreeangmom,
                      sens_clock,
                      sens_user};
  keyframe->children = {key};
  return mujoco;
}

}  // namespace

const SchemaNode& mjcf_schema() {
  static const SchemaNode* root = build();
  return *root;
}

const SchemaNode* SchemaNode::child(std::string_view element) const {
  for (const SchemaNode* c : children) {
    if (c->name == element) return c;
  }
  return nullptr;
}

bool SchemaNode::allows(std::string_view attribute) const {
  for (const std::string& a : attributes) {
    if (a == attribute) return true;
  }
  return false;
}

namespace {

void check(const XmlElement& e, const SchemaNode& node) {
  for (const auto& [name, value] : e.attributes) {
    if (!node.allows(name)) throw InputError(e.where() + ": unrecognized attribute '" + name + "'");
  }
  std::map<const SchemaNode*, int> counts;
  for (const XmlElement& c : e.children) {
    const SchemaNode* child = node.child(c.name);
    if (!child) {
      throw InputError(c.where() + ": unrecognized element (not allowed in <" + e.name + ">)");
    }
    if (++counts[child] > 1 && (child->multiplicity == '?' || child->multiplicity == '!')) {
      throw InputError(c.where() + ": element may appear only once in <" + e.name + ">");
    }
    check(c, *child);
  }
}

}  // namespace

void check_schema(const XmlElement& root) {
  const SchemaNode& schema = mjcf_schema();
  if (root.name != schema.name) {
    throw InputError(root.where() + ": the root element of an MJCF model must be <mujoco>");
  }
  check(root, schema);
}

}  // namespace joco::compiler
