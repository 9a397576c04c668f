// Seeded mutations of real MJCF files (numbers, attributes, nesting, truncation): every mutant
// either compiles into a valid model or is rejected with an InputError; none crashes or hangs.
#include <gtest/gtest.h>

#include <random>
#include <regex>

#include "joco/error.h"
#include "joco/mjcf.h"
#include "joco/validate.h"
#include "support/test_support.h"
#include "support/xml_mutation.h"

namespace joco {
namespace {

// One random edit of an XML text.
std::string mutate(const std::string& text, std::mt19937_64& rng) {
  static const char* const numbers[] = {
      "0", "-1",  "1e9", "-1e9", "1e300", "nan",           "inf", "-inf",       "abc",
      "",  "0.5", "3",   "7",    "1 2",   "1 2 3 4 5 6 7", "-0",  "2147483648", "1e-300"};
  static const char* const elements[] = {"body",      "geom",  "joint",    "site",   "default",
                                         "worldbody", "asset", "actuator", "tendon", "spatial",
                                         "include",   "key",   "mujoco"};
  return test::mutate_xml(text, rng, numbers, elements);
}

class MjcfFuzz : public ::testing::TestWithParam<const char*> {};

TEST_P(MjcfFuzz, MutantsCompileOrFailCleanly) {
  const test::MutantCounts n = test::run_mutants(
      test::read_text(test::testdata(GetParam())), std::hash<std::string>{}(GetParam()), 150,
      mutate, [](const std::string& text, int) {
        const Model m = compile_mjcf(text, "mutant.xml", test::testdata("mujoco-tests"));
        validate_model(m, "mutant.xml");
      });
  EXPECT_GT(n.rejected, 0);
  std::cout << GetParam() << ": " << n.accepted << " mutants compiled, " << n.rejected
            << " rejected\n";
}

INSTANTIATE_TEST_SUITE_P(
    Models, MjcfFuzz,
    ::testing::Values(
        "mujoco/model/slider_crank/slider_crank.xml", "mujoco/model/tendon_arm/arm26.xml",
        "mujoco-tests/test__engine__testdata__sites.xml",
        "mujoco-tests/test__user__testdata__keyframe.xml",
        "mujoco-tests/test__engine__testdata__core_smooth__rne_post__weld__force_free.xml"));

}  // namespace
}  // namespace joco
