# Shared by the .ci/ reliability steps (sourced): the repository root, build
# folder names, packages a step needs beyond tools/setup-debian.sh, timing,
# the configure of the steps built with clang.
ci_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# Build folders are <prefix><step>; CLRT_CI_BUILD_PREFIX keeps local runs
# apart from other builds in the same tree.
ci_build=${CLRT_CI_BUILD_PREFIX:-build-}

# ci_need <debian package>...: install what is missing (as root, or via sudo).
ci_need() {
    local missing=() p sudo=
    for p in "$@"; do
        dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
    done
    ((${#missing[@]})) || return 0
    [ "$(id -u)" -eq 0 ] || sudo=sudo
    echo "installing ${missing[*]}"
    $sudo apt-get update -qq
    $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}

# Every step reports its own duration, so that CI time stays visible.
ci_timer_start() { ci_t0=$(date +%s); }
ci_timer_report() { echo "== $1 took $(($(date +%s) - ci_t0)) s"; }

# ci_clang_step <step> <cmake option>...: the start of a step built with clang
# (TSan, libFuzzer): clang and its sanitizer runtimes installed if missing, the
# step's timer started (after the install: apt is not the step's time), and
# b=${ci_build}<step> configured on POCL, RelWithDebInfo, warnings as errors,
# with the step's own options.
ci_clang_step() {
    local step=$1
    shift
    ci_need clang libclang-rt-14-dev
    ci_timer_start
    b=${ci_build}$step
    CC=clang cmake -S . -B "$b" -DCLRT_WERROR=ON -DCLRT_TEST_DRIVERS=pocl -DCMAKE_BUILD_TYPE=RelWithDebInfo \
        "$@" >/dev/null
}

# ci_ctest_sanitized <build folder> [ctest args]: ctest under a sanitizer.
# LeakSanitizer's own tracer sometimes crashes at exit ("Tracer caught signal
# 11 ... LeakSanitizer has encountered a fatal error"), in about 1 run in 20 of
# device_user_kernels.pocl on this 2-core machine under load, with the tests
# of before and after 2026-12-02 alike. Such a test, and only such a one, runs
# once more; any other failure, or a second crash, fails the step.
ci_ctest_sanitized() {
    local b=$1 name crashed=()
    shift
    ctest --test-dir "$b" --output-on-failure "$@" && return 0
    local log=$b/Testing/Temporary/LastTest.log failed=$b/Testing/Temporary/LastTestsFailed.log
    [ -f "$failed" ] || return 1
    while IFS=: read -r _ name; do
        # the test's part of the log: from its "n/m Test: <name>" line to its verdict
        awk -v t="$name" '/^[0-9]+\/[0-9]+ Test: / { on = substr($0, index($0, "Test: ") + 6) == t }
                          on && /^Test (Passed|Failed)/ { exit } on' "$log" |
            grep -q "LeakSanitizer has encountered a fatal error" || return 1
        crashed+=("$(printf '%s' "$name" | sed 's/[][\.+*?()|^$]/\\&/g')")
    done <"$failed"
    echo "== LeakSanitizer's tracer crashed (not a test failure) in: ${crashed[*]}; running those once more"
    ctest --test-dir "$b" --output-on-failure -R "^($(IFS='|'; echo "${crashed[*]}"))\$"
}
