#include "support/xml_mutation.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <typeinfo>
#include <utility>
#include <vector>

#include "joco/error.h"

namespace joco::test {

std::string mutate_xml(const std::string& text, std::mt19937_64& rng,
                       std::span<const char* const> values, std::span<const char* const> elements) {
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
      s.replace(at, length, values[pick(values.size())]);
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
      s.replace(open + 1, end - open - 1, elements[pick(elements.size())]);
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

MutantCounts run_mutants(
    const std::string& original, uint64_t seed, int trials,
    const std::function<std::string(const std::string&, std::mt19937_64&)>& mutate,
    const std::function<void(const std::string& text, int trial)>& load) {
  std::mt19937_64 rng(seed);
  MutantCounts counts;
  for (int trial = 0; trial < trials; ++trial) {
    std::string text = original;
    const int edits = 1 + static_cast<int>(rng() % 3);
    for (int e = 0; e < edits; ++e) text = mutate(text, rng);
    const auto start = std::chrono::steady_clock::now();
    try {
      load(text, trial);
      ++counts.accepted;
    } catch (const InputError&) {
      ++counts.rejected;
    } catch (const std::exception& e) {
      ADD_FAILURE() << "trial " << trial << ": unexpected " << typeid(e).name() << ": " << e.what()
                    << "\n"
                    << text;
    }
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    EXPECT_LT(seconds, 5.0) << "trial " << trial << " took " << seconds << " s";
  }
  return counts;
}

}  // namespace joco::test
