#include "view/page.h"

#include <stdexcept>

namespace joco::tools::view {

namespace assets {  // defined by the source generated from the page's files (tools/CMakeLists.txt)
extern const std::string_view kViewerHtml, kViewerCss, kViewerJs, kThree, kOrbitControls;
}  // namespace assets

std::string escape_inlined(std::string_view text) {
  std::string out;
  out.reserve(text.size() + text.size() / 256);
  for (size_t i = 0; i < text.size(); ++i) {
    out += text[i];
    if (text[i] == '<' && i + 1 < text.size() && text[i + 1] == '/') out += '\\';
  }
  return out;
}

std::string assemble_page(std::string_view page_template, std::string_view three,
                          std::string_view css, std::string_view js, std::string_view replay_json) {
  struct Placeholder {
    std::string_view line;
    std::string text;
    bool seen = false;
  };
  Placeholder placeholders[] = {
      {"/*@JOCO_THREE@*/", escape_inlined(three)},
      {"/*@JOCO_VIEWER_CSS@*/", escape_inlined(css)},
      {"/*@JOCO_VIEWER_JS@*/", escape_inlined(js)},
      {"/*@JOCO_REPLAY@*/",
       "window.JOCO_REPLAY = " +
           escape_inlined(replay_json.substr(0, replay_json.find_last_not_of('\n') + 1)) + ";"}};
  std::string out;
  out.reserve(page_template.size() + three.size() + css.size() + js.size() + replay_json.size());
  size_t start = 0;
  while (start < page_template.size()) {
    size_t end = page_template.find('\n', start);
    if (end == std::string_view::npos) end = page_template.size();
    const std::string_view line = page_template.substr(start, end - start);
    const size_t first = line.find_first_not_of(" \t"), last = line.find_last_not_of(" \t\r");
    const std::string_view trimmed =
        first == std::string_view::npos ? std::string_view() : line.substr(first, last - first + 1);
    bool replaced = false;
    for (Placeholder& p : placeholders) {
      if (trimmed == p.line) {
        out += p.text;
        p.seen = replaced = true;
      }
    }
    if (!replaced) out += line;
    if (end < page_template.size()) out += '\n';
    start = end + 1;
  }
  for (const Placeholder& p : placeholders) {
    if (!p.seen) {
      throw std::logic_error("the page template has no line " + std::string(p.line));
    }
  }
  return out;
}

std::string assemble_page(std::string_view replay_json) {
  std::string three(assets::kThree);
  three += "\n";
  three += assets::kOrbitControls;
  return assemble_page(assets::kViewerHtml, three, assets::kViewerCss, assets::kViewerJs,
                       replay_json);
}

}  // namespace joco::tools::view
