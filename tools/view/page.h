// The joco-view page: the page template of tools/view/page/ with three.js, the viewer's CSS and
// script and the replay's data inlined (schemas/replay.md), all embedded in joco-view at build
// time.
#pragma once

#include <string>
#include <string_view>

namespace joco::tools::view {

// `text` with every "</" written "<\/", so that inlined text never ends its <script> or <style>.
std::string escape_inlined(std::string_view text);

// The page template's lines, with each placeholder line (/*@JOCO_THREE@*/, /*@JOCO_VIEWER_CSS@*/,
// /*@JOCO_VIEWER_JS@*/, /*@JOCO_REPLAY@*/, alone on its line) replaced by what it stands for:
// three.min.js then OrbitControls.js, viewer.css, viewer.js, and
// `window.JOCO_REPLAY = <replay_json>;`.
std::string assemble_page(std::string_view replay_json);

// The same from a given template and contents (for tests). Throws std::logic_error when a
// placeholder is missing.
std::string assemble_page(std::string_view page_template, std::string_view three,
                          std::string_view css, std::string_view js, std::string_view replay_json);

}  // namespace joco::tools::view
