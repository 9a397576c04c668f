// Seeded random edits of XML texts, for the MJCF and URDF fuzz tests.
#pragma once

#include <random>
#include <span>
#include <string>

namespace joco::test {

// One random edit of an XML text: an attribute value replaced by one of `values`, an attribute
// deleted, a line duplicated, deleted or moved elsewhere (nesting, order), the text truncated, a
// byte flipped, or an element renamed to one of `elements`. The same rng state gives the same edit.
std::string mutate_xml(const std::string& text, std::mt19937_64& rng,
                       std::span<const char* const> values, std::span<const char* const> elements);

}  // namespace joco::test
