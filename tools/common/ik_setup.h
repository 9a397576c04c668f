// The settings of an inverse kinematics run (schemas/markers.md, "Set-up files"): which markers
// are used, on which sites, with which weights; which joints are locked or pulled to a value; the
// time range; units and axes. Read from joco's own small text format or from OpenSim's IK setup
// XML (InverseKinematicsTool: IKMarkerTask, IKCoordinateTask, time_range).
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace joco::tools {

struct IkMarkerSetting {
  std::string marker;
  std::string site;  // empty: <marker>_marker or <marker>
  double weight = 1;
  bool apply = true;
  std::string where;  // file:line, for messages
};

struct IkJointSetting {
  std::string joint;
  bool lock = false;           // locked at value, else a coordinate task of this weight
  double value = 0;            // radians or metres
  bool default_value = false;  // OpenSim's value_type default_value: the model's qpos0
  double weight = 1;
  std::string where;
};

struct IkSetup {
  std::vector<IkMarkerSetting> markers;
  std::vector<IkJointSetting> joints;
  bool only_listed = false;  // markers not listed are not used (OpenSim's task set)
  double default_weight = 1;
  std::optional<std::pair<double, double>> time_range;
  std::string units;  // "" unless set
  char up = 0;

  // Adds another set-up's settings; later settings of a marker or joint replace earlier ones.
  void merge(const IkSetup& other);
};

// Reads a set-up file, OpenSim's XML (told by its <OpenSimDocument> root) or joco's text format.
// InputError naming the file and line on anything malformed.
IkSetup read_ik_setup(const std::string& path);
IkSetup parse_ik_setup_text(const std::string& text, const std::string& where);
IkSetup parse_opensim_ik_setup(const std::string& text, const std::string& where);

}  // namespace joco::tools
