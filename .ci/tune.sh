#!/bin/bash
# The autotuner end to end on the default device (POCL here), small and
# short: one pass over every axis for add and the fp32 matmul, each
# candidate built, run at shapes that take every kernel path (B packed
# included) and compared with the host before it is timed. Fails when a
# candidate computed a wrong result (a kernel bug, whatever the parameters),
# when the defaults failed or nothing beyond them was tried, when a
# candidate's program reached the program cache on disk, and when a tuned
# entry that was written is not what a new process then runs with.
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
# Every check reads clrt-bench's --json report (tools/bench/report/print_json.c),
# never the table's wording.
json_get() { # json_get FILE PYTHON-EXPRESSION-OVER-r: prints its value
    python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$1" "$2"
}
for op in add matmul; do
    out=$dir/tune-$op.json
    CLRT_CACHE_DIR=$dir "$b/tools/clrt-bench" --tune --tune-only --op "$op" --dtype f32 --tune-size 64 \
        --tune-passes 1 --no-progress --json >"$out" || { cat "$out"; fail "clrt-bench --tune --op $op failed"; }
    line="[t for t in r['tuning'] if t['op'] == '$op' and t['dtype'] == 'f32']"
    [ "$(json_get "$out" "len($line)")" = 1 ] || { cat "$out"; fail "no $op tuning line"; }
    json_get "$out" "'$op f32: %(tried)d tried, %(rejected)d rejected (%(wrong)d wrong), ' \
        '%(speedup).3fx over the defaults; %(params_default)s -> %(params_tuned)s; %(note)s' % $line[0]"
    [ "$(json_get "$out" "$line[0]['ok']")" = True ] || fail "the $op defaults failed"
    [ "$(json_get "$out" "$line[0]['wrong']")" = 0 ] || fail "a $op candidate computed a wrong result"
    [ "$(json_get "$out" "$line[0]['tried'] >= 2")" = True ] || fail "the $op tuner tried nothing beyond the defaults"
done
# the candidates' programs are built once and thrown away: none may reach
# the program cache on disk (on POCL each stored binary costs a build of its own)
stored=0
[ -d "$dir/programs" ] && stored=$(find "$dir/programs" -type f | wc -l)
[ "$stored" = 0 ] || fail "the tuner stored $stored program binaries in the program cache"
# what was written, a new process must run with
file=$(ls "$dir"/tuned/*.tuned 2>/dev/null) || fail "the tuner wrote no file"
for op in add matmul; do
    kernel=$op
    [ "$op" = add ] && kernel=elementwise # --op add times (and tunes) the elementwise kernel
    line=$(grep "^$kernel float32 " "$file" || true)
    [ -n "$line" ] || { echo "$op f32: the defaults stayed (nothing won by 3%), nothing to read back"; continue; }
    want=${line#"$kernel float32 "}
    run=$dir/run-$op.json
    CLRT_CACHE_DIR=$dir "$b/tools/clrt-bench" --op "$op" --dtype f32 --sizes 64 --add-sizes 1000 --quick \
        --no-child --no-first --no-overhead --no-default --no-openblas --no-clblast --no-host --no-progress \
        --json >"$run" || { cat "$run"; fail "clrt-bench with the tuned $op parameters failed"; }
    got=$(json_get "$run" "[c['params'] for c in r['results'] if c['op'] == '$op' and c['tuned']][0:1]")
    [ "$got" = "['$want']" ] || fail "$op f32 written as '$want' but a new process ran with: $got"
    echo "$op f32: a new process runs with the tuned $want"
done
ci_timer_report "autotuner (one pass, add and fp32 matmul)"
