// Writes the table of model features (support/model_features.h) for every model in testdata/:
//   write_model_features OUTPUT
// One C++ initializer per model, included by support/model_features.cc. Run by the build.
#include <spdlog/spdlog.h>
#include <tinyxml2.h>

#include <cstdint>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <string>

#include "joco/data.h"
#include "joco/forward.h"
#include "joco/mjcf.h"
#include "joco/urdf.h"
#include "support/model_features.h"
#include "support/test_models.h"
#include "support/test_support.h"

namespace joco::test {
namespace {

template <typename T, typename Pred>
bool any_of(const T* values, int n, Pred pred) {
  for (int i = 0; i < n; ++i) {
    if (pred(values[i])) return true;
  }
  return false;
}

uint64_t type_bits(const int* types, int n) {
  uint64_t bits = 0;
  for (int i = 0; i < n; ++i) bits |= uint64_t{1} << types[i];
  return bits;
}

Model compile(const std::string& path, bool urdf) {
  const std::string file = testdata(path);
  if (!urdf) return compile_mjcf_file(file);
  UrdfOptions options;
  options.base_dir = file.substr(0, file.find_last_of('/'));
  return compile_urdf(read_text(file), file, options);
}

ModelFeatures features(const std::string& path) {
  ModelFeatures f;
  f.path = path;
  tinyxml2::XMLDocument doc;
  doc.LoadFile(testdata(path).c_str());
  f.urdf = doc.RootElement() && std::string(doc.RootElement()->Name()) == "robot";
  Model m;
  try {
    m = compile(path, f.urdf);
  } catch (const std::exception&) {
    return f;  // refused: loads = 0
  }
  static_cast<ModelSizes&>(f) = m.sizes();
  f.loads = 1;
  Data d(m);
  forward(m, d);
  f.ncon = d.ncon;
  f.nefc = d.nefc;
  f.integrator = m.opt.integrator;
  f.cone = m.opt.cone;
  f.jacobian = m.opt.jacobian;
  f.solver = m.opt.solver;
  f.fluid = m.opt.density > 0 || m.opt.viscosity > 0;
  const auto positive = [](double x) { return x > 0; };
  const auto set = [](uint8_t x) { return x != 0; };
  f.stiffness =
      any_of(m.jnt_stiffness, m.njnt, positive) || any_of(m.tendon_stiffness, m.ntendon, positive);
  f.damping =
      any_of(m.dof_damping, m.nv, positive) || any_of(m.tendon_damping, m.ntendon, positive);
  f.frictionloss = any_of(m.dof_frictionloss, m.nv, positive) ||
                   any_of(m.tendon_frictionloss, m.ntendon, positive);
  f.limited = any_of(m.jnt_limited, m.njnt, set) || any_of(m.tendon_limited, m.ntendon, set);
  f.joint_types = type_bits(m.jnt_type, m.njnt);
  f.geom_types = type_bits(m.geom_type, m.ngeom);
  f.sensor_types = type_bits(m.sensor_type, m.nsensor);
  f.sensor_stages = type_bits(m.sensor_needstage, m.nsensor);
  f.sensor_noise = any_of(m.sensor_noise, m.nsensor, positive);
  f.eq_types = type_bits(m.eq_type, m.neq);
  f.wrap_types = type_bits(m.wrap_type, m.nwrap);
  f.trn_types = type_bits(m.actuator_trntype, m.nu);
  f.dyn_types = type_bits(m.actuator_dyntype, m.nu);
  f.gain_types = type_bits(m.actuator_gaintype, m.nu);
  f.bias_types = type_bits(m.actuator_biastype, m.nu);
  return f;
}

// One aggregate initializer: {{sizes}, "path", features...}.
void write_row(std::ostream& out, const ModelFeatures& f) {
  out << "{{";
  const char* sep = "";
  for (const auto& [name, value] : f.size_list()) {
    out << sep << value;
    sep = ", ";
  }
  out << "}, \"" << f.path << "\"";
#define JOCO_WRITE_FEATURE(type, name, meaning) out << ", " << f.name;
  JOCO_MODEL_FEATURES(JOCO_WRITE_FEATURE)
#undef JOCO_WRITE_FEATURE
  out << "},\n";
}

}  // namespace
}  // namespace joco::test

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: write_model_features OUTPUT\n";
    return 2;
  }
  spdlog::set_level(spdlog::level::off);  // the models' warnings are not this program's
  const std::string output = argv[1];
  std::ofstream out(output + ".tmp");
  out << "// Written by write_model_features from testdata/; do not edit.\n";
  for (const std::string& path : joco::test::all_testdata_models()) {
    joco::test::write_row(out, joco::test::features(path));
  }
  out.close();
  if (!out || std::rename((output + ".tmp").c_str(), output.c_str()) != 0) {
    std::cerr << "write_model_features: cannot write " << output << "\n";
    return 1;
  }
  return 0;
}
