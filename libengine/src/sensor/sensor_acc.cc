// Acceleration- and force-dependent sensors (mj_sensorAcc).
#include "joco/sensor.h"
#include "joco/smooth.h"
#include "math/spatial.h"
#include "sensor/sensor_limit.h"
#include "sensor/sensor_touch.h"
#include "sensor/sensor_util.h"

namespace joco {

namespace {

// Sensors that read cacc or cfrc_int, which rne_post_constraint computes; MuJoCo also computes
// them for the sensor callback when there are user sensors of this stage.
bool needs_rne_post(int type) {
  return type == kSensAccelerometer || type == kSensForce || type == kSensTorque ||
         type == kSensFrameLinAcc || type == kSensFrameAngAcc || type == kSensUser;
}

// The interaction force between the site's body and its parent, moved to the site and expressed
// in its frame: [torque; force].
void site_interaction(const Model& m, const Data& d, int site, double* wrench) {
  const int body = m.site_bodyid[site];
  const double* pos = d.site_xpos + 3 * site;
  math::force_to_point(wrench, d.cfrc_int + 6 * body, d.subtree_com + 3 * m.body_rootid[body], pos);
  const double* mat = d.site_xmat + 9 * site;
  math::mat_t_vec3(wrench, mat, wrench);
  math::mat_t_vec3(wrench + 3, mat, wrench + 3);
}

}  // namespace

void sensor_acc(const Model& m, Data& d) {
  if (sensor::sensors_disabled(m)) return;
  bool any = false, rne_post = false;
  for (int i = 0; i < m.nsensor; ++i) {
    if (m.sensor_needstage[i] != kStageAcc) continue;
    any = true;
    rne_post = rne_post || needs_rne_post(m.sensor_type[i]);
  }
  if (!any) return;
  if (rne_post) rne_post_constraint(m, d);

  for (int i = 0; i < m.nsensor; ++i) {
    if (m.sensor_needstage[i] != kStageAcc) continue;
    const int type = m.sensor_type[i];
    const int objid = m.sensor_objid[i];
    double* out = d.sensordata + m.sensor_adr[i];
    switch (type) {
      case kSensTouch: out[0] = sensor::touch(m, d, objid); break;
      case kSensAccelerometer: {
        double acc[6];
        object_acceleration(m, d, kObjSite, objid, acc, true);
        math::copy3(out, acc + 3);
        break;
      }
      case kSensForce:
      case kSensTorque: {
        double wrench[6];
        site_interaction(m, d, objid, wrench);
        math::copy3(out, type == kSensTorque ? wrench : wrench + 3);
        break;
      }
      case kSensActuatorFrc: out[0] = d.actuator_force[objid]; break;
      case kSensJointLimitFrc:
      case kSensTendonLimitFrc: out[0] = sensor::limit_value(m, d, i); break;
      case kSensFrameLinAcc:
      case kSensFrameAngAcc: {
        double acc[6];
        object_acceleration(m, d, m.sensor_objtype[i], objid, acc, false);
        math::copy3(out, type == kSensFrameAngAcc ? acc : acc + 3);
        break;
      }
      default: break;  // user sensors: no callback, data left as it is
    }
  }
  sensor::finish_stage(m, d, kStageAcc);
}

}  // namespace joco
