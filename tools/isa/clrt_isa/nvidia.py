"""NVIDIA: OpenCL C -> PTX with clang and libclc, PTX -> SASS with ptxas; ptxas -v's report
and nvdisasm's listing parsed."""
import os
import re

from . import loops, run, toolchain


def parse_ptxas(log, kernel):
    """ptxas -v's lines for kernel: registers, spill stores and loads (bytes), stack frame,
    shared memory per group, barriers."""
    start = log.find("entry function '%s'" % kernel)
    if start < 0:
        raise run.Failed("ptxas reported no entry function '%s'" % kernel)
    nxt = log.find("Compiling entry function", start + 1)
    part = log[start:nxt if nxt > 0 else len(log)]

    def num(pattern, always=True):
        """ptxas -v prints registers, stack frame and spills for every entry (a line that
        is not there is a misread log: Failed), shared memory and barriers when used."""
        m = re.search(pattern, part)
        if not m and always:
            raise run.Failed("ptxas -v's report of '%s' lacks /%s/: %s" % (kernel, pattern, part[:500]))
        return int(m.group(1)) if m else 0
    return dict(registers=num(r"Used (\d+) registers"), spill_stores=num(r"(\d+) bytes spill stores"),
                spill_loads=num(r"(\d+) bytes spill loads"), stack=num(r"(\d+) bytes stack frame"),
                local_bytes=num(r"(\d+) bytes smem", False), barriers_used=num(r"used (\d+) barriers", False))


def parse_sass(text, kernel):
    """nvdisasm -c's listing of kernel's section as instructions (see loops.py)."""
    sec = re.search(r"\.text\.%s:\s*\n(.*?)(?=^\s*//-+ \.|^\s*\.section|\Z)" % re.escape(kernel), text, re.S | re.M)
    if not sec:
        raise run.Failed("kernel '%s' not in the SASS" % kernel)
    ins, labels = [], {}
    for line in sec.group(1).splitlines():
        lm = re.match(r"\s*(\.L_x_\d+):", line)
        if lm:
            labels[lm.group(1)] = len(ins)
            continue
        im = re.match(r"\s*/\*([0-9a-f]+)\*/\s+(.*?)\s*;?\s*$", line)
        if not im:
            continue
        text_ = im.group(2).rstrip(" ;")
        pred = re.match(r"@!?U?P[T0-7]\s+", text_)
        body = text_[pred.end():] if pred else text_
        op = body.split()[0] if body else ""
        tm = re.search(r"`\((\.L_x_\d+)\)", body) if op.startswith("BRA") else None
        ins.append(dict(addr=int(im.group(1), 16), text=text_, op=op,
                        cond=bool(pred and not pred.group(0).startswith("@PT")) or op == "BRA.DIV",
                        label=tm.group(1) if tm else None))
    return loops.resolve(ins, labels, "%s's SASS" % kernel)


def classify(x):
    op = x["op"]
    parts = op.split(".")
    base, mods = parts[0], set(parts[1:])
    width = 16 if "128" in mods else 8 if "64" in mods else 1 if mods & {"U8", "S8"} else \
        2 if mods & {"U16", "S16"} else 4
    if base == "FFMA":
        return "fma", ("f32", 1)
    if base == "FFMA2":
        return "fma", ("f32", 2)
    if base == "DFMA":
        return "fma", ("f64", 1)
    if base == "HFMA2" and not re.search(r"-?RZ, -?RZ", x["text"]):  # HFMA2 Rx, -RZ, RZ, v: a move
        return "fma", ("f16", 2)
    if base in ("LDS", "LDSM"):
        return "lds", width
    if base == "STS":
        return "sts", width
    if base in ("LDG", "LDGSTS"):
        return "ldg", width
    if base == "STG":
        return "stg", width
    if base == "STL" or base == "LDL":
        return "spill", width
    if base == "BAR":
        return "bar", 1
    return None, None


def slot(x):
    """A scheduler issues one instruction of any kind per clock."""
    return True


def reqd_group(ir, kernel):
    """reqd_work_group_size from the kernel's LLVM IR, or None."""
    m = re.search(r"define [^\n]*@%s\(.*?!reqd_work_group_size !(\d+)" % re.escape(kernel), ir)
    if not m:
        return None
    md = re.search(r"^!%s = !\{i32 (\d+), i32 (\d+), i32 (\d+)\}" % m.group(1), ir, re.M)
    return [int(v) for v in md.groups()] if md else None


def compile(job, src, work):
    """Builds job's program (analyze.Job) for its NVIDIA target: its LLVM IR (for
    reqd_work_group_size), ptxas -v's report and the SASS of every kernel."""
    clang = toolchain.find_clang("nvidia", job.clang)
    cuda = toolchain.find_cuda_bin()
    bc = toolchain.find_libclc("nvptx64--nvidiacl.bc")
    maxreg = [o.split("=", 1)[1] for o in job.options if o.startswith("-cl-nv-maxrregcount=")]
    cl_opts = [o for o in job.options if not o.startswith("-cl-nv-")]
    # half precision as NVIDIA's driver has it (clang's NVPTX target leaves cl_khr_fp16 off)
    base = run.clang_cmd(clang, "nvptx64-unknown-nvidiacl", "-march=sm_80", bc, job,
                         ["-Xclang", "-cl-ext=+cl_khr_fp16"] + cl_opts)
    run.tool(base + ["-O0", "-emit-llvm", "-S", "-o", work + "/k.ll", src], "clang (LLVM IR)")
    run.tool(base + ["-O3", "-S", "-o", work + "/k.ptx", src], "clang (PTX)")
    # -cl-nv-maxrregcount=N is what NVIDIA's driver hands ptxas as -maxrregcount=N
    log = run.tool([os.path.join(cuda, "ptxas"), "-arch=" + job.target, "-O3", "-v"] +
                   ["-maxrregcount=" + m for m in maxreg[-1:]] + [work + "/k.ptx", "-o", work + "/k.cubin"], "ptxas")
    run.keep(work, "ptxas.log", log)
    sass = run.tool([os.path.join(cuda, "nvdisasm"), "-c", work + "/k.cubin"], "nvdisasm")
    run.keep(work, "k.sass", sass)
    with open(work + "/k.ll") as f:
        ir = f.read()
    return dict(ir=ir, log=log, sass=sass, toolchain="%s (%s) + libclc -> PTX sm_80 -> ptxas %s -arch=%s -O3%s" % (
        os.path.basename(clang), toolchain.version(clang), toolchain.version(os.path.join(cuda, "ptxas")), job.target,
        " -maxrregcount=" + maxreg[-1] if maxreg else ""))


def extract(art, kernel):
    """One kernel's facts and instructions from compile()'s outputs."""
    info = parse_ptxas(art["log"], kernel)
    info.update(spill_bytes=info["spill_stores"] + info["spill_loads"], simd=32,
                reqd_group=reqd_group(art["ir"], kernel), toolchain=art["toolchain"])
    return info, parse_sass(art["sass"], kernel)
