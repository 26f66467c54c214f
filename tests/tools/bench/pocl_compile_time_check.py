#!/usr/bin/env python3
"""tools/bench/pocl_compile_time.py on a made-up POCL_DEBUG=llvm,timing log:
the intervals it reads, the sums, and the union that counts overlap once.
Usage: pocl_compile_time_check.py TOOL"""
import importlib.util
import subprocess
import sys
import tempfile

# A program's front end 10.0-10.2 s; its kernel: work-group generation 0.3 s
# (ending 10.5), code generation 10.5-10.9 s (POCL's timer says 0.9 s: from
# the request, the work-group time inside it); a second program's front end
# 10.8-11.0 s overlaps that code generation by 0.1 s.
LOG = """\
[2026-12-06 16:00:10.000000000] POCL: in fn pocl_llvm_build_program at line 365:
  *** INFO ***  |      LLVM |  all build options: -DREAL=float
[2026-12-06 16:00:10.200000000] POCL: in fn pocl_llvm_build_program at line 695:
  *** INFO ***  |      LLVM |  Writing program.bc to /tmp/p/AA/program.bc.
[2026-12-06 16:00:10.500000000] POCL: in fn pocl_llvm_generate_workgroup_function_nowrite at line 482:
  *** INFO ***  |    TIMING |       >>>       300.000  ms    API: llvm_workgroup_ir_func_gen
[2026-12-06 16:00:10.500000000] POCL: in fn pocl_llvm_codegen at line 668:
  *** INFO ***  |      LLVM |  Generating an object file directly.
[2026-12-06 16:00:10.800000000] POCL: in fn pocl_llvm_build_program at line 365:
  *** INFO ***  |      LLVM |  all build options: -DREAL=double
[2026-12-06 16:00:10.900000000] POCL: in fn llvm_codegen at line 259:
  *** INFO ***  |    TIMING |       >>>       900.000  ms    API: llvm_codegen
[2026-12-06 16:00:11.000000000] POCL: in fn pocl_llvm_build_program at line 695:
  *** INFO ***  |      LLVM |  Writing program.bc to /tmp/p/BB/program.bc.
"""


def main():
    tool = sys.argv[1]
    spec = importlib.util.spec_from_file_location("pocl_compile_time", tool)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    front, groups, code = mod.intervals(LOG.splitlines())
    near = lambda spans, want: len(spans) == len(want) and all(
        abs(a - c) < 1e-6 and abs(b - d) < 1e-6 for (a, b), (c, d) in zip(spans, want))
    base = 16 * 3600
    checks = [
        ("front end", near(front, [(base + 10.0, base + 10.2), (base + 10.8, base + 11.0)])),
        ("work-group generation", near(groups, [(base + 10.2, base + 10.5)])),
        ("code generation", near(code, [(base + 10.5, base + 10.9)])),
        ("union", abs(mod.union(front + groups + code) - 1.0) < 1e-6),
    ]
    with tempfile.NamedTemporaryFile("w", suffix=".log") as f:
        f.write(LOG)
        f.flush()
        out = subprocess.run([sys.executable, tool, "--log", f.name], capture_output=True, text=True).stdout
    want = ("programs 2, front end 0.40 s; kernels 1, work-group generation 0.30 s, code generation 0.40 s; "
            "busy 1.00 s")
    checks.append(("--log output: %r" % out.strip(), out.strip() == want))
    failed = [name for name, ok in checks if not ok]
    for name in failed:
        print("FAILED:", name)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
