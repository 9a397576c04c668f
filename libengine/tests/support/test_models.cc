#include "support/test_models.h"

#include <tinyxml2.h>

#include <algorithm>
#include <cctype>
#include <filesystem>

namespace joco::test {

namespace fs = std::filesystem;

const std::vector<std::string>& quick_models() {
  static const std::vector<std::string> models = {
      "constraint/equalities.xml",
      "constraint/friction_limits.xml",
      "constraint/contacts.xml",
      "mujoco/model/humanoid/humanoid.xml",
      "mujoco/model/tendon_arm/arm26.xml",
      "mujoco-tests/test__engine__testdata__weld.xml",
      "mujoco-tests/test__engine__testdata__collision_convex__multiple_objects.xml",
      "real/anybotics_anymal_c/scene.xml",
  };
  return models;
}

const std::vector<std::string>& long_models() {
  static const std::vector<std::string> models = {
      "mujoco/model/humanoid100/humanoid100.xml",
      "mujoco-tests/"
      "test__engine__testdata__core_smooth__rne_post__connect__multiple_constraints.xml",
      "mujoco-tests/"
      "test__engine__testdata__core_smooth__rne_post__connect__force_slide_rotated.xml",
      "mujoco-tests/"
      "test__engine__testdata__core_smooth__rne_post__weld__force_torque_free_rotated.xml",
      "mujoco-tests/"
      "test__engine__testdata__core_smooth__rne_post__weld__force_torque_free_rotated_tendon.xml",
      "mujoco-tests/"
      "test__engine__testdata__core_smooth__rne_post__weld__tfratio0_multiple_constraints.xml",
      "mujoco-tests/test__testdata__model.xml",
      "mujoco-tests/test__engine__testdata__collisions.xml",
      "mujoco-tests/test__engine__testdata__collision_convex__stacked_boxes.xml",
      "mujoco-tests/test__engine__testdata__collision_convex__cylinder_box.xml",
      "mujoco-tests/test__engine__testdata__collision_convex__capsule_mesh.xml",
      "mujoco-tests/test__engine__testdata__collision_convex__long_box.xml",
      "real/franka_sim/franka_panda.xml",
      "real/franka_sim/franka_panda_teleop.xml",
      "real/shadow_hand/scene_right.xml",
      "real/wonik_allegro/scene_left.xml",
  };
  return models;
}

std::vector<std::string> testdata_files() {
  const fs::path root = JOCO_TESTDATA_DIR;
  std::vector<std::string> files;
  for (const auto& entry : fs::recursive_directory_iterator(root)) {
    const std::string ext = entry.path().extension().string();
    if (entry.is_regular_file() && (ext == ".xml" || ext == ".urdf")) {
      files.push_back(fs::relative(entry.path(), root).string());
    }
  }
  std::sort(files.begin(), files.end());
  return files;
}

std::vector<std::string> all_testdata_models() {
  std::vector<std::string> models;
  for (const std::string& file : testdata_files()) {
    // The tools' own detection lives in tools/common (which engine tests do not link); a parse of
    // the root element gives the same set (tools/common/every_model_test.cc checks that they
    // agree).
    tinyxml2::XMLDocument doc;
    if (doc.LoadFile((std::string(JOCO_TESTDATA_DIR) + "/" + file).c_str()) !=
        tinyxml2::XML_SUCCESS)
      continue;
    const tinyxml2::XMLElement* root = doc.RootElement();
    const std::string name = root ? root->Name() : "";
    if (name == "mujoco" || name == "robot") models.push_back(file);
  }
  return models;
}

std::string test_name(std::string text) {
  for (char& c : text) {
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  }
  return text;
}

std::string param_name(const ::testing::TestParamInfo<std::string>& param) {
  return test_name(param.param);
}

}  // namespace joco::test
