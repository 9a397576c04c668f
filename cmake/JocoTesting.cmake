# joco_add_test(NAME name SOURCES ... [LIBS ...] [LABELS ...])
# One GoogleTest executable; its tests are registered with CTest one by one. Tests instantiated
# with the prefix LongSweep/ (INSTANTIATE_TEST_SUITE_P(LongSweep, ...)) get the label "long"
# instead, which keeps them out of the default suite.
function(joco_add_test)
  cmake_parse_arguments(T "" "NAME" "SOURCES;LIBS;LABELS" ${ARGN})
  add_executable(${T_NAME} ${T_SOURCES})
  target_link_libraries(${T_NAME} PRIVATE ${T_LIBS} GTest::gtest_main GTest::gmock joco_options)
  target_compile_definitions(${T_NAME} PRIVATE JOCO_TESTDATA_DIR="${PROJECT_SOURCE_DIR}/testdata")
  set(labels ${T_LABELS})
  if(NOT labels)
    set(labels unit)
  endif()
  gtest_discover_tests(${T_NAME} TEST_FILTER "-LongSweep/*" PROPERTIES LABELS "${labels}"
                       DISCOVERY_TIMEOUT 60)
  gtest_discover_tests(${T_NAME} TEST_FILTER "LongSweep/*" PROPERTIES LABELS long
                       DISCOVERY_TIMEOUT 60)
endfunction()

# The MuJoCo 2.2.2 oracle: found only for tests; nothing else may link it.
find_library(MUJOCO_LIB mujoco)
find_path(MUJOCO_INCLUDE_DIR mujoco/mujoco.h)
if(MUJOCO_LIB AND MUJOCO_INCLUDE_DIR)
  set(JOCO_HAVE_ORACLE ON)
  message(STATUS "MuJoCo oracle: ${MUJOCO_LIB}")
else()
  set(JOCO_HAVE_ORACLE OFF)
  message(STATUS "MuJoCo oracle not found: oracle tests will skip")
endif()
