// Height field files as MuJoCo 2.2.2 reads them: PNG (by the .png extension) or its binary format.
#pragma once

#include <string>
#include <vector>

namespace joco::compiler {

// The elevations of a height field file, nrow * ncol of them, row by row, as the file has them
// (not yet normalised). Errors are InputErrors starting with `where` (the element, for messages),
// or with the file's path when it cannot be read.
std::vector<float> read_hfield_binary(const std::string& path, int& nrow, int& ncol,
                                      const std::string& where);
std::vector<float> read_hfield_png(const std::string& path, int& nrow, int& ncol,
                                   const std::string& where);

}  // namespace joco::compiler
