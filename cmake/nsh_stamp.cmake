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
