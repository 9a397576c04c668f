// Seeded mutations of real MJCF files (numbers, attributes, nesting, truncation): every mutant
// either compiles into a valid model or is rejected with an InputError; none crashes or hangs.
#include <gtest/gtest.h>

#include <chrono>
#include <random>
#include <regex>

#include "joco/error.h"
#include "joco/mjcf.h"
#include "joco/validate.h"
#include "support/test_support.h"

namespace joco {
namespace {

std::string read_text(const std::string& path) {
  const std::vector<uint8_t> bytes = test::read_file(path);
  return std::string(bytes.begin(), bytes.end());
}

// One random edit of an XML text.
std::string mutate(const std::string& text, std::mt19937_64& rng) {
  static const char* const numbers[] = {
      "0", "-1",  "1e9", "-1e9", "1e300", "nan",           "inf", "-inf",       "abc",
      "",  "0.5", "3",   "7",    "1 2",   "1 2 3 4 5 6 7", "-0",  "2147483648", "1e-300"};
  static const char* const elements[] = {"body",      "geom",  "joint",    "site",   "default",
                                         "worldbody", "asset", "actuator", "tendon", "spatial",
                                         "include",   "key",   "mujoco"};
  std::string s = text;
  auto pick = [&rng](size_t n) { return static_cast<size_t>(rng() % std::max<size_t>(n, 1)); };
  switch (rng() % 8) {
    case 0: {  // replace an attribute value
      std::vector<std::pair<size_t, size_t>> values;
      for (size_t q = s.find('"'); q != std::string::npos;) {
        const size_t end = s.find('"', q + 1);
        if (end == std::string::npos) break;
        values.emplace_back(q + 1, end - q - 1);
        q = s.find('"', end + 1);
      }
      if (values.empty()) break;
      const auto [at, length] = values[pick(values.size())];
      s.replace(at, length, numbers[pick(std::size(numbers))]);
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
    default: {  // move a line elsewhere (nesting)
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

class MjcfFuzz : public ::testing::TestWithParam<const char*> {};

TEST_P(MjcfFuzz, MutantsCompileOrFailCleanly) {
  const std::string original = read_text(test::testdata(GetParam()));
  std::mt19937_64 rng(std::hash<std::string>{}(GetParam()));
  int compiled = 0, rejected = 0;
  for (int trial = 0; trial < 150; ++trial) {
    std::string text = original;
    const int edits = 1 + static_cast<int>(rng() % 3);
    for (int e = 0; e < edits; ++e) text = mutate(text, rng);
    const auto start = std::chrono::steady_clock::now();
    try {
      const Model m = compile_mjcf(text, "mutant.xml", test::testdata("mujoco-tests"));
      validate_model(m, "mutant.xml");
      ++compiled;
    } catch (const InputError&) {
      ++rejected;
    } catch (const std::exception& e) {
      ADD_FAILURE() << "trial " << trial << ": unexpected " << typeid(e).name() << ": " << e.what()
                    << "\n"
                    << text;
    }
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    EXPECT_LT(seconds, 5.0) << "trial " << trial << " took " << seconds << " s";
  }
  EXPECT_GT(rejected, 0);
  std::cout << GetParam() << ": " << compiled << " mutants compiled, " << rejected << " rejected\n";
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
