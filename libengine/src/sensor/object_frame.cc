#include "joco/sensor.h"
#include "math/spatial.h"
#include "sensor/sensor_util.h"

namespace joco {

namespace sensor {

ObjectFrame object_frame(const Model& m, const Data& d, int objtype, int objid) {
  switch (objtype) {
    case kObjBody: return {d.xipos + 3 * objid, d.ximat + 9 * objid, objid};
    case kObjXBody: return {d.xpos + 3 * objid, d.xmat + 9 * objid, objid};
    case kObjGeom: return {d.geom_xpos + 3 * objid, d.geom_xmat + 9 * objid, m.geom_bodyid[objid]};
    case kObjSite: return {d.site_xpos + 3 * objid, d.site_xmat + 9 * objid, m.site_bodyid[objid]};
    case kObjCamera: return {d.cam_xpos + 3 * objid, d.cam_xmat + 9 * objid, m.cam_bodyid[objid]};
    default: return {};
  }
}

void object_quat(const Model& m, const Data& d, int objtype, int objid, double quat[4]) {
  const double* local = nullptr;
  int body = objid;
  switch (objtype) {
    case kObjBody: local = m.body_iquat + 4 * objid; break;
    case kObjXBody: break;
    case kObjGeom:
      local = m.geom_quat + 4 * objid;
      body = m.geom_bodyid[objid];
      break;
    case kObjSite:
      local = m.site_quat + 4 * objid;
      body = m.site_bodyid[objid];
      break;
    case kObjCamera:
      local = m.cam_quat + 4 * objid;
      body = m.cam_bodyid[objid];
      break;
    default: math::quat_identity(quat); return;
  }
  if (local) {
    math::quat_mul(quat, d.xquat + 4 * body, local);
  } else {
    math::copy4(quat, d.xquat + 4 * body);
  }
  math::quat_normalize(quat);
}

}  // namespace sensor

namespace {

// The body's com-based 6D vector (cvel or cacc) moved to the object's origin.
void at_object(const Model& m, const Data& d, const sensor::ObjectFrame& f, const double* com_based,
               double* result) {
  const double* com = d.subtree_com + 3 * m.body_rootid[f.body];
  math::motion_to_point(result, com_based, com, f.pos);
}

void rotate_into(const double* mat, double* v6) {
  math::mat_t_vec3(v6, mat, v6);
  math::mat_t_vec3(v6 + 3, mat, v6 + 3);
}

}  // namespace

void object_velocity(const Model& m, const Data& d, int objtype, int objid, double result[6],
                     bool local) {
  const sensor::ObjectFrame f = sensor::object_frame(m, d, objtype, objid);
  if (f.body < 0) {
    math::zero6(result);
    return;
  }
  at_object(m, d, f, d.cvel + 6 * f.body, result);
  if (local) rotate_into(f.mat, result);
}

void object_acceleration(const Model& m, const Data& d, int objtype, int objid, double result[6],
                         bool local) {
  const sensor::ObjectFrame f = sensor::object_frame(m, d, objtype, objid);
  if (f.body < 0) {
    math::zero6(result);
    return;
  }
  double vel[6];
  at_object(m, d, f, d.cvel + 6 * f.body, vel);
  at_object(m, d, f, d.cacc + 6 * f.body, result);
  // the com-based (spatial) acceleration lacks w x v to be the acceleration of the moving point
  double wv[3];
  math::cross3(wv, vel, vel + 3);
  math::add3(result + 3, result + 3, wv);
  if (local) rotate_into(f.mat, result);
}

}  // namespace joco
