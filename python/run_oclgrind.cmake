# Runs PYTHON SCRIPT ARG with Oclgrind as the only OpenCL platform (ctest sets the
# environment) and fails when Oclgrind logged anything to LOG or found an OpenCL API
# error: it reports races, out-of-bounds and uninitialised reads to its log but exits 0.
# (tests/harness/run_oclgrind.cmake does the same for the C test programs.)
file(REMOVE "${LOG}")
execute_process(COMMAND "${PYTHON}" "${SCRIPT}" "${ARG}" RESULT_VARIABLE rc OUTPUT_VARIABLE out
                ERROR_VARIABLE out)
message("${out}")
if(EXISTS "${LOG}")
  file(READ "${LOG}" report)
  if(NOT report STREQUAL "")
    string(SUBSTRING "${report}" 0 8000 head)
    message(FATAL_ERROR "Oclgrind reported problems (${LOG}):\n${head}")
  endif()
endif()
if(out MATCHES "OpenCL runtime error detected" OR out MATCHES "OCLGRIND FATAL ERROR")
  message(FATAL_ERROR "Oclgrind found an error (above)")
endif()
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${SCRIPT} ${ARG} exited with ${rc}")
endif()
