#!/usr/bin/env python3
"""clrt's Python binding side by side with PyOpenCL and numpy, same device, same run.

    python3 python/bench/bench_vs_pyopencl.py [--device SEL] [--clrt-bench build/tools/clrt-bench]
        [--quick] [--json FILE]

Cases (issue 14):
  add 1000x1000 and 4096x4096 float32: clrt `a + b` and clrt.add(a, b, out=c) against
      pyopencl.array `a + b` (its arrays on a pyopencl.tools.MemoryPool, as clrt pools
      freed memory) and numpy `a + b`;
  product 1000x1000 float64 and 2048x2048 float32: clrt `a @ b` against the tiled
      local-memory kernel a PyOpenCL user writes from PyOpenCL's matrix-multiply
      example (16x16 tiles, guarded edges) and numpy `@` (OpenBLAS);
  per-call overhead of a tiny add (1000 float32, pipelined, finish once per 500 calls):
      clrt.add(out=) and `a + b` against pyopencl `a += b` and `a + b`, and the C API
      (clrt_add) as clrt-bench measures it in the same run (--clrt-bench).
Every round times each contender once; a ratio is the median over rounds of
reference time / clrt time (> 1: clrt faster). Results are checked against numpy.
"""
import argparse
import json
import os
import statistics
import subprocess
import time

import numpy as np
import pyopencl as cl
import pyopencl.array as cla
import pyopencl.tools as cltools

import clrt

TILED = """
#ifdef USE_DOUBLE
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
typedef double real;
#else
typedef float real;
#endif
#define T 16
/* C (m x n) = A (m x k) B (k x n), row-major; one 16x16 tile of C per work-group,
   tiles of A and B staged in local memory, edges guarded. */
__kernel void matmul_tiled(const int m, const int n, const int k,
                           __global const real *A, __global const real *B, __global real *C) {
    __local real As[T][T], Bs[T][T];
    int tr = get_local_id(1), tc = get_local_id(0);
    int row = get_group_id(1) * T + tr, col = get_group_id(0) * T + tc;
    real acc = 0;
    for (int t = 0; t < k; t += T) {
        As[tr][tc] = (row < m && t + tc < k) ? A[row * k + t + tc] : 0;
        Bs[tr][tc] = (t + tr < k && col < n) ? B[(t + tr) * n + col] : 0;
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int i = 0; i < T; i++)
            acc += As[tr][i] * Bs[i][tc];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (row < m && col < n)
        C[row * n + col] = acc;
}
"""


def pyopencl_queue(ctx):
    """PyOpenCL on the very device clrt's context uses (same platform and device names)."""
    dev = ctx.device
    for p in cl.get_platforms():
        for d in p.get_devices():
            if p.name == dev.platform and d.name == dev.name:
                c = cl.Context([d])
                return c, cl.CommandQueue(c)
    raise SystemExit(f"PyOpenCL does not see {dev.name} ({dev.platform})")


def rounds(fns, n, check=None):
    """Each round runs every fn once (each fn waits for its own work); times per fn."""
    times = {k: [] for k in fns}
    for k, f in fns.items():  # warm-up: compiles, allocator pools
        f()
    for _ in range(n):
        for k, f in fns.items():
            t = time.perf_counter()
            f()
            times[k].append(time.perf_counter() - t)
    return times


def ratio(times, ref, ours):
    return statistics.median(r / o for r, o in zip(times[ref], times[ours]))


def bench_add(ctx, pctx, pq, n, reps):
    rng = np.random.default_rng(1)
    x, y = rng.random((n, n), np.float32), rng.random((n, n), np.float32)
    a, b, c = clrt.to_device(x, ctx=ctx), clrt.to_device(y, ctx=ctx), clrt.empty((n, n), ctx=ctx)
    pool = cltools.MemoryPool(cltools.ImmediateAllocator(pq))  # as clrt pools its memory
    pa, pb = cla.to_device(pq, x, allocator=pool), cla.to_device(pq, y, allocator=pool)
    out = {}

    def clrt_op():
        out["clrt"] = a + b
        ctx.finish()

    def clrt_out():
        clrt.add(a, b, out=c)
        ctx.finish()

    def pocl_op():
        out["pyopencl"] = pa + pb
        pq.finish()

    def np_op():
        out["numpy"] = x + y

    t = rounds({"clrt a+b": clrt_op, "clrt add(out=)": clrt_out, "pyopencl a+b": pocl_op,
                "numpy a+b": np_op}, reps)
    ref = x + y
    assert np.array_equal(out["clrt"].get(), ref) and np.array_equal(c.get(), ref)
    assert np.array_equal(out["pyopencl"].get(), ref)
    gb = 3 * n * n * 4 / 1e9
    med = {k: statistics.median(v) for k, v in t.items()}
    rows = [(f"add {n}x{n} f32", k, f"{med[k] * 1e3:.2f} ms", f"{gb / med[k]:.1f} GB/s") for k in t]
    ratios = {f"add {n}: clrt a+b vs pyopencl a+b": ratio(t, "pyopencl a+b", "clrt a+b"),
              f"add {n}: clrt add(out=) vs pyopencl a+b": ratio(t, "pyopencl a+b", "clrt add(out=)"),
              f"add {n}: clrt a+b vs numpy a+b": ratio(t, "numpy a+b", "clrt a+b")}
    return rows, ratios


def bench_matmul(ctx, pctx, pq, n, dtype, reps):
    rng = np.random.default_rng(2)
    x, y = rng.random((n, n)).astype(dtype), rng.random((n, n)).astype(dtype)
    a, b = clrt.to_device(x, ctx=ctx), clrt.to_device(y, ctx=ctx)
    opts = ["-DUSE_DOUBLE"] if dtype == np.float64 else []
    prg = cl.Program(pctx, TILED).build(options=opts)
    kern = prg.matmul_tiled
    pa, pb = cla.to_device(pq, x), cla.to_device(pq, y)
    pc = cla.empty(pq, (n, n), dtype)
    g = ((n + 15) // 16 * 16,) * 2
    out = {}

    def clrt_op():
        out["clrt"] = a @ b
        ctx.finish()

    def pocl_op():
        kern(pq, g, (16, 16), np.int32(n), np.int32(n), np.int32(n), pa.data, pb.data, pc.data)
        pq.finish()

    def np_op():
        out["numpy"] = x @ y

    t = rounds({"clrt a@b": clrt_op, "pyopencl tiled kernel": pocl_op, "numpy a@b": np_op}, reps)
    ref = x.astype(np.float64) @ y
    tol = 1e-12 * n if dtype == np.float64 else 1e-5 * n
    for got in (out["clrt"].get(), pc.get(), out["numpy"]):
        assert np.abs(got - ref).max() <= tol * np.abs(ref).max()
    name = f"matmul {n}x{n} {np.dtype(dtype).name}"
    med = {k: statistics.median(v) for k, v in t.items()}
    rows = [(name, k, f"{med[k] * 1e3:.1f} ms", f"{2 * n ** 3 / med[k] / 1e9:.1f} GFLOP/s")
            for k in t]
    ratios = {f"{name}: clrt vs pyopencl tiled": ratio(t, "pyopencl tiled kernel", "clrt a@b"),
              f"{name}: clrt vs numpy": ratio(t, "numpy a@b", "clrt a@b")}
    return rows, ratios


def c_loop(lib_path):
    """c_loop.c compiled against the libclrt in use (cc and the clrt headers needed), or None."""
    import ctypes
    import pathlib
    import tempfile
    here = pathlib.Path(__file__).resolve().parent
    include = here.parents[1] / "include"
    out = pathlib.Path(tempfile.mkdtemp()) / "c_loop.so"
    r = subprocess.run(["cc", "-O2", "-shared", "-fPIC", "-I", str(include), str(here / "c_loop.c"),
                        lib_path, "-o", str(out)], capture_output=True, text=True)
    if r.returncode != 0:
        print(f"(no C loop: {r.stderr.strip()[:200]})")
        return None
    f = ctypes.CDLL(str(out)).c_loop_add
    f.restype = ctypes.c_double
    f.argtypes = [ctypes.c_void_p] * 4 + [ctypes.c_int]
    return f


def bench_overhead(ctx, pctx, pq, reps, ops=500):  # noqa: C901 (one case, several timings)
    n = 1000
    x = np.ones(n, np.float32)
    a, b, c = (clrt.to_device(x, ctx=ctx) for _ in range(3))
    pool = cltools.MemoryPool(cltools.ImmediateAllocator(pq))
    pa, pb = cla.to_device(pq, x, allocator=pool), cla.to_device(pq, x, allocator=pool)
    from clrt import _lib
    raw, nrows = _lib.lib.clrt_add, _lib.lib.clrt_buffer_rows
    q, ha, hb, hc = ctx._q, a._st.ptr, b._st.ptr, c._st.ptr

    def loop(f, finish):
        def run():
            for _ in range(ops):
                f()
            finish()
        return run

    fns = {
        "clrt.add(a, b, out=c)": loop(lambda: clrt.add(a, b, out=c), ctx.finish),
        "clrt a + b": loop(lambda: a + b, ctx.finish),
        "clrt_add through ctypes": loop(lambda: raw(q, hc, ha, hb), ctx.finish),
        "ctypes call of clrt_buffer_rows": loop(lambda: nrows(ha), lambda: None),
        "pyopencl a += b": loop(lambda: pa.__iadd__(pb), pq.finish),
        "pyopencl a + b": loop(lambda: pa + pb, pq.finish),
    }
    cl_loop = c_loop(_lib.path)
    if cl_loop is not None:
        fns["C API: clrt_add in a C loop"] = lambda: cl_loop(q, hc, ha, hb, ops)
    t = rounds(fns, reps)
    per = {k: statistics.median(v) / ops for k, v in t.items()}
    rows = [("tiny add (1000 f32), per call", k, f"{per[k] * 1e6:.2f} us", "") for k in fns]
    ratios = {"tiny add: clrt.add(out=) vs pyopencl a += b (time)":
              ratio(t, "pyopencl a += b", "clrt.add(a, b, out=c)"),
              "tiny add: clrt a + b vs pyopencl a + b (time)": ratio(t, "pyopencl a + b", "clrt a + b")}
    if cl_loop is not None:
        ratios["tiny add: clrt.add(out=) minus the C loop, same rounds, us"] = statistics.median(
            (p - c) / ops for p, c in zip(t["clrt.add(a, b, out=c)"], t["C API: clrt_add in a C loop"])) * 1e6
        ratios["tiny add: clrt_add through ctypes minus the C loop, same rounds, us"] = statistics.median(
            (p - c) / ops for p, c in zip(t["clrt_add through ctypes"], t["C API: clrt_add in a C loop"])) * 1e6
    # The binding's cost over the C API, measured without the device's noise: clrt.add(out=)
    # with its one C call (clrt_binary) replaced by a ctypes call of a trivial clrt function
    # taking the same five arguments, so what is timed is the binding's Python code plus
    # ctypes' argument conversion and call: everything the C API does not pay.
    import ctypes
    stub = ctypes.CDLL(_lib.path).clrt_buffer_rows  # a 1-argument function: extra arguments
    stub.restype, stub.argtypes = ctypes.c_size_t, [ctypes.c_void_p, ctypes.c_int] + [ctypes.c_void_p] * 3
    real = _lib.lib.clrt_binary  # the binding's one C call of clrt.add (clrt/_ops.py), behind its guard
    _lib.lib.clrt_binary = lambda q_, op, c_, a_, b_: stub(c_, op, q_, a_, b_) and 0
    try:
        stubbed = rounds({"stub": loop(lambda: clrt.add(a, b, out=c), lambda: None)}, reps)["stub"]
    finally:
        _lib.lib.clrt_binary = real
    ratios["tiny add: the binding's cost per call over the C API, us"] = \
        statistics.median(stubbed) / ops * 1e6
    return [r for r in rows if "buffer_rows" not in r[1]] + \
        [("tiny add (1000 f32), per call", "ctypes call of clrt_buffer_rows",
          f"{per['ctypes call of clrt_buffer_rows'] * 1e6:.2f} us", "")], ratios, per


def clrt_bench_overhead(path, selector):
    """The C API's per-call cost of the same tiny add, from clrt-bench in this run."""
    r = subprocess.run([path, "--device", selector, "--op", "add", "--add-sizes", "1e3",
                        "--sizes", "16", "--dtype", "f32", "--no-cold", "--json"],
                       capture_output=True, text=True, timeout=600)
    d = json.loads(r.stdout)
    return d["devices"][0]["tiny_add_overhead"]["clrt_op_s"]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--device", default=None, help="clrt selector (default: $CLRT_DEVICE or clrt's ranking)")
    ap.add_argument("--clrt-bench", default=None, help="path to clrt-bench, for the C API overhead")
    ap.add_argument("--quick", action="store_true", help="fewer rounds, smaller sizes")
    ap.add_argument("--json", default=None)
    args = ap.parse_args()
    ctx = clrt.Context(args.device)
    pctx, pq = pyopencl_queue(ctx)
    print(f"device: {ctx.device.name} ({ctx.device.platform} {ctx.device.driver}); "
          f"clrt {clrt.library_version()}, pyopencl {cl.VERSION_TEXT}, numpy {np.__version__}")
    rows, ratios = [], {}
    big = 1024 if args.quick else 4096
    for n in (1000, big):
        r, q = bench_add(ctx, pctx, pq, n, 5 if args.quick else 15)
        rows += r
        ratios.update(q)
    for n, dt, reps in ((1000, np.float64, 5), (512 if args.quick else 2048, np.float32, 3)):
        r, q = bench_matmul(ctx, pctx, pq, n, dt, 2 if args.quick else reps)
        rows += r
        ratios.update(q)
    r, q, per = bench_overhead(ctx, pctx, pq, 5 if args.quick else 21)
    rows += r
    ratios.update(q)
    if args.clrt_bench:
        c_api = clrt_bench_overhead(args.clrt_bench, args.device or os.environ.get("CLRT_DEVICE") or "0")
        rows.append(("tiny add (1000 f32), per call", "C API clrt_add (clrt-bench)",
                     f"{c_api * 1e6:.2f} us", ""))
        ratios["tiny add: clrt.add(out=) minus clrt-bench's C API figure, us (not the same rounds)"] = \
            (per["clrt.add(a, b, out=c)"] - c_api) * 1e6
    print("\n| case | contender | median | rate |\n| --- | --- | --- | --- |")
    for row in rows:
        print("| " + " | ".join(row) + " |")
    print("\n| ratio | value |\n| --- | --- |")
    for k, v in ratios.items():
        print(f"| {k} | {v:.2f} |")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"device": ctx.device.name, "rows": rows, "ratios": ratios}, f, indent=1)
    ctx.close()


if __name__ == "__main__":
    main()
