"""One kernel on one target: compiled, parsed, its occupancy and hottest loop, as a dict that
--json prints as it is."""
import concurrent.futures
import dataclasses
import os
import shutil
import tempfile

from . import amd, intel, loops, nvidia, occupancy, run, toolchain
from .targets import TARGETS

VENDORS = {"nvidia": nvidia, "amd": amd, "intel": intel}
DEFAULT_GROUP = 256


@dataclasses.dataclass
class Job:
    """A kernel to compile: file (OpenCL C), kernel, target, defines (NAME=VALUE), other build
    options (-cl-...), the group it is launched with (None: its reqd_work_group_size, else
    256), and labels for clrt's own builds (cls, program, dtype, variant)."""
    file: str
    kernel: str
    target: str
    defines: list = dataclasses.field(default_factory=list)
    options: list = dataclasses.field(default_factory=list)
    group: int = None
    std: str = "CL1.2"
    clang: str = None
    keep: str = None
    dump: bool = False
    labels: dict = dataclasses.field(default_factory=dict)


def program_key(job):
    """Jobs with the same key are one build: kernels of one program, options and target."""
    return (job.file, job.target, tuple(job.defines), tuple(job.options), job.std, job.clang, job.keep)


def build(jobs):
    """Builds the program the jobs share once; each job's result, in their order."""
    job = jobs[0]
    t = TARGETS[job.target]
    mod = VENDORS[t["vendor"]]
    work = job.keep or tempfile.mkdtemp(prefix="clrt-isa-")
    os.makedirs(work, exist_ok=True)
    try:
        art = mod.compile(job, os.path.abspath(job.file), work)
    except toolchain.Missing as e:
        return [dict(base(j), error=str(e), missing=True) for j in jobs]
    except run.Failed as e:
        return [dict(base(j), error=str(e)) for j in jobs]
    finally:
        if not job.keep:
            shutil.rmtree(work, ignore_errors=True)
    return [one(j, mod, art) for j in jobs]


def base(job):
    return dict(job.labels, target=job.target, vendor=TARGETS[job.target]["vendor"], kernel=job.kernel, file=job.file,
                defines=job.defines, options=job.options)


def one(job, mod, art):
    """One kernel of a built program: its facts, occupancy and hottest loop."""
    res = base(job)
    try:
        info, ins = mod.extract(art, job.kernel)
    except run.Failed as e:
        return dict(res, error=str(e))
    reqd = info.get("reqd_group")
    group = job.group or (reqd[0] * reqd[1] * reqd[2] if reqd else DEFAULT_GROUP)
    res.update(info, group=group)
    if reqd and job.group and job.group != reqd[0] * reqd[1] * reqd[2]:
        res["warning"] = "group %d is not the kernel's reqd_work_group_size %s" % (job.group, reqd)
    res["occupancy"] = occupancy.occupancy(job.target, info, group)
    res["loop"] = loops.hottest(ins, mod.classify, mod.slot, TARGETS[job.target]["peak"])
    if job.dump and res["loop"]:
        res["dump"] = [x["text"] for x in loops.one_pass(ins, res["loop"]["head"], res["loop"]["back"])]
    return res


def analyze_all(jobs, workers):
    """Every job's result, in the jobs' order: each program built once (compilers run in
    parallel threads), each of its kernels read from that build."""
    groups = {}
    for i, j in enumerate(jobs):
        groups.setdefault(program_key(j), []).append(i)
    order = sorted(groups.values(), key=lambda ix: -len(ix))
    out = [None] * len(jobs)
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, workers)) as ex:
        for ix, results in zip(order, ex.map(lambda ix: build([jobs[i] for i in ix]), order)):
            for i, r in zip(ix, results):
                out[i] = r
    return out
