#include "common/external_loads.h"

#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <string>

#include "joco/error.h"
#include "joco/mjcf.h"
#include "support/errors.h"
#include "support/test_support.h"

namespace joco::tools {
namespace {

const std::string kTrial = "mocap/gait2354_subject01/";

// The trial's ExternalLoads XML: two plates on calcn_r and calcn_l, OpenSim's Y-up ground frame
// turned into the model's Z-up world, (x, y, z) -> (x, -z, y); interpolation between samples.
TEST(ExternalLoads, ReadsOpenSimExternalLoads) {
  const Model m =
      compile_mjcf_file(test::testdata(kTrial + "model/subject01_simbody_cvt1_npp.xml"));
  const ExternalLoads loads = ExternalLoads::read(
      test::testdata(kTrial + "opensim/subject01_walk1_grf.xml"), m, std::nullopt, {},
      test::testdata(kTrial + "data/subject01_walk1_grf.mot"));
  ASSERT_EQ(loads.loads().size(), 2u);
  EXPECT_EQ(loads.frame(), LoadFrame::kYUp);
  EXPECT_EQ(loads.loads()[0].name, "right");
  EXPECT_EQ(m.name(kObjBody, loads.loads()[0].body), "calcn_r");
  EXPECT_EQ(m.name(kObjBody, loads.loads()[1].body), "calcn_l");
  ASSERT_EQ(loads.samples(), 1501u);
  // Row 0 of the .mot: right force (101.5119767, 745.4661142, -47.44870554), point (0.37898285,
  // -0.0075, 0.12774652), torque (0, 13.53783445, 0).
  const double* v = loads.values().data();
  EXPECT_DOUBLE_EQ(v[0], 101.5119767);
  EXPECT_DOUBLE_EQ(v[1], 47.44870554);
  EXPECT_DOUBLE_EQ(v[2], 745.4661142);
  EXPECT_DOUBLE_EQ(v[3], 0.37898285);
  EXPECT_DOUBLE_EQ(v[4], -0.12774652);
  EXPECT_DOUBLE_EQ(v[5], -0.0075);
  EXPECT_DOUBLE_EQ(v[8], 13.53783445);
  // Halfway between samples 0 and 1 (t = 0, 0.0017): the mean.
  const std::vector<double> mid = loads.resample({0.00085});
  EXPECT_NEAR(mid[2], (745.4661142 + 743.0973413) / 2, 1e-9);
  EXPECT_EQ(mid.size(), 18u);
  test::expect_fragments(test::input_error([&] { loads.resample({2.6}); }),
                         "subject01_walk1_grf.xml|2.6", "outside");
}

TEST(ExternalLoads, Errors) {
  const test::TempDir temp;
  const Model m =
      compile_mjcf_file(test::testdata(kTrial + "model/subject01_simbody_cvt1_npp.xml"));
  const std::string grf = test::testdata(kTrial + "data/subject01_walk1_grf.mot");
  const auto write = [&](const std::string& name, const std::string& text) {
    std::ofstream(temp / name) << text;
    return temp / name;
  };
  const auto fails = [&](const std::string& path, const std::string& fragments,
                         const std::vector<std::string>& bodies = {}) {
    test::expect_fragments(test::input_error([&] { ExternalLoads::read(path, m, {}, bodies); }),
                           fragments, path);
  };
  fails(write("a.map", "joco external loads\ndata " + grf + "\nload x calcn_r a b\n"),
        "a.map:3|expected");
  fails(write("b.map", "joco external loads\ndata " + grf +
                           "\nload x calcn_r ground_force_vx ground_force_vy nope - - - - - -\n"),
        "b.map:3|no column 'nope'");
  fails(write("c.map", "joco external loads\ndata " + grf +
                           "\nload x calcn_r ground_force_vx ground_force_vy ground_force_vz "
                           "ground_force_px - - - - -\n"),
        "c.map:3|three columns");
  fails(write("d.map", "joco external loads\nload x calcn_r a b c d e f g h i\n"),
        "d.map|no 'data FILE'");
  fails(write("e.xml",
              "<ExternalLoads><objects><ExternalForce name='r'><applied_to_body>nobody"
              "</applied_to_body><force_identifier>ground_force_v</force_identifier>"
              "</ExternalForce></objects><datafile>" +
                  grf + "</datafile></ExternalLoads>"),
        "e.xml:1|<ExternalForce>|no body named 'nobody'");
  fails(write("f.xml",
              "<ExternalLoads><objects><ExternalForce name='r'><applied_to_body>calcn_r"
              "</applied_to_body><force_identifier>xx</force_identifier>"
              "</ExternalForce></objects><datafile>" +
                  grf + "</datafile></ExternalLoads>"),
        "f.xml|force_identifier|no column xxx");
  fails(write("g.xml", "<ExternalLoads><objects"), "g.xml");
  fails(grf, "subject01_walk1_grf.mot|--load-bodies");
  fails(grf, "world", {"world", "calcn_l"});
}

}  // namespace
}  // namespace joco::tools
