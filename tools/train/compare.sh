#!/bin/sh
# Training images/s of clrt-train and of the same network in PyTorch
# (train/torch_reference.py), side by side in one run: for each batch size, the two
# alternate REPS times and each one's median is printed with the ratio.
#   tools/train/compare.sh [BUILD_DIR] [REPS]      (default build, 3)
# The images: the first N training images of Fashion-MNIST, one epoch, for
# each BATCH:N in $SIZES (default 4:4000 64:8192 256:8192).
# Then a row "infer": images/s classifying the whole test set (10,000
# images) in batches of 256, clrt-train --predict (weights from a short run)
# against train/torch_reference.py's "inference images/s" (no grad), medians of REPS.
# PyTorch runs with $TORCH_THREADS threads (default 2) and
# OPENBLAS_NUM_THREADS=1 (without it OpenBLAS's threads fight torch's);
# clrt-train on its default device. On a machine other jobs load, 2 threads
# of PyTorch can run several times slower than 1: try TORCH_THREADS=1 too.
set -eu
build=${1:-build}
reps=${2:-3}
py=${PYTHON:-/usr/bin/python3}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
median() { sort -n | awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}'; }
printf '%-6s %8s %14s %14s %7s\n' batch images clrt-train/s pytorch/s ratio
for spec in ${SIZES:-4:4000 64:8192 256:8192}; do
    b=${spec%%:*}
    n=${spec#*:}
    : >"$tmp/c"
    : >"$tmp/t"
    i=0
    while [ $i -lt "$reps" ]; do
        "$build/tools/clrt-train" --limit "$n" --epochs 1 --batch "$b" --print-every 1000000 --test-limit 1 \
            --no-progress --json "$tmp/j" >/dev/null
        sed -n 's/.*"images_per_s": \([0-9.]*\).*/\1/p' "$tmp/j" >>"$tmp/c"
        OPENBLAS_NUM_THREADS=1 "$py" "$(dirname "$0")/torch_reference.py" --limit "$n" --epochs 1 --batch "$b" \
            --print-every 1000000 --test-limit 1 --threads "${TORCH_THREADS:-2}" | sed -n 's/^images\/s: \([0-9.]*\).*/\1/p' >>"$tmp/t"
        i=$((i + 1))
    done
    c=$(median <"$tmp/c")
    t=$(median <"$tmp/t")
    printf '%-6s %8s %14.0f %14.0f %7.2f\n' "$b" "$n" "$c" "$t" "$(echo "$c $t" | awk '{print $1 / $2}')"
done
# inference at batch 256: the weights of a short run (speed does not depend on them)
"$build/tools/clrt-train" --limit 256 --epochs 1 --batch 4 --print-every 1000000 --test-limit 1 --no-progress \
    --save "$tmp/w" >/dev/null
: >"$tmp/c"
: >"$tmp/t"
i=0
while [ $i -lt "$reps" ]; do
    "$build/tools/clrt-train" --predict "$tmp/w" --json "$tmp/j" >/dev/null 2>&1
    sed -n 's/.*"images_per_s": \([0-9.]*\).*/\1/p' "$tmp/j" >>"$tmp/c"
    OPENBLAS_NUM_THREADS=1 "$py" "$(dirname "$0")/torch_reference.py" --limit 256 --epochs 1 --batch 256 \
        --print-every 1000000 --threads "${TORCH_THREADS:-2}" | sed -n 's/^inference images\/s: \([0-9.]*\).*/\1/p' >>"$tmp/t"
    i=$((i + 1))
done
c=$(median <"$tmp/c")
t=$(median <"$tmp/t")
n=$(sed -n 's/.*"count": \([0-9]*\).*/\1/p' "$tmp/j")
printf '%-6s %8s %14.0f %14.0f %7.2f\n' "infer" "$n" "$c" "$t" "$(echo "$c $t" | awk '{print $1 / $2}')"
