// OpenSim's functions of one coordinate, as a CustomJoint's SpatialTransform holds them, and the
// .osim reader that finds the transform axes made to depend on a coordinate by one.
//
// Functions read (OpenSim 3 and 4 forms: the function element directly in the TransformAxis, or
// wrapped in <function>):
//   Constant (value), LinearFunction (coefficients: slope, intercept), PolynomialFunction
//   (coefficients, highest order first), SimmSpline (x, y: a cubic spline whose end conditions
//   match the third derivatives of the cubics through the first and the last four knots,
//   Forsythe, Malcolm and Moler's `spline`; three knots give the parabola, two the line),
//   NaturalCubicSpline (x, y: second derivative zero at both ends), and a MultiplierFunction
//   (scale) wrapping one of them. Splines extend past their knots along their end slopes.
// Other function types (GCVSpline, PiecewiseLinearFunction, ...) are read as unsupported: the axis
// is listed with the reason, and it is for the caller to refuse it when it needs that axis.
#pragma once

#include <array>
#include <string>
#include <vector>

namespace joco::tools {

class OsimFunction {
 public:
  enum class Kind { kConstant, kLinear, kPolynomial, kSimmSpline, kNaturalCubicSpline };

  static OsimFunction constant(double value);
  static OsimFunction linear(double slope, double intercept);
  // coefficients highest order first, as OpenSim writes them
  static OsimFunction polynomial(std::vector<double> coefficients);
  // Knots strictly increasing, at least two; std::invalid_argument otherwise.
  static OsimFunction simm_spline(std::vector<double> x, std::vector<double> y);
  static OsimFunction natural_cubic_spline(std::vector<double> x, std::vector<double> y);

  // The value and its first two derivatives at x.
  std::array<double, 3> operator()(double x) const;
  Kind kind() const { return kind_; }
  // Its OpenSim name ("SimmSpline", "MultiplierFunction(SimmSpline)", ...).
  std::string name() const;
  // Multiplies the function (OpenSim's MultiplierFunction).
  void set_scale(double scale) { scale_ = scale; }
  double scale() const { return scale_; }

 private:
  Kind kind_ = Kind::kConstant;
  double scale_ = 1;
  std::vector<double> coef_;  // lowest order first (constant, linear, polynomial)
  // A spline's piece k from x_[k]: y_[k] + t (b_[k] + t (c_[k] + t d_[k])), t = x - x_[k].
  std::vector<double> x_, y_, b_, c_, d_;
  void fit(bool natural);
};

// A TransformAxis of a CustomJoint that a function of one coordinate moves.
struct OsimCoupling {
  std::string joint;       // the CustomJoint's name (knee_r)
  std::string axis;        // the TransformAxis' name (translation1, rotation2, ...)
  std::string coordinate;  // the coordinate it depends on (knee_angle_r)
  int line = 0;            // of the TransformAxis in the file, for messages
  OsimFunction function;
  std::string unsupported;  // non-empty: why the function could not be read (its type, ...)
  // The name the MJCF conversion gives the joint of this axis: JOINT_AXIS (knee_r_translation1).
  std::string mjcf_joint() const { return joint + "_" + axis; }
};

// Every TransformAxis of the .osim's CustomJoints that depends on exactly one coordinate, with its
// function. Throws InputError naming the file (unreadable, malformed XML, no <Model>) or the line
// (a supported function with bad numbers: knots not increasing, x and y of different lengths).
std::vector<OsimCoupling> read_osim_couplings(const std::string& path);

}  // namespace joco::tools
