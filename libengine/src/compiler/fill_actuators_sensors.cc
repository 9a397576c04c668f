// Compiler stages (compiler/compiler.h): the fields of actuators and sensors.
#include <algorithm>

#include "compiler/compiler.h"

namespace joco::compiler {

void Compiler::fill_actuators(Model& m) {
  const bool autolimits = spec_.compiler.autolimits;
  bool stateful_seen = false;
  for (int i = 0; i < m.nu; ++i) {
    const ActuatorSpec& u = spec_.actuators[static_cast<size_t>(i)];
    if (u.dyntype != kDynNone) {
      stateful_seen = true;
    } else if (stateful_seen) {
      fail(u.origin, u.name,
           "actuators without activation (dyntype none) must come before those with");
    }
    m.actuator_trntype[i] = u.trntype;
    m.actuator_dyntype[i] = u.dyntype;
    m.actuator_gaintype[i] = u.gaintype;
    m.actuator_biastype[i] = u.biastype;
    int* trnid = m.actuator_trnid + 2 * i;
    trnid[0] = trnid[1] = -1;
    switch (u.trntype) {
      case kTrnJoint:
      case kTrnJointInParent:
        trnid[0] = id_of(kObjJoint, u.target, u.origin, u.name, "joint");
        break;
      case kTrnTendon: trnid[0] = id_of(kObjTendon, u.target, u.origin, u.name, "tendon"); break;
      case kTrnSliderCrank:
        trnid[0] = id_of(kObjSite, u.target, u.origin, u.name, "crank site");
        if (u.slidersite.empty()) fail(u.origin, u.name, "a slider-crank needs slidersite");
        trnid[1] = id_of(kObjSite, u.slidersite, u.origin, u.name, "slider site");
        if (!(u.cranklength > 0)) fail(u.origin, u.name, "cranklength must be positive");
        break;
      case kTrnSite:
        trnid[0] = id_of(kObjSite, u.target, u.origin, u.name, "site");
        if (!u.refsite.empty())
          trnid[1] = id_of(kObjSite, u.refsite, u.origin, u.name, "reference site");
        break;
      case kTrnBody: trnid[0] = id_of(kObjBody, u.target, u.origin, u.name, "body"); break;
      default: fail(u.origin, u.name, "the actuator has no transmission target");
    }
    m.actuator_group[i] = u.group;
    m.actuator_ctrllimited[i] = resolve_limited(u.ctrllimited, u.ctrlrange_given, autolimits,
                                                u.origin, u.name, "ctrllimited", "ctrlrange");
    m.actuator_forcelimited[i] = resolve_limited(u.forcelimited, u.forcerange_given, autolimits,
                                                 u.origin, u.name, "forcelimited", "forcerange");
    m.actuator_actlimited[i] = resolve_limited(u.actlimited, u.actrange_given, autolimits, u.origin,
                                               u.name, "actlimited", "actrange");
    if (m.actuator_ctrllimited[i] && u.ctrlrange[0] >= u.ctrlrange[1]) {
      fail(u.origin, u.name, "ctrlrange[0] must be smaller than ctrlrange[1]");
    }
    if (m.actuator_forcelimited[i] && u.forcerange[0] >= u.forcerange[1]) {
      fail(u.origin, u.name, "forcerange[0] must be smaller than forcerange[1]");
    }
    if (m.actuator_actlimited[i] && u.actrange[0] >= u.actrange[1]) {
      fail(u.origin, u.name, "actrange[0] must be smaller than actrange[1]");
    }
    copy_to(m.actuator_dynprm + kNDYN * i, u.dynprm);
    copy_to(m.actuator_gainprm + kNGAIN * i, u.gainprm);
    copy_to(m.actuator_biasprm + kNBIAS * i, u.biasprm);
    copy_to(m.actuator_ctrlrange + 2 * i, u.ctrlrange);
    copy_to(m.actuator_forcerange + 2 * i, u.forcerange);
    copy_to(m.actuator_actrange + 2 * i, u.actrange);
    copy_to(m.actuator_gear + 6 * i, u.gear);
    m.actuator_cranklength[i] = u.cranklength;
    copy_to(m.actuator_lengthrange + 2 * i, u.lengthrange);
    std::copy(u.user.begin(), u.user.end(), m.actuator_user + i * m.nuser_actuator);
  }
}

void Compiler::fill_sensors(Model& m) {
  int adr = 0;
  for (int i = 0; i < m.nsensor; ++i) {
    const SensorSpec& s = spec_.sensors[static_cast<size_t>(i)];
    m.sensor_type[i] = s.type;
    m.sensor_objtype[i] = s.objtype;
    m.sensor_reftype[i] = s.reftype;
    m.sensor_refid[i] = -1;
    m.sensor_objid[i] = -1;
    if (s.objtype != kObjUnknown && !s.objname.empty()) {
      m.sensor_objid[i] =
          id_of(static_cast<ObjType>(s.objtype), s.objname, s.origin, s.name, "object");
    } else if (s.type != kSensClock && s.type != kSensUser) {
      fail(s.origin, s.name, "the sensor needs an object");
    }
    if (s.reftype != kObjUnknown) {
      if (s.refname.empty()) fail(s.origin, s.name, "reftype needs refname");
      m.sensor_refid[i] =
          id_of(static_cast<ObjType>(s.reftype), s.refname, s.origin, s.name, "reference object");
    }
    const int dim = sensor_dimension(s);
    m.sensor_dim[i] = dim;
    m.sensor_adr[i] = adr;
    adr += dim;
    m.sensor_cutoff[i] = s.cutoff;
    m.sensor_noise[i] = s.noise;
    std::copy(s.user.begin(), s.user.end(), m.sensor_user + i * m.nuser_sensor);
    m.sensor_datatype[i] = sensor_datatype(s);
    m.sensor_needstage[i] = sensor_stage(s);
    check_sensor_object(m, s, i);
  }
}

int Compiler::sensor_datatype(const SensorSpec& s) {
  switch (s.type) {
    case kSensTouch:
    case kSensRangefinder: return kDataPositive;
    case kSensFrameXAxis:
    case kSensFrameYAxis:
    case kSensFrameZAxis: return kDataAxis;
    case kSensBallQuat:
    case kSensFrameQuat: return kDataQuaternion;
    case kSensUser: return s.datatype;
    default: return kDataReal;
  }
}

int Compiler::sensor_stage(const SensorSpec& s) {
  switch (s.type) {
    case kSensMagnetometer:
    case kSensRangefinder:
    case kSensJointPos:
    case kSensTendonPos:
    case kSensActuatorPos:
    case kSensBallQuat:
    case kSensJointLimitPos:
    case kSensTendonLimitPos:
    case kSensFramePos:
    case kSensFrameQuat:
    case kSensFrameXAxis:
    case kSensFrameYAxis:
    case kSensFrameZAxis:
    case kSensSubtreeCom:
    case kSensClock: return kStagePos;
    case kSensVelocimeter:
    case kSensGyro:
    case kSensJointVel:
    case kSensTendonVel:
    case kSensActuatorVel:
    case kSensBallAngVel:
    case kSensJointLimitVel:
    case kSensTendonLimitVel:
    case kSensFrameLinVel:
    case kSensFrameAngVel:
    case kSensSubtreeLinVel:
    case kSensSubtreeAngMom: return kStageVel;
    case kSensUser: return s.needstage;
    default: return kStageAcc;
  }
}

void Compiler::check_sensor_object(const Model& m, const SensorSpec& s, int i) {
  const int id = m.sensor_objid[i];
  switch (s.type) {
    case kSensJointPos:
    case kSensJointVel:
    case kSensJointLimitPos:
    case kSensJointLimitVel:
    case kSensJointLimitFrc:
      if (m.jnt_type[id] != kJointHinge && m.jnt_type[id] != kJointSlide &&
          !(s.type >= kSensJointLimitPos && m.jnt_type[id] == kJointBall)) {
        fail(s.origin, s.name, "the joint must be a hinge or slide joint");
      }
      if (s.type >= kSensJointLimitPos && !m.jnt_limited[id])
        fail(s.origin, s.name, "the joint must be limited");
      break;
    case kSensBallQuat:
    case kSensBallAngVel:
      if (m.jnt_type[id] != kJointBall) fail(s.origin, s.name, "the joint must be a ball joint");
      break;
    case kSensTendonLimitPos:
    case kSensTendonLimitVel:
    case kSensTendonLimitFrc:
      if (!m.tendon_limited[id]) fail(s.origin, s.name, "the tendon must be limited");
      break;
    default: break;
  }
}

}  // namespace joco::compiler
