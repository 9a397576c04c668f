// What the fuzz targets share: running a loaded model once through the pipeline, and a folder of
// asset files written once per process, so that MJCF and URDF inputs can name meshes, textures,
// height fields and skins that exist.
//
// A target catches joco::InputError (bad input, refused with a message: the contract) and nothing
// else: any other exception, a crash, a sanitizer report or a hang is a finding.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>

#include "joco/data.h"
#include "joco/error.h"
#include "joco/forward.h"
#include "joco/model.h"

namespace joco::fuzz {

// Models whose Data would be larger than this are loaded but not run: libFuzzer's memory limit
// (2 GB) would report a legitimate allocation as a finding.
inline constexpr double kMaxRunBytes = 256.0 * 1024 * 1024;

// Iteration limits above this (opt.iterations, noslip_iterations, mpr_iterations) are lowered to
// it for the run: the solvers and MPR may use every iteration a model asks for, as MuJoCo's do, so
// a model asking for millions (a badly scaled one that never meets its tolerance) runs for
// minutes. That is its request, not a hang of joco's; an iteration that never ends would be.
inline constexpr int kMaxRunIterations = 1000;

// One forward pass (collision, constraints, sensors) of an accepted model: whatever a loader
// accepts must be safe to simulate. RuntimeError (a divergence the engine reports) is an answer.
inline void run_once(const Model& loaded) {
  if (data_bytes(loaded.sizes()).total > kMaxRunBytes) return;
  std::optional<Model> capped;
  const Option& o = loaded.opt;
  if (std::max({o.iterations, o.noslip_iterations, o.mpr_iterations}) > kMaxRunIterations) {
    capped.emplace(loaded);
    for (int* limit : {&capped->opt.iterations, &capped->opt.noslip_iterations,
                       &capped->opt.mpr_iterations}) {
      *limit = std::min(*limit, kMaxRunIterations);
    }
  }
  const Model& m = capped ? *capped : loaded;
  Data d = make_data(m);
  try {
    forward(m, d);
  } catch (const RuntimeError&) {
  }
}

// Copies testdata files into a fresh folder under TMPDIR (or /tmp) once, under the short names the
// seeds and the dictionary use; returns the folder.
inline const std::string& asset_dir() {
  static const std::string dir = [] {
    namespace fs = std::filesystem;
    const char* tmp = std::getenv("TMPDIR");
    std::string pattern = std::string(tmp && *tmp ? tmp : "/tmp") + "/joco-fuzz-assets.XXXXXX";
    if (!mkdtemp(pattern.data())) std::abort();
    const fs::path out(pattern), src(JOCO_TESTDATA_DIR);
    const std::pair<const char*, const char*> files[] = {
        {"mesh/tet.stl", "a.stl"},
        {"mesh/tet_ascii.stl", "b.stl"},
        {"mesh/quad_pyramid_vt_vn.obj", "a.obj"},
        {"mesh/tetra.msh", "a.msh"},
        {"textures/hf/grey8.png", "hf.png"},
        {"textures/hf/random.bin", "hf.bin"},
        {"textures/png/adam7_rgb8.png", "tex.png"},
        {"skin/box.skn", "a.skn"},
    };
    for (const auto& [from, to] : files) fs::copy_file(src / from, out / to);
    return pattern;
  }();
  return dir;
}

}  // namespace joco::fuzz
