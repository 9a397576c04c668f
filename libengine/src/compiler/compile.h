// ModelSpec to Model: the compiler proper.
#pragma once

#include "compiler/spec.h"
#include "joco/model.h"

namespace joco::compiler {

// Compiles a parsed specification (which it may modify while resolving frames). Throws InputError
// naming the element for anything MuJoCo 2.2.2 would refuse.
Model compile_model(ModelSpec& spec);

}  // namespace joco::compiler
