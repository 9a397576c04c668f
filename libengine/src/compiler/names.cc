// Compiler stages (compiler/compiler.h): the names buffer, unique names, the name-to-id maps and
// name addresses.
#include <algorithm>
#include <cstring>
#include <set>
#include <string>
#include <vector>

#include "compiler/compiler.h"

namespace joco::compiler {

// All names, zero-terminated, in MuJoCo's order: the model name, then each object type in turn.
const std::string& Compiler::names_buffer() {
  if (!names_.empty()) return names_;
  auto add = [this](const std::string& name, std::vector<int>& adr) {
    adr.push_back(static_cast<int>(names_.size()));
    names_ += name;
    names_.push_back('\0');
  };
  std::vector<int> unused;
  add(spec_.modelname, unused);
  for (const FlatBody& b : bodies_) add(b.spec->name, name_adr_[kObjBody]);
  for (const auto& j : joints_) add(j.first->name, name_adr_[kObjJoint]);
  for (const FlatGeom& g : geoms_) add(g.spec->name, name_adr_[kObjGeom]);
  for (const FlatSite& t : sites_) add(t.spec->name, name_adr_[kObjSite]);
  for (const auto& c : cameras_) add(c.first->name, name_adr_[kObjCamera]);
  for (const auto& l : lights_) add(l.first->name, name_adr_[kObjLight]);
  for (const std::string& n : assets_.mesh_names) add(n, name_adr_[kObjMesh]);
  for (const std::string& n : assets_.skin_names) add(n, name_adr_[kObjSkin]);
  for (const std::string& n : assets_.hfield_names) add(n, name_adr_[kObjHfield]);
  for (const std::string& n : assets_.texture_names) add(n, name_adr_[kObjTexture]);
  for (const std::string& n : assets_.material_names) add(n, name_adr_[kObjMaterial]);
  for (const PairSpec& p : spec_.pairs) add(p.name, name_adr_[kObjPair]);
  for (const ExcludeSpec& x : spec_.excludes) add(x.name, name_adr_[kObjExclude]);
  for (const EqualitySpec& e : spec_.equalities) add(e.name, name_adr_[kObjEquality]);
  for (const TendonSpec& t : spec_.tendons) add(t.name, name_adr_[kObjTendon]);
  for (const ActuatorSpec& u : spec_.actuators) add(u.name, name_adr_[kObjActuator]);
  for (const SensorSpec& s : spec_.sensors) add(s.name, name_adr_[kObjSensor]);
  for (const NumericSpec& n : spec_.numerics) add(n.name, name_adr_[kObjNumeric]);
  for (const TextSpec& t : spec_.texts) add(t.name, name_adr_[kObjText]);
  for (const TupleSpec& t : spec_.tuples) add(t.name, name_adr_[kObjTuple]);
  for (const KeySpec& k : spec_.keys) add(k.name, name_adr_[kObjKey]);
  for (int k = static_cast<int>(spec_.keys.size());
       k < std::max(static_cast<int>(spec_.keys.size()), spec_.size.nkey); ++k) {
    add("", name_adr_[kObjKey]);
  }
  return names_;
}

// Names must be unique within their type.
void Compiler::check_unique_names() {
  auto check = [](const auto& items, auto name_of, auto origin_of, const char* what) {
    std::set<std::string> seen;
    for (const auto& item : items) {
      const std::string& name = name_of(item);
      if (name.empty()) continue;
      if (!seen.insert(name).second) {
        throw InputError(origin_of(item).describe(name) + ": repeated " + what + " name '" + name +
                         "'");
      }
    }
  };
  check(
      bodies_, [](const FlatBody& b) -> const std::string& { return b.spec->name; },
      [](const FlatBody& b) -> const Origin& { return b.spec->origin; }, "body");
  check(
      joints_, [](const auto& j) -> const std::string& { return j.first->name; },
      [](const auto& j) -> const Origin& { return j.first->origin; }, "joint");
  check(
      geoms_, [](const FlatGeom& g) -> const std::string& { return g.spec->name; },
      [](const FlatGeom& g) -> const Origin& { return g.spec->origin; }, "geom");
  check(
      sites_, [](const FlatSite& t) -> const std::string& { return t.spec->name; },
      [](const FlatSite& t) -> const Origin& { return t.spec->origin; }, "site");
  check(
      cameras_, [](const auto& c) -> const std::string& { return c.first->name; },
      [](const auto& c) -> const Origin& { return c.first->origin; }, "camera");
  check(
      lights_, [](const auto& l) -> const std::string& { return l.first->name; },
      [](const auto& l) -> const Origin& { return l.first->origin; }, "light");
  auto by_name = [](const auto& x) -> const std::string& { return x.name; };
  auto by_origin = [](const auto& x) -> const Origin& { return x.origin; };
  check(spec_.pairs, by_name, by_origin, "pair");
  check(spec_.excludes, by_name, by_origin, "exclude");
  check(spec_.equalities, by_name, by_origin, "equality");
  check(spec_.tendons, by_name, by_origin, "tendon");
  check(spec_.actuators, by_name, by_origin, "actuator");
  check(spec_.sensors, by_name, by_origin, "sensor");
  check(spec_.numerics, by_name, by_origin, "numeric");
  check(spec_.texts, by_name, by_origin, "text");
  check(spec_.tuples, by_name, by_origin, "tuple");
  check(spec_.keys, by_name, by_origin, "key");
}

int Compiler::id_of(ObjType type, const std::string& name, const Origin& origin,
                    const std::string& element, const char* what) const {
  const auto& ids = ids_.at(type);
  auto it = ids.find(name);
  if (it == ids.end()) fail(origin, element, std::string("unknown ") + what + " '" + name + "'");
  return it->second;
}

void Compiler::index_names() {
  auto index = [this](ObjType type, int count, auto name_at) {
    auto& map = ids_[type];
    for (int i = 0; i < count; ++i) {
      const std::string& n = name_at(i);
      if (!n.empty()) map.emplace(n, i);
    }
  };
  index(kObjBody, static_cast<int>(bodies_.size()),
        [this](int i) -> const std::string& { return bodies_[static_cast<size_t>(i)].spec->name; });
  index(kObjJoint, static_cast<int>(joints_.size()), [this](int i) -> const std::string& {
    return joints_[static_cast<size_t>(i)].first->name;
  });
  index(kObjGeom, static_cast<int>(geoms_.size()),
        [this](int i) -> const std::string& { return geoms_[static_cast<size_t>(i)].spec->name; });
  index(kObjSite, static_cast<int>(sites_.size()),
        [this](int i) -> const std::string& { return sites_[static_cast<size_t>(i)].spec->name; });
  index(kObjCamera, static_cast<int>(cameras_.size()), [this](int i) -> const std::string& {
    return cameras_[static_cast<size_t>(i)].first->name;
  });
  index(kObjLight, static_cast<int>(lights_.size()), [this](int i) -> const std::string& {
    return lights_[static_cast<size_t>(i)].first->name;
  });
  index(kObjTendon, static_cast<int>(spec_.tendons.size()),
        [this](int i) -> const std::string& { return spec_.tendons[static_cast<size_t>(i)].name; });
  index(
      kObjActuator, static_cast<int>(spec_.actuators.size()),
      [this](int i) -> const std::string& { return spec_.actuators[static_cast<size_t>(i)].name; });
  index(kObjSensor, static_cast<int>(spec_.sensors.size()),
        [this](int i) -> const std::string& { return spec_.sensors[static_cast<size_t>(i)].name; });
  index(kObjEquality, static_cast<int>(spec_.equalities.size()),
        [this](int i) -> const std::string& {
          return spec_.equalities[static_cast<size_t>(i)].name;
        });
  index(kObjPair, static_cast<int>(spec_.pairs.size()),
        [this](int i) -> const std::string& { return spec_.pairs[static_cast<size_t>(i)].name; });
  index(kObjExclude, static_cast<int>(spec_.excludes.size()), [this](int i) -> const std::string& {
    return spec_.excludes[static_cast<size_t>(i)].name;
  });
  index(kObjNumeric, static_cast<int>(spec_.numerics.size()), [this](int i) -> const std::string& {
    return spec_.numerics[static_cast<size_t>(i)].name;
  });
  index(kObjText, static_cast<int>(spec_.texts.size()),
        [this](int i) -> const std::string& { return spec_.texts[static_cast<size_t>(i)].name; });
  index(kObjTuple, static_cast<int>(spec_.tuples.size()),
        [this](int i) -> const std::string& { return spec_.tuples[static_cast<size_t>(i)].name; });
  index(kObjKey, static_cast<int>(spec_.keys.size()),
        [this](int i) -> const std::string& { return spec_.keys[static_cast<size_t>(i)].name; });
  ids_[kObjXBody] = ids_[kObjBody];
  for (const auto& [name, id] : assets_.mesh_ids) ids_[kObjMesh].emplace(name, id);
  for (const auto& [name, id] : assets_.skin_ids) ids_[kObjSkin].emplace(name, id);
  for (const auto& [name, id] : assets_.hfield_ids) ids_[kObjHfield].emplace(name, id);
  for (const auto& [name, id] : assets_.texture_ids) ids_[kObjTexture].emplace(name, id);
  for (const auto& [name, id] : assets_.material_ids) ids_[kObjMaterial].emplace(name, id);
}

void Compiler::fill_names(Model& m) {
  std::memcpy(m.names, names_.data(), names_.size());
  auto copy = [](int* dst, const std::vector<int>& src) {
    if (!src.empty()) std::memcpy(dst, src.data(), sizeof(int) * src.size());
  };
  copy(m.name_bodyadr, name_adr_[kObjBody]);
  copy(m.name_jntadr, name_adr_[kObjJoint]);
  copy(m.name_geomadr, name_adr_[kObjGeom]);
  copy(m.name_siteadr, name_adr_[kObjSite]);
  copy(m.name_camadr, name_adr_[kObjCamera]);
  copy(m.name_lightadr, name_adr_[kObjLight]);
  copy(m.name_meshadr, name_adr_[kObjMesh]);
  copy(m.name_skinadr, name_adr_[kObjSkin]);
  copy(m.name_hfieldadr, name_adr_[kObjHfield]);
  copy(m.name_texadr, name_adr_[kObjTexture]);
  copy(m.name_matadr, name_adr_[kObjMaterial]);
  copy(m.name_pairadr, name_adr_[kObjPair]);
  copy(m.name_excludeadr, name_adr_[kObjExclude]);
  copy(m.name_eqadr, name_adr_[kObjEquality]);
  copy(m.name_tendonadr, name_adr_[kObjTendon]);
  copy(m.name_actuatoradr, name_adr_[kObjActuator]);
  copy(m.name_sensoradr, name_adr_[kObjSensor]);
  copy(m.name_numericadr, name_adr_[kObjNumeric]);
  copy(m.name_textadr, name_adr_[kObjText]);
  copy(m.name_tupleadr, name_adr_[kObjTuple]);
  copy(m.name_keyadr, name_adr_[kObjKey]);
}

}  // namespace joco::compiler
