// The SKN reader on its own: arrays as the file has them, errors prefixed by the caller's `where`.
#include "decode/skin_file.h"

#include <gtest/gtest.h>

#include <string>

#include "joco/error.h"
#include "support/test_support.h"

namespace joco::compiler {
namespace {

TEST(SkinFileDecode, ReadsCountsBonesAndNames) {
  const RawSkin box = read_skin_file(test::testdata("skin/box.skn"), "here");
  EXPECT_EQ(box.vertex.size(), 3u * 8);
  EXPECT_EQ(box.texcoord.size(), 2u * 8);
  EXPECT_EQ(box.face.size(), 3u * 12);
  ASSERT_EQ(box.bones.size(), 2u);
  EXPECT_EQ(box.bones[0].body, "lower");
  EXPECT_EQ(box.bones[1].body, "upper");
  EXPECT_EQ(box.bones[0].vertid.size(), 6u);
  EXPECT_EQ(box.bones[1].vertweight.size(), 4u);
  EXPECT_EQ(box.bones[1].vertweight[0], static_cast<double>(0.7f));
  const RawSkin strip = read_skin_file(test::testdata("skin/strip.skn"), "here");
  EXPECT_TRUE(strip.texcoord.empty());
  ASSERT_EQ(strip.bones.size(), 1u);
  EXPECT_EQ(strip.bones[0].body, "upper");  // the bytes after the name's terminating 0 do not count
}

TEST(SkinFileDecode, ErrorsStartWithWhere) {
  for (const char* bad : {"skin/bad_header.skn", "skin/bad_trailing.skn", "skin/bad_bone.skn"}) {
    try {
      read_skin_file(test::testdata(bad), "model.xml:3: <skin 'k'>");
      ADD_FAILURE() << bad << " was read";
    } catch (const InputError& e) {
      EXPECT_EQ(std::string(e.what()).rfind("model.xml:3: <skin 'k'>: skin file '", 0), 0u)
          << e.what();
    }
  }
}

}  // namespace
}  // namespace joco::compiler
