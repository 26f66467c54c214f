#!/usr/bin/env python3
"""What the GPU compilers make of clrt's GEMM and CNN kernels, offline (.ci/gpu-isa.sh runs this).

Reads the rows of tests' gpu_kernel_options (each vendor class's builds exactly as clrt makes them:
the embedded source, entry, build options, launch group) and runs the gpu-isa tool on each for the
class's targets (NVIDIA sm_90 and sm_80, AMD gfx90a and gfx1100). NVIDIA's -cl-nv-maxrregcount=N,
which clrt passes where the driver takes cl_nv_compiler_options, reaches ptxas as -maxrregcount=N
(what NVIDIA's driver does with it) through a ptxas wrapper. Prints a Markdown table, or with
--json one object per line. --check exits 1 where a shipped GEMM misses its goal (docs/benchmarks.md, "Offline"):
matmul_fast fp32 on NVIDIA FFMA share >= 0.90, fp64 bound 1.0, >= 16 warps per SM; AMD gfx90a
bound >= 0.90 (fp32 of packed peak, fp64), gfx1100 fp32 >= 0.65 (its fp64, at 1/32 rate, has no
goal); no spills anywhere."""
import argparse, concurrent.futures, importlib.machinery, importlib.util, json, os, subprocess, sys, tempfile, threading


def load_tool(path):
    """gpu-isa as a module, for its own search for ptxas (the wrapper calls the same one)."""
    loader = importlib.machinery.SourceFileLoader("gpu_isa_tool", path)
    spec = importlib.util.spec_from_loader("gpu_isa_tool", loader)
    mod = importlib.util.module_from_spec(spec)
    loader.exec_module(mod)
    return mod


WRAPPER_LOCK = threading.Lock()


def ptxas_wrapper(tool, work, cap):
    """A folder with ptxas (the real one with -maxrregcount=cap) and nvdisasm, for GPU_ISA_CUDA_BIN.
    Made once, under a lock: the jobs run in threads, and two made it at once before."""
    with WRAPPER_LOCK:
        return make_ptxas_wrapper(tool, work, cap)


def make_ptxas_wrapper(tool, work, cap):
    real = tool.find_cuda_tool("ptxas")
    d = os.path.join(work, "ptxas-maxreg-%d" % cap)
    if not os.path.isdir(d):
        os.makedirs(d)
        with open(os.path.join(d, "ptxas"), "w") as f:
            f.write('#!/bin/sh\nexec "%s" -maxrregcount=%d "$@"\n' % (real, cap))
        os.chmod(os.path.join(d, "ptxas"), 0o755)
        os.symlink(os.path.join(os.path.dirname(real), "nvdisasm"), os.path.join(d, "nvdisasm"))
    return d


def rows_of(text):
    out = []
    for line in text.splitlines():
        f = line.split()
        if len(f) < 9:
            continue
        out.append(dict(cls=f[0], targets=f[1].split(","), kernel=f[2], entry=f[3], dtype=f[4], variant=f[5],
                        group=int(f[6]), file=f[7], options=f[8:]))
    return out


def run_one(a, tool, work, src_dir, row, target):
    cmd = [sys.executable, a.gpu_isa, os.path.join(src_dir, row["file"]), "--no-prelude", "-k", row["entry"],
           "-t", target, "--json"]
    env = dict(os.environ)
    for o in row["options"]:
        if o.startswith("-D"):
            cmd += ["-D", o[2:]]
        elif o.startswith("-cl-nv-maxrregcount="):
            if target.startswith("sm_"):
                env["GPU_ISA_CUDA_BIN"] = ptxas_wrapper(tool, work, int(o.split("=")[1]))
        else:
            return dict(error="build option gpu-isa cannot pass: " + o)
    if row["group"] and row["kernel"] != "matmul":  # matmul's group is its reqd_work_group_size
        cmd += ["--wg", str(row["group"])]
    p = subprocess.run(cmd, capture_output=True, text=True, env=env)
    if p.returncode:
        return dict(error=(p.stderr or p.stdout).strip().splitlines()[-1][:300])
    return json.loads(p.stdout)


def summary(row, target, r):
    s = dict(target=target, cls=row["cls"], kernel=row["kernel"], entry=row["entry"], variant=row["variant"],
             dtype=row["dtype"], options=" ".join(row["options"]))
    if "error" in r:
        s["error"] = r["error"]
        return s
    L, o, nv = r.get("loop") or {}, r["occ"], target.startswith("sm_")
    spill = r.get("spill_st", 0) + r.get("spill_ld", 0) if nv else r.get("scratch", 0)
    s.update(registers=r["regs"], spill_bytes=spill, spill_vgprs=None if nv else r.get("spill_v", 0),
             warps_per_sm=o["per"], occupancy_unit="warps per SM" if nv else "waves per SIMD",
             groups=o["groups"], limiter=o["limiter"], local_bytes=r["smem"],
             loop_instructions=L.get("path"), fma_instructions=L.get("fma_ins"),
             fma_share=round(L["share"], 4) if L.get("fma_ins") else None,
             bound=round(L["bound"], 4) if L.get("fma_ins") and L.get("bound") is not None else None)
    return s


def goal_miss(s):
    """The goal for a shipped GEMM (matmul_fast), or None where it holds or does not apply."""
    if s["kernel"] != "matmul" or s["entry"] != "matmul_fast":
        return None
    if "error" in s:
        return s["error"]
    nv, t, f64 = s["target"].startswith("sm_"), s["target"], s["dtype"] == "f64"
    need = []
    if s["spill_bytes"] or s.get("spill_vgprs"):
        need.append("no spills")
    if nv and s["warps_per_sm"] < 16:
        need.append(">= 16 warps per SM")
    if nv and not f64 and (s["fma_share"] or 0) < 0.90:
        need.append("FFMA share >= 0.90")
    if nv and f64 and (s["bound"] or 0) < 1.0:
        need.append("bound 1.0")
    if t == "gfx90a" and (s["bound"] or 0) < 0.90:
        need.append("bound >= 0.90")
    if t == "gfx1100" and not f64 and (s["bound"] or 0) < 0.65:  # no goal for RDNA3's 1/32-rate fp64
        need.append("bound >= 0.65")
    return ", ".join(need) or None


def table(sums):
    print("| target | kernel | entry | dtype | op | registers | spill B | occupancy | loop instr | FMA instr "
          "| FMA share | bound |")
    print("|---|---|---|---|---|--:|--:|--:|--:|--:|--:|--:|")
    for s in sums:
        if "error" in s:
            print("| %s | %s | %s | %s | %s | error: %s |||||||" % (s["target"], s["kernel"], s["entry"], s["dtype"],
                                                                     s["variant"], s["error"]))
            continue
        occ = "%g %s" % (s["warps_per_sm"], "warps" if s["target"].startswith("sm_") else "waves/SIMD")
        fmt = lambda v: "-" if v is None else ("%.3f" % v if isinstance(v, float) else str(v))
        print("| %s | %s | %s | %s | %s | %d | %d | %s | %s | %s | %s | %s |" % (
            s["target"], s["kernel"], s["entry"], s["dtype"], s["variant"], s["registers"], s["spill_bytes"], occ,
            fmt(s["loop_instructions"]), fmt(s["fma_instructions"]), fmt(s["fma_share"]), fmt(s["bound"])))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--gpu-isa", required=True, help="the gpu-isa script")
    ap.add_argument("--options", required=True, help="the gpu_kernel_options program")
    ap.add_argument("--json", action="store_true", help="one JSON object per line")
    ap.add_argument("--check", action="store_true", help="exit 1 where a shipped GEMM misses its goal")
    ap.add_argument("--kernels", default="", help="only these kernels (comma-separated: matmul,nn_im2col,...)")
    ap.add_argument("--targets", default="", help="only these targets (comma-separated)")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    a = ap.parse_args()
    tool = load_tool(a.gpu_isa)
    with tempfile.TemporaryDirectory(prefix="clrt-gpu-isa-") as work:
        src_dir = os.path.join(work, "src")
        os.makedirs(src_dir)
        rows = rows_of(subprocess.run([a.options, src_dir], check=True, capture_output=True, text=True).stdout)
        kernels, targets = set(filter(None, a.kernels.split(","))), set(filter(None, a.targets.split(",")))
        jobs = [(row, t) for row in rows for t in row["targets"]
                if (not kernels or row["kernel"] in kernels) and (not targets or t in targets)]
        with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, a.jobs)) as ex:
            results = list(ex.map(lambda j: run_one(a, tool, work, src_dir, j[0], j[1]), jobs))
    sums = sorted((summary(row, t, r) for (row, t), r in zip(jobs, results)),
                  key=lambda s: (s["target"], s["kernel"], s["entry"], s["dtype"], s["variant"]))
    if a.json:
        for s in sums:
            print(json.dumps(s))
    else:
        table(sums)
    misses = [(s, goal_miss(s)) for s in sums if goal_miss(s)]
    for s, why in misses:
        print("goal missed: %s %s %s %s: %s" % (s["target"], s["entry"], s["dtype"], s["variant"], why), file=sys.stderr)
    return 1 if a.check and misses else 0


if __name__ == "__main__":
    sys.exit(main())
