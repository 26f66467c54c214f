# clrt-bench forcing OpenBLAS's best core, end to end (cmake -P; BENCH is
# clrt-bench): made to believe OpenBLAS chose Prescott, it must start itself
# again under the best core and say so in --json; with the user's
# OPENBLAS_CORETYPE=Prescott it must keep Prescott, not start again, and flag
# it as older than the CPU's best. On an x86-64 CPU with more than SSE3 and a
# DYNAMIC_ARCH OpenBLAS (Debian's).
set(args --device 0 --op matmul --sizes 64 --dtype f32 --reps 1 --min-reps 1 --min-time 0 --warmup 0
         --no-child --no-first --no-overhead --no-clblast --no-peak --no-progress --json)

function(run_bench out_var)
  execute_process(COMMAND ${CMAKE_COMMAND} -E env ${ARGN} ${BENCH} ${args}
                  OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "clrt-bench exited ${rc}:\n${err}\n${out}")
  endif()
  # the references' OpenBLAS object, one line
  if(NOT out MATCHES "\"openblas\": ({[^\n]*})")
    message(FATAL_ERROR "no OpenBLAS in the references:\n${out}")
  endif()
  set(${out_var} "${CMAKE_MATCH_1}" PARENT_SCOPE)
endfunction()

function(expect what text regex)
  if(NOT text MATCHES "${regex}")
    message(FATAL_ERROR "${what}: expected /${regex}/ in\n${text}")
  endif()
  message(STATUS "${what}: ok")
endfunction()

run_bench(forced --unset=OPENBLAS_CORETYPE CLRT_BENCH_TEST_OPENBLAS_CHOICE=Prescott)
expect("restarted under the best core" "${forced}" "\"forced\": true, \"chosen_by_openblas\": \"Prescott\"")
expect("said so" "${forced}" "\"summary\": \"core [A-Za-z0-9]+, forced: it chose Prescott on this CPU")
expect("set by clrt-bench" "${forced}" "\"coretype_set_by\": \"clrt-bench\"")
expect("no longer older" "${forced}" "\"core_older_than_cpu\": false")
if(forced MATCHES "\"core\": \"Prescott\"")
  message(FATAL_ERROR "still Prescott after the restart:\n${forced}")
endif()

run_bench(user OPENBLAS_CORETYPE=Prescott --unset=CLRT_BENCH_TEST_OPENBLAS_CHOICE)
expect("the user's core kept" "${user}" "\"core\": \"Prescott\"")
expect("not forced" "${user}" "\"forced\": false, \"chosen_by_openblas\": null")
expect("flagged as older" "${user}" "\"core_older_than_cpu\": true")
expect("set by the user" "${user}" "\"coretype_set_by\": \"user\"")
