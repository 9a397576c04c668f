// Position-dependent sensors (mj_sensorPos).
#include "joco/ray.h"
#include "joco/sensor.h"
#include "math/vec.h"
#include "sensor/sensor_limit.h"
#include "sensor/sensor_util.h"

namespace joco {

namespace {

using sensor::ObjectFrame;

// framepos, framequat and the frame axes, in the global frame or the reference object's frame.
void frame_sensor(const Model& m, const Data& d, int i, double* out) {
  const int type = m.sensor_type[i];
  const int objtype = m.sensor_objtype[i], objid = m.sensor_objid[i];
  const int reftype = m.sensor_reftype[i], refid = m.sensor_refid[i];
  const ObjectFrame obj = sensor::object_frame(m, d, objtype, objid);
  const ObjectFrame ref = refid >= 0 ? sensor::object_frame(m, d, reftype, refid) : ObjectFrame{};
  switch (type) {
    case kSensFramePos:
      if (ref.mat) {
        double rel[3];
        math::sub3(rel, obj.pos, ref.pos);
        math::mat_t_vec3(out, ref.mat, rel);
      } else {
        math::copy3(out, obj.pos);
      }
      break;
    case kSensFrameQuat: {
      double q[4];
      sensor::object_quat(m, d, objtype, objid, q);
      if (ref.mat) {
        double qref[4];
        sensor::object_quat(m, d, reftype, refid, qref);
        math::quat_conj_mul(out, qref, q);
      } else {
        math::copy4(out, q);
      }
      break;
    }
    default: {  // kSensFrameXAxis, kSensFrameYAxis, kSensFrameZAxis: a column of the frame
      const int column = type - kSensFrameXAxis;
      const double axis[3] = {obj.mat[column], obj.mat[3 + column], obj.mat[6 + column]};
      if (ref.mat) {
        math::mat_t_vec3(out, ref.mat, axis);
      } else {
        math::copy3(out, axis);
      }
    }
  }
}

}  // namespace

void sensor_pos(const Model& m, Data& d) {
  if (sensor::sensors_disabled(m)) return;
  bool any = false;
  for (int i = 0; i < m.nsensor; ++i) {
    if (m.sensor_needstage[i] != kStagePos) continue;
    any = true;
    const int objid = m.sensor_objid[i];
    double* out = d.sensordata + m.sensor_adr[i];
    switch (m.sensor_type[i]) {
      case kSensMagnetometer: math::mat_t_vec3(out, d.site_xmat + 9 * objid, m.opt.magnetic); break;
      case kSensRangefinder: {
        const double* mat = d.site_xmat + 9 * objid;
        const double zaxis[3] = {mat[2], mat[5], mat[8]};
        out[0] =
            ray(m, d, d.site_xpos + 3 * objid, zaxis, nullptr, true, m.site_bodyid[objid], nullptr);
        break;
      }
      case kSensJointPos: out[0] = d.qpos[m.jnt_qposadr[objid]]; break;
      case kSensTendonPos: out[0] = d.ten_length[objid]; break;
      case kSensActuatorPos: out[0] = d.actuator_length[objid]; break;
      case kSensBallQuat:
        math::copy4(out, d.qpos + m.jnt_qposadr[objid]);
        math::quat_normalize(out);
        break;
      case kSensJointLimitPos:
      case kSensTendonLimitPos: out[0] = sensor::limit_value(m, d, i); break;
      case kSensFramePos:
      case kSensFrameQuat:
      case kSensFrameXAxis:
      case kSensFrameYAxis:
      case kSensFrameZAxis: frame_sensor(m, d, i, out); break;
      case kSensSubtreeCom: math::copy3(out, d.subtree_com + 3 * objid); break;
      case kSensClock: out[0] = d.time; break;
      default: break;  // user sensors: no callback, data left as it is
    }
  }
  if (any) sensor::finish_stage(m, d, kStagePos);
}

}  // namespace joco
