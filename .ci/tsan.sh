#!/bin/bash
# ThreadSanitizer (clang): the threaded suites on POCL: threads sharing one
# context with their own queues and sharing one queue (device_threads), and
# the multi-threaded soak (device_stress), user kernels shared between
# threads (device_user_kernels), and 8 threads making a fresh process's first
# calls at once (device_first_calls), events and queues from 4 threads
# (device_events). Any report fails the run. tests/harness/tsan.supp is
# for races inside libpocl/LLVM only (none needed with POCL 3.1).
set -euo pipefail
source "$(dirname "$0")/common.sh"
cd "$ci_root"
ci_clang_step tsan -DCLRT_SANITIZE=thread
cmake --build "$b" -j2 --target device_threads device_stress device_user_kernels device_first_calls device_nn_conv device_events >/dev/null
export TSAN_OPTIONS="suppressions=$ci_root/tests/harness/tsan.supp halt_on_error=1 second_deadlock_stack=1 history_size=4"
export CLRT_STRESS_SECONDS=${CLRT_STRESS_SECONDS:-4}
ctest --test-dir "$b" -R '^device_(threads|stress|user_kernels|first_calls|nn_conv|events)\.pocl$' --output-on-failure
ci_timer_report "TSan threaded suites on POCL"
