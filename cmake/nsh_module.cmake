# nsh_module(NAME <name> [DEPENDS <targets...>] [PRIVATE <targets...>])
#
# One library per module: sources are <module>/src/*.cpp, public headers <module>/include.
# Tests sit beside the module and are picked up by name, one executable per file (the template
# code is instantiated once in the library, so a test file is a light translation unit):
#   <module>/tests/*_test.cpp      label "fast"
#   <module>/tests/*_property.cpp  label "property"
#   <module>/tests/*_slow.cpp      label "slow"
#   <module>/tests/*_deep.cpp      label "deep" (minutes; excluded by the ci test preset)
# Extra labels (e.g. "siconos") are added in the module's CMakeLists with set_tests_properties
# or by naming the gtest suite; see core/CMakeLists.txt.
# Globs use CONFIGURE_DEPENDS, so adding a file re-runs CMake on the next build.
function(nsh_module)
  cmake_parse_arguments(ARG "" "NAME" "DEPENDS;PRIVATE;TEST_DEPENDS" ${ARGN})
  set(target nsh_${ARG_NAME})
  file(GLOB sources CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/src/*.cpp)
  add_library(${target} ${sources})
  add_library(nsh::${ARG_NAME} ALIAS ${target})
  set_target_properties(${target} PROPERTIES EXPORT_NAME ${ARG_NAME} OUTPUT_NAME nsh_${ARG_NAME})
  target_include_directories(${target} PUBLIC
    $<BUILD_INTERFACE:${CMAKE_CURRENT_SOURCE_DIR}/include>
    $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
  target_compile_features(${target} PUBLIC cxx_std_20)
  target_link_libraries(${target} PUBLIC ${ARG_DEPENDS} PRIVATE ${ARG_PRIVATE})
  target_compile_options(${target} PRIVATE -Wall -Wextra)
  install(TARGETS ${target} EXPORT nshTargets
          ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
  install(DIRECTORY ${CMAKE_CURRENT_SOURCE_DIR}/include/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
  if(NSH_BUILD_TESTS)
    foreach(kind IN ITEMS test property slow deep)
      file(GLOB tests CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/tests/*_${kind}.cpp)
      foreach(test_source IN LISTS tests)
        get_filename_component(stem ${test_source} NAME_WE)
        if(kind STREQUAL "test")
          set(label fast)
        else()
          set(label ${kind})
        endif()
        set(exe nsh_${ARG_NAME}_${stem})
        add_executable(${exe} ${test_source})
        target_link_libraries(${exe} PRIVATE ${target} ${ARG_TEST_DEPENDS}
                              rapidcheck rapidcheck_gtest GTest::gtest GTest::gtest_main)
        target_compile_options(${exe} PRIVATE -Wall -Wextra)
        target_compile_definitions(${exe} PRIVATE
          NSH_SOURCE_DIR="${PROJECT_SOURCE_DIR}" NSH_BINARY_DIR="${PROJECT_BINARY_DIR}")
        gtest_discover_tests(${exe} DISCOVERY_MODE PRE_TEST DISCOVERY_TIMEOUT 60
                             PROPERTIES LABELS ${label}
                             WORKING_DIRECTORY ${PROJECT_BINARY_DIR})
      endforeach()
    endforeach()
  endif()
endfunction()
