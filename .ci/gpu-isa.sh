#!/bin/bash
# What NVIDIA's, AMD's and Intel's compilers make of clrt's GEMM, CNN and elementwise kernels, without a
# GPU: clrt-isa (tools/isa/) over the library's own builds of them for each vendor class
# (tests/kernels/gpu_kernel_options.c: its defaults, build options, entries and embedded
# sources), on the nine targets (docs/gpu-isa.md).
#
# Usage:
#   .ci/gpu-isa.sh [clrt-isa options]   the table (--json, --check, --kernels matmul,
#                                       -t pvc, ...: tools/isa/clrt-isa --help)
#   .ci/gpu-isa.sh --gate               CI's step: install the compilers (tools/isa/setup.sh),
#                                       fail where a shipped kernel misses its goals on any
#                                       target, and where docs/gpu-isa.md's figures differ
#                                       from the run's (same compiler versions)
#   .ci/gpu-isa.sh --doc                regenerate docs/gpu-isa.md's figures
# Environment: BUILD (the build folder, default build; configured when missing), JOBS
# (compilers at once, default nproc). Without --gate, missing compilers are said and
# skipped (exit 0): the table is optional there.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
build=${BUILD:-build}
jobs=${JOBS:-$(nproc)}
isa=tools/isa/clrt-isa

mode=table
case ${1:-} in
--gate) mode=gate; shift ;;
--doc) mode=doc; shift ;;
esac

if [ "$mode" = gate ]; then
    t0=$(date +%s)
    sh tools/isa/setup.sh || { echo "gpu-isa.sh: installing the compilers failed (tools/isa/setup.sh, its part and command above)"; exit 1; }
    echo "== the offline compilers installed in $(($(date +%s) - t0)) s"
fi

if [ ! -f "$build/CMakeCache.txt" ]; then
    cmake -S . -B "$build" >/dev/null || { echo "gpu-isa.sh: cmake failed"; exit 1; }
fi
cmake --build "$build" --target gpu_kernel_options >/dev/null || {
    echo "gpu-isa.sh: building gpu_kernel_options failed"
    exit 1
}

case $mode in
table)
    exec python3 "$isa" --clrt "$build" --jobs "$jobs" --optional "$@"
    ;;
doc)
    out=$(mktemp)
    trap 'rm -f "$out"' EXIT
    python3 "$isa" --clrt "$build" --jobs "$jobs" --json "$@" >"$out" || exit 1
    python3 .ci/gpu_isa_table.py "$out" --write && echo "gpu-isa.sh: docs/gpu-isa.md's figures regenerated"
    ;;
gate)
    t0=$(date +%s)
    out=$build/gpu-isa.jsonl
    python3 "$isa" --clrt "$build" --jobs "$jobs" --json --check "$@" >"$out"
    rc=$?
    echo "== clrt-isa over the shipped kernels: $(wc -l <"$out") builds and entries in $(($(date +%s) - t0)) s"
    python3 .ci/gpu_isa_table.py "$out" --check || rc=1
    exit $rc
    ;;
esac
