// MJCF's keywords for the enumerated fields of the options (mjOption's integrator, collision, cone,
// jacobian, solver: the <option> attributes of the same names), one table for the XML reader and
// for parameters set by name (`--set opt.integrator=RK4`).
#pragma once

#include <span>
#include <string_view>
#include <utility>

namespace joco {

using Keyword = std::pair<const char*, int>;

// The keywords of option `name` ("integrator", ...) and their values; empty when the option is
// not enumerated.
std::span<const Keyword> option_keywords(std::string_view name);

}  // namespace joco
