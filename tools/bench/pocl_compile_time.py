#!/usr/bin/env python3
"""How long POCL spends compiling during one command, cold: the command runs
with new, empty CLRT_CACHE_DIR and POCL_CACHE_DIR and POCL_DEBUG=llvm,timing,
and POCL's log is read back into

  front end                 clang on each program built from source (its
                            opencl-c.h included), "all build options" to
                            "Writing program.bc"
  work-group generation     each kernel's work-group function, as POCL times it
  code generation           each kernel's object code, "Generating an object
                            file" to the end of POCL's llvm_codegen timer
  busy                      the union of those intervals: time during which
                            POCL was compiling something

POCL compiles a program's kernels on their first launch (one per local size),
on its own thread, so the three overlap with each other and with the run;
busy counts overlapping seconds once. (POCL's own llvm_codegen timer starts
when the kernel is asked for: it includes the work-group generation and any
wait for POCL's compiler, so adding it to the work-group time counts twice.)
The reading pairs each start with the next end of its kind, so it assumes one
front end at a time (clrt builds a context's programs one after another) and
one kernel compile at a time (POCL's compile thread), within one day (the log
stamps carry the time of day).

Usage:
  tools/bench/pocl_compile_time.py [--runs N] -- COMMAND [ARG...]
  tools/bench/pocl_compile_time.py --log FILE     (a log already written)
Example (the first-contact figure of docs/benchmarks.md):
  tools/bench/pocl_compile_time.py --runs 3 -- build/tools/clrt-train --epochs 1 --limit 2000 --test-limit 500
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile
import time

STAMP = re.compile(r"^\[\d+-\d+-\d+ (\d+):(\d+):([\d.]+)\]")
TIMER = re.compile(r">>>\s+([\d.]+)\s+(ms|s|us)\s+API: (llvm_workgroup_ir_func_gen|llvm_codegen)")
UNIT = {"ms": 1e-3, "s": 1.0, "us": 1e-6}


def intervals(lines):
    """(front end, work-group generation, code generation) intervals, in seconds of the day."""
    front, groups, code = [], [], []
    now = front_start = code_start = None
    for line in lines:
        m = STAMP.match(line)
        if m:
            now = int(m.group(1)) * 3600 + int(m.group(2)) * 60 + float(m.group(3))
            continue
        if now is None:
            continue
        if "all build options" in line:
            front_start = now
        elif "Writing program.bc" in line and front_start is not None:
            front.append((front_start, now))
            front_start = None
        elif "Generating an object file" in line:
            code_start = now
        m = TIMER.search(line)
        if m:
            seconds = float(m.group(1)) * UNIT[m.group(2)]
            if m.group(3) == "llvm_workgroup_ir_func_gen":
                groups.append((now - seconds, now))
            elif code_start is not None:
                code.append((code_start, now))
                code_start = None
    return front, groups, code


def union(spans):
    total, cur = 0.0, None
    for a, b in sorted(spans):
        if cur is None or a > cur[1]:
            if cur:
                total += cur[1] - cur[0]
            cur = [a, b]
        else:
            cur[1] = max(cur[1], b)
    return total + (cur[1] - cur[0] if cur else 0.0)


def summary(lines):
    front, groups, code = intervals(lines)
    length = lambda spans: sum(b - a for a, b in spans)
    return ("programs %d, front end %.2f s; kernels %d, work-group generation %.2f s, code generation %.2f s; "
            "busy %.2f s" % (len(front), length(front), len(code), length(groups), length(code),
                             union(front + groups + code)))


def run_cold(command):
    with tempfile.TemporaryDirectory(prefix="clrt-compile-time-") as tmp:
        env = dict(os.environ, POCL_DEBUG="llvm,timing")
        for var, sub in (("CLRT_CACHE_DIR", "clrt"), ("POCL_CACHE_DIR", "pocl")):
            env[var] = os.path.join(tmp, sub)
            os.mkdir(env[var])
        start = time.monotonic()
        done = subprocess.run(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                              errors="replace")
        wall = time.monotonic() - start
    if done.returncode != 0:
        sys.exit("pocl_compile_time: %s exited %d" % (command[0], done.returncode))
    return wall, done.stderr.splitlines()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--log", help="read this POCL_DEBUG=llvm,timing log instead of running a command")
    ap.add_argument("--runs", type=int, default=1, help="cold runs of the command, one line each")
    ap.add_argument("command", nargs="*", help="the command, after --")
    a = ap.parse_args()
    if a.log:
        with open(a.log, errors="replace") as f:
            print(summary(f.read().splitlines()))
        return 0
    if not a.command or a.runs < 1:
        ap.error("give a command after -- (and --runs 1 or more), or --log FILE")
    for r in range(a.runs):
        wall, lines = run_cold(a.command)
        print("run %d: wall %.2f s; %s" % (r + 1, wall, summary(lines)), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
