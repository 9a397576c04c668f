// Box against box.
#include "collision/narrowphase.h"

namespace joco::narrow {

int box_box(const Model& m, const Data& d, Contact* con, int g1, int g2, double margin) {
  return convex_convex(m, d, con, g1, g2, margin);  // TODO: MuJoCo's dedicated box-box
}

}  // namespace joco::narrow
