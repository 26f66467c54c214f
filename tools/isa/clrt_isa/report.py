"""The results as text: a table, one row per kernel and target, or one kernel in detail."""
from . import goals
from .targets import TARGETS


def fmt(v, digits=2):
    if v is None:
        return "-"
    return ("%%.%df" % digits) % v if isinstance(v, float) else str(v)


UNIT = {"nvidia": "warps", "amd": "waves/SIMD", "intel": "threads"}  # what occupancy counts, per vendor


def occupancy_text(r):
    o = r["occupancy"]
    return "%s %s" % (fmt(o["value"], 1) if isinstance(o["value"], float) else o["value"], UNIT[r["vendor"]])


def registers_text(r):
    if r["vendor"] == "intel":
        return "%d GRF, SIMD%d" % (r["registers"], r["simd"])
    return str(r["registers"])


def name_of(r):
    if "program" in r:
        return "%s %s %s%s" % (r["program"], r["entry"], r["dtype"], "" if r["variant"] == "-" else " " + r["variant"])
    return r["kernel"]


def table(results, out, check=False):
    """A Markdown table; with check, a column of the goals each row misses."""
    head = "| target | kernel | registers | spill B | local B | occupancy | loop: FMA / instructions | FMA share | bound |"
    out.write(head + (" goals |" if check else "") + "\n")
    out.write("|---|---|--:|--:|--:|--:|--:|--:|--:|" + ("---|" if check else "") + "\n")
    for r in results:
        if "error" in r:
            out.write("| %s | %s | error: %s |\n" % (r["target"], name_of(r), r["error"].splitlines()[0][:160]))
            continue
        L = r.get("loop") or {}
        mix = "%d / %d" % (L["fma_instructions"], L["instructions"]) if L else "no loop"
        row = "| %s | %s | %s | %d | %d | %s | %s | %s | %s |" % (
            r["target"], name_of(r), registers_text(r), r["spill_bytes"], r["local_bytes"], occupancy_text(r), mix,
            fmt(L.get("fma_share")), fmt(L.get("bound")))
        if check:
            m = goals.misses(r)
            row += " %s |" % ("met" if not m else "known: " + "; ".join(m) if goals.known(r) else "; ".join(m))
        out.write(row + "\n")


def detail(r, out):
    """Everything about one kernel on one target."""
    t = TARGETS[r["target"]]
    w = lambda s: out.write(s + "\n")
    w("%s on %s, %s" % (name_of(r), r["target"], t["gpu"]))
    w("  build        %s" % (" ".join(["-D" + d for d in r["defines"]] + r["options"]) or "(no options)"))
    if "error" in r:
        w("  error        " + r["error"])
        return
    w("  toolchain    " + r["toolchain"])
    if r["vendor"] == "nvidia":
        w("  registers    %d per work-item; spills %d B stored, %d B loaded; stack frame %d B"
          % (r["registers"], r["spill_stores"], r["spill_loads"], r["stack"]))
    elif r["vendor"] == "amd":
        w("  registers    %d VGPRs per work-item (%d AGPRs), %d SGPRs per wave of %d; spilled %d VGPRs, %d SGPRs; "
          "scratch %d B per work-item" % (r["registers"], r["agprs"], r["sgprs"], r["simd"], r["spill_vgprs"],
                                          r["spill_sgprs"], r["spill_bytes"]))
    else:
        w("  registers    SIMD%d, %d GRFs per thread (r0..r%d named); spilled about %d B (IGC), %d scratch "
          "messages in the code" % (r["simd"], r["registers"], r["grf_used"] - 1, r["spill_bytes"],
                                    r["scratch_messages"]))
    w("  local mem    %d B per work-group" % r["local_bytes"])
    o = r["occupancy"]
    w("  occupancy    groups of %d (%d %s each): %d per %s = %s %s of %d, limited by %s%s" % (
        r["group"], o["per_group"], "warps" if r["vendor"] == "nvidia" else "waves" if r["vendor"] == "amd"
        else "threads", o["groups"], o["what"].split(" per ")[-1], fmt(o["value"], 2), o["what"], o["of"],
        o["limiter"], "; LLVM's own figure %s waves per SIMD" % r["llvm_occupancy"]
        if r.get("llvm_occupancy") is not None else ""))
    L = r.get("loop")
    if not L:
        w("  loops        none")
        return
    w("  hottest loop the FMA-richest of %d: %d instructions on one pass (%d in its body), %d issue slots"
      % (L["loops"], L["instructions"], L["static"], L["slots"]))
    w("    FMA        %d instructions, %s operations: %.3f per issue slot" % (
        L["fma_instructions"], ", ".join("%s %d" % kv for kv in sorted(L["fma_ops"].items())) or "no",
        L["fma_share"]))
    w("    memory     local loads %d (%d B), local stores %d, global loads %d, global stores %d, scratch %d, "
      "barriers %d" % (L["local_loads"], L["local_load_bytes"], L["local_stores"], L["global_loads"],
                       L["global_stores"], L["spill_messages"], L["barriers"]))
    w("    top ops    " + ", ".join("%s %d" % tuple(kv) for kv in L["top"]))
    if L["bound"] is not None:
        w("  bound        at most %.0f%% of the %s vector peak (%g FMA operations per issue slot at peak)"
          % (100 * L["bound"], L["precision"], t["peak"][L["precision"]]))
    for text in r.get("dump", []):
        w("      " + text)
