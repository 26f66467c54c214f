# Runs PROGRAM with Oclgrind as the only OpenCL platform (the environment is
# set by ctest) and fails when Oclgrind logged anything: it reports races,
# out-of-bounds and uninitialised reads to OCLGRIND_LOG but always exits 0.
file(REMOVE "${LOG}")
execute_process(COMMAND "${PROGRAM}" RESULT_VARIABLE rc)
if(EXISTS "${LOG}")
  file(READ "${LOG}" report)
  if(NOT report STREQUAL "")
    string(SUBSTRING "${report}" 0 8000 head)
    message(FATAL_ERROR "Oclgrind reported problems (${LOG}):\n${head}")
  endif()
endif()
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${PROGRAM} exited with ${rc}")
endif()
