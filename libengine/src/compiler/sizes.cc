// Compiler stages (compiler/compiler.h): the Model's sizes.
#include <algorithm>
#include <limits>
#include <string>
#include <vector>

#include "compiler/compiler.h"

namespace joco::compiler {

int Compiler::user_size(int declared, size_t largest, const char* what) const {
  if (declared >= 0) {
    if (largest > static_cast<size_t>(declared)) {
      throw InputError(spec_.source + ": user data of some " + what + " is longer than nuser_" +
                       what);
    }
    return declared;
  }
  return static_cast<int>(largest);
}

ModelSizes Compiler::sizes() {
  ModelSizes s;
  s.nq = nq_;
  s.nv = nv_;
  s.nu = static_cast<int>(spec_.actuators.size());
  s.nbody = static_cast<int>(bodies_.size());
  s.njnt = static_cast<int>(joints_.size());
  s.ngeom = static_cast<int>(geoms_.size());
  s.nsite = static_cast<int>(sites_.size());
  s.ncam = static_cast<int>(cameras_.size());
  s.nlight = static_cast<int>(lights_.size());
  assets_.add_sizes(s);
  s.npair = static_cast<int>(spec_.pairs.size());
  s.nexclude = static_cast<int>(spec_.excludes.size());
  s.neq = static_cast<int>(spec_.equalities.size());
  s.ntendon = static_cast<int>(spec_.tendons.size());
  for (const TendonSpec& t : spec_.tendons) s.nwrap += static_cast<int>(t.path.size());
  s.nsensor = static_cast<int>(spec_.sensors.size());
  s.nnumeric = static_cast<int>(spec_.numerics.size());
  for (const NumericSpec& n : spec_.numerics) s.nnumericdata += static_cast<int>(n.data.size());
  s.ntext = static_cast<int>(spec_.texts.size());
  for (const TextSpec& t : spec_.texts) s.ntextdata += static_cast<int>(t.data.size()) + 1;
  s.ntuple = static_cast<int>(spec_.tuples.size());
  for (const TupleSpec& t : spec_.tuples) s.ntupledata += static_cast<int>(t.elements.size());
  s.nkey = std::max(static_cast<int>(spec_.keys.size()), spec_.size.nkey);
  for (const FlatBody& b : bodies_) s.nmocap += b.spec->mocap;
  for (const ActuatorSpec& u : spec_.actuators) s.na += u.dyntype != kDynNone;

  std::vector<BodySpec*> body_specs;
  size_t body_user = 0;
  for (const FlatBody& b : bodies_) body_user = std::max(body_user, b.spec->user.size());
  size_t jnt_user = 0, geom_user = 0, site_user = 0, cam_user = 0;
  for (const auto& j : joints_) jnt_user = std::max(jnt_user, j.first->user.size());
  for (const FlatGeom& g : geoms_) geom_user = std::max(geom_user, g.spec->user.size());
  for (const FlatSite& t : sites_) site_user = std::max(site_user, t.spec->user.size());
  for (const auto& c : cameras_) cam_user = std::max(cam_user, c.first->user.size());
  const SizeSettings& z = spec_.size;
  s.nuser_body = user_size(z.nuser_body, body_user, "body");
  s.nuser_jnt = user_size(z.nuser_jnt, jnt_user, "jnt");
  s.nuser_geom = user_size(z.nuser_geom, geom_user, "geom");
  s.nuser_site = user_size(z.nuser_site, site_user, "site");
  s.nuser_cam = user_size(z.nuser_cam, cam_user, "cam");
  s.nuser_tendon = user_size(z.nuser_tendon, longest_user(spec_.tendons), "tendon");
  s.nuser_actuator = user_size(z.nuser_actuator, longest_user(spec_.actuators), "actuator");
  s.nuser_sensor = user_size(z.nuser_sensor, longest_user(spec_.sensors), "sensor");

  s.nnames = static_cast<int>(names_buffer().size());
  s.nM = nM_;
  s.nD = nD_;
  for (const EqualitySpec& e : spec_.equalities) {
    s.nemax += e.type == kEqConnect ? 3 : e.type == kEqWeld ? 7 : 1;
  }
  s.njmax = z.njmax >= 0 ? z.njmax : 500;
  s.nconmax = z.nconmax >= 0 ? z.nconmax : 100;
  s.nuserdata = z.nuserdata;
  s.nsensordata = 0;
  for (const SensorSpec& sensor : spec_.sensors) s.nsensordata += sensor_dimension(sensor);
  if (z.nstack >= 0) {
    s.nstack = z.nstack;
  } else {
    const int64_t rows = int64_t{s.njmax} + s.neq + s.nv;
    const int64_t objects = int64_t{s.nq} + s.nv + s.nu + s.na + s.nbody + s.njnt + s.ngeom +
                            s.nsite + s.neq + s.ntendon + s.nwrap;
    const int64_t nstack = std::max<int64_t>(1000, 5 * rows * rows + 20 * objects);
    // nstack is an int (in the Model as in MuJoCo, which cannot load such a model either).
    if (nstack > std::numeric_limits<int>::max()) {
      throw InputError(spec_.source + ": <size njmax=\"" + std::to_string(s.njmax) +
                       "\"> asks for a default stack of " + std::to_string(nstack) +
                       " doubles, more than the " +
                       std::to_string(std::numeric_limits<int>::max()) +
                       " an int counts: lower njmax or set nstack in <size>");
    }
    s.nstack = static_cast<int>(nstack);
  }
  return s;
}

int Compiler::sensor_dimension(const SensorSpec& s) {
  switch (s.type) {
    case kSensTouch:
    case kSensRangefinder:
    case kSensJointPos:
    case kSensJointVel:
    case kSensTendonPos:
    case kSensTendonVel:
    case kSensActuatorPos:
    case kSensActuatorVel:
    case kSensActuatorFrc:
    case kSensJointLimitPos:
    case kSensJointLimitVel:
    case kSensJointLimitFrc:
    case kSensTendonLimitPos:
    case kSensTendonLimitVel:
    case kSensTendonLimitFrc:
    case kSensClock: return 1;
    case kSensBallQuat:
    case kSensFrameQuat: return 4;
    case kSensUser: return s.dim;
    default: return 3;
  }
}

}  // namespace joco::compiler
