#include "sensor/sensor_touch.h"

#include "joco/ray.h"
#include "joco/smooth.h"
#include "math/vec.h"

namespace joco::sensor {

double touch(const Model& m, const Data& d, int site) {
  const int body = m.site_bodyid[site];
  double sum = 0;
  for (int c = 0; c < d.ncon; ++c) {
    const Contact& con = d.contact[c];
    const int body1 = m.geom_bodyid[con.geom1], body2 = m.geom_bodyid[con.geom2];
    if (body1 != body && body2 != body) continue;
    double force[6];
    contact_force(m, d, c, force);
    if (force[0] <= 0) continue;
    // the normal points from geom1 to geom2: away from the site's body when it holds geom1
    double dir[3];
    math::scale3(dir, con.frame, body1 == body ? 1 : -1);
    if (ray_geom(d.site_xpos + 3 * site, d.site_xmat + 9 * site, m.site_size + 3 * site, con.pos,
                 dir, m.site_type[site]) >= 0) {
      sum += force[0];
    }
  }
  return sum;
}

}  // namespace joco::sensor
