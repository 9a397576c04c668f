#pragma once
// What --version says: joco's version (JOCO_VERSION, from the project) and the commit the tools were
// built from (generated at build time by cmake/JocoCommit.cmake, so it is never stale).

namespace joco::tools {
extern const char* const kCommit;  // `git describe --always --dirty`, or JOCO_COMMIT, or "unknown"
}  // namespace joco::tools
