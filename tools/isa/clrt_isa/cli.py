"""clrt-isa's command line."""
import argparse
import json
import os
import sys
import tempfile

from . import analyze, builds, goals, report, run, toolchain
from .targets import ORDER, parse_targets, target_for_device

USAGE = """\
  clrt-isa FILE.cl -k KERNEL [-t TARGETS] [-D NAME=VALUE]...   a kernel of yours
  clrt-isa --clrt BUILD [--kernels LIST] [-t TARGETS]          clrt's own, as the library builds them
  clrt-isa --setup [nvidia|amd|intel]                           install the compilers"""

EPILOG = """\
targets: %s (or nvidia, amd, intel, all; default all)
Exit status: 0; 1 when a kernel does not compile, or with --check when a shipped kernel misses
its goals; 2 when a compiler is missing (0 with --optional: the compilers are optional there).
The compilers: tools/isa/setup.sh (--setup), docs/gpu-isa.md.""" % ", ".join(ORDER)


def parse_args(argv):
    ap = argparse.ArgumentParser(prog="clrt-isa", usage=USAGE, epilog=EPILOG,
                                 description="What NVIDIA's, AMD's and Intel's compilers make of an OpenCL C kernel, "
                                 "without a GPU: registers, spills, local memory, occupancy, and the hottest loop's "
                                 "FMA share with the bound it puts on peak.",
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("file", nargs="?", help="OpenCL C source")
    ap.add_argument("-k", "--kernel", help="the kernel (FILE's)")
    ap.add_argument("-t", "--targets", default="all", help="comma-separated targets (default all)")
    ap.add_argument("--device", metavar="NAME", help="the target of a device of this name (CL_DEVICE_NAME: "
                    "'NVIDIA H200', 'Intel(R) Arc(TM) A770 Graphics', 'gfx90a'); none known: exit 3")
    ap.add_argument("-D", dest="defines", action="append", default=[], metavar="NAME=VALUE", help="a define")
    ap.add_argument("-O", "--option", dest="options", action="append", default=[], metavar="OPT",
                    help="another build option, as clrt_program_create takes it (-cl-mad-enable, "
                    "-cl-nv-maxrregcount=N: ptxas's -maxrregcount)")
    ap.add_argument("--prelude", help="a file put in front of FILE (clrt's kernels: cl/common.cl)")
    ap.add_argument("--group", type=int, help="work-items per group (default: reqd_work_group_size, else 256)")
    ap.add_argument("--std", default="CL1.2", help="OpenCL C version (default CL1.2)")
    ap.add_argument("--clang", help="the clang to use (default clang-15 for NVIDIA, the newest of clang-19..16 for AMD)")
    ap.add_argument("--clrt", metavar="BUILD", help="clrt's own kernels, from BUILD's gpu_kernel_options")
    ap.add_argument("--kernels", default="", help="with --clrt: only these (matmul,nn_im2col,nn_layout,nn_pool,nn_act)")
    ap.add_argument("--classes", default="", help="with --clrt: only these vendor classes (nvidia,amd,intel)")
    ap.add_argument("--json", action="store_true", help="one JSON object per kernel and target")
    ap.add_argument("--check", action="store_true", help="exit 1 where a shipped kernel misses its goals")
    ap.add_argument("--optional", action="store_true", help="a missing compiler is not a failure (exit 0)")
    ap.add_argument("--dump", action="store_true", help="print the hottest loop's instructions")
    ap.add_argument("--keep", metavar="DIR", help="keep the compilers' outputs (one target): PTX, SASS, .s, .asm")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2, help="compilers run at once (default: cores)")
    ap.add_argument("--setup", nargs="*", metavar="PART", help="install the compilers (tools/isa/setup.sh)")
    a = ap.parse_args(argv)
    if a.setup is None and not a.clrt and not (a.file and a.kernel):
        ap.error("give FILE and -k KERNEL, or --clrt BUILD (see --help)")
    return a


def user_jobs(a, targets, src_dir):
    """FILE's kernel for each target; with --prelude, the prelude put in front as clrt does
    (in src_dir, which goes when the run ends)."""
    src = a.file
    if a.prelude:
        src = os.path.join(src_dir, os.path.basename(a.file))
        with open(src, "w") as f, open(a.prelude) as p, open(a.file) as k:
            f.write(p.read() + '\n#line 1 "%s"\n' % os.path.basename(a.file) + k.read())
    if not os.path.isfile(src):
        raise run.Failed("no such file: " + src)
    return [analyze.Job(file=src, kernel=a.kernel, target=t, defines=list(a.defines), options=list(a.options),
                        group=a.group, std=a.std, clang=a.clang, keep=a.keep, dump=a.dump) for t in targets]


def clrt_jobs(a, targets, src_dir):
    rows, notes = builds.load(builds.find_program(a.clrt), src_dir)
    split = lambda s: [w for w in s.split(",") if w]
    programs, classes = split(a.kernels), split(a.classes)
    jobs = builds.jobs(rows, src_dir, programs, targets, classes)
    shown = {r["cls"] for r in rows if set(r["targets"]) & set(targets)}  # the classes of the targets asked for
    notes = [n for n in notes if n.split()[0] in shown and (not classes or builds.in_classes(n.split()[0], classes))
             and (not programs or n.split()[1] in programs)]
    for j in jobs:
        j.dump, j.clang = a.dump, a.clang
    return jobs, notes


def missing_summary(results, out):
    """One line per missing compiler, and the command that installs them all."""
    said = sorted({r["error"] for r in results if r.get("missing")})
    for s in said:
        out.write("clrt-isa: not installed: %s\n" % s)
    if said:
        out.write("clrt-isa: install the compilers with: %s\n" % toolchain.setup_command())


def main(argv=None):
    a = parse_args(sys.argv[1:] if argv is None else argv)
    if a.setup is not None:
        path = toolchain.setup_command().split(" ", 1)[1].split(" ")[0]
        os.execvp("sh", ["sh", path] + a.setup)
    if a.device:
        t = target_for_device(a.device)
        if not t:
            sys.stderr.write("clrt-isa: no target known for the device '%s'\n" % a.device)
            return 3
        a.targets = t
    try:
        targets = parse_targets(a.targets)
        with tempfile.TemporaryDirectory(prefix="clrt-isa-src-") as src_dir:
            jobs, notes = clrt_jobs(a, targets, src_dir) if a.clrt else (user_jobs(a, targets, src_dir), [])
            results = analyze.analyze_all(jobs, a.jobs)
    except (ValueError, run.Failed, OSError) as e:
        sys.stderr.write("clrt-isa: error: %s\n" % e)
        return 1
    return finish(a, results, notes)


def finish(a, results, notes):
    missing = [r for r in results if r.get("missing")]
    shown = [r for r in results if not r.get("missing")]
    if a.json:
        for r in shown:
            sys.stdout.write(json.dumps(r, sort_keys=True) + "\n")
    elif len(shown) == 1 and not a.clrt:
        report.detail(shown[0], sys.stdout)
    elif shown:
        report.table(shown, sys.stdout, check=a.check)
    for n in notes:
        sys.stderr.write("clrt-isa: note: %s\n" % n)
    missing_summary(results, sys.stderr)
    failed = [r for r in shown if "error" in r]
    for r in failed:
        sys.stderr.write("clrt-isa: %s on %s: %s\n" % (report.name_of(r), r["target"], r["error"]))
    missed, excused, stale = goals.judge(shown) if a.check and a.clrt else ([], [], [])
    for r, m in excused:
        sys.stderr.write("clrt-isa: known miss: %s on %s: %s (%s)\n" % (report.name_of(r), r["target"], "; ".join(m),
                                                                       goals.known(r)))
    for r, m in missed:
        sys.stderr.write("clrt-isa: goal missed: %s on %s: %s\n" % (report.name_of(r), r["target"], "; ".join(m)))
    for k in stale:
        sys.stderr.write("clrt-isa: known miss no longer happens: %s (remove it from goals.KNOWN)\n" % " ".join(k))
    if a.check and a.clrt and shown:
        sys.stderr.write("clrt-isa: %d of %d shipped builds meet their goals, %d known misses\n"
                         % (len(shown) - len(missed) - len(excused), len(shown), len(excused)))
    if failed or missed or stale:
        return 1
    return 0 if not missing or a.optional else 2
