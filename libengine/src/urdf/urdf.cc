#include "joco/urdf.h"

#include "joco/error.h"
#include "joco/mjcf.h"
#include "urdf/convert.h"
#include "urdf/scene.h"
#include "urdf/urdf_model.h"
#include "xml/xml_tree.h"

namespace joco {

std::string urdf_to_mjcf(const std::string& urdf_text, const std::string& source,
                         const UrdfOptions& options, UrdfReport* report) {
  const compiler::XmlElement root = compiler::load_xml(urdf_text, source, options.base_dir, false);
  const urdf::Robot robot = urdf::read_urdf(root);
  UrdfReport local;
  UrdfReport& r = report ? *report : local;
  urdf::MjcfDocument doc = urdf::convert(robot, source, options, r);
  urdf::finish_scene(doc, source, options, r);
  return urdf::write_xml(doc.root, doc.header);
}

Model compile_urdf(const std::string& urdf_text, const std::string& source,
                   const UrdfOptions& options, UrdfReport* report) {
  UrdfOptions o = options;
  o.output_dir = options.base_dir;
  const std::string mjcf = urdf_to_mjcf(urdf_text, source, o, report);
  return compile_mjcf(mjcf, source + " [as MJCF]", options.base_dir);
}

}  // namespace joco
