// Seeded random edits of XML texts, for the MJCF and URDF fuzz tests.
#pragma once

#include <functional>
#include <random>
#include <span>
#include <string>

namespace joco::test {

// One random edit of an XML text: an attribute value replaced by one of `values`, an attribute
// deleted, a line duplicated, deleted or moved elsewhere (nesting, order), the text truncated, a
// byte flipped, or an element renamed to one of `elements`. The same rng state gives the same edit.
std::string mutate_xml(const std::string& text, std::mt19937_64& rng,
                       std::span<const char* const> values, std::span<const char* const> elements);

// What a fuzz run made of its mutants.
struct MutantCounts {
  int accepted = 0;  // load returned
  int rejected = 0;  // load threw an InputError
};

// Runs `trials` mutants of `original` through `load(text, trial)`: each mutant is 1 to 3 edits by
// `mutate`, drawn from an rng seeded with `seed` (the same seed gives the same mutants). A mutant
// must be accepted or rejected with an InputError: any other exception, or a trial taking more
// than 5 s (a hang), fails the current test, showing the mutant.
MutantCounts run_mutants(
    const std::string& original, uint64_t seed, int trials,
    const std::function<std::string(const std::string&, std::mt19937_64&)>& mutate,
    const std::function<void(const std::string& text, int trial)>& load);

}  // namespace joco::test
