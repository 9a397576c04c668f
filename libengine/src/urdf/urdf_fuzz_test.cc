// Seeded mutations of real URDF files (numbers, names, joint types, references, nesting,
// truncation): every mutant either converts into MJCF that compiles, or is rejected with an
// InputError; none crashes, hangs or escapes with another exception.
#include <gtest/gtest.h>

#include <chrono>
#include <ostream>
#include <random>

#include "joco/error.h"
#include "joco/mjcf.h"
#include "joco/urdf.h"
#include "joco/validate.h"
#include "support/test_support.h"

namespace joco {
namespace {

std::string read_text(const std::string& path) {
  const std::vector<uint8_t> bytes = test::read_file(path);
  return std::string(bytes.begin(), bytes.end());
}

// One random edit of a URDF text.
std::string mutate(const std::string& text, std::mt19937_64& rng) {
  static const char* const values[] = {"0",
                                       "-1",
                                       "1e9",
                                       "-1e9",
                                       "1e300",
                                       "nan",
                                       "inf",
                                       "abc",
                                       "",
                                       "0.5",
                                       "3",
                                       "1 2",
                                       "0 0 0",
                                       "1 0 0",
                                       "-0",
                                       "1e-300",
                                       "base",
                                       "a",
                                       "fixed",
                                       "floating",
                                       "planar",
                                       "continuous",
                                       "prismatic",
                                       "package://x/y.stl",
                                       "l_finger.stl",
                                       "tiny.dae"};
  static const char* const elements[] = {"link",     "joint",  "inertial", "visual", "collision",
                                         "geometry", "box",    "mesh",     "origin", "limit",
                                         "mimic",    "parent", "child",    "robot",  "material"};
  std::string s = text;
  auto pick = [&rng](size_t n) { return static_cast<size_t>(rng() % std::max<size_t>(n, 1)); };
  switch (rng() % 8) {
    case 0: {  // replace an attribute value
      std::vector<std::pair<size_t, size_t>> spans;
      for (size_t q = s.find('"'); q != std::string::npos;) {
        const size_t end = s.find('"', q + 1);
        if (end == std::string::npos) break;
        spans.emplace_back(q + 1, end - q - 1);
        q = s.find('"', end + 1);
      }
      if (spans.empty()) break;
      const auto [at, length] = spans[pick(spans.size())];
      s.replace(at, length, values[pick(std::size(values))]);
      break;
    }
    case 1: {  // delete an attribute
      const size_t eq = s.find("=\"", pick(s.size()));
      if (eq == std::string::npos) break;
      const size_t start = s.rfind(' ', eq);
      const size_t end = s.find('"', eq + 2);
      if (start == std::string::npos || end == std::string::npos) break;
      s.erase(start, end - start + 1);
      break;
    }
    case 2: {  // duplicate a line
      const size_t start = s.rfind('\n', pick(s.size()));
      if (start == std::string::npos) break;
      const size_t end = s.find('\n', start + 1);
      if (end == std::string::npos) break;
      s.insert(end, s.substr(start, end - start));
      break;
    }
    case 3: {  // delete a line
      const size_t start = s.rfind('\n', pick(s.size()));
      if (start == std::string::npos) break;
      const size_t end = s.find('\n', start + 1);
      s.erase(start, end == std::string::npos ? std::string::npos : end - start);
      break;
    }
    case 4: s.resize(pick(s.size())); break;                            // truncate
    case 5: s[pick(s.size())] = static_cast<char>(rng() % 128); break;  // flip a byte
    case 6: {                                                           // rename an element
      const size_t open = s.find('<', pick(s.size()));
      if (open == std::string::npos || open + 1 >= s.size() ||
          !std::isalpha(static_cast<unsigned char>(s[open + 1]))) {
        break;
      }
      const size_t end = s.find_first_of(" />", open + 1);
      if (end == std::string::npos) break;
      s.replace(open + 1, end - open - 1, elements[pick(std::size(elements))]);
      break;
    }
    default: {  // move a line elsewhere (nesting, order)
      const size_t start = s.rfind('\n', pick(s.size()));
      if (start == std::string::npos) break;
      const size_t end = s.find('\n', start + 1);
      if (end == std::string::npos) break;
      const std::string line = s.substr(start, end - start);
      s.erase(start, end - start);
      s.insert(std::min(pick(s.size()), s.size()), line);
    }
  }
  return s;
}

struct FuzzCase {
  const char* urdf;
  int trials;
};

// Shown by GoogleTest in place of the parameter's bytes.
std::ostream& operator<<(std::ostream& os, const FuzzCase& c) { return os << c.urdf; }

class UrdfFuzz : public ::testing::TestWithParam<FuzzCase> {};

TEST_P(UrdfFuzz, MutantsConvertOrFailCleanly) {
  const std::string path = test::testdata(GetParam().urdf);
  const std::string original = read_text(path);
  std::mt19937_64 rng(std::hash<std::string>{}(GetParam().urdf));
  UrdfOptions o;
  o.base_dir = path.substr(0, path.rfind('/'));
  // Exercise the optional rules too.
  const UrdfOptions::Actuators kinds[3] = {UrdfOptions::Actuators::kNone,
                                           UrdfOptions::Actuators::kMotor,
                                           UrdfOptions::Actuators::kPosition};
  int converted = 0, compiled = 0, rejected = 0;
  for (int trial = 0; trial < GetParam().trials; ++trial) {
    std::string text = original;
    const int edits = 1 + static_cast<int>(rng() % 3);
    for (int e = 0; e < edits; ++e) text = mutate(text, rng);
    o.actuators = kinds[trial % 3];
    o.floating = trial % 4 == 1;
    o.fuse_fixed = trial % 5 != 2;
    const auto start = std::chrono::steady_clock::now();
    std::string mjcf;
    try {
      mjcf = urdf_to_mjcf(text, "mutant.urdf", o);
      ++converted;
    } catch (const InputError&) {
      ++rejected;
    } catch (const std::exception& e) {
      ADD_FAILURE() << "trial " << trial << ": unexpected " << typeid(e).name() << ": " << e.what()
                    << "\n"
                    << text;
    }
    if (!mjcf.empty()) {
      // What converts must be MJCF the compiler reads: it may still reject the physics (a mass of
      // 1e300, a mesh scaled to nothing), but only with an InputError, never for the MJCF's form.
      try {
        const Model m = compile_mjcf(mjcf, "mutant.xml", o.base_dir);
        validate_model(m, "mutant.xml");
        ++compiled;
      } catch (const InputError& e) {
        const std::string what = e.what();
        for (const char* form : {"unrecognized", "is not a number", "too many values",
                                 "too few values", "missing required attribute", "malformed XML",
                                 "is not one of", "repeated name", "unknown"}) {
          if (what.find(form) != std::string::npos) {
            ADD_FAILURE() << "trial " << trial
                          << ": the converter wrote MJCF the compiler cannot read: " << what << "\n"
                          << mjcf;
          }
        }
      } catch (const std::exception& e) {
        ADD_FAILURE() << "trial " << trial << ": compiling the MJCF: " << typeid(e).name() << ": "
                      << e.what();
      }
    }
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    EXPECT_LT(seconds, 5.0) << "trial " << trial << " took " << seconds << " s";
  }
  EXPECT_GT(rejected, 0);
  EXPECT_GT(converted, 0);
  std::cout << GetParam().urdf << ": " << converted << " mutants converted (" << compiled
            << " compiled), " << rejected << " rejected\n";
}

INSTANTIATE_TEST_SUITE_P(Robots, UrdfFuzz,
                         ::testing::Values(FuzzCase{"urdf/r2d2/r2d2.urdf", 500},
                                           FuzzCase{"urdf/minitaur_primitive/quadruped.urdf", 500},
                                           FuzzCase{"urdf/panda/panda.urdf", 200}),
                         [](const ::testing::TestParamInfo<FuzzCase>& p) {
                           std::string name = p.param.urdf;
                           name = name.substr(5, name.find('/', 5) - 5);
                           return name;
                         });

}  // namespace
}  // namespace joco
