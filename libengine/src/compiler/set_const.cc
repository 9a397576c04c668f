#include "compiler/set_const.h"

namespace joco::compiler {

void set_const(Model& m, const ModelSpec&) {
  // Subtree masses: each body's mass plus its descendants', accumulated from the leaves.
  for (int b = 0; b < m.nbody; ++b) m.body_subtreemass[b] = m.body_mass[b];
  for (int b = m.nbody - 1; b > 0; --b) m.body_subtreemass[m.body_parentid[b]] += m.body_subtreemass[b];
}

}  // namespace joco::compiler
