// The one list of test models. Tests that sweep models take them from here (filtering, with a
// comment, where a test's subject needs a part of the list) instead of keeping lists of their own.
//
//   quick_models()         a handful covering every kind of constraint (equalities, friction loss,
//                          limits, contacts, tendons, muscles, a real robot): the default suite
//   long_models()          the larger and slower ones, swept by LongSweep/ tests (ctest -L long)
//   all_testdata_models()  every model in testdata/: the MJCF and URDF files whose root element is
//                          <mujoco> or <robot> (not include fragments), found by globbing
//   testdata_files()       every .xml and .urdf file in testdata/, fragments included
//
// A test whose subject needs a part of a list filters it by what the models contain (the table of
// support/model_features.h, made at build time), e.g. the quick models with tendons:
//   models_where([](const ModelFeatures& f) { return f.ntendon > 0; }, ModelSet::kQuick)
// A test that needs one model for one case (a regression, a model written for it) names it.
//
// Paths are relative to testdata/ (test::testdata() makes them absolute), sorted where globbed.
#pragma once

#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <vector>

#include "support/model_features.h"

namespace joco::test {

const std::vector<std::string>& quick_models();
const std::vector<std::string>& long_models();
std::vector<std::string> all_testdata_models();
std::vector<std::string> testdata_files();

enum class ModelSet { kQuick, kLong, kAll };
using ModelFilter = std::function<bool(const ModelFeatures&)>;

// The models of a set (in its order; kAll sorted by path) that compile and satisfy pred.
std::vector<std::string> models_where(const ModelFilter& pred, ModelSet set = ModelSet::kAll);

// A sweep over every model with a feature, split between the default suite and the long one. The
// default share is the models with the feature under the stage's own testdata folder (the ones
// written for its tests; "" for none), the quick ones, and for each kind of the feature (each bit
// kinds(f) sets: actuator types, sensor types, ...) the smallest small model (ModelFeatures::small)
// of that kind; the long share is every other model with the feature.
using ModelKinds = std::function<uint64_t(const ModelFeatures&)>;
std::vector<std::string> sweep_models(const ModelFilter& pred, const ModelKinds& kinds,
                                      const std::string& folder = "");
std::vector<std::string> long_sweep_models(const ModelFilter& pred, const ModelKinds& kinds,
                                           const std::string& folder = "");

// The sweep of a stage that every model exercises (kinematics, inertia, ...): the models written
// for it (under its testdata folder, e.g. "smooth/") and the small quick ones; its long sweep,
// the other quick ones and the long list (those that satisfy pred, when given).
std::vector<std::string> stage_models(const std::string& folder);
std::vector<std::string> long_stage_models(const std::string& folder, const ModelFilter& pred = {});

// Instantiates an oracle suite whose parameter is a model path over a sweep (of the models MuJoCo
// 2.2.2 loads): Models/ (the default suite) and LongSweep/ (ctest -L long).
#define JOCO_INSTANTIATE_SWEEP(suite, pred, kinds, folder)                                         \
  INSTANTIATE_TEST_SUITE_P(                                                                        \
      Models, suite,                                                                               \
      ::testing::ValuesIn(::joco::test::sweep_models(                                              \
          [](const ::joco::test::ModelFeatures& f) { return f.mujoco_loads() && pred(f); }, kinds, \
          folder)),                                                                                \
      ::joco::test::param_name);                                                                   \
  INSTANTIATE_TEST_SUITE_P(                                                                        \
      LongSweep, suite,                                                                            \
      ::testing::ValuesIn(::joco::test::long_sweep_models(                                         \
          [](const ::joco::test::ModelFeatures& f) { return f.mujoco_loads() && pred(f); }, kinds, \
          folder)),                                                                                \
      ::joco::test::param_name)
#define JOCO_INSTANTIATE_STAGE_SWEEP(suite, folder)                                                \
  INSTANTIATE_TEST_SUITE_P(Models, suite, ::testing::ValuesIn(::joco::test::stage_models(folder)), \
                           ::joco::test::param_name);                                              \
  INSTANTIATE_TEST_SUITE_P(                                                                        \
      LongSweep, suite,                                                                            \
      ::testing::ValuesIn(::joco::test::long_stage_models(                                         \
          folder, [](const ::joco::test::ModelFeatures& f) { return f.mujoco_loads(); })),         \
      ::joco::test::param_name)

// The paths of a, then those of b not in a.
std::vector<std::string> join(std::vector<std::string> a, const std::vector<std::string>& b);

// Every model of all_testdata_models() with its features, sorted by path; the features of one
// (throws std::invalid_argument for a path that is not there).
const std::vector<ModelFeatures>& model_features();
const ModelFeatures& features_of(const std::string& path);

// Text (a model path, say) as a test name: every character but letters and digits as '_'.
std::string test_name(std::string text);

// A test parameter as a test name (test_name of it).
std::string param_name(const ::testing::TestParamInfo<std::string>& param);

}  // namespace joco::test
