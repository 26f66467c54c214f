"""The goals clrt's shipped kernels are held to on each target (--check; docs/gpu-isa.md).

Every shipped kernel, every target: it compiles, spills nothing, and a group of the size
clrt launches fits. The GEMM's main loop (matmul_fast) in addition: an FMA share or bound
and an occupancy per target and precision, below."""

# (target, dtype) -> what matmul_fast must reach: fma_share (FMA operations per issue slot),
# bound (of the vector peak), occupancy (warps per SM, waves per SIMD, threads per Xe-core),
# simd (Intel: the SIMD width IGC compiles it at). A dtype missing has no goal there
# (sm_89's and gfx1100's fp64 run at 1/64 and 1/32 of fp32; Arc and Iris Xe have no fp64).
GEMM = {
    ("sm_90", "f32"): dict(fma_share=0.90, occupancy=16),
    ("sm_90", "f64"): dict(bound=1.0, occupancy=16),
    ("sm_80", "f32"): dict(fma_share=0.90, occupancy=16),
    ("sm_80", "f64"): dict(bound=1.0, occupancy=16),
    ("sm_89", "f32"): dict(fma_share=0.90, occupancy=16),
    ("gfx90a", "f32"): dict(bound=0.90, occupancy=2),
    ("gfx90a", "f64"): dict(bound=0.90, occupancy=2),
    ("gfx942", "f32"): dict(bound=0.90, occupancy=2),
    ("gfx942", "f64"): dict(bound=0.90, occupancy=2),
    ("gfx1100", "f32"): dict(bound=0.65, occupancy=8),
    ("pvc", "f32"): dict(fma_share=0.85, simd=16, occupancy=32),
    ("pvc", "f64"): dict(fma_share=0.80, simd=16, occupancy=32),
    ("acm-g10", "f32"): dict(fma_share=0.85, simd=8, occupancy=64),
    ("tgllp", "f32"): dict(fma_share=0.85, simd=8, occupancy=56),
}
MAIN_LOOP = "matmul_fast"

# Misses known and reported while their owner decides, each with why: --check prints them
# on every run and fails on any other miss, and on an entry here that no longer happens
# (so that this list stays true). (target, entry, dtype) -> why.
KNOWN = {}
# AMD's CNN class: LLVM spills 24-33 SGPRs of maxpool_forward (about 100 in use) into VGPR
# lanes on CDNA, no scratch memory
for _t in ("gfx90a", "gfx942"):
    for _d in ("f32", "f64"):
        KNOWN[(_t, "maxpool_forward", _d)] = ("LLVM spills 24-33 of maxpool_forward's SGPRs (about 100 in use) "
                                             "into VGPR lanes on CDNA: no scratch memory")

WORDS = dict(fma_share="FMA share >= %g", bound="bound >= %g", occupancy="occupancy >= %g", simd="SIMD >= %g")


def gemm_goal(r):
    return GEMM.get((r["target"], r.get("dtype"))) if r.get("entry") == MAIN_LOOP else None


def misses(r):
    """The goals result r (a shipped kernel on one target) misses, as words; [] when it meets them."""
    if "error" in r:
        return ["compiles: " + r["error"].splitlines()[0][:200]]
    out = []
    if r.get("spill_bytes") or r.get("spill_vgprs") or r.get("spill_sgprs") or r.get("scratch_messages"):
        out.append("no spills")
    if r["occupancy"]["groups"] < 1:
        out.append("a group of %d fits" % r["group"])
    goal = gemm_goal(r) or {}
    loop = r.get("loop") or {}
    have = dict(fma_share=loop.get("fma_share"), bound=loop.get("bound"), occupancy=r["occupancy"]["value"],
                simd=r.get("simd"))
    for k, want in goal.items():
        if have[k] is None or have[k] < want - 1e-9:
            out.append(WORDS[k] % want + " (is %s)" % have[k])
    return out


def describe(target, dtype):
    """The goal of matmul_fast on target for dtype, in words ('-' where there is none)."""
    g = GEMM.get((target, dtype))
    return ", ".join(WORDS[k] % v for k, v in g.items()) if g else "-"


def known(r):
    """Why r's misses are known (KNOWN), or None."""
    return KNOWN.get((r["target"], r.get("entry"), r.get("dtype")))


def judge(results):
    """(misses, known misses, stale KNOWN entries): lists of (result, words) and of keys."""
    missed, excused, seen = [], [], set()
    for r in results:
        m = misses(r)
        if m and known(r) and m == ["no spills"]:
            excused.append((r, m))
            seen.add((r["target"], r.get("entry"), r.get("dtype")))
        elif m:
            missed.append((r, m))
    ran = {(r["target"], r.get("entry"), r.get("dtype")) for r in results}
    stale = [k for k in KNOWN if k in ran and k not in seen]
    return missed, excused, stale
