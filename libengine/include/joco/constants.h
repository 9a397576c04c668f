// Constants and enumerations of the model, with MuJoCo 2.2.2's numeric values so that compiled
// models, .jmb files and oracle comparisons agree element by element.
#pragma once

namespace joco {

inline constexpr double kPi = 3.14159265358979323846;
inline constexpr double kMaxVal = 1e10;    // largest |qpos|, |qvel|, |qacc| before divergence
inline constexpr double kMinMu = 1e-5;     // smallest friction coefficient
inline constexpr double kMinImp = 0.0001;  // smallest constraint impedance
inline constexpr double kMaxImp = 0.9999;  // largest constraint impedance
inline constexpr double kMinVal = 1e-15;   // guard against division by zero
inline constexpr int kMaxConPair = 50;     // most contacts one geom pair may produce

inline constexpr int kNEQDATA = 11;    // eq_data per equality
inline constexpr int kNDYN = 10;       // actuator dynamics parameters
inline constexpr int kNGAIN = 10;      // actuator gain parameters
inline constexpr int kNBIAS = 10;      // actuator bias parameters
inline constexpr int kNFLUID = 12;     // fluid interaction parameters per geom
inline constexpr int kNREF = 2;        // solref parameters
inline constexpr int kNIMP = 5;        // solimp parameters
inline constexpr int kNSOLVER = 1000;  // per-iteration solver statistics kept in Data

enum DisableBit : int {
  kDisableConstraint = 1 << 0,
  kDisableEquality = 1 << 1,
  kDisableFrictionloss = 1 << 2,
  kDisableLimit = 1 << 3,
  kDisableContact = 1 << 4,
  kDisablePassive = 1 << 5,
  kDisableGravity = 1 << 6,
  kDisableClampctrl = 1 << 7,
  kDisableWarmstart = 1 << 8,
  kDisableFilterparent = 1 << 9,
  kDisableActuation = 1 << 10,
  kDisableRefsafe = 1 << 11,
  kDisableSensor = 1 << 12,
};
inline constexpr int kNDisable = 13;

enum EnableBit : int {
  kEnableOverride = 1 << 0,
  kEnableEnergy = 1 << 1,
  kEnableFwdinv = 1 << 2,
  kEnableSensornoise = 1 << 3,
  kEnableMulticcd = 1 << 4,
};
inline constexpr int kNEnable = 5;

enum JointType : int { kJointFree = 0, kJointBall, kJointSlide, kJointHinge };

// Number of position coordinates and of degrees of freedom of each joint type.
inline constexpr int joint_nq(int type) {
  return type == kJointFree ? 7 : type == kJointBall ? 4 : 1;
}
inline constexpr int joint_nv(int type) {
  return type == kJointFree ? 6 : type == kJointBall ? 3 : 1;
}

// Where a geom's or site's frame is (geom_sameframe, site_sameframe): its own local pose, the
// body's frame, or the body's inertial frame.
enum SameFrame : int { kSameFrameNone = 0, kSameFrameBody, kSameFrameInertia };

enum GeomType : int {
  kGeomPlane = 0,
  kGeomHfield,
  kGeomSphere,
  kGeomCapsule,
  kGeomEllipsoid,
  kGeomCylinder,
  kGeomBox,
  kGeomMesh,
};
inline constexpr int kNGeomTypes = 8;
// The MJCF names of the geom types, indexed by type.
inline constexpr const char* kGeomTypeNames[kNGeomTypes] = {
    "plane", "hfield", "sphere", "capsule", "ellipsoid", "cylinder", "box", "mesh"};

enum CamLightMode : int {
  kCamLightFixed = 0,
  kCamLightTrack,
  kCamLightTrackCom,
  kCamLightTargetBody,
  kCamLightTargetBodyCom,
};

// Whether a camera or light in `mode` with target body `target` (-1: none) looks at its target
// (without one, the target modes act as fixed).
inline constexpr bool camlight_targets(int mode, int target) {
  return (mode == kCamLightTargetBody || mode == kCamLightTargetBodyCom) && target >= 0;
}

enum TextureType : int { kTexture2D = 0, kTextureCube, kTextureSkybox };

// 2.2.2 has euler, RK4 and implicit; implicitfast (from MuJoCo 2.3.3) is joco's extension with the
// value MuJoCo later gave it.
enum Integrator : int { kIntEuler = 0, kIntRK4, kIntImplicit, kIntImplicitFast };

enum CollisionMode : int { kCollisionAll = 0, kCollisionPair, kCollisionDynamic };
enum Cone : int { kConePyramidal = 0, kConeElliptic };
enum JacobianType : int { kJacDense = 0, kJacSparse, kJacAuto };
enum SolverType : int { kSolverPGS = 0, kSolverCG, kSolverNewton };

enum EqualityType : int { kEqConnect = 0, kEqWeld, kEqJoint, kEqTendon, kEqDistance };

enum WrapType : int {
  kWrapNone = 0,
  kWrapJoint,
  kWrapPulley,
  kWrapSite,
  kWrapSphere,
  kWrapCylinder,
};

enum TransmissionType : int {
  kTrnJoint = 0,
  kTrnJointInParent,
  kTrnSliderCrank,
  kTrnTendon,
  kTrnSite,
  kTrnBody,
  kTrnUndefined = 1000,
};

enum DynType : int { kDynNone = 0, kDynIntegrator, kDynFilter, kDynMuscle, kDynUser };
enum GainType : int { kGainFixed = 0, kGainAffine, kGainMuscle, kGainUser };
enum BiasType : int { kBiasNone = 0, kBiasAffine, kBiasMuscle, kBiasUser };

enum ObjType : int {
  kObjUnknown = 0,
  kObjBody,
  kObjXBody,
  kObjJoint,
  kObjDof,
  kObjGeom,
  kObjSite,
  kObjCamera,
  kObjLight,
  kObjMesh,
  kObjSkin,
  kObjHfield,
  kObjTexture,
  kObjMaterial,
  kObjPair,
  kObjExclude,
  kObjEquality,
  kObjTendon,
  kObjActuator,
  kObjSensor,
  kObjNumeric,
  kObjText,
  kObjTuple,
  kObjKey,
};

enum ConstraintType : int {
  kCnstrEquality = 0,
  kCnstrFrictionDof,
  kCnstrFrictionTendon,
  kCnstrLimitJoint,
  kCnstrLimitTendon,
  kCnstrContactFrictionless,
  kCnstrContactPyramidal,
  kCnstrContactElliptic,
};

// Limits, frictionless contacts and pyramid edges: the rows whose cost is quadratic on one side and
// zero on the other, which the solvers handle alike (the types between these two, in this order).
constexpr bool is_one_sided_constraint(int type) {
  return type >= kCnstrLimitJoint && type <= kCnstrContactPyramidal;
}

enum ConstraintState : int {
  kCnstrStateSatisfied = 0,
  kCnstrStateQuadratic,
  kCnstrStateLinearNeg,
  kCnstrStateLinearPos,
  kCnstrStateCone,
};

enum SensorType : int {
  kSensTouch = 0,
  kSensAccelerometer,
  kSensVelocimeter,
  kSensGyro,
  kSensForce,
  kSensTorque,
  kSensMagnetometer,
  kSensRangefinder,
  kSensJointPos,
  kSensJointVel,
  kSensTendonPos,
  kSensTendonVel,
  kSensActuatorPos,
  kSensActuatorVel,
  kSensActuatorFrc,
  kSensBallQuat,
  kSensBallAngVel,
  kSensJointLimitPos,
  kSensJointLimitVel,
  kSensJointLimitFrc,
  kSensTendonLimitPos,
  kSensTendonLimitVel,
  kSensTendonLimitFrc,
  kSensFramePos,
  kSensFrameQuat,
  kSensFrameXAxis,
  kSensFrameYAxis,
  kSensFrameZAxis,
  kSensFrameLinVel,
  kSensFrameAngVel,
  kSensFrameLinAcc,
  kSensFrameAngAcc,
  kSensSubtreeCom,
  kSensSubtreeLinVel,
  kSensSubtreeAngMom,
  kSensClock,
  kSensUser,
};

enum Stage : int { kStageNone = 0, kStagePos, kStageVel, kStageAcc };
enum SensorDataType : int { kDataReal = 0, kDataPositive, kDataAxis, kDataQuaternion };

enum Warning : int {
  kWarnInertia = 0,
  kWarnContactFull,
  kWarnConstraintFull,
  kWarnVGeomFull,
  kWarnBadQpos,
  kWarnBadQvel,
  kWarnBadQacc,
  kWarnBadCtrl,
};
inline constexpr int kNWarning = 8;

// Pipeline timers, in the order of the spec's profile table.
enum Timer : int {
  kTimerStep = 0,
  kTimerForward,
  kTimerInverse,
  kTimerPosition,
  kTimerVelocity,
  kTimerActuation,
  kTimerAcceleration,
  kTimerConstraint,
  kTimerPosKinematics,
  kTimerPosInertia,
  kTimerPosCollision,
  kTimerPosMake,
  kTimerPosProject,
};
inline constexpr int kNTimer = 13;

}  // namespace joco
