"""clrt's own kernels exactly as the library builds them for each vendor class: the rows that
the test-side program gpu_kernel_options prints (the library's defaults, build options, entry
points and launch groups, for made-up devices of each class), with the embedded sources it
writes, turned into jobs."""
import os
import subprocess

from . import run
from .analyze import Job
from .targets import TARGETS

PROGRAMS = ("tests/gpu_kernel_options", "tests/kernels/gpu_kernel_options")


def find_program(build):
    """gpu_kernel_options in a clrt build folder (cmake --build BUILD --target gpu_kernel_options)."""
    for p in PROGRAMS:
        if os.access(os.path.join(build, p), os.X_OK):
            return os.path.join(build, p)
    raise run.Failed("%s not found: build it with `cmake --build %s --target gpu_kernel_options` in a clrt checkout"
                     % (os.path.join(build, PROGRAMS[0]), build))


def parse_rows(text):
    """One dict per line '<class> <targets> <kernel> <entry> <dtype> <variant> <group> <file> <options...>';
    lines starting with '#' are notes (a build the library refuses for a class, and why). Any
    other line, or no row at all, is a misread (Failed): a build left out would pass --check."""
    rows, notes = [], []
    for line in text.splitlines():
        if line.startswith("#"):
            notes.append(line[1:].strip())
            continue
        f = line.split()
        if not f:
            continue
        if len(f) < 8 or not f[6].isdigit():
            raise run.Failed("gpu_kernel_options printed a line that is no build: %r" % line)
        rows.append(dict(cls=f[0], targets=f[1].split(","), program=f[2], entry=f[3], dtype=f[4], variant=f[5],
                         group=int(f[6]), file=f[7], options=f[8:]))
    if not rows:
        raise run.Failed("gpu_kernel_options printed no build")
    return rows, notes


def split_options(options):
    """Build options as clrt passes them -> (defines NAME=VALUE, other options)."""
    return [o[2:] for o in options if o.startswith("-D")], [o for o in options if not o.startswith("-D")]


def load(program, src_dir):
    """Runs gpu_kernel_options: the rows and notes; the sources land in src_dir."""
    p = subprocess.run([program, src_dir], capture_output=True, text=True)
    if p.returncode:
        raise run.Failed("%s failed (exit %d): %s" % (program, p.returncode, (p.stderr or p.stdout)[-2000:]))
    return parse_rows(p.stdout)


def in_classes(cls, classes):
    """A class by its name or its vendor's: 'intel' is intel, intel-arc and intel-xe."""
    return cls in classes or cls.split("-")[0] in classes


def jobs(rows, src_dir, programs=(), targets=(), classes=()):
    """A job per row and target, filtered by program (kernel) name, target and class."""
    out = []
    for r in rows:
        if (programs and r["program"] not in programs) or (classes and not in_classes(r["cls"], classes)):
            continue
        defines, options = split_options(r["options"])
        for t in r["targets"]:
            if t not in TARGETS or (targets and t not in targets):
                continue
            out.append(Job(file=os.path.join(src_dir, r["file"]), kernel=r["entry"], target=t, defines=defines,
                           options=options, group=r["group"] or None,
                           labels=dict(cls=r["cls"], program=r["program"], entry=r["entry"], dtype=r["dtype"],
                                       variant=r["variant"])))
    return out
