#include "model_input.h"

#include <filesystem>
#include <span>

#include "io.h"
#include "joco/error.h"
#include "joco/jmb.h"
#include "joco/mjcf.h"

namespace joco::tools {

namespace {

// The name of the root element of an XML document (skipping the declaration, comments, DOCTYPE).
std::string xml_root_name(const std::string& text) {
  size_t i = 0;
  if (text.compare(0, 3, "\xEF\xBB\xBF") == 0) i = 3;  // UTF-8 byte-order mark
  while (i < text.size()) {
    i = text.find('<', i);
    if (i == std::string::npos || i + 1 >= text.size()) return "";
    if (text.compare(i, 4, "<!--") == 0) {
      i = text.find("-->", i);
      if (i == std::string::npos) return "";
      continue;
    }
    if (text[i + 1] == '?' || text[i + 1] == '!') {
      ++i;
      continue;
    }
    size_t end = i + 1;
    while (end < text.size() && !std::isspace(static_cast<unsigned char>(text[end])) &&
           text[end] != '>' && text[end] != '/') {
      ++end;
    }
    return text.substr(i + 1, end - i - 1);
  }
  return "";
}

}  // namespace

ModelFormat detect_model_format(const std::string& start) {
  const std::span<const uint8_t> bytes(reinterpret_cast<const uint8_t*>(start.data()), start.size());
  if (looks_like_jmb(bytes)) return ModelFormat::kJmb;
  if (looks_like_mjb(bytes)) return ModelFormat::kMjb;
  const std::string root = xml_root_name(start);
  if (root == "mujoco") return ModelFormat::kMjcf;
  if (root == "robot") return ModelFormat::kUrdf;
  return ModelFormat::kUnknown;
}

Model load_model(const std::string& path) {
  const std::vector<uint8_t> bytes = read_input(path);
  const std::string name = display_name(path);
  const std::string text(bytes.begin(), bytes.end());
  switch (detect_model_format(text)) {
    case ModelFormat::kJmb:
    case ModelFormat::kMjb: return read_jmb(bytes, name);
    case ModelFormat::kMjcf: {
      const std::filesystem::path dir =
          path == "-" ? std::filesystem::current_path() : std::filesystem::path(path).parent_path();
      return compile_mjcf(text, name, dir.string());
    }
    case ModelFormat::kUrdf:
      throw InputError(name + ": URDF input is not supported yet; convert it with joco-urdf2mjcf");
    case ModelFormat::kUnknown: break;
  }
  throw InputError(name + ": not a model: expected a .jmb binary model or XML with a <mujoco> root");
}

}  // namespace joco::tools
