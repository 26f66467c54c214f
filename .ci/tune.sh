#!/bin/bash
# The autotuner end to end on the default device (POCL here), small and
# short: one pass over every axis for add and the fp32 matmul, each
# candidate built, run at shapes that take every kernel path (B packed
# included) and compared with the host before it is timed. Fails when a
# candidate computed a wrong result (a kernel bug, whatever the parameters),
# when the defaults failed or nothing beyond them was tried, and when a
# tuned entry that was written is not what a new process then runs with.
# Usage: .ci/tune.sh [build folder, default build]
set -euo pipefail
source "$(dirname "$0")/common.sh"
cd "$ci_root"
ci_timer_start
b=${1:-build}
unset CLRT_TUNED_FILE CLRT_TUNED CLRT_CACHE # this run's own file, read the usual way
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() {
    echo "tune.sh: $*" >&2
    exit 1
}
for op in add matmul; do
    out=$dir/tune-$op.txt
    CLRT_CACHE_DIR=$dir "$b/tools/clrt-bench" --tune --tune-only --op "$op" --dtype f32 --tune-size 64 \
        --tune-passes 1 --no-progress >"$out" || { cat "$out"; fail "clrt-bench --tune --op $op failed"; }
    sed -n '/^tuning$/,/^targets/p' "$out" | sed '$d'
    grep -q "for a wrong result)" "$out" || fail "no $op tuning line"
    grep -q " 0 for a wrong result)" "$out" || fail "a $op candidate computed a wrong result"
    ! grep -q "the default parameters failed" "$out" || fail "the $op defaults failed"
    grep -Eq "after ([2-9]|[1-9][0-9]+) candidates" "$out" || fail "the $op tuner tried nothing beyond the defaults"
done
# what was written, a new process must run with
file=$(ls "$dir"/tuned/*.tuned 2>/dev/null) || fail "the tuner wrote no file"
for op in add matmul; do
    word=$op kernel=$op
    [ "$op" = add ] && word="add   " kernel=elementwise # --op add times (and tunes) the elementwise kernel
    line=$(grep "^$kernel float32 " "$file" || true)
    [ -n "$line" ] || { echo "$op f32: the defaults stayed (nothing won by 3%), nothing to read back"; continue; }
    want=${line#"$kernel float32 "}
    run=$dir/run-$op.txt
    CLRT_CACHE_DIR=$dir "$b/tools/clrt-bench" --op "$op" --dtype f32 --sizes 64 --add-sizes 1000 --quick \
        --no-child --no-first --no-overhead --no-default --no-openblas --no-clblast --no-host --no-progress \
        >"$run" || { cat "$run"; fail "clrt-bench with the tuned $op parameters failed"; }
    got=$(grep "$word f32: tuned parameters" "$run" || true)
    [ "${got#*tuned parameters }" = "$want" ] ||
        fail "$op f32 written as '$want' but a new process ran with: ${got:-the defaults}"
    echo "$op f32: a new process runs with the tuned $want"
done
ci_timer_report "autotuner (one pass, add and fp32 matmul)"
