// The marker readers (schemas/markers.md) and the IK set-up files, on text written here and on the
// files of testdata/markers (written by h5py) and the walking trial's TRC.
#include "common/markers.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <string>

#include "common/ik_setup.h"
#include "joco/error.h"
#include "support/errors.h"
#include "support/test_support.h"

namespace joco::tools {
namespace {

const std::string kTrc = joco::test::testdata("mocap/gait2354_subject01/data/subject01_walk1.trc");

// An OpenSim TRC with a gap written both ways writers leave one: empty cells (marker B, frame 2)
// and NaN (marker A, frame 3), and a last row that stops early (marker B, frame 4).
constexpr const char* kTrcText =
    "PathFileType\t4\t(X/Y/Z)\tsmall.trc\r\n"
    "DataRate\tCameraRate\tNumFrames\tNumMarkers\tUnits\tOrigDataRate\tOrigDataStartFrame\t"
    "OrigNumFrames\r\n"
    "100.00\t100.00\t4\t2\tmm\t100.00\t1\t4\r\n"
    "Frame#\tTime\tA\t\t\tB\t\t\r\n"
    "\t\tX1\tY1\tZ1\tX2\tY2\tZ2\r\n"
    "\r\n"
    "1\t0.000\t1000\t2000\t3000\t10\t20\t30\r\n"
    "2\t0.010\t1001\t2001\t3001\t\t\t\r\n"
    "3\t0.020\tNaN\tNaN\tNaN\t12\t22\t32\r\n"
    "4\t0.030\t1003\t2003\t3003\r\n";

TEST(Markers, TrcWithGapsInOpenSimsFrame) {
  const MarkerData d = parse_trc(kTrcText, "small.trc");
  ASSERT_EQ(d.markers(), 2u);
  ASSERT_EQ(d.frames(), 4u);
  EXPECT_EQ(d.names[0], "A");
  EXPECT_EQ(d.names[1], "B");
  EXPECT_EQ(d.units, "mm");
  EXPECT_EQ(d.rate, 100);
  EXPECT_DOUBLE_EQ(d.time[3], 0.03);
  // Y up, millimetres: (x, y, z) mm -> (x, -z, y) m.
  EXPECT_DOUBLE_EQ(d.frame(0)[0], 1.0);
  EXPECT_DOUBLE_EQ(d.frame(0)[1], -3.0);
  EXPECT_DOUBLE_EQ(d.frame(0)[2], 2.0);
  EXPECT_DOUBLE_EQ(d.frame(0)[3], 0.01);
  EXPECT_TRUE(std::isnan(d.frame(1)[3]) && std::isnan(d.frame(1)[5]));
  EXPECT_TRUE(std::isnan(d.frame(2)[0]));
  EXPECT_DOUBLE_EQ(d.frame(2)[3], 0.012);
  EXPECT_TRUE(std::isnan(d.frame(3)[4]));
  EXPECT_DOUBLE_EQ(d.frame(3)[0], 1.003);
  // The flags win over the header.
  MarkerReadOptions o;
  o.units = "m";
  o.up = 'z';
  const MarkerData z = parse_trc(kTrcText, "small.trc", o);
  EXPECT_DOUBLE_EQ(z.frame(0)[1], 2000);
  EXPECT_DOUBLE_EQ(z.frame(0)[2], 3000);
}

TEST(Markers, TheWalkingTrial) {
  const MarkerData d = read_markers(kTrc);
  EXPECT_EQ(d.markers(), 41u);
  EXPECT_EQ(d.frames(), 151u);
  // Times printed rounded to the millisecond (0.017) are put back on the 60 Hz grid.
  EXPECT_DOUBLE_EQ(d.time[1], 1.0 / 60);
  EXPECT_DOUBLE_EQ(d.time[24], 0.4);
  // R.ASIS at frame 1: 617.24762 1055.27502 170.78198 mm in OpenSim's frame.
  EXPECT_DOUBLE_EQ(d.frame(0)[0], 0.61724762);
  EXPECT_DOUBLE_EQ(d.frame(0)[1], -0.17078198);
  EXPECT_DOUBLE_EQ(d.frame(0)[2], 1.05527502);
}

TEST(Markers, Csv) {
  const std::string text =
      "# units=mm up=y\n"
      "time,frame,A_x,A_y,A_z,B.X,B.Y,B.Z\n"
      "0,1,1,2,3,4,5,6\n"
      "0.5,2,,,,NaN,nan,7\n";
  const MarkerData d = parse_marker_csv(text, "m.csv");
  ASSERT_EQ(d.markers(), 2u);
  ASSERT_EQ(d.frames(), 2u);
  EXPECT_EQ(d.names[1], "B");
  EXPECT_DOUBLE_EQ(d.frame(0)[0], 0.001);
  EXPECT_DOUBLE_EQ(d.frame(0)[1], -0.003);
  EXPECT_DOUBLE_EQ(d.frame(0)[2], 0.002);
  EXPECT_TRUE(std::isnan(d.frame(1)[0]));
  EXPECT_TRUE(std::isnan(d.frame(1)[3]));
  // Defaults: metres, Z up; tab separated.
  const MarkerData m = parse_marker_csv("time\tA_x\tA_y\tA_z\n0\t1\t2\t3\n", "m.tsv");
  EXPECT_DOUBLE_EQ(m.frame(0)[1], 2);
  EXPECT_DOUBLE_EQ(m.frame(0)[2], 3);
}

// Files written by h5py (scripts/make-marker-testdata) read as the trial's TRC they came from.
TEST(Markers, Hdf5AsH5pyWritesIt) {
  const MarkerData trc = read_markers(kTrc);
  const MarkerData array = read_markers(joco::test::testdata("markers/walk1_array.h5"));
  const MarkerData groups = read_markers(joco::test::testdata("markers/walk1_groups.h5"));
  ASSERT_EQ(array.markers(), 41u);
  ASSERT_EQ(array.frames(), 21u);
  ASSERT_EQ(groups.markers(), 41u);
  ASSERT_EQ(groups.frames(), 21u);
  EXPECT_EQ(array.names, trc.names);
  EXPECT_EQ(groups.rate, 60);
  int gaps = 0, compared = 0;
  for (size_t t = 0; t < 21; ++t) {
    EXPECT_NEAR(array.time[t], trc.time[24 + t], 1e-12);
    EXPECT_NEAR(groups.time[t], trc.time[24 + t] - 0.4, 1e-12);  // from the rate, from 0
    for (size_t i = 0; i < 41; ++i) {
      // The groups are in name order.
      const size_t g = static_cast<size_t>(
          std::find(groups.names.begin(), groups.names.end(), trc.names[i]) - groups.names.begin());
      ASSERT_LT(g, 41u);
      for (int c = 0; c < 3; ++c) {
        const double want = trc.frame(24 + t)[3 * i + c];
        EXPECT_DOUBLE_EQ(array.frame(t)[3 * i + c], want);
        const double got = groups.frame(t)[3 * g + c];
        if (std::isnan(got)) {
          ++gaps;
          EXPECT_EQ(trc.names[i], "R.Heel");
        } else {
          EXPECT_NEAR(got, want, 1e-6 * std::abs(want) + 1e-9);  // float32
          ++compared;
        }
      }
    }
  }
  EXPECT_EQ(gaps, 9);  // R.Heel, frames 5-7
  EXPECT_GT(compared, 2000);
}

TEST(Markers, ErrorsNameTheFileLineAndField) {
  const auto error = [](const std::string& text, bool trc) {
    try {
      trc ? parse_trc(text, "bad.trc") : parse_marker_csv(text, "bad.csv");
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  std::string bad = kTrcText;
  bad.replace(bad.find("1001"), 4, "1x01");
  EXPECT_NE(error(bad, true).find("bad.trc:8: marker A X: \"1x01\" is not a number"),
            std::string::npos)
      << error(bad, true);
  bad = kTrcText;
  bad.replace(bad.find("\t2\tmm"), 5, "\t3\tmm");
  EXPECT_NE(error(bad, true).find("bad.trc:4: 2 marker names, but NumMarkers is 3"),
            std::string::npos);
  bad = kTrcText;
  bad.replace(bad.find("\tmm\t"), 4, "\tin\t");
  EXPECT_NE(error(bad, true).find("unknown units \"in\""), std::string::npos);
  EXPECT_NE(error("hello\n", true).find("bad.trc:1: not a TRC file"), std::string::npos);
  EXPECT_NE(error("time,A_x,A_y\n0,1,2\n", false).find("bad.csv:1: marker A lacks"),
            std::string::npos);
  EXPECT_NE(error("time,A_x,A_y,A_z\n0,1,2,3\n0,1,2,3\n", false).find("time does not increase"),
            std::string::npos);
  EXPECT_NE(error("time,A_x,A_y,A_z\n0,1,2,3,4\n", false).find("bad.csv:2: 5 values"),
            std::string::npos);
  EXPECT_NE(error("A_x,A_y,A_z\n1,2,3\n", false).find("no time column"), std::string::npos);
}

TEST(IkSetup, TextFormat) {
  const IkSetup s = parse_ik_setup_text(
      "# weights and locks\n"
      "marker R.ASIS weight 10\n"
      "marker Top.Head off\n"
      "marker LASI site L.ASIS_marker weight 5   # another lab's name\n"
      "joint subtalar_angle_r lock 0\n"
      "joint knee_angle_r target -30deg weight 2\n"
      "time 0.4 1.6\n"
      "units mm\n"
      "up y\n"
      "default-weight 0.5\n",
      "setup.txt");
  ASSERT_EQ(s.markers.size(), 3u);
  EXPECT_EQ(s.markers[0].weight, 10);
  EXPECT_FALSE(s.markers[1].apply);
  EXPECT_EQ(s.markers[2].site, "L.ASIS_marker");
  EXPECT_EQ(s.markers[2].where, "setup.txt:4");
  ASSERT_EQ(s.joints.size(), 2u);
  EXPECT_TRUE(s.joints[0].lock);
  EXPECT_FALSE(s.joints[1].lock);
  EXPECT_DOUBLE_EQ(s.joints[1].value, -30 * std::numbers::pi / 180);
  EXPECT_EQ(s.joints[1].weight, 2);
  EXPECT_EQ(s.time_range->first, 0.4);
  EXPECT_EQ(s.units, "mm");
  EXPECT_EQ(s.up, 'y');
  EXPECT_EQ(s.default_weight, 0.5);
  joco::test::expect_fragments(joco::test::input_error([] {
                                 parse_ik_setup_text("marker A\njoint knee bend 3\n", "setup.txt");
                               }),
                               "setup.txt:2|joint NAME lock VALUE", "bad joint line");
  joco::test::expect_fragments(
      joco::test::input_error([] { parse_ik_setup_text("marker A weight -1\n", "s.txt"); }),
      "s.txt:1|weight \"-1\"", "negative weight");
}

TEST(IkSetup, OpenSimSetupXml) {
  const IkSetup s = read_ik_setup(
      joco::test::testdata("mocap/gait2354_subject01/opensim/subject01_Setup_IK.xml"));
  EXPECT_TRUE(s.only_listed);
  int applied = 0;
  for (const IkMarkerSetting& m : s.markers) applied += m.apply;
  EXPECT_EQ(applied, 31);
  const auto weight = [&](const std::string& name) {
    for (const IkMarkerSetting& m : s.markers) {
      if (m.marker == name) return m.weight;
    }
    return -1.0;
  };
  EXPECT_EQ(weight("R.ASIS"), 10);
  EXPECT_EQ(weight("R.Acromium"), 0.5);
  EXPECT_EQ(weight("Top.Head"), 0.1);
  EXPECT_EQ(weight("Sternum"), 1);
  ASSERT_EQ(s.joints.size(), 4u);
  for (const IkJointSetting& j : s.joints) {
    EXPECT_FALSE(j.lock);
    EXPECT_TRUE(j.default_value);
    EXPECT_EQ(j.weight, 1000);
  }
  EXPECT_EQ(s.joints[0].joint, "subtalar_angle_r");
  EXPECT_EQ(s.time_range->first, 0.4);
  EXPECT_EQ(s.time_range->second, 1.6);
  joco::test::expect_fragments(
      joco::test::input_error([] {
        parse_opensim_ik_setup(
            "<OpenSimDocument><InverseKinematicsTool><IKTaskSet><objects>\n"
            "<IKMarkerTask name=\"A\"><weight>heavy</weight></IKMarkerTask>\n"
            "</objects></IKTaskSet></InverseKinematicsTool></OpenSimDocument>",
            "ik.xml");
      }),
      "ik.xml:2|<weight> \"heavy\"", "bad weight");
}

}  // namespace
}  // namespace joco::tools
