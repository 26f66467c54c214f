# Runs PROGRAM with Oclgrind as the only OpenCL platform (the environment is
# set by ctest) and fails when Oclgrind logged anything: it reports races,
# out-of-bounds and uninitialised reads to OCLGRIND_LOG but always exits 0.
#
# OCLGRIND_CHECK_API reports misuse of the OpenCL API on stderr, not in the
# log, so the output is captured and scanned too. The one API error allowed is
# CL_BUILD_PROGRAM_FAILURE: tests provoke it on purpose, and an unexpected one
# cannot pass unnoticed since clrt returns it as CLRT_EBUILD.
file(REMOVE "${LOG}")
execute_process(COMMAND "${PROGRAM}" RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
message("${out}")
if(EXISTS "${LOG}")
  file(READ "${LOG}" report)
  if(NOT report STREQUAL "")
    string(SUBSTRING "${report}" 0 8000 head)
    message(FATAL_ERROR "Oclgrind reported problems (${LOG}):\n${head}")
  endif()
endif()
string(REGEX MATCHALL "OpenCL runtime error detected[\r\n]+[ \t]*Function:[ \t]*[A-Za-z_]+[\r\n]+[ \t]*Error:[ \t]*[A-Z_]+"
       api_errors "${out}")
foreach(e IN LISTS api_errors)
  if(NOT e MATCHES "CL_BUILD_PROGRAM_FAILURE$")
    message(FATAL_ERROR "Oclgrind found an OpenCL API error:\n${e}")
  endif()
endforeach()
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${PROGRAM} exited with ${rc}")
endif()
