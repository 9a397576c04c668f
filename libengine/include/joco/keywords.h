// MJCF's keywords for enumerated values, one table each for the XML reader, parameters set by name
// (`--set opt.integrator=RK4`) and the Python module (`m.name2id("body", ...)`).
#pragma once

#include <span>
#include <string_view>
#include <utility>

namespace joco {

using Keyword = std::pair<const char*, int>;

// The keywords of the enumerated option `name` (mjOption's integrator, collision, cone, jacobian,
// solver: the <option> attributes of the same names) and their values; empty for other options.
std::span<const Keyword> option_keywords(std::string_view name);

// MuJoCo's object type names (mjtObj without mjOBJ_, lower case: body, xbody, joint, ...), as
// MJCF's objtype attributes take them, with their ObjType values.
std::span<const Keyword> object_type_keywords();

}  // namespace joco
