#include "compiler/composite.h"

#include "joco/error.h"

namespace joco::compiler {

void expand_composite(const XmlElement& e, BodySpec&, const CompositeContext&) {
  throw InputError(e.where() + ": composite elements are not supported yet");
}

}  // namespace joco::compiler
