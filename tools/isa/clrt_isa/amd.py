"""AMD: OpenCL C -> AMDGPU assembly with clang and libclc; the assembly's kernel body and its
metadata (registers, spills, scratch, LDS, LLVM's own occupancy) parsed."""
import os
import re

from . import loops, run, toolchain


# the metadata every kernel has on every target (code object v4 and v5): one missing is a misread
REQUIRED = ("vgpr_count", "sgpr_count", "vgpr_spill_count", "sgpr_spill_count", "private_segment_fixed_size",
            "group_segment_fixed_size", "wavefront_size")


def parse_metadata(s, kernel):
    """The amdhsa.kernels entry for kernel: VGPRs (AGPRs among them), SGPRs, spills, scratch
    and LDS bytes, wave size, reqd_work_group_size; and LLVM's occupancy comment."""
    md = None
    yaml = s[s.find("amdhsa.kernels:"):]
    for entry in re.split(r"\n  - ", yaml)[1:]:
        kv = dict(re.findall(r"^\s*\.?([\w]+):\s+(\S+)\s*$", "    " + entry, re.M))
        if kv.get("name") == kernel:
            md = kv
            rw = re.search(r"\.reqd_workgroup_size:\s*\n\s*- (\d+)\s*\n\s*- (\d+)\s*\n\s*- (\d+)", entry)
            md["reqd"] = [int(v) for v in rw.groups()] if rw else None
    if md is None:
        raise run.Failed("kernel '%s' not in the AMDGPU metadata" % kernel)
    end = re.search(r"^\.Lfunc_end\d+:\s*\n\s*\.size\s+%s," % re.escape(kernel), s, re.M)
    occ = re.search(r"; Occupancy: (\d+)", s[end.end():end.end() + 4000]) if end else None
    lacking = [k for k in REQUIRED if k not in md]
    if lacking:
        raise run.Failed("%s's AMDGPU metadata lacks %s" % (kernel, ", ".join("." + k for k in lacking)))
    g = lambda k: int(md.get(k, 0))  # only agpr_count is optional: targets without AGPRs leave it out
    return dict(registers=g("vgpr_count"), sgprs=g("sgpr_count"), agprs=g("agpr_count"),
                spill_vgprs=g("vgpr_spill_count"), spill_sgprs=g("sgpr_spill_count"),
                spill_bytes=g("private_segment_fixed_size"), local_bytes=g("group_segment_fixed_size"),
                simd=g("wavefront_size"), reqd_group=md["reqd"], llvm_occupancy=int(occ.group(1)) if occ else None)


def parse_body(s, kernel):
    """The kernel's instructions (see loops.py)."""
    body = re.search(r"^%s:.*?\n(.*?)^\.Lfunc_end\d+:" % re.escape(kernel), s, re.S | re.M)
    if not body:
        raise run.Failed("kernel '%s' not in the AMDGPU assembly" % kernel)
    ins, labels = [], {}
    for line in body.group(1).splitlines():
        lm = re.match(r"(\.LBB\d+_\d+):", line)
        if lm:
            labels[lm.group(1)] = len(ins)
            continue
        code = line.split(";")[0].strip()
        if not code or code.startswith(".") or code.endswith(":"):
            continue
        bm = re.match(r"s_(c?)branch\w*\s+(\.LBB\d+_\d+)", code)
        ins.append(dict(addr=len(ins), text=code, op=code.split()[0], cond=bool(bm and bm.group(1)),
                        label=bm.group(2) if bm else None))
    return loops.resolve(ins, labels, "%s's AMDGPU assembly" % kernel)


def width(op):
    """Bytes a memory instruction moves per lane."""
    two = 2 if re.search(r"read2|load_2addr|write2|store_2addr", op) else 1
    m = re.search(r"dwordx(\d)$", op)
    if m:
        return 4 * int(m.group(1)) * two
    m = re.search(r"_b(\d+)(_d16(_hi)?)?$", op)
    if m:
        return int(m.group(1)) // 8 * two
    if re.search(r"(ubyte|sbyte|u8|i8)(_d16(_hi)?)?$", op):
        return two
    if re.search(r"(ushort|sshort|u16|i16)(_d16(_hi)?)?$", op):
        return 2 * two
    return 4 * two


FMA = re.compile(r"v_(pk_)?(fma|fmac|mac|mad|fmaak|fmamk)(_legacy)?_(f16|f32|f64)(_e32|_e64|_dpp|_sdwa)?$")


def classify(x):
    # gfx11 dual issue (VOPD): two VALU operations in one instruction, "v_dual_a ... :: v_dual_b ..."
    ops = [h.split()[0].replace("v_dual_", "v_") for h in x["text"].split("::")] if "::" in x["text"] else [x["op"]]
    fmas = [m for m in (FMA.match(o) for o in ops) if m]
    if fmas:
        return "fma", ("f" + fmas[0].group(4)[1:], sum(2 if m.group(1) else 1 for m in fmas))
    op = ops[0]
    if re.match(r"ds_(read|load)", op):
        return "lds", width(op)
    if re.match(r"ds_(write|store)", op):
        return "sts", width(op)
    if re.match(r"(global|buffer|flat)_load", op):
        return "ldg", width(op)
    if re.match(r"(global|buffer|flat)_store", op):
        return "stg", width(op)
    if re.match(r"scratch_(load|store)", op):
        return "spill", width(op)
    if op.startswith("s_barrier"):
        return "bar", 1
    return None, None


def slot(x):
    """Scalar, LDS and memory instructions issue beside the vector ALU: a VALU instruction is the slot."""
    return x["op"].startswith("v_")


def compile(job, src, work):
    """Builds job's program for its AMD target: the assembly of every kernel, with metadata."""
    clang = toolchain.find_clang("amd", job.clang)
    bc = toolchain.find_libclc("amdgcn--amdhsa.bc")
    cmd = run.clang_cmd(clang, "amdgcn-amd-amdhsa", "-mcpu=" + job.target, bc, job,
                        [o for o in job.options if not o.startswith("-cl-nv-")])
    run.tool(cmd + ["-O3", "-S", "-o", work + "/k.s", src], "clang (AMDGPU)")
    with open(work + "/k.s") as f:
        s = f.read()
    return dict(s=s, toolchain="%s (%s) + libclc -> amdgcn-amd-amdhsa -mcpu=%s -O3" % (
        os.path.basename(clang), toolchain.version(clang), job.target))


def extract(art, kernel):
    info = parse_metadata(art["s"], kernel)
    info["toolchain"] = art["toolchain"]
    return info, parse_body(art["s"], kernel)
