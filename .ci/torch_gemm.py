#!/usr/bin/env python3
"""torch.matmul's square products, timed as clrt-bench times clrt's: the reference of the GPU
check (.ci/gpu-check.sh) on the same GPU, each call with its completion by the host's clock. On CUDA with TF32 off, so fp32 is cuBLAS's SGEMM
(and fp64 its DGEMM, which may use the FP64 tensor cores OpenCL cannot reach). Prints one JSON
object per line: dtype, n, median_s, tflops, device; or one with "error" when PyTorch (with
CUDA, unless --cpu) is not there.

Usage: torch_gemm.py [--sizes 1024,2048,4096] [--dtypes f32,f64] [--reps 10] [--cpu]"""
import argparse, json, statistics, sys, time


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sizes", default="1024,2048,4096")
    ap.add_argument("--dtypes", default="f32,f64")
    ap.add_argument("--reps", type=int, default=10)
    ap.add_argument("--cpu", action="store_true", help="on the CPU (the check's dry run)")
    a = ap.parse_args()
    try:
        import torch
    except ImportError:
        print(json.dumps({"error": "no PyTorch"}))
        return 0
    cuda = not a.cpu and torch.cuda.is_available()
    if not a.cpu and not cuda:
        print(json.dumps({"error": "PyTorch without CUDA"}))
        return 0
    dev = "cuda" if cuda else "cpu"
    torch.backends.cuda.matmul.allow_tf32 = False  # full fp32: cuBLAS SGEMM, not TF32 tensor cores
    torch.backends.cudnn.allow_tf32 = False
    torch.set_float32_matmul_precision("highest")
    name = torch.cuda.get_device_name(0) if cuda else "cpu"
    for dt in a.dtypes.split(","):
        tdt = {"f32": torch.float32, "f64": torch.float64}[dt]
        for n in (int(s) for s in a.sizes.split(",")):
            x = torch.rand(n, n, dtype=tdt, device=dev)
            y = torch.rand(n, n, dtype=tdt, device=dev)
            times = []
            for rep in range(a.reps + 3):  # three warm-ups
                # the call and its completion, by the host's clock, as clrt-bench times clrt_matmul
                t0 = time.perf_counter()
                torch.matmul(x, y)
                if cuda:
                    torch.cuda.synchronize()
                t = time.perf_counter() - t0
                if rep >= 3:
                    times.append(t)
            med = statistics.median(times)
            print(json.dumps({"dtype": dt, "n": n, "median_s": med, "tflops": 2.0 * n ** 3 / med / 1e12,
                              "device": name, "torch": torch.__version__}), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
