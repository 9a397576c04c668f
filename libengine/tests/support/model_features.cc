#include "support/model_features.h"

#include <algorithm>
#include <stdexcept>
#include <tuple>

#include "support/test_models.h"

namespace joco::test {

const std::vector<ModelFeatures>& model_features() {
  static const std::vector<ModelFeatures> table = {
#include "model_features.inc"
  };
  return table;
}

const ModelFeatures& features_of(const std::string& path) {
  const std::vector<ModelFeatures>& table = model_features();
  const auto it =
      std::lower_bound(table.begin(), table.end(), path,
                       [](const ModelFeatures& f, const std::string& p) { return f.path < p; });
  if (it == table.end() || it->path != path) {
    throw std::invalid_argument("no model features for " + path + " (not a model in testdata/?)");
  }
  return *it;
}

std::vector<std::string> models_where(const ModelFilter& pred, ModelSet set) {
  std::vector<std::string> paths;
  const auto take = [&](const ModelFeatures& f) {
    if (f.loads && pred(f)) paths.push_back(f.path);
  };
  switch (set) {
    case ModelSet::kQuick:
      for (const std::string& path : quick_models()) take(features_of(path));
      break;
    case ModelSet::kLong:
      for (const std::string& path : long_models()) take(features_of(path));
      break;
    case ModelSet::kAll:
      for (const ModelFeatures& f : model_features()) take(f);
      break;
  }
  return paths;
}

std::vector<std::string> join(std::vector<std::string> a, const std::vector<std::string>& b) {
  for (const std::string& path : b) {
    if (std::find(a.begin(), a.end(), path) == a.end()) a.push_back(path);
  }
  return a;
}

// "Smaller" for picking one model of a kind: fewer dofs, then fewer bodies, then by path.
bool smaller(const ModelFeatures& a, const ModelFeatures& b) {
  return std::tie(a.nv, a.nbody, a.nmeshvert, a.path) <
         std::tie(b.nv, b.nbody, b.nmeshvert, b.path);
}

std::vector<std::string> sweep_models(const ModelFilter& pred, const ModelKinds& kinds,
                                      const std::string& folder) {
  std::vector<std::string> paths =
      folder.empty()
          ? std::vector<std::string>{}
          : models_where([&](const ModelFeatures& f) { return f.in(folder) && pred(f); });
  paths = join(paths, models_where(pred, ModelSet::kQuick));
  const ModelFeatures* smallest[64] = {};
  for (const ModelFeatures& f : model_features()) {
    if (!f.loads || !f.small() || !pred(f)) continue;
    const uint64_t bits = kinds(f);
    for (int bit = 0; bit < 64; ++bit) {
      if (((bits >> bit) & 1) && (!smallest[bit] || smaller(f, *smallest[bit]))) smallest[bit] = &f;
    }
  }
  std::vector<std::string> picked;
  for (const ModelFeatures* f : smallest) {
    if (f) picked.push_back(f->path);
  }
  std::sort(picked.begin(), picked.end());
  return join(paths, picked);
}

std::vector<std::string> long_sweep_models(const ModelFilter& pred, const ModelKinds& kinds,
                                           const std::string& folder) {
  const std::vector<std::string> quick = sweep_models(pred, kinds, folder);
  return models_where([&](const ModelFeatures& f) {
    return pred(f) && std::find(quick.begin(), quick.end(), f.path) == quick.end();
  });
}

std::vector<std::string> stage_models(const std::string& folder) {
  return join(models_where([&](const ModelFeatures& f) { return f.in(folder); }),
              models_where([](const ModelFeatures& f) { return f.small(); }, ModelSet::kQuick));
}

std::vector<std::string> long_stage_models(const std::string& folder, const ModelFilter& pred) {
  const std::vector<std::string> quick = stage_models(folder);
  std::vector<std::string> paths;
  for (const std::string& path :
       join(models_where([](const ModelFeatures& f) { return !f.small(); }, ModelSet::kQuick),
            long_models())) {
    if (std::find(quick.begin(), quick.end(), path) == quick.end() &&
        (!pred || pred(features_of(path)))) {
      paths.push_back(path);
    }
  }
  return paths;
}

}  // namespace joco::test
