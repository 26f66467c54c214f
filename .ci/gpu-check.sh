#!/bin/bash
# The GPU check: one command for the day a machine with an NVIDIA GPU is lent,
# runnable there with nothing prepared but NVIDIA's driver (no root needed, no
# network). It registers NVIDIA's OpenCL driver for the ICD loader, builds
# clrt, and runs on that GPU, each step under its own timeout, the most telling
# first (what follows a spent budget is reported as not run):
#   1. the build (tests included)
#   2. the default device must be the GPU
#   3. sgemm and dgemm at 1024, 2048 and 4096 (clrt-bench, shipped defaults) side by
#      side with torch.matmul on the same GPU (.ci/torch_gemm.py: CUDA, TF32 off, so
#      cuBLAS), and the adds; against the targets (sgemm >= 0.9x cuBLAS at 2048 and
#      4096, dgemm >= 0.8 of an H100/H200 SXM's FP64 vector peak, 34 TFLOP/s)
#   4. training images/s at batch 64 and 256: clrt-train and the same network in
#      PyTorch on the same GPU (tools/train/torch_reference.py), on Fashion-MNIST
#      carried in .gpu/fmnist (or installed); target clrt >= 1.0x at 256
#   5. the device suites and the examples ("skipped" counts as a failure)
#   6. one tuner pass for the fp32 product (every candidate checked; writes nothing)
#   7. a sweep of odd shapes at the shipped defaults, every result checked
#   8. what the compiler made of each built-in kernel (clrt-info --kernels:
#      registers and spills through -cl-nv-verbose)
# After step 3, the offline view of the same GEMM beside its measured GFLOP/s: clrt-isa
# (tools/isa/, docs/gpu-isa.md) for the device's target (from its name): the figures
# --fetch computed into .gpu/isa.jsonl (the GPU machine has no network), else clrt-isa
# run here where its compilers are; so the first run on a GPU says whether the offline
# view held.
# PyTorch is used where python3 has it with CUDA (nothing is installed); without it
# those comparisons say so. The real run stops starting steps after 450 s
# (GPU_CHECK_BUDGET) so that it ends within 8 minutes with its build.
# It writes a summary (one line per step: PASS/FAIL, seconds) with the logs
# into the output folder: at most 8 files, so the device tool brings them all back.
#
# What the GPU machine lacks is carried as Debian packages in .gpu/debs
# (fetch them here first with --fetch: the ICD loader, the OpenCL headers,
# CMocka); they are unpacked into a private folder, never installed.
#
# Usage:
#   .ci/gpu-check.sh --fetch                     download the packages into .gpu/debs,
#                                                copy Fashion-MNIST into .gpu/fmnist, and
#                                                the GEMM's offline figures into .gpu/isa.jsonl
#                                                (where clrt-isa's compilers are installed)
#   .ci/gpu-check.sh [--out DIR]                 the check, on the NVIDIA GPU
#   .ci/gpu-check.sh --dry-run [--out DIR]       the same steps on POCL, smaller, to
#                                                rehearse it (CI runs this)
# Exit status: 0 when every step passed.
set -uo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)

dry=0 fetch=0 out=
while (($#)); do
    case $1 in
    --dry-run) dry=1 ;;
    --fetch) fetch=1 ;;
    --out) out=$2; shift ;;
    -h | --help) sed -n '2,/^set -uo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) echo "gpu-check: unknown option $1 (see --help)" >&2; exit 2 ;;
    esac
    shift
done

debs=$root/.gpu/debs
if ((fetch)); then
    mkdir -p "$debs"
    (cd "$debs" && apt-get download ocl-icd-libopencl1 ocl-icd-opencl-dev opencl-c-headers \
        opencl-clhpp-headers libcmocka0 libcmocka-dev) || exit 1
    ls -l "$debs"
    # the training step's data (30 MB; the GPU machine reaches no registry)
    fm=/usr/share/datasets/fashion-mnist
    [ -d "$fm" ] || { echo "gpu-check: $fm missing (apt-get install dataset-fashion-mnist)" >&2; exit 1; }
    mkdir -p "$root/.gpu/fmnist" && cp "$fm"/*-ubyte.gz "$root/.gpu/fmnist/" || exit 1
    # the GEMM's offline figures on every target (none without the compilers: said, not fatal)
    "$root/.ci/gpu-isa.sh" --json --kernels matmul >"$root/.gpu/isa.jsonl" &&
        echo "offline figures: $(wc -l <"$root/.gpu/isa.jsonl") in .gpu/isa.jsonl"
    exit 0
fi

out=${out:-${OUT:-$root/build-gpu-check/out}}
mkdir -p "$out"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
summary=$out/summary.txt
: >"$summary"
failed=0
jobs=$(nproc)

note() { echo "$*" | tee -a "$summary"; }

# The run's budget (seconds from now; 0: none): a step gets at most what is left.
budget=${GPU_CHECK_BUDGET:-$((dry ? 0 : 450))}
deadline=$(($(date +%s) + budget))

# step NAME TIMEOUT LOG COMMAND...: run it, record PASS/FAIL and its time
step() {
    local name=$1 limit=$2 log=$3 t0 rc
    shift 3
    if ((budget)); then
        local left=$((deadline - $(date +%s)))
        if ((left < 20)); then
            note "$(printf '%-34s %-18s %4d s' "$name" "NOT RUN (budget)" 0)"
            failed=1
            return 1
        fi
        ((limit > left)) && limit=$left
    fi
    echo "== $name (limit ${limit}s)"
    t0=$(date +%s)
    # the steps are shell functions: timeout runs them in a bash of their own
    timeout --kill-after=10 "$limit" bash -c '"$@"' step "$@" >>"$log" 2>&1
    rc=$?
    local took=$(($(date +%s) - t0)) verdict=PASS
    if ((rc == 124 || rc == 137)); then
        verdict="FAIL (timed out)"
    elif ((rc != 0)); then
        verdict="FAIL (exit $rc)"
    fi
    [ "$verdict" = PASS ] || { failed=1; tail -n 30 "$log"; }
    note "$(printf '%-34s %-18s %4d s   log: %s' "$name" "$verdict" "$took" "$(basename "$log")")"
    return $rc
}

note "clrt GPU check $( ((dry)) && echo '(dry run on POCL)') $(date -u +%Y-%m-%dT%H:%MZ) on $(hostname), $jobs cores"
note "commit $(git rev-parse --short HEAD 2>/dev/null || echo unknown)"

# ---- 0. the OpenCL driver and what the machine lacks, privately
sysroot=$work/sysroot
mkdir -p "$sysroot"
for d in "$debs"/*.deb; do
    [ -e "$d" ] && dpkg -x "$d" "$sysroot"
done
libdir=$(find "$sysroot" -name 'libOpenCL.so.1' -printf '%h\n' 2>/dev/null | head -n 1)
if [ -n "$libdir" ]; then
    export LD_LIBRARY_PATH=$libdir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
    note "ICD loader and build dependencies: unpacked from .gpu/debs ($(ls "$debs" | wc -l) packages)"
elif ! ldconfig -p | grep 'libOpenCL.so.1 ' >/dev/null; then  # not -q: an early exit fails ldconfig's pipe (pipefail)
    note "FAIL: no OpenCL ICD loader here and none in .gpu/debs (run .ci/gpu-check.sh --fetch where apt works)"
    exit 1
fi
icd=$work/icd
mkdir -p "$icd"
if ((dry)); then
    # the same registration, of POCL's library
    lib=$(cat /etc/OpenCL/vendors/pocl.icd 2>/dev/null)
    [ -n "$lib" ] || { note "FAIL: POCL is not installed (tools/setup-debian.sh)"; exit 1; }
    echo "$lib" >"$icd/pocl.icd"
else
    lib=$( (ldconfig -p | awk '/libnvidia-opencl.so.1 / {print $NF; exit}'
        ls /usr/lib/x86_64-linux-gnu/libnvidia-opencl.so.1 /usr/local/nvidia/lib64/libnvidia-opencl.so.1 \
            /usr/lib64/libnvidia-opencl.so.1 2>/dev/null) | head -n 1)
    [ -n "$lib" ] || { note "FAIL: NVIDIA's OpenCL driver (libnvidia-opencl.so.1) not found"; exit 1; }
    echo "$lib" >"$icd/nvidia.icd"
fi
export OCL_ICD_VENDORS=$icd
note "OpenCL driver registered: $lib"

# ---- 1. build (the tests run on whatever the loader finds: the "system" driver)
b=$root/build-gpu-check
cfg=(-DCMAKE_BUILD_TYPE=Release -DCLRT_TEST_DRIVERS=system)
inc=$(find "$sysroot" -path '*/CL/cl.h' -printf '%h\n' 2>/dev/null | head -n 1)
[ -n "$inc" ] && cfg+=(-DOpenCL_INCLUDE_DIR="$(dirname "$inc")")
[ -n "$libdir" ] && [ -e "$libdir/libOpenCL.so" ] && cfg+=(-DOpenCL_LIBRARY="$libdir/libOpenCL.so")
cm=$(find "$sysroot" -name cmocka.h -printf '%h\n' 2>/dev/null | head -n 1)
cml=$(find "$sysroot" -name 'libcmocka.so' 2>/dev/null | head -n 1)
[ -n "$cm" ] && [ -n "$cml" ] && cfg+=(-DCMOCKA_INCLUDE_DIR="$cm" -DCMOCKA_LIBRARY="$cml")
[ -n "$cml" ] && export LD_LIBRARY_PATH=$(dirname "$cml"):$LD_LIBRARY_PATH
export CFG_TEXT=$(printf '%s\n' "${cfg[@]}")
build() {
    local cfg
    mapfile -t cfg <<<"$CFG_TEXT"
    cmake -S "$root" -B "$b" "${cfg[@]}" && cmake --build "$b" -j "$jobs"
}
export root out dry jobs b sysroot
export -f build
step "build" 150 "$out/build.log" build || { note "the build failed: nothing else can run"; exit 1; }

# ---- 2. the device
export CLRT_DEVICE= CLRT_TUNED=0 CLRT_CACHE_DIR=$work/cache
is_gpu() {
    "$b/tools/clrt-info" --default || return 1
    ((dry)) && return 0
    # only NVIDIA's driver is registered: every device listed must be a GPU
    ! "$b/tools/clrt-info" | grep -E '^[0-9]+ +\[[0-9]+:[0-9]+\] ' | grep -Ev '^[0-9]+ +\[[0-9]+:[0-9]+\] +gpu '
}
export -f is_gpu
step "the default device is the GPU" 30 "$out/build.log" is_gpu || { note "no GPU device: stopping"; exit 1; }

# ---- 3. the products side by side with torch.matmul (cuBLAS), and the adds
compare_gemm() { # compare_gemm BENCH.json TORCH.jsonl: the side-by-side table and the targets
    python3 - "$1" "$2" <<'EOF'
import json, sys
r = json.load(open(sys.argv[1]))
torch = [json.loads(l) for l in open(sys.argv[2]) if l.strip()]
ref = {(t["dtype"], t["n"]): t for t in torch if "error" not in t}
why = next((t["error"] for t in torch if "error" in t), "")
print("| product | clrt | torch.matmul | clrt / torch | target |")
print("|---|---:|---:|---:|---|")
for c in r["results"]:
    if c["op"] != "matmul" or c["m"] != c["n"] or c["n"] != c["k"]:
        continue
    x, n, dt = c["impl"]["clrt"], c["n"], c["dtype"]
    if x["failed"] or x["wrong"]:
        print(f"| {dt} {n} | failed or wrong |||")
        continue
    tf = 2 * n ** 3 / x["median_s"] / 1e12
    t = ref.get((dt, n))
    tt = f"{t['tflops']:.1f} TFLOP/s" if t else f"(not run: {why})"
    ratio = f"{tf / t['tflops']:.2f}" if t else "-"
    goal = ("sgemm >= 0.9x cuBLAS" if dt == "f32" and n >= 2048 else
            f"dgemm >= 0.8 of 34 TFLOP/s: {tf / 34:.2f}" if dt == "f64" else "")
    print(f"| {dt} {n} | {x['median_s'] * 1e3:.3f} ms, {tf:.1f} TFLOP/s | {tt} | {ratio} | {goal} |")
print("params: " + "; ".join(sorted({f"{c['dtype']} {c['params']}" for c in r["results"] if c["op"] == "matmul"})))
sys.exit(0 if r["results"] and all(not x["failed"] and not x["wrong"] for c in r["results"]
                                   for x in c["impl"].values()) else 1)
EOF
}
bench() {
    local sizes=1024,2048,4096 add=1e8 cpu=
    ((dry)) && sizes=256,512 add=1e6 cpu=--cpu
    "$b/tools/clrt-bench" --device 0 --quick --op matmul,add --sizes "$sizes" --add-sizes "$add" --no-cold \
        --no-child --no-first --no-progress --json >"$out/bench.json" || return 1
    python3 "$root/.ci/torch_gemm.py" --sizes "$sizes" $cpu >"$work/torch.jsonl" || return 1
    compare_gemm "$out/bench.json" "$work/torch.jsonl"
}
export -f bench compare_gemm
step "sgemm, dgemm against torch.matmul" 120 "$out/bench.txt" bench

# ---- 3b. the offline view of that GEMM (clrt-isa) beside what it measured
offline_vs_measured() { # offline_vs_measured ISA.jsonl BENCH.json TARGET
    python3 - "$@" <<'EOF'
import json, sys
isa = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
r = json.load(open(sys.argv[2]))
target = sys.argv[3]
print(f"| {target}, offline | registers | spill B | occupancy | loop FMA share | bound | measured |")
print("|---|--:|--:|--:|--:|--:|--:|")
for dt in ("f32", "f64"):
    rows = [x for x in isa if x.get("target") == target and x.get("entry") == "matmul_fast" and x.get("dtype") == dt
            and x.get("variant") == "NN" and "error" not in x]
    runs = [c for c in r["results"] if c["op"] == "matmul" and c["dtype"] == dt and c["m"] == c["n"] == c["k"]
            and not c["impl"]["clrt"]["failed"]]
    if not rows or not runs:
        continue
    x, c = rows[0], max(runs, key=lambda c: c["n"])
    loop, occ = x.get("loop") or {}, x["occupancy"]
    gf = 2 * c["n"] ** 3 / c["impl"]["clrt"]["median_s"] / 1e9
    fmt = lambda v: "-" if v is None else f"{v:.2f}"
    print(f"| matmul_fast {dt} | {x['registers']} | {x['spill_bytes']} | {occ['value']} {occ['what']} | "
          f"{fmt(loop.get('fma_share'))} | {fmt(loop.get('bound'))} | {gf:.0f} GFLOP/s at {c['n']} |")
EOF
}
offline() {
    local name target isa=$work/isa.jsonl
    name=$("$b/tools/clrt-info" --default | sed -n 's/^default device: [0-9]* \[[0-9:]*\] \(.*\) (.*)$/\1/p')
    target=$(python3 -c 'import sys; sys.path.insert(0, sys.argv[1]); from clrt_isa.targets import target_for_device as t
print(t(sys.argv[2]) or "")' "$root/tools/isa" "$name")
    # the dry run (POCL, a CPU): the H200's target, to rehearse the step
    ((dry)) && [ -z "$target" ] && target=sm_90
    [ -n "$target" ] || { echo "no clrt-isa target for the device '$name': no offline figures"; return 0; }
    echo "device '$name': clrt-isa target $target"
    if [ -s "$root/.gpu/isa.jsonl" ]; then
        echo "the figures .ci/gpu-check.sh --fetch computed for this checkout (.gpu/isa.jsonl)"
        cp "$root/.gpu/isa.jsonl" "$isa"
    else
        python3 "$root/tools/isa/clrt-isa" --clrt "$b" --kernels matmul -t "$target" --json --optional >"$isa" ||
            return 1
    fi
    [ -s "$isa" ] || { echo "no offline figures (the compilers: tools/isa/setup.sh; or --fetch where they are)"; return 0; }
    offline_vs_measured "$isa" "$out/bench.json" "$target"
}
export -f offline offline_vs_measured
step "offline view (clrt-isa) vs measured" 120 "$out/bench.txt" offline

# ---- 4. training images/s, PyTorch on the same GPU side by side where it is there
train() {
    local data=$root/.gpu/fmnist specs="64:60000 256:60000" torch=0 b n c t
    [ -e "$data/train-images-idx3-ubyte.gz" ] || data=/usr/share/datasets/fashion-mnist
    ((dry)) && specs="64:512"
    if ((!dry)) && python3 -c 'import torch, sys; sys.exit(0 if torch.cuda.is_available() else 1)' 2>/dev/null; then
        torch=1
    fi
    for spec in $specs; do
        b=${spec%%:*} n=${spec#*:}
        "$b_dir/tools/clrt-train" --data "$data" --limit "$n" --epochs 1 --batch "$b" --print-every 1000000 \
            --test-limit 1 --no-progress --json "$work/train.json" >/dev/null || return 1
        c=$(python3 -c 'import json, sys; print(round(json.load(open(sys.argv[1]))["images_per_s"]))' "$work/train.json")
        t="(not run: no PyTorch with CUDA)"
        ((torch)) && t=$(python3 "$root/tools/train/torch_reference.py" --data "$data" --limit "$n" --epochs 1 --batch "$b" \
            --print-every 1000000 --test-limit 1 --device cuda | sed -n 's/^images\/s: \([0-9.]*\).*/\1/p')
        echo "training, batch $b, $n images: clrt-train $c images/s; PyTorch on the GPU: ${t:-failed} images/s" \
            "$(python3 -c 'import sys; print("(clrt x%.2f)" % (float(sys.argv[1]) / float(sys.argv[2])))' "$c" "$t" 2>/dev/null)"
    done
}
export -f train
export work b_dir=$b
step "training images/s (clrt-train)" $((dry ? 60 : 90)) "$out/bench.txt" train

# ---- 5. device suites and examples; a skip is a failure here
suites() {
    CLRT_TEST_REQUIRE_DEVICE=1 ctest --test-dir "$b" -L 'device|example' -j 4 --output-on-failure -V \
        --timeout $((dry ? 600 : 150)) || return 1
    # a skip is a failure, except the ones that need another machine: memory
    # exhaustion runs on a device of at most 1 GiB (CI's POCL_MEMORY_LIMIT run);
    # on POCL (the dry run), the GPU-sized group and local-memory cases
    local allowed='device_memory_exhaustion' skipped
    ((dry)) && allowed+='|oversized_work_groups_are_fitted|oversized_local_tiles_are_fitted'
    skipped=$(grep -E '\[ +SKIPPED +\] [a-z_]+$|\*\*\*Skipped|Not Run' "$out/tests.log" |
        sed -E 's/.*SKIPPED +\] //' | sort -u | grep -Ev "^($allowed)\$")
    [ -z "$skipped" ] || { echo "skipped, counted as failed: $skipped"; return 1; }
}
export -f suites
step "device suites + examples" $((dry ? 420 : 180)) "$out/tests.log" suites

# ---- 6. one tuner pass, fp32 product, nothing written
tune() {
    "$b/tools/clrt-bench" --device 0 --tune --tune-only --tune-dry-run --op matmul --dtype f32 --tune-passes 1 \
        --tune-size $((dry ? 64 : 1024)) --no-progress --json >"$out/tune.json" &&
        python3 - "$out/tune.json" <<'EOF'
import json, sys
t = json.load(open(sys.argv[1]))["tuning"]
for x in t:
    print(f"{x['op']} {x['dtype']}: {x['tried']} tried, {x['wrong']} wrong, x{x['speedup']:.3f}; "
          f"{x['params_default']} -> {x['params_tuned']}; {x['note']}")
sys.exit(0 if t and all(x["ok"] and x["wrong"] == 0 for x in t) else 1)
EOF
}
export -f tune
step "tuner pass (fp32 matmul)" $((dry ? 420 : 120)) "$out/bench.txt" tune

# ---- 7. odd shapes at the shipped defaults (CLRT_TUNED=0), every result checked
if ((dry)); then
    sweep_sizes=1,7,17,65,127,129,257,33x300x17,300x33x65 sweep_add=1,7,1031,100003
else
    sweep_sizes=1,7,17,65,127,129,257,1031,2049,33x4097x17,4097x33x65,1000x1000x1 sweep_add=1,7,1031,1000003,10000019
fi
no_wrong() { # no_wrong FILE: every clrt result was checked and none was wrong
    python3 - "$1" <<'EOF'
import json, sys
r = json.load(open(sys.argv[1]))
bad = [(c["op"], c["dtype"], c["m"], c["n"], c["k"], name) for c in r["results"]
       for name, x in c["impl"].items() if x["failed"] or x["wrong"] or not x["checked"]]
cases = len(r["results"])
print(f"{cases} cases, {len(bad)} with a wrong, failed or unchecked result {bad[:8]}")
sys.exit(1 if bad or cases == 0 else 0)
EOF
}
sweep() {
    "$b/tools/clrt-bench" --device 0 --sizes "$sweep_sizes" --add-sizes "$sweep_add" --reps 2 --min-reps 1 \
        --min-time 0 --no-openblas --no-clblast --no-host --no-child --no-first --no-overhead --no-default \
        --no-progress --json >"$out/sweep.json" &&
        no_wrong "$out/sweep.json"
}
export sweep_sizes sweep_add
export -f no_wrong sweep
step "odd shapes, shipped defaults" 60 "$out/bench.txt" sweep

# ---- 8. registers and spills
kernels() {
    if ((dry)); then
        CLRT_CACHE=0 CLRT_INFO_REBUILD=1 "$b/tools/clrt-info" --kernels
    else
        CLRT_CACHE=0 "$b/tools/clrt-info" --kernels
    fi
}
export -f kernels
step "compiler report (clrt-info --kernels)" 60 "$out/kernels.txt" kernels

if ((failed)); then
    note "RESULT: FAIL"
    exit 1
fi
note "RESULT: PASS"
