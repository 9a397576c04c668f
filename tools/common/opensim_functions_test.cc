#include "common/opensim_functions.h"

#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <string>
#include <vector>

#include "joco/error.h"
#include "support/test_support.h"

namespace joco::tools {
namespace {

const std::string kOsim =
    std::string(JOCO_TESTDATA_DIR) + "/mocap/gait2354_subject01/opensim/subject01_simbody.osim";

// f' and f'' against central differences of f and f' at x.
void expect_derivatives(const OsimFunction& f, double x, const std::string& label) {
  const double h = 1e-6;
  const auto [v, d1, d2] = f(x);
  EXPECT_NEAR(d1, (f(x + h)[0] - f(x - h)[0]) / (2 * h), 1e-7 * (1 + std::abs(d1))) << label << x;
  EXPECT_NEAR(d2, (f(x + h)[1] - f(x - h)[1]) / (2 * h), 1e-6 * (1 + std::abs(d2))) << label << x;
}

// The end conditions of Forsythe, Malcolm and Moler's spline (OpenSim's SimmSpline) match the
// third derivatives of the cubics through the end knots, so a cubic's samples give the cubic back
// exactly, between the knots and in both derivatives.
TEST(OsimFunction, SimmSplineReproducesACubic) {
  const auto cubic = [](double x) { return 0.3 - 1.2 * x + 0.7 * x * x - 0.25 * x * x * x; };
  const std::vector<double> x = {-2.0, -1.3, -0.2, 0.1, 0.9, 2.4};
  std::vector<double> y;
  for (double k : x) y.push_back(cubic(k));
  const OsimFunction f = OsimFunction::simm_spline(x, y);
  for (double q = -2.0; q <= 2.4; q += 0.037) {
    const auto [v, d1, d2] = f(q);
    EXPECT_NEAR(v, cubic(q), 1e-12) << q;
    EXPECT_NEAR(d1, -1.2 + 1.4 * q - 0.75 * q * q, 1e-11) << q;
    EXPECT_NEAR(d2, 1.4 - 1.5 * q, 1e-10) << q;
  }
  // Three knots: the parabola through them; two: the line.
  const OsimFunction p = OsimFunction::simm_spline({0, 1, 3}, {1, 2, 10});  // 1 + 0 x + x^2
  EXPECT_NEAR(p(2)[0], 5, 1e-12);
  EXPECT_NEAR(p(2)[2], 2, 1e-12);
  const OsimFunction l = OsimFunction::simm_spline({0, 2}, {1, 2});
  EXPECT_NEAR(l(1.5)[0], 1.75, 1e-15);
  EXPECT_EQ(l(1.5)[2], 0);
}

// The natural cubic spline through (0, 0), (1, 1), (2, 0): s'' = 0 at the ends, so on [0, 1]
// s = -x^3 / 2 + 3 x / 2 (s''(1) = -3 from the one interior equation 4 M = 6 (-1 - 1)).
TEST(OsimFunction, NaturalCubicSplineByHand) {
  const OsimFunction f = OsimFunction::natural_cubic_spline({0, 1, 2}, {0, 1, 0});
  EXPECT_NEAR(f(0.5)[0], 0.6875, 1e-15);
  EXPECT_NEAR(f(1.5)[0], 0.6875, 1e-15);
  EXPECT_NEAR(f(1)[1], 0, 1e-15);
  EXPECT_NEAR(f(1)[2], -3, 1e-14);
  EXPECT_NEAR(f(0)[2], 0, 1e-15);
  EXPECT_NEAR(f(2)[2], 0, 1e-15);
  EXPECT_NEAR(f(0)[1], 1.5, 1e-15);
}

// Both splines on the knee's knots (translation1 of the trial's .osim): through the knots, f, f'
// and f'' continuous at them, derivatives as finite differences say, natural ends with zero
// curvature, and past the knots along the end slopes.
TEST(OsimFunction, SplinesOnTheKneeKnots) {
  const std::vector<double> x = {-2.0944,   -1.74533, -1.39626, -1.0472,  -0.698132, -0.349066,
                                 -0.174533, 0.197344, 0.337395, 0.490178, 1.52146,   2.0944};
  const std::vector<double> y = {-0.0032, 0.00179,   0.00411,   0.0041,    0.00212,   -0.001,
                                 -0.0031, -0.005227, -0.005435, -0.005574, -0.005435, -0.00525};
  for (const bool natural : {false, true}) {
    const OsimFunction f =
        natural ? OsimFunction::natural_cubic_spline(x, y) : OsimFunction::simm_spline(x, y);
    const std::string label = natural ? "natural " : "simm ";
    for (size_t k = 0; k < x.size(); ++k) {
      EXPECT_NEAR(f(x[k])[0], y[k], 1e-15) << label << k;
      if (k == 0 || k + 1 == x.size()) continue;
      const double e = 1e-9;
      for (int i = 0; i < 3; ++i)
        EXPECT_NEAR(f(x[k] - e)[i], f(x[k] + e)[i], 1e-6) << label << "knot " << k << " f" << i;
    }
    for (size_t k = 0; k + 1 < x.size(); ++k)
      for (double t : {0.17, 0.5, 0.83}) expect_derivatives(f, x[k] + t * (x[k + 1] - x[k]), label);
    if (natural) {
      EXPECT_NEAR(f(x.front())[2], 0, 1e-12);
      EXPECT_NEAR(f(x.back())[2], 0, 1e-12);
    }
    const auto end = f(x.back());
    const auto past = f(x.back() + 0.5);
    EXPECT_NEAR(past[0], end[0] + 0.5 * end[1], 1e-15) << label;
    EXPECT_EQ(past[2], 0) << label;
    EXPECT_NEAR(f(x.front() - 0.2)[0], y[0] - 0.2 * f(x.front())[1], 1e-15) << label;
  }
}

TEST(OsimFunction, PolynomialLinearConstantAndScale) {
  OsimFunction p = OsimFunction::polynomial({2, -1, 3});  // 2 x^2 - x + 3, highest first
  const auto v = p(1.5);
  EXPECT_DOUBLE_EQ(v[0], 6);
  EXPECT_DOUBLE_EQ(v[1], 5);
  EXPECT_DOUBLE_EQ(v[2], 4);
  p.set_scale(0.5);
  EXPECT_DOUBLE_EQ(p(1.5)[1], 2.5);
  EXPECT_EQ(p.name(), "MultiplierFunction(PolynomialFunction)");
  const auto l = OsimFunction::linear(2, 1)(3);
  EXPECT_EQ(l[0], 7);
  EXPECT_EQ(l[1], 2);
  EXPECT_EQ(l[2], 0);
  EXPECT_EQ(OsimFunction::constant(4)(9)[0], 4);
  EXPECT_EQ(OsimFunction::constant(4)(9)[1], 0);
  EXPECT_THROW(OsimFunction::simm_spline({0, 1, 1}, {0, 1, 2}), std::invalid_argument);
  EXPECT_THROW(OsimFunction::simm_spline({0, 1}, {0, 1, 2}), std::invalid_argument);
}

// The trial's .osim: the knees' translations are MultiplierFunctions (scale 1.14724) of
// SimmSplines of the knee angle; the other one-coordinate axes are LinearFunctions.
TEST(OsimFunction, ReadsTheTrialsCouplings) {
  const std::vector<OsimCoupling> c = read_osim_couplings(kOsim);
  int splines = 0;
  for (const OsimCoupling& a : c) {
    EXPECT_TRUE(a.unsupported.empty()) << a.unsupported;
    if (a.function.kind() != OsimFunction::Kind::kSimmSpline) {
      EXPECT_EQ(a.function.kind(), OsimFunction::Kind::kLinear) << a.mjcf_joint();
      continue;
    }
    ++splines;
    EXPECT_EQ(a.joint.substr(0, 5), "knee_");
    EXPECT_EQ(a.coordinate, "knee_angle_" + a.joint.substr(5));
    EXPECT_EQ(a.function.scale(), 1.14724);
    if (a.mjcf_joint() == "knee_r_translation2") {  // the knot (-0.349066, -0.3976), scaled
      EXPECT_NEAR(a.function(-0.349066)[0], -0.3976 * 1.14724, 1e-15);
      EXPECT_EQ(a.function.name(), "MultiplierFunction(SimmSpline)");
    }
  }
  EXPECT_EQ(splines, 4);
  EXPECT_EQ(c.size(), 27u);
}

// OpenSim 3's form (the function inside <function>), a function type not read, and bad knots.
TEST(OsimFunction, OtherFormsAndErrors) {
  const test::TempDir temp;
  const auto write =
      [&](const std::string& name, const std::string& axis) {
        std::ofstream(temp / name)
            << "<OpenSimDocument Version='30000'><Model name='m'><JointSet><objects>\n"
               "<CustomJoint name='knee'><SpatialTransform>\n<TransformAxis name='translation1'>\n"
               "<coordinates>angle</coordinates><axis>1 0 0</axis>\n"
            << axis << "</TransformAxis></SpatialTransform></CustomJoint>\n"
            << "</objects></JointSet></Model></OpenSimDocument>\n";
        return temp / name;
      };
  auto c = read_osim_couplings(
      write("v3.osim",
            "<function><NaturalCubicSpline><x>0 1 2</x><y>0 1 0</y></NaturalCubicSpline>"
            "</function>\n"));
  ASSERT_EQ(c.size(), 1u);
  EXPECT_EQ(c[0].mjcf_joint(), "knee_translation1");
  EXPECT_EQ(c[0].coordinate, "angle");
  EXPECT_NEAR(c[0].function(0.5)[0], 0.6875, 1e-15);
  c = read_osim_couplings(write("gcv.osim", "<GCVSpline name='function'><x>0 1</x></GCVSpline>\n"));
  ASSERT_EQ(c.size(), 1u);
  EXPECT_NE(c[0].unsupported.find("<GCVSpline> at line 5 is not read"), std::string::npos)
      << c[0].unsupported;
  try {
    read_osim_couplings(write("bad.osim",
                              "<SimmSpline name='function'>\n<x>0 2 1</x><y>0 1 2</y>"
                              "</SimmSpline>\n"));
    ADD_FAILURE() << "no error";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("bad.osim:5: <SimmSpline>: the knots x do not increase"),
              std::string::npos)
        << e.what();
  }
  std::ofstream(temp / "not.osim") << "<mujoco/>";
  EXPECT_THROW(read_osim_couplings(temp / "not.osim"), InputError);
}

}  // namespace
}  // namespace joco::tools
