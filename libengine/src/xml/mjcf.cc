#include "joco/mjcf.h"

#include <filesystem>

#include "compiler/compile.h"
#include "joco/validate.h"
#include "xml/mjcf_reader.h"
#include "xml/xml_tree.h"

namespace joco {

Model compile_mjcf(const std::string& xml, const std::string& source, const std::string& base_dir) {
  const compiler::XmlElement root = compiler::load_xml(xml, source, base_dir, true);
  compiler::ModelSpec spec = compiler::read_mjcf(root, source, base_dir);
  Model m = compiler::compile_model(spec);
  validate_model(m, source);
  return m;
}

Model compile_mjcf_file(const std::string& path) {
  const compiler::XmlElement root = compiler::load_xml_file(path, true);
  const std::string base_dir = std::filesystem::path(path).parent_path().string();
  compiler::ModelSpec spec = compiler::read_mjcf(root, path, base_dir);
  Model m = compiler::compile_model(spec);
  validate_model(m, path);
  return m;
}

}  // namespace joco
