// The polynomial of joint and tendon equalities, shared by their constraint rows and by inverse
// kinematics (which eliminates joint equalities instead of adding rows).
#pragma once

namespace joco {

// y - y0 = a0 + a1 x + ... + a4 x^4 with x = x - x0 (x absent: y - y0 = a0). Returns the residual
// and sets *slope = dpoly/dx.
double polynomial_residual(const double* a, double y, double y0, bool with_x, double x, double x0,
                           double* slope);

}  // namespace joco
