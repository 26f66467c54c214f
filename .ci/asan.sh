#!/bin/bash
# AddressSanitizer + UndefinedBehaviorSanitizer: the whole suite on POCL.
# Any report fails the run: UBSan aborts (-fno-sanitize-recover), ASan halts,
# LeakSanitizer fails the test at exit. tests/harness/lsan.supp hides only leaks
# inside libpocl/LLVM; leaked clrt handles are caught by the live-handle
# counts every test asserts, which no suppression can hide.
set -euo pipefail
source "$(dirname "$0")/common.sh"
cd "$ci_root"
ci_timer_start
b=${ci_build}asan
cmake -S . -B "$b" -DCLRT_WERROR=ON -DCLRT_SANITIZE=address,undefined -DCLRT_TEST_DRIVERS=pocl \
      -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build "$b" -j2 >/dev/null
export ASAN_OPTIONS=detect_leaks=1:halt_on_error=1:strict_string_checks=1:check_initialization_order=1:detect_invalid_pointer_pairs=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
export LSAN_OPTIONS=suppressions=$ci_root/tests/harness/lsan.supp:print_suppressions=0
# POCL alone on the loader for the tests that do not choose (examples, units):
# other drivers' leaks are not ours to judge, and Mesa's Clover leaks from a
# library the loader unloads, which no suppression can name.
export OCL_ICD_VENDORS=$ci_root/$b/tests/icd/pocl
ci_ctest_sanitized "$b" -j2
ci_timer_report "ASan+UBSan suite on POCL"
