#include "common/opensim_functions.h"

#include <tinyxml2.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <cstring>
#include <stdexcept>

#include "common/io.h"
#include "joco/error.h"
#include "joco/xml_error.h"

namespace joco::tools {

OsimFunction OsimFunction::constant(double value) {
  OsimFunction f;
  f.kind_ = Kind::kConstant;
  f.coef_ = {value};
  return f;
}

OsimFunction OsimFunction::linear(double slope, double intercept) {
  OsimFunction f;
  f.kind_ = Kind::kLinear;
  f.coef_ = {intercept, slope};
  return f;
}

OsimFunction OsimFunction::polynomial(std::vector<double> coefficients) {
  if (coefficients.empty()) throw std::invalid_argument("a polynomial needs a coefficient");
  OsimFunction f;
  f.kind_ = Kind::kPolynomial;
  f.coef_.assign(coefficients.rbegin(), coefficients.rend());
  return f;
}

OsimFunction OsimFunction::simm_spline(std::vector<double> x, std::vector<double> y) {
  OsimFunction f;
  f.kind_ = Kind::kSimmSpline;
  f.x_ = std::move(x), f.y_ = std::move(y);
  f.fit(false);
  return f;
}

OsimFunction OsimFunction::natural_cubic_spline(std::vector<double> x, std::vector<double> y) {
  OsimFunction f;
  f.kind_ = Kind::kNaturalCubicSpline;
  f.x_ = std::move(x), f.y_ = std::move(y);
  f.fit(true);
  return f;
}

// The cubic pieces through the knots: sigma_i = s''(x_i) / 6 from the tridiagonal system of the
// continuous second derivative, with the end rows of the spline's kind.
void OsimFunction::fit(bool natural) {
  const size_t n = x_.size();
  if (n != y_.size())
    throw std::invalid_argument("x has " + std::to_string(n) + " values, y " +
                                std::to_string(y_.size()));
  if (n < 2) throw std::invalid_argument("a spline needs at least two knots");
  std::vector<double> h(n - 1), slope(n - 1);
  for (size_t i = 0; i + 1 < n; ++i) {
    h[i] = x_[i + 1] - x_[i];
    if (!(h[i] > 0)) throw std::invalid_argument("the knots x do not increase");
    slope[i] = (y_[i + 1] - y_[i]) / h[i];
  }
  b_.assign(n, 0), c_.assign(n, 0), d_.assign(n, 0);
  if (n == 2) {  // the line
    b_[0] = b_[1] = slope[0];
    return;
  }
  // Row i: lower sigma_i-1 + diag sigma_i + upper sigma_i+1 = rhs.
  std::vector<double> lower(n, 0), diag(n), upper(n, 0), rhs(n, 0);
  for (size_t i = 1; i + 1 < n; ++i) {
    lower[i] = h[i - 1], diag[i] = 2 * (h[i - 1] + h[i]), upper[i] = h[i];
    rhs[i] = slope[i] - slope[i - 1];
  }
  if (natural) {
    diag[0] = diag[n - 1] = 1;  // s'' = 0 at both ends
  } else {
    // -h sigma_0 + h sigma_1 = h^2 times the third divided difference of the first four knots,
    // likewise at the other end (zero with three knots: the parabola through them).
    const auto third = [&](size_t i) {  // of x_i .. x_i+3
      const double a = (slope[i + 1] - slope[i]) / (x_[i + 2] - x_[i]);
      const double b = (slope[i + 2] - slope[i + 1]) / (x_[i + 3] - x_[i + 1]);
      return (b - a) / (x_[i + 3] - x_[i]);
    };
    diag[0] = -h[0], upper[0] = h[0];
    diag[n - 1] = -h[n - 2], lower[n - 1] = h[n - 2];
    if (n >= 4) {
      rhs[0] = h[0] * h[0] * third(0);
      rhs[n - 1] = -h[n - 2] * h[n - 2] * third(n - 4);
    }
  }
  for (size_t i = 1; i < n; ++i) {
    const double w = lower[i] / diag[i - 1];
    diag[i] -= w * upper[i - 1], rhs[i] -= w * rhs[i - 1];
  }
  std::vector<double> sigma(n);
  sigma[n - 1] = rhs[n - 1] / diag[n - 1];
  for (size_t i = n - 1; i-- > 0;) sigma[i] = (rhs[i] - upper[i] * sigma[i + 1]) / diag[i];
  for (size_t i = 0; i + 1 < n; ++i) {
    b_[i] = slope[i] - h[i] * (sigma[i + 1] + 2 * sigma[i]);
    c_[i] = 3 * sigma[i];
    d_[i] = (sigma[i + 1] - sigma[i]) / h[i];
  }
  b_[n - 1] = slope[n - 2] + h[n - 2] * (sigma[n - 2] + 2 * sigma[n - 1]);
}

std::array<double, 3> OsimFunction::operator()(double q) const {
  std::array<double, 3> f = {0, 0, 0};
  if (kind_ == Kind::kSimmSpline || kind_ == Kind::kNaturalCubicSpline) {
    const size_t n = x_.size();
    if (q < x_[0]) {
      f = {y_[0] + (q - x_[0]) * b_[0], b_[0], 0};
    } else if (q > x_[n - 1]) {
      f = {y_[n - 1] + (q - x_[n - 1]) * b_[n - 1], b_[n - 1], 0};
    } else {
      // The piece k with x_k <= q (the last piece for q = x_n-1).
      const size_t k = std::min<size_t>(
          static_cast<size_t>(std::upper_bound(x_.begin(), x_.end(), q) - x_.begin()) - 1, n - 2);
      const double t = q - x_[k];
      f = {y_[k] + t * (b_[k] + t * (c_[k] + t * d_[k])), b_[k] + t * (2 * c_[k] + 3 * t * d_[k]),
           2 * c_[k] + 6 * t * d_[k]};
    }
  } else {
    for (size_t i = coef_.size(); i-- > 0;) {  // Horner's rule for the value and both derivatives
      f[2] = f[2] * q + 2 * f[1];
      f[1] = f[1] * q + f[0];
      f[0] = f[0] * q + coef_[i];
    }
  }
  for (double& v : f) v *= scale_;
  return f;
}

std::string OsimFunction::name() const {
  const char* names[] = {"Constant", "LinearFunction", "PolynomialFunction", "SimmSpline",
                         "NaturalCubicSpline"};
  const std::string base = names[static_cast<int>(kind_)];
  return scale_ != 1 ? "MultiplierFunction(" + base + ")" : base;
}

namespace {

using Element = tinyxml2::XMLElement;

std::vector<double> numbers(const Element* e) {
  std::vector<double> v;
  const char* text = e ? e->GetText() : nullptr;
  if (!text) return v;
  for (char* end = nullptr;; text = end) {
    const double x = std::strtod(text, &end);
    if (end == text) break;
    v.push_back(x);
  }
  return v;
}

// The function element of a TransformAxis or a MultiplierFunction: the child <function>'s first
// element (OpenSim 3, and inside a MultiplierFunction), or the first child that is neither
// <coordinates> nor <axis> (OpenSim 4: <SimmSpline name="function">).
const Element* function_element(const Element* parent) {
  for (const Element* c = parent->FirstChildElement(); c; c = c->NextSiblingElement()) {
    const std::string tag = c->Name();
    if (tag == "function") return c->FirstChildElement();
    if (tag != "coordinates" && tag != "axis" && tag != "scale") return c;
  }
  return nullptr;
}

// Reads `e` into f; returns why not when its type is not one read.
std::string read_function(const Element* e, const std::string& where, OsimFunction& f) {
  if (!e) return "no function";
  const std::string tag = e->Name();
  const std::string at = where + ":" + std::to_string(e->GetLineNum()) + ": <" + tag + ">";
  try {
    if (tag == "MultiplierFunction") {
      const std::vector<double> scale = numbers(e->FirstChildElement("scale"));
      const std::string why = read_function(function_element(e), where, f);
      if (!why.empty()) return why;
      f.set_scale(f.scale() * (scale.empty() ? 1.0 : scale[0]));
      return "";
    }
    if (tag == "Constant") {
      const std::vector<double> v = numbers(e->FirstChildElement("value"));
      f = OsimFunction::constant(v.empty() ? 0.0 : v[0]);
      return "";
    }
    if (tag == "LinearFunction") {
      const std::vector<double> c = numbers(e->FirstChildElement("coefficients"));
      if (c.size() != 2) throw std::invalid_argument("expected 2 coefficients (slope, intercept)");
      f = OsimFunction::linear(c[0], c[1]);
      return "";
    }
    if (tag == "PolynomialFunction") {
      f = OsimFunction::polynomial(numbers(e->FirstChildElement("coefficients")));
      return "";
    }
    if (tag == "SimmSpline" || tag == "NaturalCubicSpline") {
      std::vector<double> x = numbers(e->FirstChildElement("x")),
                          y = numbers(e->FirstChildElement("y"));
      f = tag == "SimmSpline" ? OsimFunction::simm_spline(std::move(x), std::move(y))
                              : OsimFunction::natural_cubic_spline(std::move(x), std::move(y));
      return "";
    }
  } catch (const std::invalid_argument& error) {
    throw InputError(at + ": " + error.what());
  }
  return "<" + tag + "> at line " + std::to_string(e->GetLineNum()) +
         " is not read (Constant, LinearFunction, PolynomialFunction, SimmSpline, "
         "NaturalCubicSpline and a MultiplierFunction of one are)";
}

}  // namespace

std::vector<OsimCoupling> read_osim_couplings(const std::string& path) {
  const std::vector<uint8_t> bytes = read_input(path);
  tinyxml2::XMLDocument doc;
  if (doc.Parse(reinterpret_cast<const char*>(bytes.data()), bytes.size()) != tinyxml2::XML_SUCCESS)
    throw InputError(path + ":" + std::to_string(doc.ErrorLineNum()) +
                     ": malformed XML: " + joco::xml_error_in_words(doc.ErrorID(), doc.ErrorStr()));
  const Element* root = doc.RootElement();
  const Element* model = root && std::strcmp(root->Name(), "Model") == 0 ? root
                         : root ? root->FirstChildElement("Model")
                                : nullptr;
  if (!model) throw InputError(path + ": no <Model> element (not an OpenSim model)");
  std::vector<OsimCoupling> out;
  std::vector<const Element*> stack = {model};
  std::vector<const Element*> joints;
  while (!stack.empty()) {  // every CustomJoint, in file order
    const Element* e = stack.back();
    stack.pop_back();
    if (std::strcmp(e->Name(), "CustomJoint") == 0) joints.push_back(e);
    std::vector<const Element*> children;
    for (const Element* c = e->FirstChildElement(); c; c = c->NextSiblingElement())
      children.push_back(c);
    stack.insert(stack.end(), children.rbegin(), children.rend());
  }
  for (const Element* j : joints) {
    const Element* transform = j->FirstChildElement("SpatialTransform");
    if (!transform) continue;
    for (const Element* a = transform->FirstChildElement("TransformAxis"); a;
         a = a->NextSiblingElement("TransformAxis")) {
      std::vector<std::string> coordinates;
      if (const Element* c = a->FirstChildElement("coordinates"); c && c->GetText()) {
        std::string word;
        for (const char* p = c->GetText();; ++p) {
          if (*p && !std::isspace(static_cast<unsigned char>(*p))) {
            word += *p;
          } else {
            if (!word.empty()) coordinates.push_back(word);
            word.clear();
            if (!*p) break;
          }
        }
      }
      if (coordinates.size() != 1) continue;
      OsimCoupling coupling;
      coupling.joint = j->Attribute("name") ? j->Attribute("name") : "";
      coupling.axis = a->Attribute("name") ? a->Attribute("name") : "";
      coupling.coordinate = coordinates[0];
      coupling.line = a->GetLineNum();
      coupling.unsupported = read_function(function_element(a), path, coupling.function);
      out.push_back(std::move(coupling));
    }
  }
  return out;
}

}  // namespace joco::tools
