# clrt_mpi's suites (included by tests/CMakeLists.txt when clrt_mpi is built):
# each program runs under mpirun on 1, 2 and 3 ranks (mpi_ops also on 4) of
# this one machine, on POCL, as mpi_<name>.np<R>. Each rank's POCL gets one thread
# (POCL_MAX_PTHREAD_COUNT=1) so that the ranks do not fight over the cores.
# Open MPI refuses root (CI runs as root) unless told, and on a machine with
# fewer cores than ranks unless oversubscribing is allowed. A rank that fails
# a check calls MPI_Abort, so nothing waits for it; TIMEOUT is the backstop
# for a hang, which the fault suite exists to show there is none of.
if(NOT "pocl" IN_LIST _drivers)
  message(STATUS "clrt_mpi tests: not registered (they run on POCL, which is not among the test drivers)")
  return()
endif()
set(_mpi_env "OCL_ICD_VENDORS=${_icd_root}/pocl" "CLRT_DEVICE=" "CLRT_TUNED=0" "CLRT_CACHE=0"
             "POCL_MAX_PTHREAD_COUNT=1" "OMPI_ALLOW_RUN_AS_ROOT=1" "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1"
             "OMPI_MCA_rmaps_base_oversubscribe=1" "OMPI_MCA_btl_vader_single_copy_mechanism=none")
# Under AddressSanitizer (.ci/asan.sh) the MPI programs run without leak
# detection: Open MPI leaks at MPI_Finalize, mostly from components it has
# already unloaded (no library name left for a suppression to match). ASan's
# checks of every access and UBSan stay on.
if(CLRT_SANITIZE MATCHES "address")
  list(APPEND _mpi_env "ASAN_OPTIONS=detect_leaks=0:halt_on_error=1:strict_string_checks=1:detect_invalid_pointer_pairs=1")
endif()
set(_mpi_ops_ranks 1 2 3 4)
set(_mpi_faults_ranks 1 2 3)
foreach(name mpi_ops mpi_faults)
  add_executable(${name} ${name}.c)
  target_link_libraries(${name} PRIVATE clrt_mpi m)
  clrt_warnings(${name})
  foreach(np IN LISTS _${name}_ranks)
    add_test(NAME ${name}.np${np}
             COMMAND ${MPIEXEC_EXECUTABLE} ${MPIEXEC_NUMPROC_FLAG} ${np} --bind-to none ${MPIEXEC_PREFLAGS}
                     $<TARGET_FILE:${name}> ${MPIEXEC_POSTFLAGS})
    set_tests_properties(${name}.np${np} PROPERTIES LABELS "mpi;pocl" ENVIRONMENT "${_mpi_env}" TIMEOUT 120)
  endforeach()
endforeach()

# Data-parallel clrt-train (tools/train_mpi.c) on 2 and 3 ranks against
# clrt-train in one process, at the same global batch and seed: the same
# losses and accuracy within rounding. 97 images in batches of 8: the last
# mini-batch has one image, so on 2 and 3 ranks some ranks have none.
if(TARGET clrt-train-mpi AND EXISTS "${CLRT_TRAIN_DATA}")
  find_package(Python3 COMPONENTS Interpreter)
  if(Python3_FOUND)
    foreach(np 2 3)
      add_test(NAME train_mpi.np${np}
               COMMAND Python3::Interpreter ${CMAKE_CURRENT_SOURCE_DIR}/train_mpi_check.py
                       ${CMAKE_CURRENT_BINARY_DIR}/train_mpi.np${np} $<TARGET_FILE:clrt-train>
                       $<TARGET_FILE:clrt-train-mpi> ${np} ${MPIEXEC_EXECUTABLE} --bind-to none --
                       --data ${CLRT_TRAIN_DATA} --no-progress --limit 97 --test-limit 256 --epochs 2
                       --batch 8 --print-every 3 --seed 3)
      set_tests_properties(train_mpi.np${np} PROPERTIES LABELS "mpi;pocl;train" ENVIRONMENT "${_mpi_env}"
                                                        TIMEOUT 300)
    endforeach()
    # rank 1 without its device: both ranks stop with the reason, no hang
    add_test(NAME train_mpi_fault
             COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/train_mpi_fault.sh ${MPIEXEC_EXECUTABLE}
                     $<TARGET_FILE:clrt-train-mpi> --data ${CLRT_TRAIN_DATA} --no-progress --limit 16 --epochs 1)
    set_tests_properties(train_mpi_fault PROPERTIES LABELS "mpi;pocl;train" ENVIRONMENT "${_mpi_env}" TIMEOUT 120)
  endif()
endif()
