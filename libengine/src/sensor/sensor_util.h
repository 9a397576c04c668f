// What the sensor stages share: the frames of objects that have one, and the end of every stage
// (noise, then cutoff).
#pragma once

#include "joco/data.h"
#include "joco/model.h"

namespace joco::sensor {

// The global frame of an object with a frame (body: inertial frame, xbody, geom, site, camera):
// position, rotation matrix (row-major, axes as columns) and the body it moves with.
struct ObjectFrame {
  const double* pos = nullptr;
  const double* mat = nullptr;
  int body = -1;
};
ObjectFrame object_frame(const Model& m, const Data& d, int objtype, int objid);

// The orientation of such an object as a quaternion: its body's xquat times the object's quaternion
// in the body (body_iquat, geom_quat, site_quat, cam_quat), normalised.
void object_quat(const Model& m, const Data& d, int objtype, int objid, double quat[4]);

// Whether the sensor stages are switched off (the sensor disable flag).
inline bool sensors_disabled(const Model& m) { return (m.opt.disableflags & kDisableSensor) != 0; }

// Noise (when enabled) and cutoff for the sensors of one stage, in model order.
void finish_stage(const Model& m, Data& d, int stage);

}  // namespace joco::sensor
