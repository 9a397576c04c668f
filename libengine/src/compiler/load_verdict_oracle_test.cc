// Which files load: joco accepts every MJCF and URDF file under testdata that MuJoCo 2.2.2 loads
// (testdata/mujoco/model is a copy of /usr/share/mujoco/model), and refuses, with an input error
// rather than a crash, every one 2.2.2 refuses (include fragments, say). The one deliberate
// difference: the <distance> equality, which 2.2.2 removed and joco still accepts
// (man/joco-compile.1, DIFFERENCES FROM MUJOCO 2.2.2).
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "joco/error.h"
#include "joco/mjcf.h"
#include "joco/urdf.h"
#include "oracle/oracle.h"
#include "support/test_models.h"
#include "support/test_support.h"

namespace joco {
namespace {

namespace fs = std::filesystem;

// joco's verdict: "" when it loads, else the message of the input error that refused it.
std::string joco_verdict(const fs::path& path) {
  try {
    if (path.extension() == ".urdf") {
      std::ifstream in(path);
      std::stringstream text;
      text << in.rdbuf();
      UrdfOptions options;
      options.base_dir = path.parent_path().string();
      (void)compile_urdf(text.str(), path.string(), options);
    } else {
      (void)compile_mjcf_file(path.string());
    }
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

// Expects joco's verdict on testdata/<relative> to be MuJoCo's.
void expect_same_verdict(const std::string& relative) {
  const fs::path path = test::testdata(relative);
  std::string mj_error;
  const bool mj_loads = oracle::load(path.string(), &mj_error) != nullptr;
  const std::string joco_error = joco_verdict(path);
  oracle::count_compared();
  if (!mj_loads && mj_error.find("distance equality") != std::string::npos) {
    EXPECT_EQ(joco_error, "") << "joco accepts the distance equality 2.2.2 removed";
    return;
  }
  EXPECT_EQ(joco_error.empty(), mj_loads)
      << relative << "\nMuJoCo: " << (mj_loads ? "loads" : mj_error) << "\njoco: " << joco_error;
}

class LoadVerdict : public ::testing::TestWithParam<std::string> {};

TEST_P(LoadVerdict, SameAsMuJoCo) { expect_same_verdict(GetParam()); }

INSTANTIATE_TEST_SUITE_P(LongSweep, LoadVerdict, ::testing::ValuesIn(test::testdata_files()),
                         test::param_name);

// The sweep above covers testdata and MuJoCo's models; a few of its files, one of each kind (a
// model, a URDF, an include fragment), in the default suite.
TEST(LoadVerdictFiles, CoverTestdataAndMuJoCosModels) {
  const std::vector<std::string> files = test::testdata_files();
  EXPECT_GT(files.size(), 140u);
  for (const char* f : {"mujoco/model/humanoid100/humanoid100.xml", "urdf/ur5/ur5_robot.urdf",
                        "real/franka_sim/assets/actuator0.xml", "forward/static_scene.xml"}) {
    EXPECT_NE(std::find(files.begin(), files.end(), f), files.end()) << f;
    expect_same_verdict(f);
  }
}

}  // namespace
}  // namespace joco
