// Small models built by hand, for tests of the model core that must not depend on the compiler.
#pragma once

#include "joco/model.h"

namespace joco::test {

// A world with a two-link hinge pendulum (one capsule geom per link, a site on the tip) and a free
// box: 3 joints, nq = 9, nv = 8, one motor actuator on the first hinge, one keyframe.
Model pendulum_model();

}  // namespace joco::test
