#!/bin/bash
# valgrind memcheck on the device suites (and the file and option checks that
# need no device), on POCL, at the small sizes
# (CLRT_TEST_SMALL: kernels run instrumented too). Any invalid access, use of
# uninitialised memory or definite leak fails the run. tests/harness/valgrind.supp
# holds only what is provably not ours (see the comments there).
set -euo pipefail
source "$(dirname "$0")/common.sh"
cd "$ci_root"
ci_need valgrind
ci_timer_start
b=${ci_build}valgrind
suites=(device_api device_math device_faults device_threads device_limits device_cache device_user_kernels device_events
        device_build_options unit_outfile unit_trust unit_build_options)
cmake -S . -B "$b" -DCLRT_WERROR=ON -DCLRT_TEST_DRIVERS=pocl -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build "$b" -j2 --target "${suites[@]}" >/dev/null
export OCL_ICD_VENDORS=$ci_root/$b/tests/icd/pocl CLRT_DEVICE= CLRT_TEST_REQUIRE_DEVICE=1 CLRT_TEST_SMALL=1
# One POCL worker thread, as ctest gives the CONCURRENT suites (tests/CMakeLists.txt):
# POCL 3.1 can abort when launches from several queues overlap (docs/drivers.md).
# valgrind runs one thread at a time anyway.
export POCL_MAX_PTHREAD_COUNT=1

# Under valgrind POCL sees the CPU valgrind emulates (no AVX-512), so it
# compiles every kernel again, and LLVM under memcheck takes minutes per
# kernel. valgrind's no-op tool sees the same CPU at a fraction of the cost:
# one pass with it fills POCL's kernel cache for memcheck to hit.
for s in "${suites[@]}"; do
    [ -x "$b/tests/$s" ] || continue
    valgrind --tool=none -q "$b/tests/$s" >/dev/null 2>&1 || true
done
echo "kernel cache for valgrind's CPU warmed: $(($(date +%s) - ci_t0)) s"

failed=()
for s in "${suites[@]}"; do
    [ -x "$b/tests/$s" ] || continue
    t0=$(date +%s)
    if valgrind --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite \
           --show-leak-kinds=definite --suppressions="$ci_root/tests/harness/valgrind.supp" --num-callers=40 \
           --gen-suppressions=all "$b/tests/$s" >"$b/valgrind-$s.log" 2>&1; then
        echo "memcheck $s: clean ($(($(date +%s) - t0)) s)"
    else
        echo "memcheck $s: FAILED ($(($(date +%s) - t0)) s); the report:"
        grep -vE '^\[ +(RUN|OK) ' "$b/valgrind-$s.log" | head -250
        failed+=("$s")
    fi
done
ci_timer_report "valgrind memcheck of the device suites on POCL"
((${#failed[@]} == 0)) || { echo "memcheck failed: ${failed[*]}"; exit 1; }
