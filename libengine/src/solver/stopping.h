// When the constraint solvers (PGS, CG, Newton, noslip) stop iterating.
#pragma once

#include <cmath>

namespace joco {

// Whether an iteration's (scaled) improvement of the cost ends the iterations: below the
// tolerance, or not a finite number. Forces that are no longer numbers cannot become numbers
// again, and MuJoCo 2.2.2, which only compares with the tolerance (false for NaN), iterates on to
// the limit, which a model may set in the millions.
inline bool improvement_ends_iterations(double improvement, double tolerance) {
  return !std::isfinite(improvement) || improvement < tolerance;
}

}  // namespace joco
