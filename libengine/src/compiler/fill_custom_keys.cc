// Compiler stages (compiler/compiler.h): the fields of custom numeric, text and tuple data, and of
// keyframes.
#include <algorithm>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "compiler/compiler.h"
#include "math/vec.h"

namespace joco::compiler {

void Compiler::fill_custom(Model& m) {
  int adr = 0;
  for (int i = 0; i < m.nnumeric; ++i) {
    const NumericSpec& n = spec_.numerics[static_cast<size_t>(i)];
    m.numeric_adr[i] = adr;
    m.numeric_size[i] = static_cast<int>(n.data.size());
    std::copy(n.data.begin(), n.data.end(), m.numeric_data + adr);
    adr += m.numeric_size[i];
  }
  adr = 0;
  for (int i = 0; i < m.ntext; ++i) {
    const TextSpec& t = spec_.texts[static_cast<size_t>(i)];
    m.text_adr[i] = adr;
    m.text_size[i] = static_cast<int>(t.data.size()) + 1;
    std::memcpy(m.text_data + adr, t.data.c_str(), t.data.size() + 1);
    adr += m.text_size[i];
  }
  adr = 0;
  for (int i = 0; i < m.ntuple; ++i) {
    const TupleSpec& t = spec_.tuples[static_cast<size_t>(i)];
    if (t.elements.empty()) fail(t.origin, t.name, "a tuple needs at least one element");
    m.tuple_adr[i] = adr;
    m.tuple_size[i] = static_cast<int>(t.elements.size());
    for (const TupleSpec::Element& e : t.elements) {
      m.tuple_objtype[adr] = e.objtype;
      m.tuple_objid[adr] =
          id_of(static_cast<ObjType>(e.objtype), e.objname, t.origin, t.name, "object");
      m.tuple_objprm[adr] = e.prm;
      ++adr;
    }
  }
}

void Compiler::fill_keys(Model& m) {
  for (int k = 0; k < m.nkey; ++k) {
    std::copy(m.qpos0, m.qpos0 + m.nq, m.key_qpos + k * m.nq);
    for (int b = 0; b < m.nbody; ++b) {
      const int id = m.body_mocapid[b];
      if (id < 0) continue;
      std::copy(m.body_pos + 3 * b, m.body_pos + 3 * b + 3, m.key_mpos + k * 3 * m.nmocap + 3 * id);
      std::copy(m.body_quat + 4 * b, m.body_quat + 4 * b + 4,
                m.key_mquat + k * 4 * m.nmocap + 4 * id);
    }
  }
  for (int k = 0; k < static_cast<int>(spec_.keys.size()); ++k) {
    const KeySpec& key = spec_.keys[static_cast<size_t>(k)];
    m.key_time[k] = key.time;
    auto copy = [&](const std::optional<std::vector<double>>& v, double* dst, int n,
                    const char* what) {
      if (!v) return;
      if (static_cast<int>(v->size()) != n) {
        fail(key.origin, key.name,
             std::string(what) + " has " + std::to_string(v->size()) + " values, the model needs " +
                 std::to_string(n));
      }
      std::copy(v->begin(), v->end(), dst);
    };
    copy(key.qpos, m.key_qpos + k * m.nq, m.nq, "qpos");
    copy(key.qvel, m.key_qvel + k * m.nv, m.nv, "qvel");
    copy(key.act, m.key_act + k * m.na, m.na, "act");
    copy(key.ctrl, m.key_ctrl + k * m.nu, m.nu, "ctrl");
    copy(key.mpos, m.key_mpos + k * 3 * m.nmocap, 3 * m.nmocap, "mpos");
    copy(key.mquat, m.key_mquat + k * 4 * m.nmocap, 4 * m.nmocap, "mquat");
    // Quaternions are normalised, as MuJoCo 2.2.2 does (a zero one becomes the identity).
    for (int q = 0; q < m.nmocap; ++q) math::quat_normalize(m.key_mquat + k * 4 * m.nmocap + 4 * q);
    for (int j = 0; j < m.njnt; ++j) {
      double* qpos = m.key_qpos + k * m.nq + m.jnt_qposadr[j];
      if (m.jnt_type[j] == kJointBall) math::quat_normalize(qpos);
      if (m.jnt_type[j] == kJointFree) math::quat_normalize(qpos + 3);
    }
  }
}

}  // namespace joco::compiler
