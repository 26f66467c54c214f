"""Intel: OpenCL C -> Gen ISA with ocloc (Intel's IGC), disassembled with IGA (ocloc disasm).
Parsed: ocloc's build output (IGC names a kernel that spills: "kernel K compiled SIMD32
allocated 128 regs and spilled around 1452"), the patch tokens ocloc disasm dumps (PTM.txt:
SIMD width, reqd_work_group_size, GRFs, SLM bytes) and the kernel's .asm."""
import glob
import os
import re
import struct

from . import loops, run, toolchain
from .targets import TARGETS

# patch tokens of the kernel binary ocloc disasm dumps (PTM.txt), read as little-endian words
TOKEN_LOCAL = 15  # ALLOCATE_LOCAL_SURFACE: offset, inline SLM bytes
TOKEN_EXEC_ENV = 23  # EXECUTION_ENVIRONMENT: reqd_work_group_size x, y, z, SIMD width, ..., GRFs at byte 80

BRANCHES = ("jmpi", "goto", "join", "while", "else", "endif", "if", "brc", "brd", "call", "calla", "ret", "break",
            "cont", "halt")


def parse_log(log, kernel):
    """IGC's spill line for kernel, if any: (SIMD width, GRFs, bytes spilled)."""
    m = re.search(r"kernel %s\s+compiled SIMD(\d+) allocated (\d+) regs and spilled around (\d+)" % re.escape(kernel),
                  log)
    return tuple(int(v) for v in m.groups()) if m else None


def parse_ptm(text, kernel):
    """{token: [bytes of its data, ...]} for kernel's patch tokens in PTM.txt."""
    parts = re.split(r"^Kernel #\d+\s*$", text, flags=re.M)
    for part in parts[1:]:
        if re.search(r"^\s*KernelName %s\s*$" % re.escape(kernel), part, re.M):
            tokens = {}
            for tok, hexes in re.findall(r"Token (\d+)\s*\n\s*4 Size \d+\s*\n\s*Hex ([0-9a-f ]*)", part):
                tokens.setdefault(int(tok), []).append(bytes(int(h, 16) for h in hexes.split()))
            return tokens
    raise run.Failed("kernel '%s' not in ocloc's patch tokens" % kernel)


def word(data, i):
    """The i-th little-endian word of a token's data; a token too short for it is a misread."""
    if len(data) < 4 * i + 4:
        raise run.Failed("ocloc's patch tokens: a token of %d bytes, short of its word %d" % (len(data), i))
    return struct.unpack_from("<I", data, 4 * i)[0]


def ptm_facts(tokens):
    """SIMD width, reqd_work_group_size (None: not given), GRFs and SLM bytes from the tokens.
    Every kernel has an execution environment: one missing is a misread (Failed), never a
    kernel of SIMD0."""
    if TOKEN_EXEC_ENV not in tokens:
        raise run.Failed("ocloc's patch tokens: no EXECUTION_ENVIRONMENT (token %d)" % TOKEN_EXEC_ENV)
    env = tokens[TOKEN_EXEC_ENV][0]
    reqd = [word(env, 0), word(env, 1), word(env, 2)]
    slm = sum(word(t, 1) for t in tokens.get(TOKEN_LOCAL, []))
    return dict(simd=word(env, 3), reqd_group=reqd if all(reqd) else None, grf=word(env, 20), local_bytes=slm)


def parse_asm(text):
    """The kernel's IGA listing as instructions (see loops.py), with each one's execution
    size and the highest GRF it names."""
    ins, labels = [], {}
    for line in text.splitlines():
        lm = re.match(r"\s*(L\d+):\s*$", line)
        if lm:
            labels[lm.group(1)] = len(ins)
            continue
        code, _, comment = line.partition("//")
        code = code.strip()
        if not code:
            continue
        pm = re.match(r"\((W)?&?(~?f\d+\.\d+)?(\.\w+)?\)\s*", code)
        body = code[pm.end():] if pm else code
        op = body.split()[0]
        em = re.match(r"\S+\s+\((\d+)\|M(\d+)\)", body)
        base = op.split(".")[0]
        labs = re.findall(r"\b(L\d+)\b", body)
        # goto JIP UIP: the lanes that branch go to UIP (goto.b, a loop's back edge, to its head)
        label = (labs[-1] if base == "goto" else labs[0]) if labs and base in ("jmpi", "goto", "while", "brc") else None
        ins.append(dict(addr=len(ins), text=code, op=op, comment=comment.strip(),
                        cond=bool(pm and pm.group(2)) or base == "while", label=label,
                        nomask=bool(pm and pm.group(1)), width=(int(em.group(1)), int(em.group(2))) if em else None,
                        grf=max([int(r) for r in re.findall(r"\br(\d+)\b", body)] or [-1])))
    return loops.resolve(ins, labels, "the IGA listing")


def simd_of(ins):
    """The SIMD width the code runs at: the widest lanes any masked instruction covers."""
    return max([w + off for x in ins if x["width"] and not x["nomask"] for w, off in [x["width"]]] or [0])


def port_bytes(c):
    """Bytes a data-port message moves per lane (or per block), from IGA's words for it."""
    m = re.search(r"\b(oword|hword)\b.*?\bx(\d+)", c)
    if m:
        return (16 if m.group(1) == "oword" else 32) * int(m.group(2))
    m = re.search(r" with ([xyzw]+)", c)
    if m:
        return 4 * len(m.group(1))
    return 1 if "byte" in c else 4


def send_kind(x):
    """What a send moves and its bytes (per lane; per block for block messages), from IGA's
    comment: LSC messages ("load.slm.d32x4.a32", "store.ugm.d64.a64"), scratch ("hword
    scratch block read x8") and Xe-LP's data-port messages ("untyped surface read with xyzw",
    "oword block read x2"; binding table index 254, the descriptor's low byte, is SLM)."""
    c = x["comment"]
    if "scratch" in c:
        return "spill", port_bytes(c)
    m = re.search(r"\b(load|store)\.(slm|ugm|ugml|tgm)\.d(\d+)(?:x(\d+))?", c)
    if m:
        local = m.group(2) == "slm"
        kind = ("lds" if local else "ldg") if m.group(1) == "load" else ("sts" if local else "stg")
        return kind, int(m.group(3)) // 8 * int(m.group(4) or 1)
    m = re.search(r"\b(read|write)\b", c)
    if m:
        descs = re.findall(r"\b0x([0-9A-Fa-f]+)\b", x["text"])
        local = bool(descs) and int(descs[-1], 16) & 0xFF == 0xFE
        kind = ("lds" if local else "ldg") if m.group(1) == "read" else ("sts" if local else "stg")
        return kind, port_bytes(c)
    return None, None


def classify(x):
    op = x["op"]
    base = op.split(".")[0]
    if base == "mad":
        t = re.search(r"^\S+\s+\(\d+\|M\d+\)\s+(?:\([^)]*\)\S+\s+)?\S+?:(f|df|hf|bf)\b", x["text"])
        kind = {"f": "f32", "df": "f64", "hf": "f16", "bf": "bf16"}.get(t.group(1) if t else "", None)
        return ("fma", (kind, 1)) if kind else (None, None)
    if op.startswith("send"):
        return send_kind(x)
    if op.startswith("sync.bar") or base == "barrier":
        return "bar", 1
    return None, None


def slot(x):
    """An ALU instruction: sends, syncs, branches and nops issue elsewhere."""
    base = x["op"].split(".")[0]
    return not (x["op"].startswith(("send", "sync")) or base in BRANCHES or base in ("nop", "illegal"))


def compile(job, src, work):
    """Builds job's program for its Intel target with ocloc and disassembles it: the build
    output, and a folder with each kernel's .asm and the patch tokens (PTM.txt)."""
    ocloc, env = toolchain.find_ocloc()
    dev = TARGETS[job.target]["device"]
    opts = " ".join(["-cl-std=" + job.std] + ["-D" + d for d in job.defines] +
                    [o for o in job.options if not o.startswith("-cl-nv-")])
    log = run.tool([ocloc, "compile", "-file", src, "-device", dev, "-out_dir", work, "-output", "k", "-options", opts],
                   "ocloc compile", env=env)
    run.keep(work, "ocloc.log", log)
    bins = sorted(glob.glob(os.path.join(work, "k_*.bin")) + glob.glob(os.path.join(work, "k.bin")))
    if "Build succeeded" not in log or not bins:
        raise run.Failed("ocloc compile wrote no binary: %s" % log[-3000:])
    dis = os.path.join(work, "dis")
    said = run.tool([ocloc, "disasm", "-file", bins[0], "-device", dev, "-dump", dis], "ocloc disasm", env=env)
    asm, ptm = {}, ""
    for f in glob.glob(os.path.join(dis, "*_KernelHeap.asm")):
        with open(f) as fh:
            asm[os.path.basename(f)[:-len("_KernelHeap.asm")]] = fh.read()
    if os.path.isfile(os.path.join(dis, "PTM.txt")):
        with open(os.path.join(dis, "PTM.txt")) as fh:
            ptm = fh.read()
    if not asm:
        raise run.Failed("no disassembly (IGA's libiga64.so not found beside ocloc?): %s" % said[-2000:])
    return dict(log=log, asm=asm, ptm=ptm, toolchain="ocloc (IGC of intel-opencl-icd %s) -device %s" % (
        toolchain.intel_version(ocloc), dev))


def extract(art, kernel):
    if kernel not in art["asm"]:
        raise run.Failed("kernel '%s' not in the binary (kernels: %s)" % (kernel, ", ".join(sorted(art["asm"]))))
    ins = parse_asm(art["asm"][kernel])
    info = ptm_facts(parse_ptm(art["ptm"], kernel))
    spill = parse_log(art["log"], kernel)
    grf_used = max([x["grf"] for x in ins] or [0]) + 1
    info.update(simd=info["simd"] or simd_of(ins), grf=info["grf"] or (256 if grf_used > 128 else 128),
                spill_bytes=spill[2] if spill else 0, grf_used=grf_used, toolchain=art["toolchain"],
                scratch_messages=sum(1 for x in ins if classify(x)[0] == "spill"))
    info["registers"] = info["grf"]
    return info, ins
