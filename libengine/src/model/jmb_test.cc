#include "joco/jmb.h"

#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <string>
#include <utility>

#include "joco/data.h"
#include "joco/error.h"
#include "joco/forward.h"
#include "joco/mjcf.h"
#include "support/errors.h"
#include "support/hand_models.h"
#include "support/test_support.h"

namespace joco {
namespace {

// Rewrites the checksum of a .jmb image after an edit, so that the edit reaches validation.
void fix_checksum(std::vector<uint8_t>& bytes) {
  uint64_t h = 0xcbf29ce484222325ull;
  const size_t body = bytes.size() - sizeof(uint64_t);
  for (size_t i = 0; i < body; ++i) {
    h ^= bytes[i];
    h *= 0x100000001b3ull;
  }
  std::memcpy(bytes.data() + body, &h, sizeof(h));
}

std::string error_of(const std::vector<uint8_t>& bytes) {
  return test::input_error([&] { read_jmb(bytes, "test.jmb"); });
}

TEST(Jmb, RoundTripIsBitExact) {
  const Model m = test::pendulum_model();
  const std::vector<uint8_t> bytes = write_jmb(m);
  const Model back = read_jmb(bytes, "test.jmb");
  EXPECT_EQ(write_jmb(back), bytes);
  const auto a = m.arrays();
  const auto b = back.arrays();
  ASSERT_EQ(a.size(), b.size());
  for (size_t i = 0; i < a.size(); ++i) {
    ASSERT_EQ(a[i].bytes(), b[i].bytes()) << a[i].name;
    EXPECT_EQ(0, std::memcmp(a[i].data, b[i].data, a[i].bytes())) << a[i].name;
  }
  EXPECT_EQ(back.opt.timestep, m.opt.timestep);
  EXPECT_EQ(back.name(kObjJoint, 1), "hinge2");
}

TEST(Jmb, ChecksumIdentifiesTheModel) {
  Model m = test::pendulum_model();
  const uint64_t before = model_checksum(m);
  m.body_mass[1] = 2;
  EXPECT_NE(model_checksum(m), before);
}

TEST(Jmb, EveryTruncationIsRejected) {
  const std::vector<uint8_t> bytes = write_jmb(test::pendulum_model());
  for (size_t n = 0; n < bytes.size(); ++n) {
    const std::vector<uint8_t> cut(bytes.begin(), bytes.begin() + static_cast<long>(n));
    const std::string error = error_of(cut);
    ASSERT_FALSE(error.empty()) << "truncation to " << n << " bytes was accepted";
    ASSERT_NE(error.find("test.jmb"), std::string::npos) << error;
  }
}

TEST(Jmb, RandomByteMutationsAreRejectedByTheChecksum) {
  const std::vector<uint8_t> bytes = write_jmb(test::pendulum_model());
  std::mt19937_64 rng(20261121);
  for (int trial = 0; trial < 3000; ++trial) {
    std::vector<uint8_t> bad = bytes;
    const int edits = 1 + static_cast<int>(rng() % 4);
    for (int e = 0; e < edits; ++e)
      bad[rng() % bad.size()] ^= static_cast<uint8_t>(1 + rng() % 255);
    if (bad == bytes) continue;
    ASSERT_FALSE(error_of(bad).empty()) << "trial " << trial;
  }
}

// Mutations with a repaired checksum reach the size and field validation: each must either load
// into a model that passes validation or be rejected with a message; none may crash.
TEST(Jmb, RandomMutationsWithValidChecksumNeverCrash) {
  const std::vector<uint8_t> bytes = write_jmb(test::pendulum_model());
  std::mt19937_64 rng(7);
  int rejected = 0;
  for (int trial = 0; trial < 3000; ++trial) {
    std::vector<uint8_t> bad = bytes;
    const size_t at = rng() % (bad.size() - sizeof(uint64_t));
    switch (rng() % 3) {
      case 0: bad[at] ^= static_cast<uint8_t>(1 + rng() % 255); break;
      case 1: {  // an int-sized random value
        const int32_t v = static_cast<int32_t>(rng() % 41) - 20;
        std::memcpy(bad.data() + std::min(at, bad.size() - 12), &v, sizeof(v));
        break;
      }
      default: {  // a huge value
        const int32_t v = static_cast<int32_t>(rng());
        std::memcpy(bad.data() + std::min(at, bad.size() - 12), &v, sizeof(v));
        break;
      }
    }
    fix_checksum(bad);
    rejected += !error_of(bad).empty();
  }
  EXPECT_GT(rejected, 0);
}

TEST(Jmb, MuJoCoBinaryModelIsNamed) {
  std::vector<uint8_t> mjb(64, 0);
  const int32_t id = 54321;
  std::memcpy(mjb.data(), &id, sizeof(id));
  EXPECT_TRUE(looks_like_mjb(mjb));
  EXPECT_NE(error_of(mjb).find("MuJoCo binary model (.mjb)"), std::string::npos) << error_of(mjb);
}

TEST(Jmb, OtherFilesAreNotJmb) {
  const std::string xml = "<mujoco/>";
  const std::vector<uint8_t> bytes(xml.begin(), xml.end());
  EXPECT_FALSE(looks_like_jmb(bytes));
  EXPECT_NE(error_of(bytes).find("not a joco binary model"), std::string::npos);
}

TEST(Jmb, WrongVersionIsNamed) {
  std::vector<uint8_t> bytes = write_jmb(test::pendulum_model());
  const uint32_t version = 99;
  std::memcpy(bytes.data() + 8, &version, sizeof(version));
  EXPECT_NE(error_of(bytes).find("format version 99"), std::string::npos) << error_of(bytes);
}

TEST(Jmb, CorruptionIsNamedAsChecksum) {
  std::vector<uint8_t> bytes = write_jmb(test::pendulum_model());
  bytes[bytes.size() / 2] ^= 0xff;
  EXPECT_NE(error_of(bytes).find("checksum"), std::string::npos);
}

TEST(Jmb, ValidationNamesTheFirstBadField) {
  Model m = test::pendulum_model();
  m.body_parentid[2] = 3;
  EXPECT_NE(error_of(write_jmb(m)).find("body_parentid[2]"), std::string::npos)
      << error_of(write_jmb(m));

  m = test::pendulum_model();
  m.jnt_qposadr[2] = 5;  // the free joint would run past nq
  EXPECT_NE(error_of(write_jmb(m)).find("jnt_qposadr[2]"), std::string::npos)
      << error_of(write_jmb(m));

  m = test::pendulum_model();
  m.geom_type[1] = 12;
  EXPECT_NE(error_of(write_jmb(m)).find("geom_type[1]"), std::string::npos);

  m = test::pendulum_model();
  m.dof_Madr[4] = 3;
  EXPECT_NE(error_of(write_jmb(m)).find("dof_Madr[4]"), std::string::npos);

  m = test::pendulum_model();
  m.actuator_trnid[0] = 7;
  EXPECT_NE(error_of(write_jmb(m)).find("actuator_trnid[0]"), std::string::npos);
}

// mesh_graphvert repeats mesh vertices for hill climbing: a file whose copy differs from them, or
// whose hull graph's edge lists do not follow each other (the climb reads a list up to where the
// next begins), is refused.
TEST(Jmb, MeshGraphCopiesAreChecked) {
  const Model good = compile_mjcf(
      "<mujoco><asset><mesh name='w' file='wrist1.stl'/></asset>"
      "<worldbody><geom type='mesh' mesh='w'/></worldbody></mujoco>",
      "<jmb_test>", test::testdata("urdf/ur5"));
  ASSERT_GE(good.mesh_graphadr[0], 0);
  EXPECT_NO_THROW(read_jmb(write_jmb(good), "test.jmb"));

  Model m = good;
  const int numvert = m.mesh_graph[0];
  const int entry = 2 + 2 * numvert + 1;  // vertex 0's second neighbour
  ASSERT_GE(m.mesh_graph[entry], 0);
  m.mesh_graphvert[entry] += 1e-3f;
  EXPECT_NE(error_of(write_jmb(m)).find("mesh_graphvert[" + std::to_string(entry) + "]"),
            std::string::npos)
      << error_of(write_jmb(m));

  m = good;
  m.mesh_graph[2 + 1] += 1;  // vertex 1's list starts one later: vertex 0's runs on past its -1
  EXPECT_NE(error_of(write_jmb(m)).find("does not end where the next begins"), std::string::npos)
      << error_of(write_jmb(m));
}

// The hierarchy of a mesh's faces (mesh_bvhbox, mesh_bvhchild, mesh_bvhface), which ray casting
// walks, is checked like every derived array: a box, a child or a face order that differs from
// what the mesh's faces give is refused, naming the element.
TEST(Jmb, MeshFaceHierarchyIsChecked) {
  const Model good = compile_mjcf(
      "<mujoco><asset><mesh name='w' file='wrist1.stl'/></asset>"
      "<worldbody><geom type='mesh' mesh='w'/></worldbody></mujoco>",
      "<jmb_test>", test::testdata("urdf/ur5"));
  ASSERT_GT(good.mesh_facenum[0], 8);
  EXPECT_NO_THROW(read_jmb(write_jmb(good), "test.jmb"));
  auto refused = [](const Model& m, const std::string& element) {
    const std::string error = error_of(write_jmb(m));
    EXPECT_NE(error.find(element + " differs from the fields it is derived from"),
              std::string::npos)
        << error;
  };
  Model m = good;
  m.mesh_bvhbox[3] += 1e-3f;  // the root's high x
  refused(m, "mesh_bvhbox[3]");
  m = good;
  m.mesh_bvhchild[0] += 1;  // the root's first child
  refused(m, "mesh_bvhchild[0]");
  m = good;
  std::swap(m.mesh_bvhface[0], m.mesh_bvhface[1]);
  refused(m, "mesh_bvhface[0]");
}

// A model stating large njmax and nconmax (as real scenes do) compiles with MuJoCo 2.2.2's default
// stack for them, 320 million doubles, round-trips through .jmb and simulates. (Not in the
// sanitizer pass's Jmb.*: its Data takes 0.8 GB.)
TEST(JmbLargeSizes, CompileWriteReadSimulate) {
  const Model m = compile_mjcf_file(test::testdata("compiler/large_sizes.xml"));
  EXPECT_EQ(m.njmax, 8000);
  EXPECT_EQ(m.nconmax, 4000);
  EXPECT_EQ(m.nstack, 320961400);  // MuJoCo 2.2.2's
  const std::vector<uint8_t> bytes = write_jmb(m);
  const Model back = read_jmb(bytes, "large_sizes.jmb");
  EXPECT_EQ(write_jmb(back), bytes);
  Data d = make_data(back);
  for (int i = 0; i < 300; ++i) step(back, d);
  EXPECT_EQ(d.ncon, 5);  // the ball on the floor, the box on a face
  EXPECT_GT(d.maxuse_stack, 0);
  EXPECT_LT(d.maxuse_stack, d.nstack);
}

}  // namespace
}  // namespace joco
