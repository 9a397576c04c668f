// ModelSpec to Model: the Compiler's stages in order (compiler/compiler.h says where each is).
#include "compiler/compile.h"

#include "compiler/compiler.h"
#include "compiler/set_const.h"
#include "joco/validate.h"
#include "model/derived.h"

namespace joco::compiler {

Model Compiler::run() {
  flatten(&spec_.world, 0, 0);
  sort_pairs_and_excludes();
  resolve_frames();
  assets_ = compile_assets(spec_);
  resolve_geoms();
  compute_geom_masses();
  infer_global_frames();
  compute_inertia();
  fuse_static_bodies();
  check_moving_masses();
  scale_to_total_mass();
  build_dofs();
  Model m(sizes());
  fill(m);
  // Before set_const makes a Data: its sizes are checked before they are allocated.
  validate_model(m, spec_.source);
  std::vector<std::array<double, 2>> springdamper;
  for (const auto& joint : joints_) springdamper.push_back(joint.first->springdamper);
  set_const(m, spec_, springdamper);
  return m;
}

void Compiler::fill(Model& m) {
  check_unique_names();
  index_names();
  fill_names(m);
  fill_options(m);
  fill_bodies(m);
  fill_joints(m);
  fill_geoms(m);
  fill_sites(m);
  fill_cameras_and_lights(m);
  assets_.fill(m, ids_.at(kObjBody), spec_);
  fill_pairs_and_excludes(m);
  fill_equalities(m);
  fill_tendons(m);
  fill_actuators(m);
  fill_sensors(m);
  fill_custom(m);
  fill_keys(m);
  fill_derived(m);  // last: from the fields above
}

Model compile_model(ModelSpec& spec) { return Compiler(spec).run(); }

}  // namespace joco::compiler
