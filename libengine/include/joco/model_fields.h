// The one table of the compiled model's fields.
//
// Every size, option and array of joco::Model is declared here once, with MuJoCo 2.2.2's names and
// meanings. Allocation, the .jmb format, validation, the --print dump and the oracle comparison are
// all derived from these lists, so adding a field is one line (see README, CONTRIBUTING).
//
// JOCO_MODEL_SIZES(X):   X(name)                       an int size of the model
// JOCO_MODEL_ARRAYS(X):  X(type, name, rows, cols, check)
//     rows, cols: expressions over the sizes (evaluated where every size is a local variable)
//     check:      what a valid element is, an expression over the sizes using the helpers of
//                 field_check.h: any, flag, nonneg, id(n), idn(n), adr(n), adrn(n), enm(lo, hi)
// JOCO_OPTION_FIELDS(X): X(type, name, count)           fields of Option (Model::opt)
// JOCO_VISUAL_GROUPS(G): G(group, MACRO)                 groups of Visual (Model::vis);
//                        MACRO(X, group) lists the group's fields as X(group, type, name, count)
// JOCO_STATISTIC_FIELDS(X): X(type, name, count)        fields of Statistic (Model::stat)
#pragma once

// clang-format off

#define JOCO_MODEL_SIZES(X)                                                                        \
  X(nq) X(nv) X(nu) X(na) X(nbody) X(njnt) X(ngeom) X(nsite) X(ncam) X(nlight)                     \
  X(nmesh) X(nmeshvert) X(nmeshtexvert) X(nmeshface) X(nmeshgraph)                                 \
  X(nskin) X(nskinvert) X(nskintexvert) X(nskinface) X(nskinbone) X(nskinbonevert)                 \
  X(nhfield) X(nhfielddata) X(ntex) X(ntexdata) X(nmat) X(npair) X(nexclude) X(neq)                \
  X(ntendon) X(nwrap) X(nsensor) X(nnumeric) X(nnumericdata) X(ntext) X(ntextdata)                 \
  X(ntuple) X(ntupledata) X(nkey) X(nmocap)                                                        \
  X(nuser_body) X(nuser_jnt) X(nuser_geom) X(nuser_site) X(nuser_cam) X(nuser_tendon)              \
  X(nuser_actuator) X(nuser_sensor) X(nnames)                                                      \
  X(nM) X(nD) X(nemax) X(njmax) X(nconmax) X(nstack) X(nuserdata) X(nsensordata)

#define JOCO_OPTION_FIELDS(X)                                                                      \
  X(double, timestep, 1)          X(double, apirate, 1)           X(double, impratio, 1)            \
  X(double, tolerance, 1)         X(double, noslip_tolerance, 1)  X(double, mpr_tolerance, 1)       \
  X(double, gravity, 3)           X(double, wind, 3)              X(double, magnetic, 3)            \
  X(double, density, 1)           X(double, viscosity, 1)                                           \
  X(double, o_margin, 1)          X(double, o_solref, kNREF)      X(double, o_solimp, kNIMP)        \
  X(int, integrator, 1)           X(int, collision, 1)            X(int, cone, 1)                   \
  X(int, jacobian, 1)             X(int, solver, 1)               X(int, iterations, 1)             \
  X(int, noslip_iterations, 1)    X(int, mpr_iterations, 1)                                         \
  X(int, disableflags, 1)         X(int, enableflags, 1)

// The visual options by group, one macro per group: X(group, type, name, count).
#define JOCO_VISUAL_GROUPS(G)                                                                      \
  G(global, JOCO_VISUAL_GLOBAL) G(quality, JOCO_VISUAL_QUALITY)                                    \
  G(headlight, JOCO_VISUAL_HEADLIGHT) G(map, JOCO_VISUAL_MAP) G(scale, JOCO_VISUAL_SCALE)          \
  G(rgba, JOCO_VISUAL_RGBA)

#define JOCO_VISUAL_GLOBAL(X, g)                                                                   \
  X(g, float, fovy, 1) X(g, float, ipd, 1) X(g, float, azimuth, 1) X(g, float, elevation, 1)       \
  X(g, float, linewidth, 1) X(g, float, glow, 1) X(g, int, offwidth, 1) X(g, int, offheight, 1)

#define JOCO_VISUAL_QUALITY(X, g)                                                                  \
  X(g, int, shadowsize, 1) X(g, int, offsamples, 1) X(g, int, numslices, 1)                        \
  X(g, int, numstacks, 1) X(g, int, numquads, 1)

#define JOCO_VISUAL_HEADLIGHT(X, g)                                                                \
  X(g, float, ambient, 3) X(g, float, diffuse, 3) X(g, float, specular, 3) X(g, int, active, 1)

#define JOCO_VISUAL_MAP(X, g)                                                                      \
  X(g, float, stiffness, 1) X(g, float, stiffnessrot, 1) X(g, float, force, 1)                     \
  X(g, float, torque, 1) X(g, float, alpha, 1) X(g, float, fogstart, 1) X(g, float, fogend, 1)     \
  X(g, float, znear, 1) X(g, float, zfar, 1) X(g, float, haze, 1) X(g, float, shadowclip, 1)       \
  X(g, float, shadowscale, 1) X(g, float, actuatortendon, 1)

#define JOCO_VISUAL_SCALE(X, g)                                                                    \
  X(g, float, forcewidth, 1) X(g, float, contactwidth, 1) X(g, float, contactheight, 1)            \
  X(g, float, connect, 1) X(g, float, com, 1) X(g, float, camera, 1) X(g, float, light, 1)         \
  X(g, float, selectpoint, 1) X(g, float, jointlength, 1) X(g, float, jointwidth, 1)               \
  X(g, float, actuatorlength, 1) X(g, float, actuatorwidth, 1) X(g, float, framelength, 1)         \
  X(g, float, framewidth, 1) X(g, float, constraint, 1) X(g, float, slidercrank, 1)

#define JOCO_VISUAL_RGBA(X, g)                                                                     \
  X(g, float, fog, 4) X(g, float, haze, 4) X(g, float, force, 4) X(g, float, inertia, 4)           \
  X(g, float, joint, 4) X(g, float, actuator, 4) X(g, float, actuatornegative, 4)                  \
  X(g, float, actuatorpositive, 4) X(g, float, com, 4) X(g, float, camera, 4)                      \
  X(g, float, light, 4) X(g, float, selectpoint, 4) X(g, float, connect, 4)                        \
  X(g, float, contactpoint, 4) X(g, float, contactforce, 4) X(g, float, contactfriction, 4)        \
  X(g, float, contacttorque, 4) X(g, float, contactgap, 4) X(g, float, rangefinder, 4)             \
  X(g, float, constraint, 4) X(g, float, slidercrank, 4) X(g, float, crankbroken, 4)

#define JOCO_STATISTIC_FIELDS(X)                                                                   \
  X(double, meaninertia, 1) X(double, meanmass, 1) X(double, meansize, 1) X(double, extent, 1)    \
  X(double, center, 3)

#define JOCO_MODEL_ARRAYS(X)                                                                       \
  /* default generalized coordinates */                                                           \
  X(double,  qpos0,                nq,            1,              any)                             \
  X(double,  qpos_spring,          nq,            1,              any)                             \
  /* bodies */                                                                                     \
  X(int,     body_parentid,        nbody,         1,              id(nbody))                       \
  X(int,     body_rootid,          nbody,         1,              id(nbody))                       \
  X(int,     body_weldid,          nbody,         1,              id(nbody))                       \
  X(int,     body_mocapid,         nbody,         1,              idn(nmocap))                     \
  X(int,     body_jntnum,          nbody,         1,              nonneg)                          \
  X(int,     body_jntadr,          nbody,         1,              idn(njnt))                       \
  X(int,     body_dofnum,          nbody,         1,              nonneg)                          \
  X(int,     body_dofadr,          nbody,         1,              idn(nv))                         \
  X(int,     body_geomnum,         nbody,         1,              nonneg)                          \
  X(int,     body_geomadr,         nbody,         1,              idn(ngeom))                      \
  X(uint8_t, body_simple,          nbody,         1,              flag)                            \
  X(uint8_t, body_sameframe,       nbody,         1,              flag)                            \
  X(double,  body_pos,             nbody,         3,              any)                             \
  X(double,  body_quat,            nbody,         4,              any)                             \
  X(double,  body_ipos,            nbody,         3,              any)                             \
  X(double,  body_iquat,           nbody,         4,              any)                             \
  X(double,  body_mass,            nbody,         1,              any)                             \
  X(double,  body_subtreemass,     nbody,         1,              any)                             \
  X(double,  body_inertia,         nbody,         3,              any)                             \
  X(double,  body_invweight0,      nbody,         2,              any)                             \
  X(double,  body_user,            nbody,         nuser_body,     any)                             \
  /* joints */                                                                                     \
  X(int,     jnt_type,             njnt,          1,              enm(0, 3))                       \
  X(int,     jnt_qposadr,          njnt,          1,              id(nq))                          \
  X(int,     jnt_dofadr,           njnt,          1,              id(nv))                          \
  X(int,     jnt_bodyid,           njnt,          1,              id(nbody))                       \
  X(int,     jnt_group,            njnt,          1,              any)                             \
  X(uint8_t, jnt_limited,          njnt,          1,              flag)                            \
  X(double,  jnt_solref,           njnt,          kNREF,          any)                             \
  X(double,  jnt_solimp,           njnt,          kNIMP,          any)                             \
  X(double,  jnt_pos,              njnt,          3,              any)                             \
  X(double,  jnt_axis,             njnt,          3,              any)                             \
  X(double,  jnt_stiffness,        njnt,          1,              any)                             \
  X(double,  jnt_range,            njnt,          2,              any)                             \
  X(double,  jnt_margin,           njnt,          1,              any)                             \
  X(double,  jnt_user,             njnt,          nuser_jnt,      any)                             \
  /* dofs */                                                                                       \
  X(int,     dof_bodyid,           nv,            1,              id(nbody))                       \
  X(int,     dof_jntid,            nv,            1,              id(njnt))                        \
  X(int,     dof_parentid,         nv,            1,              idn(nv))                         \
  X(int,     dof_Madr,             nv,            1,              id(nM))                          \
  X(int,     dof_simplenum,        nv,            1,              nonneg)                          \
  X(double,  dof_solref,           nv,            kNREF,          any)                             \
  X(double,  dof_solimp,           nv,            kNIMP,          any)                             \
  X(double,  dof_frictionloss,     nv,            1,              any)                             \
  X(double,  dof_armature,         nv,            1,              any)                             \
  X(double,  dof_damping,          nv,            1,              any)                             \
  X(double,  dof_invweight0,       nv,            1,              any)                             \
  X(double,  dof_M0,               nv,            1,              any)                             \
  /* geoms */                                                                                      \
  X(int,     geom_type,            ngeom,         1,              enm(0, 7))                       \
  X(int,     geom_contype,         ngeom,         1,              any)                             \
  X(int,     geom_conaffinity,     ngeom,         1,              any)                             \
  X(int,     geom_condim,          ngeom,         1,              enm(1, 6))                       \
  X(int,     geom_bodyid,          ngeom,         1,              id(nbody))                       \
  X(int,     geom_dataid,          ngeom,         1,              idn(nmesh > nhfield ? nmesh : nhfield)) \
  X(int,     geom_matid,           ngeom,         1,              idn(nmat))                       \
  X(int,     geom_group,           ngeom,         1,              any)                             \
  X(int,     geom_priority,        ngeom,         1,              any)                             \
  X(uint8_t, geom_sameframe,       ngeom,         1,              enm(0, 2))                       \
  X(double,  geom_solmix,          ngeom,         1,              any)                             \
  X(double,  geom_solref,          ngeom,         kNREF,          any)                             \
  X(double,  geom_solimp,          ngeom,         kNIMP,          any)                             \
  X(double,  geom_size,            ngeom,         3,              any)                             \
  X(double,  geom_rbound,          ngeom,         1,              any)                             \
  X(double,  geom_pos,             ngeom,         3,              any)                             \
  X(double,  geom_quat,            ngeom,         4,              any)                             \
  X(double,  geom_friction,        ngeom,         3,              any)                             \
  X(double,  geom_margin,          ngeom,         1,              any)                             \
  X(double,  geom_gap,             ngeom,         1,              any)                             \
  X(double,  geom_fluid,           ngeom,         kNFLUID,        any)                             \
  X(double,  geom_user,            ngeom,         nuser_geom,     any)                             \
  X(float,   geom_rgba,            ngeom,         4,              any)                             \
  /* sites */                                                                                      \
  X(int,     site_type,            nsite,         1,              enm(0, 7))                       \
  X(int,     site_bodyid,          nsite,         1,              id(nbody))                       \
  X(int,     site_matid,           nsite,         1,              idn(nmat))                       \
  X(int,     site_group,           nsite,         1,              any)                             \
  X(uint8_t, site_sameframe,       nsite,         1,              enm(0, 2))                       \
  X(double,  site_size,            nsite,         3,              any)                             \
  X(double,  site_pos,             nsite,         3,              any)                             \
  X(double,  site_quat,            nsite,         4,              any)                             \
  X(double,  site_user,            nsite,         nuser_site,     any)                             \
  X(float,   site_rgba,            nsite,         4,              any)                             \
  /* cameras */                                                                                    \
  X(int,     cam_mode,             ncam,          1,              enm(0, 4))                       \
  X(int,     cam_bodyid,           ncam,          1,              id(nbody))                       \
  X(int,     cam_targetbodyid,     ncam,          1,              idn(nbody))                      \
  X(double,  cam_pos,              ncam,          3,              any)                             \
  X(double,  cam_quat,             ncam,          4,              any)                             \
  X(double,  cam_poscom0,          ncam,          3,              any)                             \
  X(double,  cam_pos0,             ncam,          3,              any)                             \
  X(double,  cam_mat0,             ncam,          9,              any)                             \
  X(double,  cam_fovy,             ncam,          1,              any)                             \
  X(double,  cam_ipd,              ncam,          1,              any)                             \
  X(double,  cam_user,             ncam,          nuser_cam,      any)                             \
  /* lights */                                                                                     \
  X(int,     light_mode,           nlight,        1,              enm(0, 4))                       \
  X(int,     light_bodyid,         nlight,        1,              id(nbody))                       \
  X(int,     light_targetbodyid,   nlight,        1,              idn(nbody))                      \
  X(uint8_t, light_directional,    nlight,        1,              flag)                            \
  X(uint8_t, light_castshadow,     nlight,        1,              flag)                            \
  X(uint8_t, light_active,         nlight,        1,              flag)                            \
  X(double,  light_pos,            nlight,        3,              any)                             \
  X(double,  light_dir,            nlight,        3,              any)                             \
  X(double,  light_poscom0,        nlight,        3,              any)                             \
  X(double,  light_pos0,           nlight,        3,              any)                             \
  X(double,  light_dir0,           nlight,        3,              any)                             \
  X(float,   light_attenuation,    nlight,        3,              any)                             \
  X(float,   light_cutoff,         nlight,        1,              any)                             \
  X(float,   light_exponent,       nlight,        1,              any)                             \
  X(float,   light_ambient,        nlight,        3,              any)                             \
  X(float,   light_diffuse,        nlight,        3,              any)                             \
  X(float,   light_specular,       nlight,        3,              any)                             \
  /* meshes */                                                                                     \
  X(int,     mesh_vertadr,         nmesh,         1,              adr(nmeshvert))                  \
  X(int,     mesh_vertnum,         nmesh,         1,              nonneg)                          \
  X(int,     mesh_texcoordadr,     nmesh,         1,              adrn(nmeshtexvert))              \
  X(int,     mesh_faceadr,         nmesh,         1,              adr(nmeshface))                  \
  X(int,     mesh_facenum,         nmesh,         1,              nonneg)                          \
  X(int,     mesh_graphadr,        nmesh,         1,              adrn(nmeshgraph))                \
  X(float,   mesh_vert,            nmeshvert,     3,              any)                             \
  X(float,   mesh_normal,          nmeshvert,     3,              any)                             \
  X(float,   mesh_texcoord,        nmeshtexvert,  2,              any)                             \
  X(int,     mesh_face,            nmeshface,     3,              any)                             \
  X(int,     mesh_graph,           nmeshgraph,    1,              any)                             \
  /* skins */                                                                                      \
  X(int,     skin_matid,           nskin,         1,              idn(nmat))                       \
  X(int,     skin_group,           nskin,         1,              any)                             \
  X(float,   skin_rgba,            nskin,         4,              any)                             \
  X(float,   skin_inflate,         nskin,         1,              any)                             \
  X(int,     skin_vertadr,         nskin,         1,              adr(nskinvert))                  \
  X(int,     skin_vertnum,         nskin,         1,              nonneg)                          \
  X(int,     skin_texcoordadr,     nskin,         1,              adrn(nskintexvert))              \
  X(int,     skin_faceadr,         nskin,         1,              adr(nskinface))                  \
  X(int,     skin_facenum,         nskin,         1,              nonneg)                          \
  X(int,     skin_boneadr,         nskin,         1,              adr(nskinbone))                  \
  X(int,     skin_bonenum,         nskin,         1,              nonneg)                          \
  X(float,   skin_vert,            nskinvert,     3,              any)                             \
  X(float,   skin_texcoord,        nskintexvert,  2,              any)                             \
  X(int,     skin_face,            nskinface,     3,              any)                             \
  X(int,     skin_bonevertadr,     nskinbone,     1,              adr(nskinbonevert))              \
  X(int,     skin_bonevertnum,     nskinbone,     1,              nonneg)                          \
  X(float,   skin_bonebindpos,     nskinbone,     3,              any)                             \
  X(float,   skin_bonebindquat,    nskinbone,     4,              any)                             \
  X(int,     skin_bonebodyid,      nskinbone,     1,              id(nbody))                       \
  X(int,     skin_bonevertid,      nskinbonevert, 1,              nonneg)                          \
  X(float,   skin_bonevertweight,  nskinbonevert, 1,              any)                             \
  /* height fields */                                                                              \
  X(double,  hfield_size,          nhfield,       4,              any)                             \
  X(int,     hfield_nrow,          nhfield,       1,              nonneg)                          \
  X(int,     hfield_ncol,          nhfield,       1,              nonneg)                          \
  X(int,     hfield_adr,           nhfield,       1,              adr(nhfielddata))                \
  X(float,   hfield_data,          nhfielddata,   1,              any)                             \
  /* textures */                                                                                   \
  X(int,     tex_type,             ntex,          1,              enm(0, 2))                       \
  X(int,     tex_height,           ntex,          1,              nonneg)                          \
  X(int,     tex_width,            ntex,          1,              nonneg)                          \
  X(int,     tex_adr,              ntex,          1,              adr(ntexdata))                   \
  X(uint8_t, tex_rgb,              ntexdata,      1,              any)                             \
  /* materials */                                                                                  \
  X(int,     mat_texid,            nmat,          1,              idn(ntex))                       \
  X(uint8_t, mat_texuniform,       nmat,          1,              flag)                            \
  X(float,   mat_texrepeat,        nmat,          2,              any)                             \
  X(float,   mat_emission,         nmat,          1,              any)                             \
  X(float,   mat_specular,         nmat,          1,              any)                             \
  X(float,   mat_shininess,        nmat,          1,              any)                             \
  X(float,   mat_reflectance,      nmat,          1,              any)                             \
  X(float,   mat_rgba,             nmat,          4,              any)                             \
  /* predefined geom pairs */                                                                      \
  X(int,     pair_dim,             npair,         1,              enm(1, 6))                       \
  X(int,     pair_geom1,           npair,         1,              id(ngeom))                       \
  X(int,     pair_geom2,           npair,         1,              id(ngeom))                       \
  X(int,     pair_signature,       npair,         1,              any)                             \
  X(double,  pair_solref,          npair,         kNREF,          any)                             \
  X(double,  pair_solimp,          npair,         kNIMP,          any)                             \
  X(double,  pair_margin,          npair,         1,              any)                             \
  X(double,  pair_gap,             npair,         1,              any)                             \
  X(double,  pair_friction,        npair,         5,              any)                             \
  /* excluded body pairs */                                                                        \
  X(int,     exclude_signature,    nexclude,      1,              any)                             \
  /* equality constraints */                                                                       \
  X(int,     eq_type,              neq,           1,              enm(0, 4))                       \
  X(int,     eq_obj1id,            neq,           1,              nonneg)                          \
  X(int,     eq_obj2id,            neq,           1,              any)                             \
  X(uint8_t, eq_active,            neq,           1,              flag)                            \
  X(double,  eq_solref,            neq,           kNREF,          any)                             \
  X(double,  eq_solimp,            neq,           kNIMP,          any)                             \
  X(double,  eq_data,              neq,           kNEQDATA,       any)                             \
  /* tendons */                                                                                    \
  X(int,     tendon_adr,           ntendon,       1,              adr(nwrap))                      \
  X(int,     tendon_num,           ntendon,       1,              nonneg)                          \
  X(int,     tendon_matid,         ntendon,       1,              idn(nmat))                       \
  X(int,     tendon_group,         ntendon,       1,              any)                             \
  X(uint8_t, tendon_limited,       ntendon,       1,              flag)                            \
  X(double,  tendon_width,         ntendon,       1,              any)                             \
  X(double,  tendon_solref_lim,    ntendon,       kNREF,          any)                             \
  X(double,  tendon_solimp_lim,    ntendon,       kNIMP,          any)                             \
  X(double,  tendon_solref_fri,    ntendon,       kNREF,          any)                             \
  X(double,  tendon_solimp_fri,    ntendon,       kNIMP,          any)                             \
  X(double,  tendon_range,         ntendon,       2,              any)                             \
  X(double,  tendon_margin,        ntendon,       1,              any)                             \
  X(double,  tendon_stiffness,     ntendon,       1,              any)                             \
  X(double,  tendon_damping,       ntendon,       1,              any)                             \
  X(double,  tendon_frictionloss,  ntendon,       1,              any)                             \
  X(double,  tendon_lengthspring,  ntendon,       1,              any)                             \
  X(double,  tendon_length0,       ntendon,       1,              any)                             \
  X(double,  tendon_invweight0,    ntendon,       1,              any)                             \
  X(double,  tendon_user,          ntendon,       nuser_tendon,   any)                             \
  X(float,   tendon_rgba,          ntendon,       4,              any)                             \
  /* wrap objects of all tendon paths */                                                           \
  X(int,     wrap_type,            nwrap,         1,              enm(0, 5))                       \
  X(int,     wrap_objid,           nwrap,         1,              any)                             \
  X(double,  wrap_prm,             nwrap,         1,              any)                             \
  /* actuators */                                                                                  \
  X(int,     actuator_trntype,     nu,            1,              enm(0, 5))                       \
  X(int,     actuator_dyntype,     nu,            1,              enm(0, 4))                       \
  X(int,     actuator_gaintype,    nu,            1,              enm(0, 3))                       \
  X(int,     actuator_biastype,    nu,            1,              enm(0, 3))                       \
  X(int,     actuator_trnid,       nu,            2,              any)                             \
  X(int,     actuator_group,       nu,            1,              any)                             \
  X(uint8_t, actuator_ctrllimited, nu,            1,              flag)                            \
  X(uint8_t, actuator_forcelimited, nu,           1,              flag)                            \
  X(uint8_t, actuator_actlimited,  nu,            1,              flag)                            \
  X(double,  actuator_dynprm,      nu,            kNDYN,          any)                             \
  X(double,  actuator_gainprm,     nu,            kNGAIN,         any)                             \
  X(double,  actuator_biasprm,     nu,            kNBIAS,         any)                             \
  X(double,  actuator_ctrlrange,   nu,            2,              any)                             \
  X(double,  actuator_forcerange,  nu,            2,              any)                             \
  X(double,  actuator_actrange,    nu,            2,              any)                             \
  X(double,  actuator_gear,        nu,            6,              any)                             \
  X(double,  actuator_cranklength, nu,            1,              any)                             \
  X(double,  actuator_acc0,        nu,            1,              any)                             \
  X(double,  actuator_length0,     nu,            1,              any)                             \
  X(double,  actuator_lengthrange, nu,            2,              any)                             \
  X(double,  actuator_user,        nu,            nuser_actuator, any)                             \
  /* sensors */                                                                                    \
  X(int,     sensor_type,          nsensor,       1,              enm(0, 36))                      \
  X(int,     sensor_datatype,      nsensor,       1,              enm(0, 3))                       \
  X(int,     sensor_needstage,     nsensor,       1,              enm(0, 3))                       \
  X(int,     sensor_objtype,       nsensor,       1,              enm(0, 23))                      \
  X(int,     sensor_objid,         nsensor,       1,              any)                             \
  X(int,     sensor_reftype,       nsensor,       1,              enm(0, 23))                      \
  X(int,     sensor_refid,         nsensor,       1,              any)                             \
  X(int,     sensor_dim,           nsensor,       1,              nonneg)                          \
  X(int,     sensor_adr,           nsensor,       1,              adr(nsensordata))                \
  X(double,  sensor_cutoff,        nsensor,       1,              any)                             \
  X(double,  sensor_noise,         nsensor,       1,              any)                             \
  X(double,  sensor_user,          nsensor,       nuser_sensor,   any)                             \
  /* custom numeric, text and tuple fields */                                                      \
  X(int,     numeric_adr,          nnumeric,      1,              adr(nnumericdata))               \
  X(int,     numeric_size,         nnumeric,      1,              nonneg)                          \
  X(double,  numeric_data,         nnumericdata,  1,              any)                             \
  X(int,     text_adr,             ntext,         1,              adr(ntextdata))                  \
  X(int,     text_size,            ntext,         1,              nonneg)                          \
  X(char,    text_data,            ntextdata,     1,              any)                             \
  X(int,     tuple_adr,            ntuple,        1,              adr(ntupledata))                 \
  X(int,     tuple_size,           ntuple,        1,              nonneg)                          \
  X(int,     tuple_objtype,        ntupledata,    1,              enm(0, 23))                      \
  X(int,     tuple_objid,          ntupledata,    1,              any)                             \
  X(double,  tuple_objprm,         ntupledata,    1,              any)                             \
  /* keyframes */                                                                                  \
  X(double,  key_time,             nkey,          1,              any)                             \
  X(double,  key_qpos,             nkey,          nq,             any)                             \
  X(double,  key_qvel,             nkey,          nv,             any)                             \
  X(double,  key_act,              nkey,          na,             any)                             \
  X(double,  key_mpos,             nkey,          3 * nmocap,     any)                             \
  X(double,  key_mquat,            nkey,          4 * nmocap,     any)                             \
  X(double,  key_ctrl,             nkey,          nu,             any)                             \
  /* names: addresses into the names buffer */                                                     \
  X(int,     name_bodyadr,         nbody,         1,              id(nnames))                      \
  X(int,     name_jntadr,          njnt,          1,              id(nnames))                      \
  X(int,     name_geomadr,         ngeom,         1,              id(nnames))                      \
  X(int,     name_siteadr,         nsite,         1,              id(nnames))                      \
  X(int,     name_camadr,          ncam,          1,              id(nnames))                      \
  X(int,     name_lightadr,        nlight,        1,              id(nnames))                      \
  X(int,     name_meshadr,         nmesh,         1,              id(nnames))                      \
  X(int,     name_skinadr,         nskin,         1,              id(nnames))                      \
  X(int,     name_hfieldadr,       nhfield,       1,              id(nnames))                      \
  X(int,     name_texadr,          ntex,          1,              id(nnames))                      \
  X(int,     name_matadr,          nmat,          1,              id(nnames))                      \
  X(int,     name_pairadr,         npair,         1,              id(nnames))                      \
  X(int,     name_excludeadr,      nexclude,      1,              id(nnames))                      \
  X(int,     name_eqadr,           neq,           1,              id(nnames))                      \
  X(int,     name_tendonadr,       ntendon,       1,              id(nnames))                      \
  X(int,     name_actuatoradr,     nu,            1,              id(nnames))                      \
  X(int,     name_sensoradr,       nsensor,       1,              id(nnames))                      \
  X(int,     name_numericadr,      nnumeric,      1,              id(nnames))                      \
  X(int,     name_textadr,         ntext,         1,              id(nnames))                      \
  X(int,     name_tupleadr,        ntuple,        1,              id(nnames))                      \
  X(int,     name_keyadr,          nkey,          1,              id(nnames))                      \
  X(char,    names,                nnames,        1,              any)

// clang-format on
