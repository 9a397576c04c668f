// The one table of the compiled model's fields.
//
// Every size, option and array of joco::Model is declared here once, with MuJoCo 2.2.2's names and
// meanings. Allocation, the .jmb format, validation, the --print dump and the oracle comparison are
// all derived from these lists, so adding a field is one line (see README, CONTRIBUTING). Each
// field's line ends with its meaning, after MuJoCo 2.2.2's documentation of mjModel (API reference,
// CC BY 4.0, DeepMind Technologies Limited); enumerations are named by their types in
// joco/constants.h, and their valid ranges by the first and last constants.
//
// JOCO_MODEL_SIZES(X):   X(name)                       an int size of the model
// JOCO_MODEL_ARRAYS(X):  X(type, name, rows, cols, check)
//     rows, cols: expressions over the sizes (evaluated where every size is a local variable)
//     check:      what a valid element is, an expression over the sizes using the helpers of
//                 field_check (joco/field.h): any, flag, nonneg, id(n), idn(n), adr(n), adrn(n),
//                 enm(lo, hi)
//     /* ... */   what the field means (a comment: // cannot end a line of a macro)
// JOCO_OPTION_FIELDS(X): X(type, name, count)           fields of Option (Model::opt)
// JOCO_VISUAL_GROUPS(G): G(group, MACRO)                 groups of Visual (Model::vis);
//                        MACRO(X, group) lists the group's fields as X(group, type, name, count)
// JOCO_STATISTIC_FIELDS(X): X(type, name, count)        fields of Statistic (Model::stat)
#pragma once

// clang-format off

#define JOCO_MODEL_SIZES(X)                                                                        \
  X(nq)             /* generalized coordinates: dim(qpos) */                                       \
  X(nv)             /* degrees of freedom: dim(qvel) */                                            \
  X(nu)             /* actuators (controls): dim(ctrl) */                                          \
  X(na)             /* activation states: dim(act) */                                              \
  X(nbody)          /* bodies */                                                                   \
  X(njnt)           /* joints */                                                                   \
  X(ngeom)          /* geoms */                                                                    \
  X(nsite)          /* sites */                                                                    \
  X(ncam)           /* cameras */                                                                  \
  X(nlight)         /* lights */                                                                   \
  X(nmesh)          /* meshes */                                                                   \
  X(nmeshvert)      /* vertices of all meshes */                                                   \
  X(nmeshtexvert)   /* vertices with texture coordinates of all meshes */                          \
  X(nmeshface)      /* triangles of all meshes */                                                  \
  X(nmeshgraph)     /* ints of the meshes' convex hull graphs */                                   \
  X(nskin)          /* skins */                                                                    \
  X(nskinvert)      /* vertices of all skins */                                                    \
  X(nskintexvert)   /* vertices with texture coordinates of all skins */                           \
  X(nskinface)      /* triangles of all skins */                                                   \
  X(nskinbone)      /* bones of all skins */                                                       \
  X(nskinbonevert)  /* vertices of all skin bones */                                               \
  X(nhfield)        /* height fields */                                                            \
  X(nhfielddata)    /* data points of all height fields */                                         \
  X(ntex)           /* textures */                                                                 \
  X(ntexdata)       /* bytes of texture rgb data */                                                \
  X(nmat)           /* materials */                                                                \
  X(npair)          /* predefined geom pairs */                                                    \
  X(nexclude)       /* excluded body pairs */                                                      \
  X(neq)            /* equality constraints */                                                     \
  X(ntendon)        /* tendons */                                                                  \
  X(nwrap)          /* wrap objects of all tendon paths */                                         \
  X(nsensor)        /* sensors */                                                                  \
  X(nnumeric)       /* numeric custom fields */                                                    \
  X(nnumericdata)   /* values of all numeric fields */                                             \
  X(ntext)          /* text custom fields */                                                       \
  X(ntextdata)      /* bytes of all text fields */                                                 \
  X(ntuple)         /* tuple custom fields */                                                      \
  X(ntupledata)     /* objects of all tuple fields */                                              \
  X(nkey)           /* keyframes */                                                                \
  X(nmocap)         /* mocap bodies */                                                             \
  X(nuser_body)     /* values of body_user per body */                                             \
  X(nuser_jnt)      /* values of jnt_user per joint */                                             \
  X(nuser_geom)     /* values of geom_user per geom */                                             \
  X(nuser_site)     /* values of site_user per site */                                             \
  X(nuser_cam)      /* values of cam_user per camera */                                            \
  X(nuser_tendon)   /* values of tendon_user per tendon */                                         \
  X(nuser_actuator) /* values of actuator_user per actuator */                                     \
  X(nuser_sensor)   /* values of sensor_user per sensor */                                         \
  X(nnames)         /* chars of all names */                                                       \
  X(nM)             /* non-zeros of the sparse inertia qM */                                       \
  X(nD)             /* non-zeros of the sparse dof-dof matrix */                                   \
  X(nemax)          /* potential equality constraint rows */                                       \
  X(njmax)          /* available constraint rows */                                                \
  X(nconmax)        /* potential contacts */                                                       \
  X(nstack)         /* doubles of the Data stack */                                                \
  X(nuserdata)      /* doubles of Data userdata */                                                 \
  X(nsensordata)    /* values of sensordata */

#define JOCO_OPTION_FIELDS(X)                                                                      \
  X(double, timestep, 1)         /* time step */                                                   \
  X(double, apirate, 1)          /* update rate of the remote API (Hz) */                          \
  X(double, impratio, 1)         /* ratio of friction to normal contact impedance */               \
  X(double, tolerance, 1)        /* main solver tolerance */                                       \
  X(double, noslip_tolerance, 1) /* noslip solver tolerance */                                     \
  X(double, mpr_tolerance, 1)    /* MPR solver tolerance */                                        \
  X(double, gravity, 3)          /* gravitational acceleration */                                  \
  X(double, wind, 3)             /* wind (for lift, drag and viscosity) */                         \
  X(double, magnetic, 3)         /* global magnetic flux */                                        \
  X(double, density, 1)          /* density of the medium */                                       \
  X(double, viscosity, 1)        /* viscosity of the medium */                                     \
  X(double, o_margin, 1)         /* margin when overridden */                                      \
  X(double, o_solref, kNREF)     /* solref when overridden */                                      \
  X(double, o_solimp, kNIMP)     /* solimp when overridden */                                      \
  X(int, integrator, 1)          /* integrator (Integrator) */                                     \
  X(int, collision, 1)           /* collision mode (CollisionMode) */                              \
  X(int, cone, 1)                /* friction cone (Cone) */                                        \
  X(int, jacobian, 1)            /* constraint Jacobian (JacobianType) */                          \
  X(int, solver, 1)              /* constraint solver (SolverType) */                              \
  X(int, iterations, 1)          /* most main solver iterations */                                 \
  X(int, noslip_iterations, 1)   /* most noslip solver iterations */                               \
  X(int, mpr_iterations, 1)      /* most MPR iterations */                                         \
  X(int, disableflags, 1)        /* DisableBit flags */                                            \
  X(int, enableflags, 1)         /* EnableBit flags */

// The visual options by group, one macro per group: X(group, type, name, count).
#define JOCO_VISUAL_GROUPS(G)                                                                      \
  G(global, JOCO_VISUAL_GLOBAL) G(quality, JOCO_VISUAL_QUALITY)                                    \
  G(headlight, JOCO_VISUAL_HEADLIGHT) G(map, JOCO_VISUAL_MAP) G(scale, JOCO_VISUAL_SCALE)          \
  G(rgba, JOCO_VISUAL_RGBA)

#define JOCO_VISUAL_GLOBAL(X, g)                                                                   \
  X(g, float, fovy, 1)      /* free camera's vertical field of view (degrees) */                   \
  X(g, float, ipd, 1)       /* free camera's inter-pupillary distance */                           \
  X(g, float, azimuth, 1)   /* free camera's azimuth (degrees) */                                  \
  X(g, float, elevation, 1) /* free camera's elevation (degrees) */                                \
  X(g, float, linewidth, 1) /* line width of wireframes and rays */                                \
  X(g, float, glow, 1)      /* glow of the selected body */                                        \
  X(g, int, offwidth, 1)    /* width of the offscreen buffer */                                    \
  X(g, int, offheight, 1)   /* height of the offscreen buffer */

#define JOCO_VISUAL_QUALITY(X, g)                                                                  \
  X(g, int, shadowsize, 1) /* size of the shadow map texture */                                    \
  X(g, int, offsamples, 1) /* multisamples offscreen */                                            \
  X(g, int, numslices, 1)  /* slices of built-in geoms */                                          \
  X(g, int, numstacks, 1)  /* stacks of built-in geoms */                                          \
  X(g, int, numquads, 1)   /* quads of boxes */

#define JOCO_VISUAL_HEADLIGHT(X, g)                                                                \
  X(g, float, ambient, 3)  /* ambient rgb */                                                       \
  X(g, float, diffuse, 3)  /* diffuse rgb */                                                       \
  X(g, float, specular, 3) /* specular rgb */                                                      \
  X(g, int, active, 1)     /* is on */

#define JOCO_VISUAL_MAP(X, g)                                                                      \
  X(g, float, stiffness, 1)      /* mouse perturbation stiffness (space to force) */               \
  X(g, float, stiffnessrot, 1)   /* mouse perturbation stiffness (space to torque) */              \
  X(g, float, force, 1)          /* force units to space units */                                  \
  X(g, float, torque, 1)         /* torque units to space units */                                 \
  X(g, float, alpha, 1)          /* geom alpha scale when transparent */                           \
  X(g, float, fogstart, 1)       /* fog start, times extent */                                     \
  X(g, float, fogend, 1)         /* fog end, times extent */                                       \
  X(g, float, znear, 1)          /* near clipping plane, times extent */                           \
  X(g, float, zfar, 1)           /* far clipping plane, times extent */                            \
  X(g, float, haze, 1)           /* haze ratio */                                                  \
  X(g, float, shadowclip, 1)     /* directional light's shadow clip, times extent */               \
  X(g, float, shadowscale, 1)    /* spot light's shadow scale, times cutoff */                     \
  X(g, float, actuatortendon, 1) /* scale of tendon width */

#define JOCO_VISUAL_SCALE(X, g)                                                                    \
  X(g, float, forcewidth, 1)     /* width of force arrows */                                       \
  X(g, float, contactwidth, 1)   /* contact width */                                               \
  X(g, float, contactheight, 1)  /* contact height */                                              \
  X(g, float, connect, 1)        /* autoconnect capsule width */                                   \
  X(g, float, com, 1)            /* com radius */                                                  \
  X(g, float, camera, 1)         /* camera object */                                               \
  X(g, float, light, 1)          /* light object */                                                \
  X(g, float, selectpoint, 1)    /* selection point */                                             \
  X(g, float, jointlength, 1)    /* joint length */                                                \
  X(g, float, jointwidth, 1)     /* joint width */                                                 \
  X(g, float, actuatorlength, 1) /* actuator length */                                             \
  X(g, float, actuatorwidth, 1)  /* actuator width */                                              \
  X(g, float, framelength, 1)    /* body frame axis length */                                      \
  X(g, float, framewidth, 1)     /* body frame axis width */                                       \
  X(g, float, constraint, 1)     /* constraint width */                                            \
  X(g, float, slidercrank, 1)    /* slider-crank width */

#define JOCO_VISUAL_RGBA(X, g)                                                                     \
  X(g, float, fog, 4)              /* fog */                                                       \
  X(g, float, haze, 4)             /* haze */                                                      \
  X(g, float, force, 4)            /* external force */                                            \
  X(g, float, inertia, 4)          /* inertia box */                                               \
  X(g, float, joint, 4)            /* joint */                                                     \
  X(g, float, actuator, 4)         /* actuator, neutral */                                         \
  X(g, float, actuatornegative, 4) /* actuator at its negative limit */                            \
  X(g, float, actuatorpositive, 4) /* actuator at its positive limit */                            \
  X(g, float, com, 4)              /* centre of mass */                                            \
  X(g, float, camera, 4)           /* camera object */                                             \
  X(g, float, light, 4)            /* light object */                                              \
  X(g, float, selectpoint, 4)      /* selection point */                                           \
  X(g, float, connect, 4)          /* autoconnect */                                               \
  X(g, float, contactpoint, 4)     /* contact point */                                             \
  X(g, float, contactforce, 4)     /* contact force */                                             \
  X(g, float, contactfriction, 4)  /* contact friction force */                                    \
  X(g, float, contacttorque, 4)    /* contact torque */                                            \
  X(g, float, contactgap, 4)       /* contact point in the gap */                                  \
  X(g, float, rangefinder, 4)      /* rangefinder ray */                                           \
  X(g, float, constraint, 4)       /* constraint */                                                \
  X(g, float, slidercrank, 4)      /* slider-crank */                                              \
  X(g, float, crankbroken, 4)      /* slider-crank stretched or broken */

#define JOCO_STATISTIC_FIELDS(X)                                                                   \
  X(double, meaninertia, 1) /* mean diagonal inertia */                                            \
  X(double, meanmass, 1)    /* mean body mass */                                                   \
  X(double, meansize, 1)    /* mean body size */                                                   \
  X(double, extent, 1)      /* spatial extent */                                                   \
  X(double, center, 3)      /* centre of the model */

#define JOCO_MODEL_ARRAYS(X)                                                                                                                 \
  /* default generalized coordinates */                                                                                                      \
  X(double,  qpos0,                nq,            1,              any)           /* qpos at the default pose */                              \
  X(double,  qpos_spring,          nq,            1,              any)           /* reference pose of the springs */                         \
  /* bodies */                                                                                                                               \
  X(int,     body_parentid,        nbody,         1,              id(nbody))     /* id of the body's parent */                               \
  X(int,     body_rootid,          nbody,         1,              id(nbody))     /* id of the root body above it */                          \
  X(int,     body_weldid,          nbody,         1,              id(nbody))     /* id of the body it is welded to */                        \
  X(int,     body_mocapid,         nbody,         1,              idn(nmocap))   /* id of its mocap data; -1: none */                        \
  X(int,     body_jntnum,          nbody,         1,              nonneg)        /* number of its joints */                                  \
  X(int,     body_jntadr,          nbody,         1,              idn(njnt))     /* first joint; -1: none */                                 \
  X(int,     body_dofnum,          nbody,         1,              nonneg)        /* number of its degrees of freedom */                      \
  X(int,     body_dofadr,          nbody,         1,              idn(nv))       /* first dof; -1: none */                                   \
  X(int,     body_geomnum,         nbody,         1,              nonneg)        /* number of its geoms */                                   \
  X(int,     body_geomadr,         nbody,         1,              idn(ngeom))    /* first geom; -1: none */                                  \
  X(uint8_t, body_simple,          nbody,         1,              flag)          /* simple body (diagonal M) */                              \
  X(uint8_t, body_sameframe,       nbody,         1,              flag)          /* inertial frame is the body frame */                      \
  X(double,  body_pos,             nbody,         3,              any)           /* position relative to the parent body */                  \
  X(double,  body_quat,            nbody,         4,              any)           /* orientation relative to the parent body */               \
  X(double,  body_ipos,            nbody,         3,              any)           /* local position of the centre of mass */                  \
  X(double,  body_iquat,           nbody,         4,              any)           /* local orientation of the inertia ellipsoid */            \
  X(double,  body_mass,            nbody,         1,              any)           /* mass */                                                  \
  X(double,  body_subtreemass,     nbody,         1,              any)           /* mass of the subtree it starts */                         \
  X(double,  body_inertia,         nbody,         3,              any)           /* diagonal inertia in the ipos/iquat frame */              \
  X(double,  body_invweight0,      nbody,         2,              any)           /* mean inverse inertia at qpos0 (translation, rotation) */ \
  X(double,  body_user,            nbody,         nuser_body,     any)           /* user data */                                             \
  /* joints */                                                                                                                               \
  X(int,     jnt_type,             njnt,          1,              enm(kJointFree, kJointHinge)) /* joint type (JointType) */                 \
  X(int,     jnt_qposadr,          njnt,          1,              id(nq))        /* address of its data in qpos */                           \
  X(int,     jnt_dofadr,           njnt,          1,              id(nv))        /* address of its data in qvel */                           \
  X(int,     jnt_bodyid,           njnt,          1,              id(nbody))     /* id of the joint's body */                                \
  X(int,     jnt_group,            njnt,          1,              any)           /* group for visibility */                                  \
  X(uint8_t, jnt_limited,          njnt,          1,              flag)          /* has limits */                                            \
  X(double,  jnt_solref,           njnt,          kNREF,          any)           /* solver reference of the limit */                         \
  X(double,  jnt_solimp,           njnt,          kNIMP,          any)           /* solver impedance of the limit */                         \
  X(double,  jnt_pos,              njnt,          3,              any)           /* local anchor position */                                 \
  X(double,  jnt_axis,             njnt,          3,              any)           /* local joint axis */                                      \
  X(double,  jnt_stiffness,        njnt,          1,              any)           /* spring stiffness */                                      \
  X(double,  jnt_range,            njnt,          2,              any)           /* joint limits */                                          \
  X(double,  jnt_margin,           njnt,          1,              any)           /* distance at which the limit becomes active */            \
  X(double,  jnt_user,             njnt,          nuser_jnt,      any)           /* user data */                                             \
  /* dofs */                                                                                                                                 \
  X(int,     dof_bodyid,           nv,            1,              id(nbody))     /* id of the dof's body */                                  \
  X(int,     dof_jntid,            nv,            1,              id(njnt))      /* id of the dof's joint */                                 \
  X(int,     dof_parentid,         nv,            1,              idn(nv))       /* id of the dof's parent; -1: none */                      \
  X(int,     dof_Madr,             nv,            1,              id(nM))        /* address of its diagonal in qM */                         \
  X(int,     dof_simplenum,        nv,            1,              nonneg)        /* number of consecutive simple dofs from it */             \
  X(double,  dof_solref,           nv,            kNREF,          any)           /* solver reference of friction loss */                     \
  X(double,  dof_solimp,           nv,            kNIMP,          any)           /* solver impedance of friction loss */                     \
  X(double,  dof_frictionloss,     nv,            1,              any)           /* friction loss */                                         \
  X(double,  dof_armature,         nv,            1,              any)           /* armature inertia (or mass) */                            \
  X(double,  dof_damping,          nv,            1,              any)           /* damping coefficient */                                   \
  X(double,  dof_invweight0,       nv,            1,              any)           /* diagonal inverse inertia at qpos0 */                     \
  X(double,  dof_M0,               nv,            1,              any)           /* diagonal inertia at qpos0 */                             \
  /* geoms */                                                                                                                                \
  X(int,     geom_type,            ngeom,         1,              enm(kGeomPlane, kGeomMesh)) /* geometric type (GeomType) */                \
  X(int,     geom_contype,         ngeom,         1,              any)           /* contact type bits */                                     \
  X(int,     geom_conaffinity,     ngeom,         1,              any)           /* contact affinity bits */                                 \
  X(int,     geom_condim,          ngeom,         1,              enm(1, 6))     /* contact dimensionality (1, 3, 4, 6) */                   \
  X(int,     geom_bodyid,          ngeom,         1,              id(nbody))     /* id of the geom's body */                                 \
  X(int,     geom_dataid,          ngeom,         1,              idn(nmesh > nhfield ? nmesh : nhfield)) /* id of its mesh or height field; -1: none */ \
  X(int,     geom_matid,           ngeom,         1,              idn(nmat))     /* material id for rendering; -1: none */                   \
  X(int,     geom_group,           ngeom,         1,              any)           /* group for visibility */                                  \
  X(int,     geom_priority,        ngeom,         1,              any)           /* contact priority */                                      \
  X(uint8_t, geom_sameframe,       ngeom,         1,              enm(kSameFrameNone, kSameFrameInertia)) /* same frame as the body (1) or its inertia (2) */ \
  X(double,  geom_solmix,          ngeom,         1,              any)           /* weight of its solref/solimp in a pair */                 \
  X(double,  geom_solref,          ngeom,         kNREF,          any)           /* solver reference of contacts */                          \
  X(double,  geom_solimp,          ngeom,         kNIMP,          any)           /* solver impedance of contacts */                          \
  X(double,  geom_size,            ngeom,         3,              any)           /* size parameters of its type */                           \
  X(double,  geom_rbound,          ngeom,         1,              any)           /* radius of the bounding sphere */                         \
  X(double,  geom_pos,             ngeom,         3,              any)           /* local position relative to the body */                   \
  X(double,  geom_quat,            ngeom,         4,              any)           /* local orientation relative to the body */                \
  X(double,  geom_friction,        ngeom,         3,              any)           /* friction (slide, spin, roll) */                          \
  X(double,  geom_margin,          ngeom,         1,              any)           /* contacts detected when dist < margin */                  \
  X(double,  geom_gap,             ngeom,         1,              any)           /* contacts active when dist < margin - gap */              \
  X(double,  geom_fluid,           ngeom,         kNFLUID,        any)           /* fluid interaction parameters */                          \
  X(double,  geom_user,            ngeom,         nuser_geom,     any)           /* user data */                                             \
  X(float,   geom_rgba,            ngeom,         4,              any)           /* colour without a material */                             \
  /* sites */                                                                                                                                \
  X(int,     site_type,            nsite,         1,              enm(kGeomPlane, kGeomMesh)) /* geom type for rendering (GeomType) */       \
  X(int,     site_bodyid,          nsite,         1,              id(nbody))     /* id of the site's body */                                 \
  X(int,     site_matid,           nsite,         1,              idn(nmat))     /* material id for rendering; -1: none */                   \
  X(int,     site_group,           nsite,         1,              any)           /* group for visibility */                                  \
  X(uint8_t, site_sameframe,       nsite,         1,              enm(kSameFrameNone, kSameFrameInertia)) /* same frame as the body (1) or its inertia (2) */ \
  X(double,  site_size,            nsite,         3,              any)           /* geom size for rendering */                               \
  X(double,  site_pos,             nsite,         3,              any)           /* local position relative to the body */                   \
  X(double,  site_quat,            nsite,         4,              any)           /* local orientation relative to the body */                \
  X(double,  site_user,            nsite,         nuser_site,     any)           /* user data */                                             \
  X(float,   site_rgba,            nsite,         4,              any)           /* colour without a material */                             \
  /* cameras */                                                                                                                              \
  X(int,     cam_mode,             ncam,          1,              enm(kCamLightFixed, kCamLightTargetBodyCom)) /* tracking mode (CamLightMode) */ \
  X(int,     cam_bodyid,           ncam,          1,              id(nbody))     /* id of the camera's body */                               \
  X(int,     cam_targetbodyid,     ncam,          1,              idn(nbody))    /* id of the targeted body; -1: none */                     \
  X(double,  cam_pos,              ncam,          3,              any)           /* position relative to the body frame */                   \
  X(double,  cam_quat,             ncam,          4,              any)           /* orientation relative to the body frame */                \
  X(double,  cam_poscom0,          ncam,          3,              any)           /* global position relative to the subtree com at qpos0 */  \
  X(double,  cam_pos0,             ncam,          3,              any)           /* global position relative to the body at qpos0 */         \
  X(double,  cam_mat0,             ncam,          9,              any)           /* global orientation at qpos0 */                           \
  X(double,  cam_fovy,             ncam,          1,              any)           /* vertical field of view (degrees) */                      \
  X(double,  cam_ipd,              ncam,          1,              any)           /* inter-pupillary distance */                              \
  X(double,  cam_user,             ncam,          nuser_cam,      any)           /* user data */                                             \
  /* lights */                                                                                                                               \
  X(int,     light_mode,           nlight,        1,              enm(kCamLightFixed, kCamLightTargetBodyCom)) /* tracking mode (CamLightMode) */ \
  X(int,     light_bodyid,         nlight,        1,              id(nbody))     /* id of the light's body */                                \
  X(int,     light_targetbodyid,   nlight,        1,              idn(nbody))    /* id of the targeted body; -1: none */                     \
  X(uint8_t, light_directional,    nlight,        1,              flag)          /* directional light */                                     \
  X(uint8_t, light_castshadow,     nlight,        1,              flag)          /* casts shadows */                                         \
  X(uint8_t, light_active,         nlight,        1,              flag)          /* is on */                                                 \
  X(double,  light_pos,            nlight,        3,              any)           /* position relative to the body frame */                   \
  X(double,  light_dir,            nlight,        3,              any)           /* direction relative to the body frame */                  \
  X(double,  light_poscom0,        nlight,        3,              any)           /* global position relative to the subtree com at qpos0 */  \
  X(double,  light_pos0,           nlight,        3,              any)           /* global position relative to the body at qpos0 */         \
  X(double,  light_dir0,           nlight,        3,              any)           /* global direction at qpos0 */                             \
  X(float,   light_attenuation,    nlight,        3,              any)           /* OpenGL attenuation (quadratic model) */                  \
  X(float,   light_cutoff,         nlight,        1,              any)           /* OpenGL cutoff */                                         \
  X(float,   light_exponent,       nlight,        1,              any)           /* OpenGL exponent */                                       \
  X(float,   light_ambient,        nlight,        3,              any)           /* ambient rgb */                                           \
  X(float,   light_diffuse,        nlight,        3,              any)           /* diffuse rgb */                                           \
  X(float,   light_specular,       nlight,        3,              any)           /* specular rgb */                                          \
  /* meshes */                                                                                                                               \
  X(int,     mesh_vertadr,         nmesh,         1,              adr(nmeshvert)) /* first vertex */                                         \
  X(int,     mesh_vertnum,         nmesh,         1,              nonneg)        /* number of vertices */                                    \
  X(int,     mesh_texcoordadr,     nmesh,         1,              adrn(nmeshtexvert)) /* first texture coordinate; -1: none */               \
  X(int,     mesh_faceadr,         nmesh,         1,              adr(nmeshface)) /* first face */                                           \
  X(int,     mesh_facenum,         nmesh,         1,              nonneg)        /* number of faces */                                       \
  X(int,     mesh_graphadr,        nmesh,         1,              adrn(nmeshgraph)) /* address of its graph data; -1: none */                \
  X(float,   mesh_vert,            nmeshvert,     3,              any)           /* vertex positions of all meshes */                        \
  X(float,   mesh_normal,          nmeshvert,     3,              any)           /* vertex normals of all meshes */                          \
  X(float,   mesh_texcoord,        nmeshtexvert,  2,              any)           /* vertex texture coordinates of all meshes */              \
  X(int,     mesh_face,            nmeshface,     3,              any)           /* triangles (vertex ids) of all meshes */                  \
  X(int,     mesh_graph,           nmeshgraph,    1,              any)           /* convex hull graph data of all meshes */                  \
  X(float,   mesh_graphvert,       3 * nmeshgraph, 1,             any)           /* joco's, derived (model/derived.h): per graph, the position of the vertex each edge_localid entry names, as the graph's x, then y, then z (each as long as the graph, indexed as it; zero elsewhere) */ \
  X(float,   mesh_bvhbox,          2 * nmeshface, 6,              any)           /* joco's, derived (model/mesh_bvh.h): bounding-volume hierarchy of each mesh's faces, nodes from 2 mesh_faceadr: each node's box in the mesh frame (low x y z, high x y z), widened by 1e-6 of the mesh's extent and rounded outwards; zero for unused nodes */ \
  X(int,     mesh_bvhchild,        2 * nmeshface, 2,              any)           /* joco's, derived: per node, its two children (node numbers in its mesh, > 0) or, for a leaf, minus its first entry in mesh_bvhface (in its mesh) and its number of faces */ \
  X(int,     mesh_bvhface,         nmeshface,     1,              any)           /* joco's, derived: each mesh's faces (numbers in the mesh) in the order of the hierarchy's leaves */ \
  /* skins */                                                                                                                                \
  X(int,     skin_matid,           nskin,         1,              idn(nmat))     /* material id; -1: none */                                 \
  X(int,     skin_group,           nskin,         1,              any)           /* group for visibility */                                  \
  X(float,   skin_rgba,            nskin,         4,              any)           /* colour */                                                \
  X(float,   skin_inflate,         nskin,         1,              any)           /* inflation along the normals */                           \
  X(int,     skin_vertadr,         nskin,         1,              adr(nskinvert)) /* first vertex */                                         \
  X(int,     skin_vertnum,         nskin,         1,              nonneg)        /* number of vertices */                                    \
  X(int,     skin_texcoordadr,     nskin,         1,              adrn(nskintexvert)) /* first texture coordinate; -1: none */               \
  X(int,     skin_faceadr,         nskin,         1,              adr(nskinface)) /* first face */                                           \
  X(int,     skin_facenum,         nskin,         1,              nonneg)        /* number of faces */                                       \
  X(int,     skin_boneadr,         nskin,         1,              adr(nskinbone)) /* first bone */                                           \
  X(int,     skin_bonenum,         nskin,         1,              nonneg)        /* number of bones */                                       \
  X(float,   skin_vert,            nskinvert,     3,              any)           /* vertex positions of all skins */                         \
  X(float,   skin_texcoord,        nskintexvert,  2,              any)           /* vertex texture coordinates of all skins */               \
  X(int,     skin_face,            nskinface,     3,              any)           /* triangles of all skins */                                \
  X(int,     skin_bonevertadr,     nskinbone,     1,              adr(nskinbonevert)) /* first vertex of each bone */                        \
  X(int,     skin_bonevertnum,     nskinbone,     1,              nonneg)        /* number of vertices of each bone */                       \
  X(float,   skin_bonebindpos,     nskinbone,     3,              any)           /* bind position of each bone */                            \
  X(float,   skin_bonebindquat,    nskinbone,     4,              any)           /* bind orientation of each bone */                         \
  X(int,     skin_bonebodyid,      nskinbone,     1,              id(nbody))     /* body id of each bone */                                  \
  X(int,     skin_bonevertid,      nskinbonevert, 1,              nonneg)        /* mesh vertex ids of the bones' vertices */                \
  X(float,   skin_bonevertweight,  nskinbonevert, 1,              any)           /* weights of the bones' vertices */                        \
  /* height fields */                                                                                                                        \
  X(double,  hfield_size,          nhfield,       4,              any)           /* (x, y, z_top, z_bottom) */                               \
  X(int,     hfield_nrow,          nhfield,       1,              nonneg)        /* rows of the grid */                                      \
  X(int,     hfield_ncol,          nhfield,       1,              nonneg)        /* columns of the grid */                                   \
  X(int,     hfield_adr,           nhfield,       1,              adr(nhfielddata)) /* address in hfield_data */                             \
  X(float,   hfield_data,          nhfielddata,   1,              any)           /* elevations of all height fields */                       \
  /* textures */                                                                                                                             \
  X(int,     tex_type,             ntex,          1,              enm(kTexture2D, kTextureSkybox)) /* texture type (TextureType) */          \
  X(int,     tex_height,           ntex,          1,              nonneg)        /* rows of the image */                                     \
  X(int,     tex_width,            ntex,          1,              nonneg)        /* columns of the image */                                  \
  X(int,     tex_adr,              ntex,          1,              adr(ntexdata)) /* address in tex_rgb */                                    \
  X(uint8_t, tex_rgb,              ntexdata,      1,              any)           /* rgb bytes of all textures */                             \
  /* materials */                                                                                                                            \
  X(int,     mat_texid,            nmat,          1,              idn(ntex))     /* texture id; -1: none */                                  \
  X(uint8_t, mat_texuniform,       nmat,          1,              flag)          /* make a cube texture uniform */                           \
  X(float,   mat_texrepeat,        nmat,          2,              any)           /* texture repetition for 2d mapping */                     \
  X(float,   mat_emission,         nmat,          1,              any)           /* emission (times rgb) */                                  \
  X(float,   mat_specular,         nmat,          1,              any)           /* specular (times white) */                                \
  X(float,   mat_shininess,        nmat,          1,              any)           /* shininess */                                             \
  X(float,   mat_reflectance,      nmat,          1,              any)           /* reflectance (0: none) */                                 \
  X(float,   mat_rgba,             nmat,          4,              any)           /* colour */                                                \
  /* predefined geom pairs */                                                                                                                \
  X(int,     pair_dim,             npair,         1,              enm(1, 6))     /* contact dimensionality (1, 3, 4, 6) */                   \
  X(int,     pair_geom1,           npair,         1,              id(ngeom))     /* id of geom 1 */                                          \
  X(int,     pair_geom2,           npair,         1,              id(ngeom))     /* id of geom 2 */                                          \
  X(int,     pair_signature,       npair,         1,              any)           /* (body1 + 1) << 16 + body2 + 1 */                         \
  X(double,  pair_solref,          npair,         kNREF,          any)           /* solver reference of contacts */                          \
  X(double,  pair_solimp,          npair,         kNIMP,          any)           /* solver impedance of contacts */                          \
  X(double,  pair_margin,          npair,         1,              any)           /* contacts detected when dist < margin */                  \
  X(double,  pair_gap,             npair,         1,              any)           /* contacts active when dist < margin - gap */              \
  X(double,  pair_friction,        npair,         5,              any)           /* friction (tangent 1, 2, spin, roll 1, 2) */              \
  /* excluded body pairs */                                                                                                                  \
  X(int,     exclude_signature,    nexclude,      1,              any)           /* (body1 + 1) << 16 + body2 + 1 */                         \
  /* equality constraints */                                                                                                                 \
  X(int,     eq_type,              neq,           1,              enm(kEqConnect, kEqDistance)) /* constraint type (EqualityType) */         \
  X(int,     eq_obj1id,            neq,           1,              nonneg)        /* id of object 1 */                                        \
  X(int,     eq_obj2id,            neq,           1,              any)           /* id of object 2; -1: none */                              \
  X(uint8_t, eq_active,            neq,           1,              flag)          /* enabled */                                               \
  X(double,  eq_solref,            neq,           kNREF,          any)           /* solver reference */                                      \
  X(double,  eq_solimp,            neq,           kNIMP,          any)           /* solver impedance */                                      \
  X(double,  eq_data,              neq,           kNEQDATA,       any)           /* numeric data of the constraint */                        \
  /* tendons */                                                                                                                              \
  X(int,     tendon_adr,           ntendon,       1,              adr(nwrap))    /* first object of its path in wrap_* */                    \
  X(int,     tendon_num,           ntendon,       1,              nonneg)        /* number of objects in its path */                         \
  X(int,     tendon_matid,         ntendon,       1,              idn(nmat))     /* material id for rendering; -1: none */                   \
  X(int,     tendon_group,         ntendon,       1,              any)           /* group for visibility */                                  \
  X(uint8_t, tendon_limited,       ntendon,       1,              flag)          /* has length limits */                                     \
  X(double,  tendon_width,         ntendon,       1,              any)           /* width for rendering */                                   \
  X(double,  tendon_solref_lim,    ntendon,       kNREF,          any)           /* solver reference of the limit */                         \
  X(double,  tendon_solimp_lim,    ntendon,       kNIMP,          any)           /* solver impedance of the limit */                         \
  X(double,  tendon_solref_fri,    ntendon,       kNREF,          any)           /* solver reference of friction loss */                     \
  X(double,  tendon_solimp_fri,    ntendon,       kNIMP,          any)           /* solver impedance of friction loss */                     \
  X(double,  tendon_range,         ntendon,       2,              any)           /* length limits */                                         \
  X(double,  tendon_margin,        ntendon,       1,              any)           /* distance at which the limit becomes active */            \
  X(double,  tendon_stiffness,     ntendon,       1,              any)           /* spring stiffness */                                      \
  X(double,  tendon_damping,       ntendon,       1,              any)           /* damping coefficient */                                   \
  X(double,  tendon_frictionloss,  ntendon,       1,              any)           /* friction loss */                                         \
  X(double,  tendon_lengthspring,  ntendon,       1,              any)           /* length at qpos_spring (spring rest length) */            \
  X(double,  tendon_length0,       ntendon,       1,              any)           /* length at qpos0 */                                       \
  X(double,  tendon_invweight0,    ntendon,       1,              any)           /* inverse weight at qpos0 */                               \
  X(double,  tendon_user,          ntendon,       nuser_tendon,   any)           /* user data */                                             \
  X(float,   tendon_rgba,          ntendon,       4,              any)           /* colour without a material */                             \
  /* wrap objects of all tendon paths */                                                                                                     \
  X(int,     wrap_type,            nwrap,         1,              enm(kWrapNone, kWrapCylinder)) /* wrap object type (WrapType) */           \
  X(int,     wrap_objid,           nwrap,         1,              any)           /* object id: geom, site or joint */                        \
  X(double,  wrap_prm,             nwrap,         1,              any)           /* divisor, joint coefficient or side site id */            \
  /* actuators */                                                                                                                            \
  X(int,     actuator_trntype,     nu,            1,              enm(kTrnJoint, kTrnBody)) /* transmission type (TransmissionType) */       \
  X(int,     actuator_dyntype,     nu,            1,              enm(kDynNone, kDynUser)) /* dynamics type (DynType) */                     \
  X(int,     actuator_gaintype,    nu,            1,              enm(kGainFixed, kGainUser)) /* gain type (GainType) */                     \
  X(int,     actuator_biastype,    nu,            1,              enm(kBiasNone, kBiasUser)) /* bias type (BiasType) */                      \
  X(int,     actuator_trnid,       nu,            2,              any)           /* transmission ids: joint, tendon, site, body */           \
  X(int,     actuator_group,       nu,            1,              any)           /* group for visibility */                                  \
  X(uint8_t, actuator_ctrllimited, nu,            1,              flag)          /* control is clamped to ctrlrange */                       \
  X(uint8_t, actuator_forcelimited, nu,           1,              flag)          /* force is clamped to forcerange */                        \
  X(uint8_t, actuator_actlimited,  nu,            1,              flag)          /* activation is clamped to actrange */                     \
  X(double,  actuator_dynprm,      nu,            kNDYN,          any)           /* dynamics parameters */                                   \
  X(double,  actuator_gainprm,     nu,            kNGAIN,         any)           /* gain parameters */                                       \
  X(double,  actuator_biasprm,     nu,            kNBIAS,         any)           /* bias parameters */                                       \
  X(double,  actuator_ctrlrange,   nu,            2,              any)           /* range of controls */                                     \
  X(double,  actuator_forcerange,  nu,            2,              any)           /* range of forces */                                       \
  X(double,  actuator_actrange,    nu,            2,              any)           /* range of activations */                                  \
  X(double,  actuator_gear,        nu,            6,              any)           /* scales length and transmitted force */                   \
  X(double,  actuator_cranklength, nu,            1,              any)           /* crank length of a slider-crank */                        \
  X(double,  actuator_acc0,        nu,            1,              any)           /* acceleration from unit force at qpos0 */                 \
  X(double,  actuator_length0,     nu,            1,              any)           /* length at qpos0 */                                       \
  X(double,  actuator_lengthrange, nu,            2,              any)           /* feasible length range */                                 \
  X(double,  actuator_user,        nu,            nuser_actuator, any)           /* user data */                                             \
  /* sensors */                                                                                                                              \
  X(int,     sensor_type,          nsensor,       1,              enm(kSensTouch, kSensUser)) /* sensor type (SensorType) */                 \
  X(int,     sensor_datatype,      nsensor,       1,              enm(kDataReal, kDataQuaternion)) /* numeric data type (SensorDataType) */  \
  X(int,     sensor_needstage,     nsensor,       1,              enm(kStageNone, kStageAcc)) /* stage it needs (Stage) */                   \
  X(int,     sensor_objtype,       nsensor,       1,              enm(kObjUnknown, kObjKey)) /* type of the sensed object (ObjType) */       \
  X(int,     sensor_objid,         nsensor,       1,              any)           /* id of the sensed object */                               \
  X(int,     sensor_reftype,       nsensor,       1,              enm(kObjUnknown, kObjKey)) /* type of the reference frame (ObjType) */     \
  X(int,     sensor_refid,         nsensor,       1,              any)           /* id of the reference frame; -1: global */                 \
  X(int,     sensor_dim,           nsensor,       1,              nonneg)        /* number of scalar outputs */                              \
  X(int,     sensor_adr,           nsensor,       1,              adr(nsensordata)) /* address in sensordata */                              \
  X(double,  sensor_cutoff,        nsensor,       1,              any)           /* cutoff of real and positive data; 0: none */             \
  X(double,  sensor_noise,         nsensor,       1,              any)           /* noise standard deviation */                              \
  X(double,  sensor_user,          nsensor,       nuser_sensor,   any)           /* user data */                                             \
  /* custom numeric, text and tuple fields */                                                                                                \
  X(int,     numeric_adr,          nnumeric,      1,              adr(nnumericdata)) /* address in numeric_data */                           \
  X(int,     numeric_size,         nnumeric,      1,              nonneg)        /* number of values */                                      \
  X(double,  numeric_data,         nnumericdata,  1,              any)           /* values of all numeric fields */                          \
  X(int,     text_adr,             ntext,         1,              adr(ntextdata)) /* address in text_data */                                 \
  X(int,     text_size,            ntext,         1,              nonneg)        /* length with the zero byte */                             \
  X(char,    text_data,            ntextdata,     1,              any)           /* all texts, each ending with a zero byte */               \
  X(int,     tuple_adr,            ntuple,        1,              adr(ntupledata)) /* address in tuple_obj* */                               \
  X(int,     tuple_size,           ntuple,        1,              nonneg)        /* number of objects */                                     \
  X(int,     tuple_objtype,        ntupledata,    1,              enm(kObjUnknown, kObjKey)) /* object types of all tuples (ObjType) */      \
  X(int,     tuple_objid,          ntupledata,    1,              any)           /* object ids of all tuples */                              \
  X(double,  tuple_objprm,         ntupledata,    1,              any)           /* object parameters of all tuples */                       \
  /* keyframes */                                                                                                                            \
  X(double,  key_time,             nkey,          1,              any)           /* time */                                                  \
  X(double,  key_qpos,             nkey,          nq,             any)           /* qpos */                                                  \
  X(double,  key_qvel,             nkey,          nv,             any)           /* qvel */                                                  \
  X(double,  key_act,              nkey,          na,             any)           /* act */                                                   \
  X(double,  key_mpos,             nkey,          3 * nmocap,     any)           /* mocap positions */                                       \
  X(double,  key_mquat,            nkey,          4 * nmocap,     any)           /* mocap orientations */                                    \
  X(double,  key_ctrl,             nkey,          nu,             any)           /* ctrl */                                                  \
  /* names: addresses into the names buffer */                                                                                               \
  X(int,     name_bodyadr,         nbody,         1,              id(nnames))    /* address of each name in names */                         \
  X(int,     name_jntadr,          njnt,          1,              id(nnames))    /* address of each name in names */                         \
  X(int,     name_geomadr,         ngeom,         1,              id(nnames))    /* address of each name in names */                         \
  X(int,     name_siteadr,         nsite,         1,              id(nnames))    /* address of each name in names */                         \
  X(int,     name_camadr,          ncam,          1,              id(nnames))    /* address of each name in names */                         \
  X(int,     name_lightadr,        nlight,        1,              id(nnames))    /* address of each name in names */                         \
  X(int,     name_meshadr,         nmesh,         1,              id(nnames))    /* address of each name in names */                         \
  X(int,     name_skinadr,         nskin,         1,              id(nnames))    /* address of each name in names */                         \
  X(int,     name_hfieldadr,       nhfield,       1,              id(nnames))    /* address of each name in names */                         \
  X(int,     name_texadr,          ntex,          1,              id(nnames))    /* address of each name in names */                         \
  X(int,     name_matadr,          nmat,          1,              id(nnames))    /* address of each name in names */                         \
  X(int,     name_pairadr,         npair,         1,              id(nnames))    /* address of each name in names */                         \
  X(int,     name_excludeadr,      nexclude,      1,              id(nnames))    /* address of each name in names */                         \
  X(int,     name_eqadr,           neq,           1,              id(nnames))    /* address of each name in names */                         \
  X(int,     name_tendonadr,       ntendon,       1,              id(nnames))    /* address of each name in names */                         \
  X(int,     name_actuatoradr,     nu,            1,              id(nnames))    /* address of each name in names */                         \
  X(int,     name_sensoradr,       nsensor,       1,              id(nnames))    /* address of each name in names */                         \
  X(int,     name_numericadr,      nnumeric,      1,              id(nnames))    /* address of each name in names */                         \
  X(int,     name_textadr,         ntext,         1,              id(nnames))    /* address of each name in names */                         \
  X(int,     name_tupleadr,        ntuple,        1,              id(nnames))    /* address of each name in names */                         \
  X(int,     name_keyadr,          nkey,          1,              id(nnames))    /* address of each name in names */                         \
  X(char,    names,                nnames,        1,              any)           /* all names, each ending with a zero byte */

// clang-format on
