#include "joco/jmb.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <functional>
#include <random>
#include <set>
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
  const size_t body = bytes.size() - sizeof(uint64_t);
  const uint64_t h = jmb_checksum({bytes.data(), body});
  std::memcpy(bytes.data() + body, &h, sizeof(h));
}

// Element i of a real field set to v.
void set_real(const ArrayField& f, int64_t i, double v) {
  if (f.type == ScalarType::kFloat64)
    static_cast<double*>(f.data)[i] = v;
  else
    static_cast<float*>(f.data)[i] = static_cast<float>(v);
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

// Every real element of the model (each array of model_fields.h and each field of opt, vis and
// stat) must be finite: a NaN or an infinity anywhere is refused, naming the field and element.
TEST(Jmb, EveryRealFieldMustBeFinite) {
  // Between them, these models fill every real array but a few (those of lights, cameras, ...).
  const Model models[] = {test::pendulum_model(),
                          compile_mjcf_file(test::testdata("compiler/skin_files.xml")),
                          compile_mjcf_file(test::testdata("textures/hfield.xml")),
                          compile_mjcf_file(test::testdata("collision/primitives.xml"))};
  std::set<std::string> checked;
  for (const Model& good : models) {
    ASSERT_EQ(error_of(write_jmb(good)), "");
    for (size_t k = 0; k < good.arrays().size(); ++k) {
      const ArrayField f = good.arrays()[k];
      if ((f.type != ScalarType::kFloat64 && f.type != ScalarType::kFloat32) || f.count() == 0)
        continue;
      for (double bad : {std::nan(""), HUGE_VAL, -HUGE_VAL}) {
        Model m = good;
        const int64_t i = f.count() - 1;
        set_real(m.arrays()[k], i, bad);
        const std::string error = error_of(write_jmb(m));
        // a quaternion is named by its first element
        const bool quat = std::string_view(f.name).ends_with("quat");
        EXPECT_NE(
            error.find(std::string(f.name) + "[" + std::to_string(quat ? i - i % 4 : i) + "] = "),
            std::string::npos)
            << f.name << " = " << bad << ": " << error;
        EXPECT_NE(error.find(quat ? "expected a quaternion that can be normalised"
                                  : "expected a finite number"),
                  std::string::npos)
            << error;
      }
      checked.insert(f.name);
    }
    for (size_t k = 0; k < good.struct_fields().size(); ++k) {
      const StructField f = good.struct_fields()[k];
      if (f.type != ScalarType::kFloat64 && f.type != ScalarType::kFloat32) continue;
      Model m = good;
      const StructField g = m.struct_fields()[k];
      set_real({"", g.type, 1, g.count, field_check::any, g.data}, 0, std::nan(""));
      const std::string error = error_of(write_jmb(m));
      EXPECT_NE(error.find(f.name + (f.count > 1 ? "[0] = nan" : " = nan")), std::string::npos)
          << error;
      checked.insert(f.name);
    }
  }
  EXPECT_GT(checked.size(), 150u);  // of the 190-odd real fields and struct members
}

// Fields with a range are refused out of it: the causes the .jmb fuzz target found, each in the
// form it took there (a negative inertia, a quaternion of 7e221, a zero quaternion).
TEST(Jmb, RealFieldsWithARangeAreCheckedAgainstIt) {
  const auto error_with = [](const std::function<void(Model&)>& edit) {
    Model m = test::pendulum_model();
    edit(m);
    return error_of(write_jmb(m));
  };
  EXPECT_NE(error_with([](Model& m) {
              m.body_inertia[4] = -1;
            }).find("body_inertia[4] = -1, expected a finite number >= 0"),
            std::string::npos);
  EXPECT_NE(error_with([](Model& m) {
              m.body_mass[1] = -0.5;
            }).find("body_mass[1] = -0.5, expected a finite number >= 0"),
            std::string::npos);
  EXPECT_NE(error_with([](Model& m) { m.geom_size[0] = -1e-3; }).find("geom_size[0] = -0.001"),
            std::string::npos);
  EXPECT_NE(error_with([](Model& m) { m.body_quat[4] = 7e221; })
                .find("body_quat[4] = (7e+221, 0, 0, 0), expected a quaternion that can be "
                      "normalised"),
            std::string::npos)
      << error_with([](Model& m) { m.body_quat[4] = 7e221; });
  EXPECT_NE(error_with([](Model& m) {
              for (int k = 0; k < 4; ++k) m.geom_quat[4 + k] = 0;
            }).find("geom_quat[4] = (0, 0, 0, 0)"),
            std::string::npos);
  // Finite values in range still load: a quaternion far from unit length can be normalised.
  EXPECT_EQ(error_with([](Model& m) { m.body_quat[4] = 1e100; }), "");
}

// The .jmb inputs of fuzz findings (testdata/fuzz/jmb/README.md says what each is), sealed with a
// valid checksum as the fuzz target seals them: each is refused at load, naming what is wrong;
// before the real fields were validated, each loaded and then crashed, hung or computed NaN.
TEST(Jmb, FuzzFindingsAreRefused) {
  int n = 0;
  for (const auto& entry : std::filesystem::directory_iterator(test::testdata("fuzz/jmb"))) {
    if (entry.path().extension() != ".jmb") continue;
    std::vector<uint8_t> bytes = test::read_file(entry.path().string());
    ASSERT_GE(bytes.size(), sizeof(uint64_t));
    fix_checksum(bytes);
    const std::string error = error_of(bytes);
    EXPECT_NE(error.find("invalid model: "), std::string::npos) << entry.path() << ": " << error;
    ++n;
  }
  EXPECT_GT(n, 0);
}

// One mesh geom, UR5's wrist (testdata/urdf/ur5): a mesh with a hull graph and a face hierarchy.
Model ur5_wrist_mesh() {
  return compile_mjcf(
      "<mujoco><asset><mesh name='w' file='wrist1.stl'/></asset>"
      "<worldbody><geom type='mesh' mesh='w'/></worldbody></mujoco>",
      "<jmb_test>", test::testdata("urdf/ur5"));
}

// mesh_graphvert repeats mesh vertices for hill climbing: a file whose copy differs from them, or
// whose hull graph's edge lists do not follow each other (the climb reads a list up to where the
// next begins), is refused.
TEST(Jmb, MeshGraphCopiesAreChecked) {
  const Model good = ur5_wrist_mesh();
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
  const Model good = ur5_wrist_mesh();
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
