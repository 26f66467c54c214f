# clrt-train runs checked by ctest (tests/CMakeLists.txt). -DMODE=:
#   resume    a run stopped (--stop-after, --save) and resumed (--resume)
#             prints the same losses, test accuracy and final state file as
#             the uninterrupted run; a resume with other settings is
#             refused (exit 2) and writes nothing
#   accuracy  a bounded run on real data reaches -DTHRESHOLD percent
#   drivers   the same run on -DICD_A and -DICD_B (OCL_ICD_VENDORS folders)
#             gives the same loss curve within -DLOSS_TOL (thousandths)
#   profile   --profile changes no line of stdout but the total time, nor the accuracy, prints its
#             table (every part, on stderr, after the contract's lines) and
#             puts it in --json; --predict --json has images_per_s
# -DTRAIN= the program, -DWORK= a scratch folder, -DARGS= the run's options
# (a ;-list).
cmake_minimum_required(VERSION 3.16)
file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${WORK}")

# run(<name> <expected exit> <options...>): stdout in ${name}_out
function(run name expect)
  execute_process(COMMAND ${TRAIN} ${ARGN} WORKING_DIRECTORY "${WORK}"
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  message("-- clrt-train ${ARGN}\n${out}${err}")
  if(NOT rc STREQUAL "${expect}")
    message(FATAL_ERROR "clrt-train ${ARGN}: exit ${rc}, expected ${expect}")
  endif()
  set(${name}_out "${out}" PARENT_SCOPE)
  set(${name}_err "${err}" PARENT_SCOPE)
endfunction()

# expect_match(<text> <regex> <complaint>): fail with "<complaint>:" and the
# text unless the text matches; the match's first group (CMAKE_MATCH_1) goes
# to the caller.
function(expect_match text regex complaint)
  if(NOT text MATCHES "${regex}")
    message(FATAL_ERROR "${complaint}:\n${text}")
  endif()
  set(CMAKE_MATCH_1 "${CMAKE_MATCH_1}" PARENT_SCOPE)
endfunction()

function(loss_lines out var)
  string(REGEX MATCHALL "\\[[0-9]+, +[0-9]+\\] loss: [0-9.]+" lines "${out}")
  set(${var} "${lines}" PARENT_SCOPE)
endfunction()

# The test accuracy of a finished run's stdout, which ends with these lines.
function(accuracy out var)
  expect_match("${out}" "Finished Training\ntest accuracy: ([0-9.]+)% \\(([0-9]+)/([0-9]+)\\)\ntotal time: [0-9]+\\.[0-9] s\n$"
               "no 'Finished Training', 'test accuracy' and 'total time' lines at the end of")
  set(${var} "${CMAKE_MATCH_1}" PARENT_SCOPE)
endfunction()

# stdout without its 'total time' line: what two runs of one seed share.
function(without_time out var)
  string(REGEX REPLACE "total time: [0-9.]+ s\n" "" out "${out}")
  set(${var} "${out}" PARENT_SCOPE)
endfunction()

if(MODE STREQUAL "resume")
  run(whole 0 ${ARGS} --save whole.state)
  # stopped mid-epoch (2nd epoch), then resumed to the end
  run(part1 0 ${ARGS} --stop-after ${STOP_MID} --save part.state)
  run(part2 0 ${ARGS} --resume part.state --save part_end.state)
  # stopped exactly at an epoch's end
  run(edge1 0 ${ARGS} --stop-after ${STOP_EDGE} --save edge.state)
  run(edge2 0 ${ARGS} --resume edge.state --save edge_end.state)
  loss_lines("${whole_out}" w)
  loss_lines("${part1_out}${part2_out}" p)
  loss_lines("${edge1_out}${edge2_out}" e)
  list(LENGTH w nw)
  if(nw LESS 4)
    message(FATAL_ERROR "too few loss lines (${nw}) to compare: make the run longer")
  endif()
  if(NOT w STREQUAL p OR NOT w STREQUAL e)
    message(FATAL_ERROR "resumed losses differ:\nwhole:   ${w}\nmid:     ${p}\nat edge: ${e}")
  endif()
  accuracy("${whole_out}" aw)
  accuracy("${part2_out}" ap)
  accuracy("${edge2_out}" ae)
  if(NOT aw STREQUAL ap OR NOT aw STREQUAL ae)
    message(FATAL_ERROR "resumed test accuracy differs: ${aw}, ${ap}, ${ae}")
  endif()
  foreach(f part_end edge_end)
    execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files "${WORK}/whole.state" "${WORK}/${f}.state"
                    RESULT_VARIABLE same)
    if(NOT same EQUAL 0)
      message(FATAL_ERROR "${f}.state (weights, momentum, position) differs from the uninterrupted run's")
    endif()
  endforeach()
  # other settings than the saved run's: refused, and the file kept
  file(READ "${WORK}/part.state" before HEX)
  run(other 2 ${ARGS} --batch 5 --resume part.state --save part.state)
  expect_match("${other_err}" "part.state: saved with --batch" "the refusal does not name the file and the setting")
  file(READ "${WORK}/part.state" after HEX)
  if(NOT before STREQUAL after)
    message(FATAL_ERROR "a refused --resume wrote over part.state")
  endif()
  # --predict with the saved weights gives the trained run's accuracy
  run(pred 0 --predict whole.state ${PREDICT_ARGS})
  expect_match("${pred_out}" "test accuracy: ${aw}%" "--predict does not give the run's test accuracy, ${aw}%")
elseif(MODE STREQUAL "accuracy")
  run(acc 0 ${ARGS} --json run.json)
  accuracy("${acc_out}" a)
  file(READ "${WORK}/run.json" json)
  foreach(key device epochs batch losses test_accuracy images_per_s)
    expect_match("${json}" "\"${key}\": " "run.json lacks \"${key}\"")
  endforeach()
  if(NOT a GREATER "${THRESHOLD}")
    message(FATAL_ERROR "test accuracy ${a}% is not above ${THRESHOLD}%")
  endif()
  message("test accuracy ${a}% > ${THRESHOLD}%")
elseif(MODE STREQUAL "drivers")
  set(ENV{OCL_ICD_VENDORS} "${ICD_A}")
  run(a 0 ${ARGS})
  set(ENV{OCL_ICD_VENDORS} "${ICD_B}")
  set(ENV{RUSTICL_ENABLE} "llvmpipe")
  run(b 0 ${ARGS})
  loss_lines("${a_out}" la)
  loss_lines("${b_out}" lb)
  list(LENGTH la na)
  list(LENGTH lb nb)
  if(NOT na EQUAL nb OR na LESS 4)
    message(FATAL_ERROR "loss lines: ${na} and ${nb}")
  endif()
  math(EXPR last "${na} - 1")
  foreach(i RANGE ${last})
    list(GET la ${i} x)
    list(GET lb ${i} y)
    string(REGEX REPLACE ".*loss: ([0-9]+)\\.([0-9]+)$" "\\1\\2" x "${x}")
    string(REGEX REPLACE ".*loss: ([0-9]+)\\.([0-9]+)$" "\\1\\2" y "${y}")
    string(REGEX REPLACE "^0+([0-9])" "\\1" x "${x}")
    string(REGEX REPLACE "^0+([0-9])" "\\1" y "${y}")
    math(EXPR d "${x} - ${y}")
    if(d LESS 0)
      math(EXPR d "-${d}")
    endif()
    if(d GREATER ${LOSS_TOL})
      message(FATAL_ERROR "loss line ${i}: ${x} vs ${y} thousandths, more than ${LOSS_TOL} apart")
    endif()
  endforeach()
elseif(MODE STREQUAL "profile")
  run(plain 0 ${ARGS} --save plain.state)
  run(prof 0 ${ARGS} --profile-every 3 --json prof.json)
  loss_lines("${plain_out}" lp)
  loss_lines("${prof_out}" lq)
  list(LENGTH lp np)
  if(np LESS 4)
    message(FATAL_ERROR "too few loss lines (${np}) to compare: make the run longer")
  endif()
  if(NOT lp STREQUAL lq)
    message(FATAL_ERROR "--profile changed the losses:\nwithout: ${lp}\nwith:    ${lq}")
  endif()
  accuracy("${plain_out}" ap)
  accuracy("${prof_out}" aq)
  if(NOT ap STREQUAL aq)
    message(FATAL_ERROR "--profile changed the test accuracy: ${ap}, ${aq}")
  endif()
  without_time("${plain_out}" plain_same)
  without_time("${prof_out}" prof_same)
  if(NOT plain_same STREQUAL prof_same)
    message(FATAL_ERROR "--profile changed stdout:\n${plain_out}\n---\n${prof_out}")
  endif()
  # every part, with a number in ms and a share in %
  foreach(part "conv1" "relu/pool1" "conv2" "relu/pool2" "fc1" "relu" "fc2" "loss" "optimizer \\(SGD\\)"
               "host: views, bookkeeping" "host: shuffle \\+ upload" "step")
    expect_match("${prof_err}" "\n${part} +[0-9. ]+ +[0-9.]+%\n" "no '${part}' row in --profile's table")
  endforeach()
  expect_match("${prof_err}" "profile: ([0-9]+) mini-batch\\(es\\) of 4 images sampled \\(1 in 3\\)"
               "no or another heading in --profile's table")
  # steps 1, 4, 7, ... of the run (0-based): a third of them
  if(NOT CMAKE_MATCH_1 EQUAL "${SAMPLES}")
    message(FATAL_ERROR "--profile sampled ${CMAKE_MATCH_1} mini-batches, expected ${SAMPLES}")
  endif()
  file(READ "${WORK}/prof.json" json)
  foreach(key "\"profile\": {\"every\": 3, \"samples\": ${SAMPLES}, \"step_ms\": [0-9]"
              "\"name\": \"conv2\", \"forward_ms\": [0-9.e-]+, \"backward_ms\": [0-9.e-]+, \"ms\": [0-9]"
              "\"name\": \"optimizer \\(SGD\\)\", \"forward_ms\": null, \"backward_ms\": null, \"ms\": [0-9]")
    expect_match("${json}" "${key}" "prof.json lacks ${key}")
  endforeach()
  # --predict: images/s on stderr and in --json, the run's accuracy
  run(pred 0 --predict plain.state ${PREDICT_ARGS} --json pred.json)
  expect_match("${pred_out}" "test accuracy: ${ap}%" "--predict does not give the run's test accuracy, ${ap}%")
  expect_match("${pred_err}" "classified ([0-9]+) images in [0-9.]+ s: [0-9]+ images/s"
               "--predict printed no images/s")
  file(READ "${WORK}/pred.json" pjson)
  expect_match("${pjson}" "\"count\": ${CMAKE_MATCH_1}, " "pred.json lacks the count, ${CMAKE_MATCH_1}")
  expect_match("${pjson}" "\"images_per_s\": [0-9]" "pred.json lacks images_per_s")
else()
  message(FATAL_ERROR "MODE must be resume, accuracy, drivers or profile")
endif()
