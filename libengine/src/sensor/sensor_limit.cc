#include "sensor/sensor_limit.h"

namespace joco::sensor {

double limit_value(const Model& m, const Data& d, int i) {
  const int type = m.sensor_type[i];
  const bool joint =
      type == kSensJointLimitPos || type == kSensJointLimitVel || type == kSensJointLimitFrc;
  const int efc_type = joint ? kCnstrLimitJoint : kCnstrLimitTendon;
  const int objid = m.sensor_objid[i];
  for (int r = 0; r < d.nefc; ++r) {
    if (d.efc_type[r] != efc_type || d.efc_id[r] != objid) continue;
    switch (type) {
      case kSensJointLimitPos:
      case kSensTendonLimitPos: return d.efc_pos[r] - d.efc_margin[r];
      case kSensJointLimitVel:
      case kSensTendonLimitVel: return d.efc_vel[r];
      default: return d.efc_force[r];
    }
  }
  return 0;
}

}  // namespace joco::sensor
