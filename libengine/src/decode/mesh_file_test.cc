#include "decode/mesh_file.h"

#include <gtest/gtest.h>

namespace joco {
namespace {

// readable says yes exactly where load dispatches to a reader: by the name's end, in any case.
TEST(MeshFileReadable, TheThreeFormatsInAnyCase) {
  for (const char* name : {"a.stl", "dir/a.STL", "a.obj", "a.Obj", "a.msh", "a.tar.MSH"})
    EXPECT_TRUE(mesh_file::readable(name)) << name;
  for (const char* name : {"a.dae", "a.ply", "a.stl.gz", "stl", "a", ""})
    EXPECT_FALSE(mesh_file::readable(name)) << name;
}

}  // namespace
}  // namespace joco
