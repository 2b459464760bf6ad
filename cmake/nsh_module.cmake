# nsh_module(NAME <name> [DEPENDS <targets...>] [PRIVATE <targets...>] [TEST_DEPENDS <targets...>]
#            [EXCLUDE <src subfolders...>])
#
# One library per module: sources are <module>/src/**/*.cpp (src/<x>/ holds the bodies of
# include/nsh/<x>/), public headers <module>/include. EXCLUDE leaves src subfolders to a second
# library of the module, declared with nsh_library (core: src/io and src/external form nsh::io).
# Tests sit beside the module and are picked up by name; the files of one kind form one
# executable per module (nsh_<module>_<kind>_tests), so that a clean build links a dozen test
# programs rather than sixty (the template code is instantiated once in the library, so a test
# file is a light translation unit):
#   <module>/tests/*_test.cpp      label "fast"      nsh_<module>_fast_tests
#   <module>/tests/*_property.cpp  label "property"  nsh_<module>_property_tests
#   <module>/tests/*_slow.cpp      label "slow"      nsh_<module>_slow_tests
#   <module>/tests/*_deep.cpp      label "deep"      nsh_<module>_deep_tests (minutes; excluded
#                                                    by the ci test preset)
#   <module>/tests/*_support.cpp   linked into each of the module's test programs
# gtest_discover_tests still makes every TEST its own ctest test (ctest -R Suite.Name).
# Extra labels (e.g. "siconos") are added in the module's CMakeLists with set_tests_properties
# or by naming the gtest suite; see core/CMakeLists.txt.
# Globs use CONFIGURE_DEPENDS, so adding a file re-runs CMake on the next build.
#
# The release and ci presets are unity builds (CMAKE_UNITY_BUILD, ten files per translation
# unit: Real50's Boost.Multiprecision arithmetic and Eigen kernels are then instantiated once
# per batch, not once per file; docs/decisions.md, "Build"). So two files of one target must
# not define file-local helpers of the same name: share them through a header instead.
#
# Precompiled headers (nsh_precompile_headers below): every translation unit starts by parsing
# Eigen and Boost.Multiprecision through <nsh/scalar.hpp> (about 4 s of a 2-core CI machine's
# time per file); the libraries and the nsh program share one precompiled copy and the test
# programs another.
# CMAKE_DISABLE_PRECOMPILE_HEADERS=ON (the dev preset) turns them off, since ccache does not
# cache a compilation that uses one.

set(NSH_PRECOMPILED_HEADERS
    <nsh/scalar.hpp> <Eigen/Dense> <fmt/format.h>
    <algorithm> <functional> <map> <memory> <optional> <sstream> <stdexcept> <string> <vector>)

# nsh_precompile_headers(<target> LIBRARY|TEST): the library set is compiled once, in the object
# library nsh_lib_pch; the test set (the library set plus GoogleTest) once, in nsh_test_pch.
# Neither carries a target's own -D definitions: GCC refuses a precompiled header built with a
# macro the using translation unit does not define (extra definitions in the user are fine).
function(nsh_precompile_headers target kind)
  if(kind STREQUAL "LIBRARY")
    set(pch nsh_lib_pch)
    set(headers ${NSH_PRECOMPILED_HEADERS})
  else()
    set(pch nsh_test_pch)
    set(headers ${NSH_PRECOMPILED_HEADERS} <gtest/gtest.h>)
  endif()
  if(NOT TARGET ${pch})
    add_library(${pch} OBJECT ${PROJECT_SOURCE_DIR}/cmake/pch_anchor.cpp)
    # The headers' include directories and the dependencies' definitions, without nsh_core's
    # own definitions (nsh_core itself is not built yet when the first library asks).
    target_include_directories(${pch} PRIVATE ${PROJECT_SOURCE_DIR}/core/include)
    target_link_libraries(${pch} PRIVATE Eigen3::Eigen Boost::headers fmt::fmt)
    if(kind STREQUAL "TEST")
      target_link_libraries(${pch} PRIVATE GTest::gtest)
    endif()
    target_compile_features(${pch} PRIVATE cxx_std_20)
    target_compile_options(${pch} PRIVATE -Wall -Wextra)
    target_precompile_headers(${pch} PRIVATE ${headers})
  endif()
  target_precompile_headers(${target} REUSE_FROM ${pch})
endfunction()

# nsh_add_test_program(<exe> <label> <sources...> LINK <targets...>): one gtest program whose
# TESTs become ctest tests with the given label.
function(nsh_add_test_program exe label)
  cmake_parse_arguments(ARG "" "" "SOURCES;LINK" ${ARGN})
  add_executable(${exe} ${ARG_SOURCES})
  target_link_libraries(${exe} PRIVATE ${ARG_LINK} rapidcheck rapidcheck_gtest GTest::gtest
                        GTest::gtest_main)
  target_compile_options(${exe} PRIVATE -Wall -Wextra)
  target_compile_definitions(${exe} PRIVATE
    NSH_SOURCE_DIR="${PROJECT_SOURCE_DIR}" NSH_BINARY_DIR="${PROJECT_BINARY_DIR}")
  nsh_precompile_headers(${exe} TEST)
  gtest_discover_tests(${exe} DISCOVERY_MODE PRE_TEST DISCOVERY_TIMEOUT 60
                       PROPERTIES LABELS ${label}
                       WORKING_DIRECTORY ${PROJECT_BINARY_DIR})
endfunction()

# nsh_library(NAME <name> SOURCES <files...> [DEPENDS <targets...>] [PRIVATE <targets...>]):
# the library nsh_<name> (alias and export name nsh::<name>), its headers under the calling
# directory's include/, its private headers beside its sources (quoted includes from src/, e.g.
# "lcp/dense_solve.hxx").
function(nsh_library)
  cmake_parse_arguments(ARG "" "NAME" "SOURCES;DEPENDS;PRIVATE" ${ARGN})
  set(target nsh_${ARG_NAME})
  add_library(${target} ${ARG_SOURCES})
  add_library(nsh::${ARG_NAME} ALIAS ${target})
  set_target_properties(${target} PROPERTIES EXPORT_NAME ${ARG_NAME} OUTPUT_NAME nsh_${ARG_NAME})
  target_include_directories(${target} PUBLIC
    $<BUILD_INTERFACE:${CMAKE_CURRENT_SOURCE_DIR}/include>
    $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
  target_include_directories(${target} PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/src)
  target_compile_features(${target} PUBLIC cxx_std_20)
  target_link_libraries(${target} PUBLIC ${ARG_DEPENDS} PRIVATE ${ARG_PRIVATE})
  target_compile_options(${target} PRIVATE -Wall -Wextra)
  nsh_precompile_headers(${target} LIBRARY)
  install(TARGETS ${target} EXPORT nshTargets
          ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
endfunction()

function(nsh_module)
  cmake_parse_arguments(ARG "" "NAME" "DEPENDS;PRIVATE;TEST_DEPENDS;EXCLUDE" ${ARGN})
  set(target nsh_${ARG_NAME})
  file(GLOB_RECURSE sources CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/src/*.cpp)
  foreach(folder IN LISTS ARG_EXCLUDE)
    list(FILTER sources EXCLUDE REGEX "^${CMAKE_CURRENT_SOURCE_DIR}/src/${folder}/")
  endforeach()
  nsh_library(NAME ${ARG_NAME} SOURCES ${sources} DEPENDS ${ARG_DEPENDS} PRIVATE ${ARG_PRIVATE})
  install(DIRECTORY ${CMAKE_CURRENT_SOURCE_DIR}/include/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
  if(NSH_BUILD_TESTS)
    # <module>/tests/*_support.cpp: code every test program of the module links once (e.g. the
    # replaced operator new of core/tests/allocation_counting_support.cpp).
    file(GLOB support CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/tests/*_support.cpp)
    foreach(kind IN ITEMS test property slow deep)
      file(GLOB tests CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/tests/*_${kind}.cpp)
      if(NOT tests)
        continue()
      endif()
      if(kind STREQUAL "test")
        set(label fast)
      else()
        set(label ${kind})
      endif()
      nsh_add_test_program(nsh_${ARG_NAME}_${label}_tests ${label} SOURCES ${tests} ${support}
                           LINK ${target} ${ARG_TEST_DEPENDS})
    endforeach()
  endif()
endfunction()
