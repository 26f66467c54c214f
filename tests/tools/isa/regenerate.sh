#!/bin/bash
# Makes the compiler outputs test_parsers.py reads (data/<target>/), with the compilers
# tools/isa/setup.sh installs: data/kernels.cl built for one target of each vendor's
# kinds (each output holds all its kernels), and clrt's GEMM at 8 x 8 fp32 on pvc at
# IGC's own SIMD width, where it spills. The tests' expected figures were read off these
# files by hand: after running this, check them against the new outputs.
set -euo pipefail
cd "$(dirname "$0")"
root=$(cd ../../.. && pwd)
isa=$root/tools/isa/clrt-isa
rm -rf data/*/
keep() { # keep TARGET FILE...: the outputs named, from a build of dot_local
    local t=$1 tmp
    shift
    tmp=$(mktemp -d)
    "$isa" data/kernels.cl -k dot_local -t "$t" --std CL2.0 --option=-cl-mad-enable --keep "$tmp" >/dev/null
    mkdir -p "data/$t"
    for f in "$@"; do cp "$tmp/$f" "data/$t/"; done
    rm -rf "$tmp"
}
keep sm_90 ptxas.log k.sass
keep gfx90a k.s
keep gfx1100 k.s
keep pvc dis/dot_local_KernelHeap.asm dis/hfma_KernelHeap.asm dis/PTM.txt
keep tgllp dis/dot_local_KernelHeap.asm

# clrt's GEMM, 8 x 8 fp32 at SIMD32 on pvc: IGC's spill line, and the scratch messages
tmp=$(mktemp -d)
"$isa" "$root/cl/matmul_gpu.cl" --prelude "$root/cl/common.cl" -k matmul_fast -t pvc --keep "$tmp" \
    -D REAL=float -D CLRT_DTYPE=1 -D TM=8 -D TN=8 -D TK=8 -D WGX=16 -D WGY=16 -D VW=4 >/dev/null
mkdir -p data/pvc-spill
grep "spilled" "$tmp/ocloc.log" >data/pvc-spill/ocloc.log
# the kernel's first 40 scratch messages with the labels around them
grep -E "^L[0-9]+:|scratch" "$tmp/dis/matmul_fast_KernelHeap.asm" | sed -n '1,40p' >data/pvc-spill/scratch.asm
rm -rf "$tmp"
du -sh data
