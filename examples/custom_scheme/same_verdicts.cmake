# Runs a stamped property program twice and fails unless both runs print the same thing, times
# left out: the random search is seeded (nsh/properties/stamp.hpp), so a user's CI gives the same
# verdicts, cases and counterexamples on every run. Usage: cmake -DPROGRAM=path -P same_verdicts.cmake
foreach(run IN ITEMS 1 2)
  execute_process(COMMAND ${PROGRAM} OUTPUT_VARIABLE output ERROR_VARIABLE errors
                  RESULT_VARIABLE status)
  string(REGEX REPLACE "\\([0-9]+ ms( total)?\\)" "" output "${output}")
  set(output_${run} "${output}")
  set(status_${run} "${status}")
  string(REGEX MATCHALL "\\[ +(OK|FAILED|SKIPPED) +\\] [A-Za-z0-9_./]+" verdicts_${run} "${output}")
endforeach()
list(LENGTH verdicts_1 count)
if(count EQUAL 0)
  message(FATAL_ERROR "${PROGRAM} printed no verdict:\n${output_1}")
endif()
if(NOT verdicts_1 STREQUAL verdicts_2)
  message(FATAL_ERROR "two runs gave different verdicts:\n${verdicts_1}\n---\n${verdicts_2}")
endif()
if(NOT output_1 STREQUAL output_2 OR NOT status_1 STREQUAL status_2)
  message(FATAL_ERROR "two runs printed different text (exit ${status_1} and ${status_2})")
endif()
message(STATUS "${count} verdicts, the same in both runs")
