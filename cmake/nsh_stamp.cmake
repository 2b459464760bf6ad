# nsh_add_property_tests(<target> [LABELS <extra labels...>])
#
# Registers the gtest cases of a test executable that uses NSH_STAMP_SCHEME
# (nsh/properties/stamp.hpp) with ctest, labelled "property", and links it with
# nsh::properties, rapidcheck and GoogleTest. Installed with nsh: a user's project does
#   find_package(nsh REQUIRED)
#   add_executable(my_scheme_property my_scheme_property.cpp)
#   nsh_add_property_tests(my_scheme_property)
include_guard(GLOBAL)
include(GoogleTest)
function(nsh_add_property_tests target)
  cmake_parse_arguments(ARG "" "" "LABELS" ${ARGN})
  target_link_libraries(${target} PRIVATE nsh::properties rapidcheck rapidcheck_gtest
                        GTest::gtest GTest::gtest_main)
  gtest_discover_tests(${target} DISCOVERY_MODE PRE_TEST DISCOVERY_TIMEOUT 60
                       PROPERTIES LABELS "property;${ARG_LABELS}")
endfunction()

# nsh_add_plugin(<target> <sources...>)
#
# A scheme plugin for the nsh program: a shared module whose static initializer registers the
# user's schemes and claims (nsh::properties::register_scheme), loaded by
#   nsh --plugin $<TARGET_FILE:target> simulate|converge|energy|check|report ...
# or NSH_PLUGINS=path1:path2. It is compiled against nsh's headers but not linked with nsh's
# libraries: it uses the registry, vtables and solvers of the nsh executable that loads it
# (which exports them), so there is one registry. The same sources can also be linked into a
# stamped test executable (nsh_add_property_tests) for ctest.
function(nsh_add_plugin target)
  add_library(${target} MODULE ${ARGN})
  target_compile_features(${target} PRIVATE cxx_std_20)
  target_include_directories(${target} PRIVATE
    $<TARGET_PROPERTY:nsh::properties,INTERFACE_INCLUDE_DIRECTORIES>
    $<TARGET_PROPERTY:nsh::core,INTERFACE_INCLUDE_DIRECTORIES>)
  # Header-only or already loaded by nsh: only their include paths are needed.
  target_include_directories(${target} PRIVATE
    $<TARGET_PROPERTY:Eigen3::Eigen,INTERFACE_INCLUDE_DIRECTORIES>)
  set_target_properties(${target} PROPERTIES PREFIX "" POSITION_INDEPENDENT_CODE ON)
endfunction()
