#!/bin/sh
# Training images/s of clrt-train and of the same network in PyTorch
# (train/torch_reference.py), side by side in one run: for each batch size, they
# alternate REPS times and each one's median is printed with clrt-train's ratio
# to it. PyTorch twice where both are there: Debian's (python3-torch, through
# /usr/bin/python3) and the current one from pip in a venv (docs/train.md,
# "Measured": python3 -m venv ~/.local/share/clrt-torch &&
# ~/.local/share/clrt-torch/bin/pip install torch numpy); one without torch
# is skipped, with a line that says so.
#   tools/train/compare.sh [BUILD_DIR] [REPS]      (default build, 3)
# The images: the first N training images of Fashion-MNIST, one epoch, for
# each BATCH:N in $SIZES (default 4:4000 64:8192 256:8192).
# Then a row "infer": images/s classifying the whole test set (10,000
# images) in batches of 256, clrt-train --predict (weights from a short run)
# against train/torch_reference.py's "inference images/s" (no grad), medians of REPS.
# Which Pythons: $PYTHONS (a list), else $PYTHON alone, else
# /usr/bin/python3 and $TORCH_VENV/bin/python (default ~/.local/share/clrt-torch).
# First each PyTorch says what it is and what it runs with (version, where,
# who installed it, threads, BLAS, the OpenBLAS cores in the process).
# PyTorch runs with $TORCH_THREADS threads (default 2) and
# OPENBLAS_NUM_THREADS=1 (without it OpenBLAS's threads fight torch's), and
# OpenBLAS (Debian's torch computes with the system's) on its best core for
# this CPU: unless OPENBLAS_CORETYPE is set, the one clrt-bench --openblas-core
# names, since OpenBLAS falls back to an old core on a CPU it does not know
# (Prescott, a fifth of its speed, on recent Intel Xeons). clrt-train on its
# default device. On a machine other jobs load, 2 threads of PyTorch can run
# several times slower than 1: try TORCH_THREADS=1 too.
set -eu
build=${1:-build}
reps=${2:-3}
here=$(dirname "$0")
threads=${TORCH_THREADS:-2}
venv=${TORCH_VENV:-$HOME/.local/share/clrt-torch}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
median() { sort -n | awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}'; }

# OpenBLAS's best core, for the PyTorch runs only (clrt-train has no
# OpenBLAS); clrt-bench prints "BEST RUNNING", split into $1 $2
# shellcheck disable=SC2046
if [ -z "${OPENBLAS_CORETYPE:-}" ] && [ -x "$build/tools/clrt-bench" ] &&
    set -- $("$build/tools/clrt-bench" --openblas-core 2>/dev/null) && [ $# -eq 2 ] && [ "$1" != - ]; then
    if [ "$1" = "$2" ]; then
        echo "OpenBLAS: core $1 for PyTorch, its own choice and the best for this CPU (clrt-bench --openblas-core)"
    else
        echo "OpenBLAS: core $1 for PyTorch, forced with OPENBLAS_CORETYPE: it chose $2 on this CPU"
        export OPENBLAS_CORETYPE="$1"
    fi
elif [ -n "${OPENBLAS_CORETYPE:-}" ]; then
    echo "OpenBLAS: OPENBLAS_CORETYPE=$OPENBLAS_CORETYPE, as set by the caller"
else
    echo "OpenBLAS: its own choice of core (no $build/tools/clrt-bench with OpenBLAS to name the best)"
fi

# The PyTorches there are: their Pythons in $tmp/pys, one a line, each saying
# what it is.
for py in ${PYTHONS:-${PYTHON:-/usr/bin/python3 $venv/bin/python}}; do
    if [ -x "$py" ] && OPENBLAS_NUM_THREADS=1 "$py" "$here/torch_reference.py" --about --threads "$threads" \
        >"$tmp/about" 2>&1; then
        echo "$py" >>"$tmp/pys"
        echo "PyTorch $(wc -l <"$tmp/pys" | tr -d ' '): $py"
        sed 's/^/  /' "$tmp/about"
    else
        echo "skipped $py: no PyTorch there ($(tail -n 1 "$tmp/about" 2>/dev/null || echo 'not found'))"
    fi
done
if [ ! -s "$tmp/pys" ]; then
    echo "compare.sh: no PyTorch to compare with (docs/train.md says how to install one)" >&2
    exit 1
fi
npy=$(wc -l <"$tmp/pys" | tr -d ' ')

# Where clrt-train's kernels come from in these runs, since each run's
# builds count in its images/s: one mini-batch at batch 256 with CLRT_LOG=1
# (after one without, so that any first compile is out of the way), its
# builds from clrt's program cache (filled by clrt-info --warm) and from
# source (POCL preprocesses each to find it in its own cache, about 25 ms a
# program when it is there), with their seconds.
one_batch() {
    "$build/tools/clrt-train" --limit 256 --epochs 1 --batch 256 --print-every 1000000 --test-limit 1 --no-progress
}
one_batch >/dev/null 2>&1 || true
CLRT_LOG=1 one_batch 2>&1 >/dev/null | grep '^clrt: built ' >"$tmp/builds" || true
awk '{ n++; if (/from clrt.s program cache/) c++; sub(/.* in /, ""); s += $1 }
     END { printf "clrt-train: %d programs built in each run, %d from clrt'"'"'s program cache, %d from source, %.2f s in all (inside its timed training)%s\n",
                  n, c, n - c, s, c < n ? "; clrt-info --warm stores them all in clrt'"'"'s cache" : "" }' "$tmp/builds"

header() {
    printf '\n%-6s %8s %14s' batch images clrt-train/s
    i=1
    while [ $i -le "$npy" ]; do
        printf ' %14s %7s' "pytorch$i/s" ratio
        i=$((i + 1))
    done
    printf '\n'
}

# A row: its label and count, then the medians of $tmp/c and each $tmp/t<i>.
row() {
    c=$(median <"$tmp/c")
    printf '%-6s %8s %14.0f' "$1" "$2" "$c"
    i=1
    while [ $i -le "$npy" ]; do
        t=$(median <"$tmp/t$i" 2>/dev/null || true)
        if [ -n "$t" ]; then
            printf ' %14.0f %7.2f' "$t" "$(echo "$c $t" | awk '{print $1 / $2}')"
        else # it printed no figure: its errors went to the terminal
            printf ' %14s %7s' failed -
        fi
        i=$((i + 1))
    done
    printf '\n'
}

# Every PyTorch once, in turn, with the arguments given; the number the sed
# expression $1 picks from its output goes to $tmp/t<i>.
torch_round() {
    pick=$1
    shift
    i=1
    while read -r py; do
        OPENBLAS_NUM_THREADS=1 "$py" "$here/torch_reference.py" "$@" --print-every 1000000 --threads "$threads" \
            </dev/null | sed -n "$pick" >>"$tmp/t$i"
        i=$((i + 1))
    done <"$tmp/pys"
}

header
for spec in ${SIZES:-4:4000 64:8192 256:8192}; do
    b=${spec%%:*}
    n=${spec#*:}
    : >"$tmp/c"
    rm -f "$tmp"/t[0-9]*
    r=0
    while [ $r -lt "$reps" ]; do
        "$build/tools/clrt-train" --limit "$n" --epochs 1 --batch "$b" --print-every 1000000 --test-limit 1 \
            --no-progress --json "$tmp/j" >/dev/null
        sed -n 's/.*"images_per_s": \([0-9.]*\).*/\1/p' "$tmp/j" >>"$tmp/c"
        torch_round 's/^images\/s: \([0-9.]*\).*/\1/p' --limit "$n" --epochs 1 --batch "$b" --test-limit 1
        r=$((r + 1))
    done
    row "$b" "$n"
done
# inference at batch 256: the weights of a short run (speed does not depend on them)
"$build/tools/clrt-train" --limit 256 --epochs 1 --batch 4 --print-every 1000000 --test-limit 1 --no-progress \
    --save "$tmp/w" >/dev/null
: >"$tmp/c"
rm -f "$tmp"/t[0-9]*
r=0
while [ $r -lt "$reps" ]; do
    "$build/tools/clrt-train" --predict "$tmp/w" --json "$tmp/j" >/dev/null 2>&1
    sed -n 's/.*"images_per_s": \([0-9.]*\).*/\1/p' "$tmp/j" >>"$tmp/c"
    torch_round 's/^inference images\/s: \([0-9.]*\).*/\1/p' --limit 256 --epochs 1 --batch 256
    r=$((r + 1))
done
row infer "$(sed -n 's/.*"count": \([0-9]*\).*/\1/p' "$tmp/j")"
