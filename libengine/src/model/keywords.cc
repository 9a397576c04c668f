#include "joco/keywords.h"

#include "joco/constants.h"

namespace joco {

std::span<const Keyword> option_keywords(std::string_view name) {
  static constexpr Keyword kIntegrator[] = {{"Euler", kIntEuler},
                                            {"RK4", kIntRK4},
                                            {"implicit", kIntImplicit},
                                            {"implicitfast", kIntImplicitFast}};
  static constexpr Keyword kCollision[] = {
      {"all", kCollisionAll}, {"predefined", kCollisionPair}, {"dynamic", kCollisionDynamic}};
  static constexpr Keyword kCone[] = {{"pyramidal", kConePyramidal}, {"elliptic", kConeElliptic}};
  static constexpr Keyword kJacobian[] = {
      {"dense", kJacDense}, {"sparse", kJacSparse}, {"auto", kJacAuto}};
  static constexpr Keyword kSolver[] = {
      {"PGS", kSolverPGS}, {"CG", kSolverCG}, {"Newton", kSolverNewton}};
  if (name == "integrator") return kIntegrator;
  if (name == "collision") return kCollision;
  if (name == "cone") return kCone;
  if (name == "jacobian") return kJacobian;
  if (name == "solver") return kSolver;
  return {};
}

std::span<const Keyword> object_type_keywords() {
  static constexpr Keyword kTypes[] = {
      {"body", kObjBody},         {"xbody", kObjXBody},     {"joint", kObjJoint},
      {"dof", kObjDof},           {"geom", kObjGeom},       {"site", kObjSite},
      {"camera", kObjCamera},     {"light", kObjLight},     {"mesh", kObjMesh},
      {"skin", kObjSkin},         {"hfield", kObjHfield},   {"texture", kObjTexture},
      {"material", kObjMaterial}, {"pair", kObjPair},       {"exclude", kObjExclude},
      {"equality", kObjEquality}, {"tendon", kObjTendon},   {"actuator", kObjActuator},
      {"sensor", kObjSensor},     {"numeric", kObjNumeric}, {"text", kObjText},
      {"tuple", kObjTuple},       {"key", kObjKey}};
  return kTypes;
}

}  // namespace joco
