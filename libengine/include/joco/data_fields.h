// The one table of Data's arrays: the workspace of one simulation, with MuJoCo 2.2.2's names and
// meanings. Allocation, reset, dumps and the oracle comparison derive from it.
//
// JOCO_DATA_ARRAYS(X): X(type, name, rows, cols), rows and cols expressions over the model sizes.
#pragma once

// clang-format off

#define JOCO_DATA_ARRAYS(X)                                                                        \
  /* state */                                                                                      \
  X(double, qpos,              nq,          1)                                                     \
  X(double, qvel,              nv,          1)                                                     \
  X(double, act,               na,          1)                                                     \
  X(double, qacc_warmstart,    nv,          1)                                                     \
  /* control */                                                                                    \
  X(double, ctrl,              nu,          1)                                                     \
  X(double, qfrc_applied,      nv,          1)                                                     \
  X(double, xfrc_applied,      nbody,       6)                                                     \
  /* mocap */                                                                                      \
  X(double, mocap_pos,         nmocap,      3)                                                     \
  X(double, mocap_quat,        nmocap,      4)                                                     \
  /* dynamics */                                                                                   \
  X(double, qacc,              nv,          1)                                                     \
  X(double, act_dot,           na,          1)                                                     \
  X(double, userdata,          nuserdata,   1)                                                     \
  X(double, sensordata,        nsensordata, 1)                                                     \
  /* position dependent: kinematics */                                                             \
  X(double, xpos,              nbody,       3)                                                     \
  X(double, xquat,             nbody,       4)                                                     \
  X(double, xmat,              nbody,       9)                                                     \
  X(double, xipos,             nbody,       3)                                                     \
  X(double, ximat,             nbody,       9)                                                     \
  X(double, xanchor,           njnt,        3)                                                     \
  X(double, xaxis,             njnt,        3)                                                     \
  X(double, geom_xpos,         ngeom,       3)                                                     \
  X(double, geom_xmat,         ngeom,       9)                                                     \
  X(double, site_xpos,         nsite,       3)                                                     \
  X(double, site_xmat,         nsite,       9)                                                     \
  X(double, cam_xpos,          ncam,        3)                                                     \
  X(double, cam_xmat,          ncam,        9)                                                     \
  X(double, light_xpos,        nlight,      3)                                                     \
  X(double, light_xdir,        nlight,      3)                                                     \
  /* position dependent: com_pos */                                                                \
  X(double, subtree_com,       nbody,       3)                                                     \
  X(double, cdof,              nv,          6)                                                     \
  X(double, cinert,            nbody,       10)                                                    \
  /* position dependent: tendon */                                                                 \
  X(int,    ten_wrapadr,       ntendon,     1)                                                     \
  X(int,    ten_wrapnum,       ntendon,     1)                                                     \
  X(int,    ten_J_rownnz,      ntendon,     1)                                                     \
  X(int,    ten_J_rowadr,      ntendon,     1)                                                     \
  X(int,    ten_J_colind,      ntendon,     nv)                                                    \
  X(double, ten_length,        ntendon,     1)                                                     \
  X(double, ten_J,             ntendon,     nv)                                                    \
  X(int,    wrap_obj,          nwrap,       2)                                                    \
  X(double, wrap_xpos,         nwrap,       6)                                                    \
  /* position dependent: transmission */                                                           \
  X(double, actuator_length,   nu,          1)                                                     \
  X(double, actuator_moment,   nu,          nv)                                                    \
  /* position dependent: crb, factor_m */                                                          \
  X(double, crb,               nbody,       10)                                                    \
  X(double, qM,                nM,          1)                                                     \
  X(double, qLD,               nM,          1)                                                     \
  X(double, qLDiagInv,         nv,          1)                                                     \
  X(double, qLDiagSqrtInv,     nv,          1)                                                     \
  /* position dependent: make_constraint */                                                        \
  X(int,    efc_type,          njmax,       1)                                                     \
  X(int,    efc_id,            njmax,       1)                                                     \
  X(int,    efc_J_rownnz,      njmax,       1)                                                     \
  X(int,    efc_J_rowadr,      njmax,       1)                                                     \
  X(int,    efc_J_rowsuper,    njmax,       1)                                                     \
  X(int,    efc_J_colind,      njmax,       nv)                                                    \
  X(int,    efc_JT_rownnz,     nv,          1)                                                     \
  X(int,    efc_JT_rowadr,     nv,          1)                                                     \
  X(int,    efc_JT_rowsuper,   nv,          1)                                                     \
  X(int,    efc_JT_colind,     nv,          njmax)                                                 \
  X(double, efc_J,             njmax,       nv)                                                    \
  X(double, efc_JT,            nv,          njmax)                                                 \
  X(double, efc_pos,           njmax,       1)                                                     \
  X(double, efc_margin,        njmax,       1)                                                     \
  X(double, efc_frictionloss,  njmax,       1)                                                     \
  X(double, efc_diagApprox,    njmax,       1)                                                     \
  X(double, efc_KBIP,          njmax,       4)                                                     \
  X(double, efc_D,             njmax,       1)                                                     \
  X(double, efc_R,             njmax,       1)                                                     \
  /* position dependent: project_constraint */                                                     \
  X(int,    efc_AR_rownnz,     njmax,       1)                                                     \
  X(int,    efc_AR_rowadr,     njmax,       1)                                                     \
  X(int,    efc_AR_colind,     njmax,       njmax)                                                 \
  X(double, efc_AR,            njmax,       njmax)                                                 \
  /* velocity dependent */                                                                         \
  X(double, ten_velocity,      ntendon,     1)                                                     \
  X(double, actuator_velocity, nu,          1)                                                     \
  X(double, cvel,              nbody,       6)                                                     \
  X(double, cdof_dot,          nv,          6)                                                     \
  X(double, qfrc_bias,         nv,          1)                                                     \
  X(double, qfrc_passive,      nv,          1)                                                     \
  X(double, efc_vel,           njmax,       1)                                                     \
  X(double, efc_aref,          njmax,       1)                                                     \
  X(double, subtree_linvel,    nbody,       3)                                                     \
  X(double, subtree_angmom,    nbody,       3)                                                     \
  /* integrators */                                                                                \
  X(double, qH,                nM,          1)                                                     \
  X(double, qHDiagInv,         nv,          1)                                                     \
  X(int,    D_rownnz,          nv,          1)                                                     \
  X(int,    D_rowadr,          nv,          1)                                                     \
  X(int,    D_colind,          nD,          1)                                                     \
  X(double, qDeriv,            nD,          1)                                                     \
  X(double, qLU,               nD,          1)                                                     \
  /* actuation */                                                                                  \
  X(double, actuator_force,    nu,          1)                                                     \
  X(double, qfrc_actuator,     nv,          1)                                                     \
  /* acceleration */                                                                               \
  X(double, qfrc_smooth,       nv,          1)                                                     \
  X(double, qacc_smooth,       nv,          1)                                                     \
  /* constraint solver and inverse */                                                              \
  X(double, efc_b,             njmax,       1)                                                     \
  X(double, efc_force,         njmax,       1)                                                     \
  X(int,    efc_state,         njmax,       1)                                                     \
  X(double, qfrc_constraint,   nv,          1)                                                     \
  X(double, qfrc_inverse,      nv,          1)                                                     \
  /* rne_post */                                                                                   \
  X(double, cacc,              nbody,       6)                                                     \
  X(double, cfrc_int,          nbody,       6)                                                     \
  X(double, cfrc_ext,          nbody,       6)

// clang-format on
