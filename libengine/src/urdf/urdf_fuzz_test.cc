// Seeded mutations of real URDF files (numbers, names, joint types, references, nesting,
// truncation): every mutant either converts into MJCF that compiles, or is rejected with an
// InputError; none crashes, hangs or escapes with another exception.
#include <gtest/gtest.h>

#include <ostream>
#include <random>

#include "joco/error.h"
#include "joco/mjcf.h"
#include "joco/urdf.h"
#include "joco/validate.h"
#include "support/test_support.h"
#include "support/xml_mutation.h"

namespace joco {
namespace {

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
  return test::mutate_xml(text, rng, values, elements);
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
  const std::string original = test::read_text(path);
  UrdfOptions o;
  o.base_dir = path.substr(0, path.rfind('/'));
  // Exercise the optional rules too.
  const UrdfOptions::Actuators kinds[3] = {UrdfOptions::Actuators::kNone,
                                           UrdfOptions::Actuators::kMotor,
                                           UrdfOptions::Actuators::kPosition};
  int compiled = 0;
  const auto convert = [&](const std::string& text, int trial) {
    o.actuators = kinds[trial % 3];
    o.floating = trial % 4 == 1;
    o.fuse_fixed = trial % 5 != 2;
    const std::string mjcf = urdf_to_mjcf(text, "mutant.urdf", o);
    if (mjcf.empty()) return;
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
  };
  const test::MutantCounts n = test::run_mutants(
      original, std::hash<std::string>{}(GetParam().urdf), GetParam().trials, mutate, convert);
  EXPECT_GT(n.rejected, 0);
  EXPECT_GT(n.accepted, 0);
  std::cout << GetParam().urdf << ": " << n.accepted << " mutants converted (" << compiled
            << " compiled), " << n.rejected << " rejected\n";
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
