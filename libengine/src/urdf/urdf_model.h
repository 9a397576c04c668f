// A URDF robot in memory, as the file says it (before any conversion rule), with the place every
// element came from for messages.
#pragma once

#include <array>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "xml/xml_tree.h"

namespace joco::urdf {

using Vec3 = std::array<double, 3>;
using Rgba = std::array<double, 4>;

// <origin xyz rpy>: a frame in the parent's frame; rpy rotates about the fixed x, y, z axes in
// turn.
struct Pose {
  Vec3 xyz{0, 0, 0};
  Vec3 rpy{0, 0, 0};
  bool identity() const { return xyz == Vec3{0, 0, 0} && rpy == Vec3{0, 0, 0}; }
};

struct Geometry {
  enum Type { kBox, kCylinder, kSphere, kCapsule, kMesh } type = kBox;
  Vec3 size{0, 0, 0};    // box: full lengths
  double radius = 0;     // cylinder, sphere, capsule
  double length = 0;     // cylinder, capsule: full length
  std::string filename;  // mesh, as written
  Vec3 scale{1, 1, 1};   // mesh
  std::string where;     // the <geometry> child element
};

// A <visual> or <collision> element.
struct Shape {
  std::string name;
  Pose origin;
  Geometry geometry;
  std::string material;      // a name, resolved against Robot::materials
  std::optional<Rgba> rgba;  // the colour given inline (or resolved from the material)
  std::string where;
};

struct Inertial {
  Pose origin;
  double mass = 0;
  // ixx iyy izz ixy ixz iyz, in the frame of `origin`.
  std::array<double, 6> inertia{0, 0, 0, 0, 0, 0};
  std::string where;
};

struct Link {
  std::string name;
  std::optional<Inertial> inertial;
  std::vector<Shape> visuals, collisions;
  std::vector<std::string> ignored;  // names of child elements the converter does not use
  std::string where;
};

struct Limit {
  std::optional<double> lower, upper;
  double effort = 0, velocity = 0;
  bool has_effort = false, has_velocity = false;
  std::string where;
};

struct Mimic {
  std::string joint;
  double multiplier = 1, offset = 0;
  std::string where;
};

struct Joint {
  enum Type { kRevolute, kContinuous, kPrismatic, kFixed, kFloating, kPlanar } type = kFixed;
  std::string name, type_name;
  Pose origin;
  std::string parent, child;
  Vec3 axis{1, 0, 0};
  bool has_axis = false;
  std::optional<Limit> limit;
  double damping = 0, friction = 0;
  std::optional<Mimic> mimic;
  bool safety_controller = false, calibration = false;
  std::vector<std::string> ignored;  // names of child elements the converter does not use
  std::string where;
};

struct Material {
  std::string name;
  std::optional<Rgba> rgba;
  std::string texture;
  std::string where;
};

// A ROS <transmission>: SimpleTransmission maps one actuator to one joint with a reduction.
struct Transmission {
  std::string name, type;
  std::vector<std::string> joints;
  std::vector<std::pair<std::string, double>> actuators;  // name, mechanicalReduction
  std::string where;
};

struct Robot {
  std::string name;
  std::vector<Link> links;
  std::vector<Joint> joints;
  std::map<std::string, Material> materials;
  std::vector<Transmission> transmissions;
  // MuJoCo's URDF extension: <mujoco> with <compiler>, <option>, <size> children (at most one
  // each).
  std::optional<compiler::XmlElement> mujoco;
  std::map<std::string, int> ignored;  // top-level elements not used (gazebo, ...), with counts
  std::string where;

  // The kinematic tree, filled by the reader's checks.
  int root = -1;                               // link index
  std::vector<int> parent_joint;               // per link: joint index, -1 for the root
  std::vector<std::vector<int>> child_joints;  // per link: joint indices in document order
  std::map<std::string, int> link_index, joint_index;
};

// Reads a URDF document (root element <robot>) and checks it: names present and unique, joints
// between existing links, one root, no cycles, numbers well formed, masses and inertias possible.
// Throws InputError naming the file, line and element.
Robot read_urdf(const compiler::XmlElement& root);

}  // namespace joco::urdf
