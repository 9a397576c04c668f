# find_package(joco) with target joco::engine, and a pkg-config file.
include(CMakePackageConfigHelpers)
install(EXPORT jocoTargets NAMESPACE joco:: DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/joco)
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/jocoConfig.cmake.in
  ${PROJECT_BINARY_DIR}/jocoConfig.cmake INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/joco)
write_basic_package_version_file(${PROJECT_BINARY_DIR}/jocoConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/jocoConfig.cmake ${PROJECT_BINARY_DIR}/jocoConfigVersion.cmake
  DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/joco)
configure_file(${PROJECT_SOURCE_DIR}/cmake/joco.pc.in ${PROJECT_BINARY_DIR}/joco.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/joco.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
