# nsh_module(NAME <name> [DEPENDS <targets...>] [PRIVATE <targets...>])
#
# One library per module: sources are <module>/src/*.cpp, public headers <module>/include.
# Tests sit beside the module and are picked up by name, one executable per label so that the
# heavy template code compiles into few translation units:
#   <module>/tests/*_test.cpp      -> nsh_<name>_tests           label "fast"
#   <module>/tests/*_property.cpp  -> nsh_<name>_property_tests  label "property"
#   <module>/tests/*_slow.cpp      -> nsh_<name>_slow_tests      label "slow"
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
    foreach(kind IN ITEMS test property slow)
      file(GLOB tests CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/tests/*_${kind}.cpp)
      if(NOT tests)
        continue()
      endif()
      if(kind STREQUAL "test")
        set(exe nsh_${ARG_NAME}_tests)
        set(label fast)
      else()
        set(exe nsh_${ARG_NAME}_${kind}_tests)
        set(label ${kind})
      endif()
      add_executable(${exe} ${tests})
      target_link_libraries(${exe} PRIVATE ${target} ${ARG_TEST_DEPENDS}
                            rapidcheck rapidcheck_gtest GTest::gtest GTest::gtest_main)
      target_compile_options(${exe} PRIVATE -Wall -Wextra)
      target_compile_definitions(${exe} PRIVATE
        NSH_SOURCE_DIR="${PROJECT_SOURCE_DIR}" NSH_BINARY_DIR="${PROJECT_BINARY_DIR}")
      gtest_discover_tests(${exe} DISCOVERY_MODE PRE_TEST DISCOVERY_TIMEOUT 60
                           PROPERTIES LABELS ${label}
                           WORKING_DIRECTORY ${PROJECT_BINARY_DIR})
    endforeach()
  endif()
endfunction()
