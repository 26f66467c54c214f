#!/bin/bash
# The autotuner end to end on the default device (POCL here), small and
# short: one pass over every axis for add and the fp32 matmul, each
# candidate built, run at shapes that take every kernel path (B packed
# included) and compared with the host before it is timed. Fails on a
# candidate that computed a wrong result (that is a kernel bug, whatever the
# parameters), on a tuner that tried nothing, and when a tuned entry that was
# written is not what a new process then runs with.
# Usage: .ci/tune.sh [build folder, default build]
set -euo pipefail
source "$(dirname "$0")/common.sh"
cd "$ci_root"
ci_timer_start
b=${1:-build}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
for op in add matmul; do
    out=$dir/tune-$op.txt
    CLRT_CACHE_DIR=$dir "$b/tools/clrt-bench" --tune --tune-only --op "$op" --dtype f32 --tune-size 64 \
        --tune-passes 1 --no-progress >"$out"
    sed -n '/^tuning$/,/^targets/p' "$out" | sed '$d'
    if grep -q "WRONG RESULT" "$out"; then
        echo "tune.sh: a $op candidate computed a wrong result" >&2
        exit 1
    fi
    if ! grep -Eq "after [1-9][0-9]* candidates" "$out"; then
        echo "tune.sh: the $op tuner tried no candidate" >&2
        exit 1
    fi
done
# what was written, a new process must run with
file=$(ls "$dir"/tuned/*.tuned)
for op in add matmul; do
    word=$op
    [ "$op" = add ] && word="add   "
    line=$(grep "^$op float32 " "$file" || true)
    [ -n "$line" ] || { echo "$op f32: the defaults stayed (nothing won by 3%), nothing to read back"; continue; }
    want=${line#"$op float32 "}
    got=$(CLRT_CACHE_DIR=$dir "$b/tools/clrt-bench" --op "$op" --dtype f32 --sizes 64 --add-sizes 1000 --quick \
        --no-child --no-first --no-overhead --no-default --no-openblas --no-clblast --no-host --no-progress |
        grep "$word f32: tuned parameters" || true)
    if [ "${got#*tuned parameters }" != "$want" ]; then
        echo "tune.sh: $op f32 written as '$want' but a new process ran with: ${got:-the defaults}" >&2
        exit 1
    fi
    echo "$op f32: a new process runs with the tuned $want"
done
ci_timer_report "autotuner (one pass, add and fp32 matmul)"
