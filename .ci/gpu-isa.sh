#!/bin/bash
# What NVIDIA's and AMD's compilers make of clrt's GEMM and CNN kernels, without a
# GPU: registers, spills, occupancy and the main loop's FMA share (the bound it puts
# on the fraction of peak), for sm_90, sm_80, gfx90a and gfx1100, of each vendor's
# shipped defaults, every transpose and dtype, exactly as clrt builds them. The
# builds come from the library itself (tests/kernels/gpu_kernel_options.c: its
# defaults, build options, entries and embedded sources), the offline compilers
# from the gpu-isa tool (../shared/tools/gpu-isa; its README has the one-time
# install: Debian's clang-15/libclc-15/clang-19 and NVIDIA's ptxas/nvdisasm wheels).
#
# Usage:
#   .ci/gpu-isa.sh [--json] [--check] [--kernels matmul,nn_im2col] [--targets sm_90,gfx90a]
#     --json    one JSON object per line (target, kernel, entry, variant, dtype,
#               registers, spill_bytes, warps_per_sm (waves per SIMD on AMD),
#               fma_share, bound, ...) instead of the Markdown table
#     --check   exit 1 where a shipped GEMM misses its goals (FMA share, warps, spills)
# Environment: GPU_ISA (the gpu-isa script), BUILD (the build folder, default build;
# configured when missing), JOBS (parallel gpu-isa runs, default nproc).
# Where the tool or its packages are missing it says so and exits 0 (CI installs
# neither, and does not run this: the whole table takes minutes).
set -uo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
tool=${GPU_ISA:-$root/../shared/tools/gpu-isa/gpu-isa}
build=${BUILD:-build}

skip() {
    echo "gpu-isa.sh: skipped: $*"
    exit 0
}
[ -f "$tool" ] || skip "the gpu-isa tool is not at $tool (set GPU_ISA to its gpu-isa script)"
command -v python3 >/dev/null || skip "python3 is not installed"

# the toolchain, probed on a one-line kernel per vendor: gpu-isa names what is missing
probe=$(mktemp -d)
trap 'rm -rf "$probe"' EXIT
printf '__kernel void probe(__global float *x) { x[0] = fma(x[1], x[2], x[3]); }\n' >"$probe/p.cl"
for t in sm_90 gfx90a; do
    if ! out=$(python3 "$tool" "$probe/p.cl" --no-prelude -k probe -t "$t" 2>&1); then
        skip "gpu-isa cannot compile for $t: $(grep -m1 'error' <<<"$out" | cut -c1-400)"
    fi
done

# the builds, from the library's own rules
if [ ! -f "$build/CMakeCache.txt" ]; then
    cmake -S . -B "$build" >/dev/null || { echo "gpu-isa.sh: cmake failed"; exit 1; }
fi
cmake --build "$build" --target gpu_kernel_options >/dev/null || { echo "gpu-isa.sh: building gpu_kernel_options failed"; exit 1; }
options=$(find "$build" -name gpu_kernel_options -type f -perm -u+x | head -n 1)
[ -n "$options" ] || { echo "gpu-isa.sh: gpu_kernel_options not found under $build"; exit 1; }

exec python3 "$root/.ci/gpu_isa_table.py" --gpu-isa "$tool" --options "$options" --jobs "${JOBS:-$(nproc)}" "$@"
