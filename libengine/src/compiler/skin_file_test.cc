// Skins from SKN files (testdata/skin, written by scripts/make-skin-testdata): what is read, and
// every malformed file rejected with the file and the reason; skin data MuJoCo 2.2.2 rejects. The
// oracle comparison of skins from files is compiler/skin_files.xml in compile_oracle_test.cc.
#include <gtest/gtest.h>

#include <string>

#include "joco/error.h"
#include "joco/mjcf.h"
#include "support/errors.h"
#include "support/test_support.h"

namespace joco {
namespace {

const char* const kBodies =
    "<worldbody><body name='lower'><joint/><geom size='0.1'/>"
    "<body name='upper'><joint/><geom size='0.1'/></body></body></worldbody>";

Model compile_skin(const std::string& skin) {
  return compile_mjcf("<mujoco><asset>" + skin + "</asset>" + kBodies + "</mujoco>", "test.xml",
                      test::testdata("skin"));
}

std::string skin_error(const std::string& skin) {
  return test::input_error([&] { compile_skin(skin); });
}

TEST(SkinFile, ReadsCountsDataAndBones) {
  const Model m = compile_skin("<skin file='box.skn'/><skin file='strip.skn'/>");
  ASSERT_EQ(m.nskin, 2);
  EXPECT_EQ(m.name_to_id(kObjSkin, "box"), 0);  // named after the file
  EXPECT_EQ(m.skin_vertnum[0], 8);
  EXPECT_EQ(m.skin_facenum[0], 12);
  EXPECT_EQ(m.skin_bonenum[0], 2);
  EXPECT_EQ(m.skin_texcoordadr[0], 0);
  EXPECT_EQ(m.skin_texcoordadr[1], -1);  // strip.skn has no texture coordinates
  EXPECT_EQ(m.nskintexvert, 8);
  EXPECT_EQ(m.skin_vert[2], -0.3f);
  EXPECT_EQ(m.skin_texcoord[8], 0.3f);
  EXPECT_EQ(m.skin_face[1], 2);
  // box.skn's bones: 'lower' with 6 vertices, 'upper' with 4 of weight 0.7, 0.75, 1, 1
  EXPECT_EQ(m.skin_bonebodyid[0], m.name_to_id(kObjBody, "lower"));
  EXPECT_EQ(m.skin_bonebodyid[1], m.name_to_id(kObjBody, "upper"));
  EXPECT_EQ(m.skin_bonevertnum[0], 6);
  EXPECT_EQ(m.skin_bonevertnum[1], 4);
  EXPECT_EQ(m.skin_bonevertid[6], 4);
  EXPECT_EQ(m.skin_bonevertweight[6], 0.7f);
  EXPECT_EQ(m.skin_bonebindpos[3], 0.01f);
  // strip.skn's bone name has bytes after its terminating 0, which do not count
  EXPECT_EQ(m.skin_bonebodyid[2], m.name_to_id(kObjBody, "upper"));
}

TEST(SkinFile, ResolvedThroughMeshdir) {
  EXPECT_EQ(compile_mjcf("<mujoco><compiler meshdir='skin' texturedir='none'/><asset><skin "
                         "file='strip.skn'/></asset>" +
                             std::string(kBodies) + "</mujoco>",
                         "test.xml", test::testdata(""))
                .nskin,
            1);
}

TEST(SkinFile, Errors) {
  const auto expect = [](const std::string& file, const std::string& reason) {
    const std::string e = skin_error("<skin file='" + file + "'/>");
    for (const std::string& part : {std::string("test.xml:1: <skin"), file, reason}) {
      EXPECT_NE(e.find(part), std::string::npos) << "expected '" << part << "' in '" << e << "'";
    }
  };
  expect("none.skn", "cannot open");
  expect("bad_header.skn", "ends inside its header");
  expect("bad_count.skn", "negative count");
  expect("bad_texcoord.skn", "3 texture coordinates for 4 vertices");
  expect("bad_data.skn", "ends inside the face data");
  expect("bad_bone.skn", "ends inside bone 0's vertex weights");
  expect("bad_bonecount.skn", "bone 0 has no vertices");
  expect("bad_trailing.skn", "4 bytes after its last bone");
  EXPECT_NE(skin_error("<skin file='strip.skn' vertex='0 0 0'/>").find("from it"),
            std::string::npos);
  EXPECT_NE(skin_error("<skin file='strip.skn'><bone body='lower' bindpos='0 0 0' bindquat='1 0 0 "
                       "0' vertid='0' vertweight='1'/></skin>")
                .find("from it"),
            std::string::npos);
}

// Skins MuJoCo 2.2.2 rejects (inline or from a file alike), each with its observed message.
TEST(SkinData, ErrorsAsMuJoCo) {
  const std::string v3 = " vertex='0 0 0 1 0 0 0 1 0'", f1 = " face='0 1 2'";
  const auto bone = [](const char* ids, const char* weights) {
    return std::string("<bone body='lower' bindpos='0 0 0' bindquat='1 0 0 0' vertid='") + ids +
           "' vertweight='" + weights + "'/>";
  };
  const auto expect = [](const std::string& skin, const std::string& reason) {
    const std::string e = skin_error(skin);
    EXPECT_NE(e.find(reason), std::string::npos) << "expected '" << reason << "' in '" << e << "'";
  };
  const std::string ok = bone("0 1 2", "1 1 1");
  EXPECT_EQ(skin_error("<skin name='s'" + v3 + f1 + ">" + ok + "</skin>"), "");
  // "Missing data in skin"
  expect("<skin name='s'" + v3 + f1 + "/>", "needs vertices, faces and bones");
  expect("<skin name='s'" + v3 + ">" + ok + "</skin>", "needs vertices, faces and bones");
  expect("<skin name='s'" + f1 + ">" + ok + "</skin>", "needs vertices, faces and bones");
  // "vertex 3 must have positive total weight in skin"
  expect("<skin name='s' vertex='0 0 0 1 0 0 0 1 0 1 1 1'" + f1 + ">" + ok + "</skin>",
         "skin vertex 3 needs a positive total weight");
  expect("<skin name='s'" + v3 + f1 + ">" + bone("0 1 2", "1 -1 1") + "</skin>",
         "skin vertex 1 needs a positive total weight");
  expect("<skin name='s'" + v3 + f1 + ">" + bone("0 1 2", "1 1 1") + bone("1", "-1") + "</skin>",
         "skin vertex 1 needs a positive total weight");
  // "Vertex and texcoord data incompatible size"
  expect("<skin name='s'" + v3 + " texcoord='0 0 1 1'" + f1 + ">" + ok + "</skin>",
         "one pair per vertex");
  // "vertid 5 out of range in skin"
  expect("<skin name='s'" + v3 + f1 + ">" + bone("0 1 5", "1 1 1") + "</skin>",
         "bone vertex id out of range");
  expect("<skin name='s'" + v3 + " face='0 1 3'>" + ok + "</skin>", "refers to a missing vertex");
}

}  // namespace
}  // namespace joco
