# Reliability suites: fault injection, the bad-input catalogue's
# extra platforms, stress, GPU-like limits, the Oclgrind self-test and the
# fuzz corpus replay. Included from tests/CMakeLists.txt, so clrt_device_test,
# clrt_test_program and the driver list (_drivers, _icd_root) are in scope.

# Injected OpenCL failures: named statuses, no leaks, failed contexts stay failed.
clrt_test_program(device_faults)
clrt_device_test(device_faults)

# The Oclgrind harness must catch each kind of kernel bug it is there for: a
# broken kernel per kind, and the harness's report expected in the output.
if("oclgrind" IN_LIST _drivers)
  add_executable(oclgrind_selftest oclgrind_selftest.c)
  target_link_libraries(oclgrind_selftest PRIVATE OpenCL::OpenCL)
  clrt_warnings(oclgrind_selftest)
  foreach(bug race uninit oob api)
    set(log "${CMAKE_CURRENT_BINARY_DIR}/oclgrind-selftest-${bug}.log")
    add_test(NAME oclgrind_selftest.${bug}
             COMMAND ${CMAKE_COMMAND} -DLOG=${log} -DPROGRAM=$<TARGET_FILE:oclgrind_selftest>
                     -P ${CMAKE_CURRENT_SOURCE_DIR}/run_oclgrind.cmake)
    set_tests_properties(oclgrind_selftest.${bug} PROPERTIES LABELS "device;oclgrind" TIMEOUT 120
      ENVIRONMENT "CLRT_SELFTEST_BUG=${bug};OCL_ICD_VENDORS=${_icd_root}/oclgrind;OCLGRIND_DATA_RACES=1;OCLGRIND_UNINITIALIZED=1;OCLGRIND_CHECK_API=1;OCLGRIND_LOG=${log}")
  endforeach()
  set_tests_properties(oclgrind_selftest.race PROPERTIES
    PASS_REGULAR_EXPRESSION "Oclgrind reported problems.*data race")
  set_tests_properties(oclgrind_selftest.uninit PROPERTIES
    PASS_REGULAR_EXPRESSION "Oclgrind reported problems.*Uninitialized value")
  set_tests_properties(oclgrind_selftest.oob PROPERTIES
    PASS_REGULAR_EXPRESSION "Oclgrind reported problems.*Invalid write")
  set_tests_properties(oclgrind_selftest.api PROPERTIES
    PASS_REGULAR_EXPRESSION "Oclgrind found an OpenCL API error:.*Function: clEnqueueNDRangeKernel")
endif()

# A platform without devices (rusticl with RUSTICL_ENABLE empty) alone, and
# next to POCL: skipped, not an error, still counted in "P:D".
if(CLRT_RUSTICL_ICD)
  clrt_test_program(platforms)
  file(MAKE_DIRECTORY "${_icd_root}/empty" "${_icd_root}/empty+pocl")
  configure_file("${CLRT_RUSTICL_ICD}" "${_icd_root}/empty/rusticl.icd" COPYONLY)
  configure_file("${CLRT_RUSTICL_ICD}" "${_icd_root}/empty+pocl/rusticl.icd" COPYONLY)
  set(_platform_runs empty)
  if(CLRT_POCL_ICD)
    configure_file("${CLRT_POCL_ICD}" "${_icd_root}/empty+pocl/pocl.icd" COPYONLY)
    list(APPEND _platform_runs empty+pocl)
  endif()
  foreach(run IN LISTS _platform_runs)
    add_test(NAME platforms.${run} COMMAND platforms)
    set_tests_properties(platforms.${run} PROPERTIES LABELS unit TIMEOUT 120 ENVIRONMENT
      "OCL_ICD_VENDORS=${_icd_root}/${run};RUSTICL_ENABLE=;CLRT_DEVICE=;CLRT_TEST_EXPECT_EMPTY_PLATFORM=1")
  endforeach()
endif()

# Bounded soak from several threads ($CLRT_STRESS_SECONDS, default 2 s).
# Not on Oclgrind: it aborts when kernels come from two threads at once.
clrt_test_program(device_stress)
clrt_device_test(device_stress CONCURRENT NOT_ON oclgrind)

# Fuzz targets (tests/fuzz): in every build, replayed once over the kept
# corpus, so each finding stays a regression test; with CLRT_FUZZ=ON (clang)
# also built as libFuzzer programs (tests/fuzz/CMakeLists.txt).
foreach(t selector api)
  add_executable(fuzz_${t}_replay fuzz/fuzz_${t}.c fuzz/replay_main.c)
  target_include_directories(fuzz_${t}_replay PRIVATE ${PROJECT_SOURCE_DIR}/src)
  target_compile_definitions(fuzz_${t}_replay PRIVATE CL_TARGET_OPENCL_VERSION=120)
  target_link_libraries(fuzz_${t}_replay PRIVATE clrt_static)
  clrt_warnings(fuzz_${t}_replay)
endforeach()
add_test(NAME fuzz_selector.replay
         COMMAND fuzz_selector_replay ${CMAKE_CURRENT_SOURCE_DIR}/fuzz/corpus/selector)
set_tests_properties(fuzz_selector.replay PROPERTIES LABELS unit)
# The API corpus also runs real calls: on POCL, with the other device suites
# (and, like them, without the user's tuned parameters or program cache:
# CLRT_TUNED=0, CLRT_CACHE=0, see clrt_device_test).
if("pocl" IN_LIST _drivers)
  add_test(NAME fuzz_api.replay.pocl COMMAND fuzz_api_replay ${CMAKE_CURRENT_SOURCE_DIR}/fuzz/corpus/api)
  set_tests_properties(fuzz_api.replay.pocl PROPERTIES LABELS "device;pocl" TIMEOUT 600
    ENVIRONMENT "OCL_ICD_VENDORS=${_icd_root}/pocl;CLRT_DEVICE=;CLRT_TUNED=0;CLRT_CACHE=0")
endif()
add_test(NAME fuzz_api.replay.no_device COMMAND fuzz_api_replay ${CMAKE_CURRENT_SOURCE_DIR}/fuzz/corpus/api)
set_tests_properties(fuzz_api.replay.no_device PROPERTIES LABELS unit
  ENVIRONMENT "OCL_ICD_VENDORS=${_icd_root}/none")
if(CLRT_FUZZ)
  add_subdirectory(fuzz)
endif()

# Limits queried at run time: oversized work-groups and local tiles fitted
# down, device memory exhaustion is CLRT_ENOMEM (where the driver refuses).
clrt_test_program(device_limits)
clrt_device_test(device_limits)

# POCL made GPU-like: at most 256 work-items per group (GPUs: 256 to 1024)
# and 1 GiB of device memory. The API, math and limits suites again, with the
# environment of the other device runs (no tuned parameters, no program cache).
# POCL_MEMORY_LIMIT only lowers the memory POCL reports: it still accepts more
# (device_limits' device_memory_exhaustion says what it can check there).
if("pocl" IN_LIST _drivers)
  foreach(t device_api device_math device_limits)
    add_test(NAME ${t}.pocl-limits COMMAND ${t})
    set_tests_properties(${t}.pocl-limits PROPERTIES LABELS "device;pocl;limits" TIMEOUT 1500
      SKIP_RETURN_CODE 77 ENVIRONMENT
      "OCL_ICD_VENDORS=${_icd_root}/pocl;CLRT_DEVICE=;CLRT_TUNED=0;CLRT_CACHE=0;CLRT_TEST_REQUIRE_DEVICE=1;POCL_MAX_WORK_GROUP_SIZE=256;POCL_MEMORY_LIMIT=1;CLRT_TEST_EXPECT_MAX_WG=256;CLRT_TEST_EXPECT_MAX_GLOBAL_MEM=1073741824;CLRT_TEST_MEMORY_EXHAUSTION=1")
  endforeach()
endif()
