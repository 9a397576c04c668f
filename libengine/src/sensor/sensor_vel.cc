// Velocity-dependent sensors (mj_sensorVel).
#include "joco/sensor.h"
#include "joco/smooth.h"
#include "math/spatial.h"
#include "sensor/sensor_limit.h"
#include "sensor/sensor_util.h"

namespace joco {

namespace {

// framelinvel and frameangvel: the object's velocity in the global frame, or relative to the
// reference object and expressed in its frame.
void frame_velocity(const Model& m, const Data& d, int i, double* out) {
  double vel[6];
  object_velocity(m, d, m.sensor_objtype[i], m.sensor_objid[i], vel, false);
  const int refid = m.sensor_refid[i];
  if (refid >= 0) {
    const int reftype = m.sensor_reftype[i];
    double ref_vel[6];
    object_velocity(m, d, reftype, refid, ref_vel, false);
    math::sub6(vel, vel, ref_vel);
    // the linear part is the rate of change of framepos in the reference frame: the rotation of
    // the reference frame carries the object's relative position along
    const sensor::ObjectFrame ref = sensor::object_frame(m, d, reftype, refid);
    const sensor::ObjectFrame obj =
        sensor::object_frame(m, d, m.sensor_objtype[i], m.sensor_objid[i]);
    double rel[3], carried[3];
    math::sub3(rel, obj.pos, ref.pos);
    math::cross3(carried, ref_vel, rel);
    math::sub3(vel + 3, vel + 3, carried);
    math::mat_t_vec3(vel, ref.mat, vel);
    math::mat_t_vec3(vel + 3, ref.mat, vel + 3);
  }
  math::copy3(out, m.sensor_type[i] == kSensFrameAngVel ? vel : vel + 3);
}

}  // namespace

void sensor_vel(const Model& m, Data& d) {
  if (sensor::sensors_disabled(m)) return;
  // subtree_linvel and subtree_angmom are computed on demand, once: for the subtree sensors and,
  // as MuJoCo does for its sensor callback, when there are user sensors of this stage
  bool any = false, subtree = false;
  for (int i = 0; i < m.nsensor; ++i) {
    if (m.sensor_needstage[i] != kStageVel) continue;
    any = true;
    const int type = m.sensor_type[i];
    subtree =
        subtree || type == kSensSubtreeLinVel || type == kSensSubtreeAngMom || type == kSensUser;
  }
  if (!any) return;
  if (subtree) subtree_vel(m, d);

  for (int i = 0; i < m.nsensor; ++i) {
    if (m.sensor_needstage[i] != kStageVel) continue;
    const int objid = m.sensor_objid[i];
    double* out = d.sensordata + m.sensor_adr[i];
    switch (m.sensor_type[i]) {
      case kSensVelocimeter:
      case kSensGyro: {
        double vel[6];
        object_velocity(m, d, kObjSite, objid, vel, true);
        math::copy3(out, m.sensor_type[i] == kSensGyro ? vel : vel + 3);
        break;
      }
      case kSensJointVel: out[0] = d.qvel[m.jnt_dofadr[objid]]; break;
      case kSensTendonVel: out[0] = d.ten_velocity[objid]; break;
      case kSensActuatorVel: out[0] = d.actuator_velocity[objid]; break;
      case kSensBallAngVel: math::copy3(out, d.qvel + m.jnt_dofadr[objid]); break;
      case kSensJointLimitVel:
      case kSensTendonLimitVel: out[0] = sensor::limit_value(m, d, i); break;
      case kSensFrameLinVel:
      case kSensFrameAngVel: frame_velocity(m, d, i, out); break;
      case kSensSubtreeLinVel:
      case kSensSubtreeAngMom:
        math::copy3(out,
                    (m.sensor_type[i] == kSensSubtreeLinVel ? d.subtree_linvel : d.subtree_angmom) +
                        3 * objid);
        break;
      default: break;  // user sensors: no callback, data left as it is
    }
  }
  sensor::finish_stage(m, d, kStageVel);
}

}  // namespace joco
