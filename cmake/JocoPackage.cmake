# find_package(joco) with target joco::engine, and a pkg-config file.
include(CMakePackageConfigHelpers)
install(EXPORT jocoTargets NAMESPACE joco:: DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/joco)
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/jocoConfig.cmake.in
  ${PROJECT_BINARY_DIR}/jocoConfig.cmake INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/joco)
write_basic_package_version_file(${PROJECT_BINARY_DIR}/jocoConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/jocoConfig.cmake ${PROJECT_BINARY_DIR}/jocoConfigVersion.cmake
  DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/joco)
# joco.pc sits in LIBDIR/pkgconfig: the way from there back up to the prefix.
# (An absolute LIBDIR cannot move with the prefix: then the prefix is written as is.)
if(IS_ABSOLUTE "${CMAKE_INSTALL_LIBDIR}")
  set(JOCO_PC_RELATIVE_PREFIX "")
  set(pc_prefix "${CMAKE_INSTALL_PREFIX}")
else()
  file(RELATIVE_PATH JOCO_PC_RELATIVE_PREFIX "/prefix/${CMAKE_INSTALL_LIBDIR}/pkgconfig" "/prefix")
  string(REGEX REPLACE "/$" "" JOCO_PC_RELATIVE_PREFIX "${JOCO_PC_RELATIVE_PREFIX}")
  set(pc_prefix "\${pcfiledir}/${JOCO_PC_RELATIVE_PREFIX}")
endif()
configure_file(${PROJECT_SOURCE_DIR}/cmake/joco.pc.in ${PROJECT_BINARY_DIR}/joco.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/joco.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
