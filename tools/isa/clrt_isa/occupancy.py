"""Occupancy: how many work-groups of a size a GPU's core holds with the registers and local
memory a kernel takes, which limit binds, and the warps (waves, hardware threads) that makes."""
from .targets import TARGETS

NONE = 10 ** 6  # a limit that does not apply


def ceil_div(a, b):
    return -(-a // b)


def nvidia(t, info, group):
    """As CUDA's occupancy calculator does for compute capability 8.x and 9.x: groups per SM."""
    warps = ceil_div(group, 32)
    per_warp = ceil_div(info["registers"] * 32, t["reg_unit"]) * t["reg_unit"]
    regs = (t["regs"] // t["parts"] // per_warp) * t["parts"] // warps if per_warp else NONE
    if info["registers"] > t["max_regs"] or group > 1024:
        regs = 0
    smem = ceil_div(info["local_bytes"], t["smem_unit"]) * t["smem_unit"] + t["smem_reserved"]
    lim = {"registers": regs, "local memory": t["smem"] // smem, "warps": t["max_warps"] // warps,
           "groups": t["max_groups"]}
    g = min(lim.values())
    return dict(groups=g, per_group=warps, value=g * warps, of=t["max_warps"], what="warps per SM", lim=lim)


def amd(t, info, group):
    """Groups per CU (WGP): waves per SIMD from VGPRs and SGPRs, LDS per CU, waves per SIMD."""
    wave = info["simd"] or t["wave"]
    waves = ceil_div(group, wave)
    vgprs = ceil_div(max(info["registers"], 1), t["vgpr_unit"]) * t["vgpr_unit"]
    per_simd = min(t["max_waves"], t["vgprs"] // vgprs)
    lim = {"registers": per_simd * t["simds"] // waves}
    if t["sgprs"]:
        sgprs = ceil_div(max(info.get("sgprs", 1), 1), t["sgpr_unit"]) * t["sgpr_unit"]
        lim["scalar registers"] = min(t["max_waves"], t["sgprs"] // sgprs) * t["simds"] // waves
    lim["local memory"] = t["lds"] // info["local_bytes"] if info["local_bytes"] else NONE
    lim["waves"] = t["max_waves"] * t["simds"] // waves
    g = min(lim.values())
    return dict(groups=g, per_group=waves, value=round(g * waves / t["simds"], 2), of=t["max_waves"],
                what="waves per SIMD", lim=lim)


def intel(t, info, group):
    """Groups per Xe-core (subslice): a group is group / SIMD hardware threads; 256 GRFs per
    thread (large-GRF mode) halve the threads; SLM per Xe-core."""
    threads = ceil_div(group, max(info["simd"], 1))
    hw = t["threads"] // (2 if info["grf"] > 128 else 1)
    lim = {"threads": hw // threads,
           "local memory": t["slm"] // info["local_bytes"] if info["local_bytes"] else NONE}
    g = min(lim.values())
    return dict(groups=g, per_group=threads, value=g * threads, of=hw, what="threads per " + t["unit"], lim=lim)


def occupancy(target, info, group):
    """{groups, per_group, value, of, what, limiter, lim, fraction} for a group of group work-items."""
    t = TARGETS[target]
    o = {"nvidia": nvidia, "amd": amd, "intel": intel}[t["vendor"]](t, info, group)
    o["limiter"] = ", ".join(k for k, v in o["lim"].items() if v == o["groups"])
    o["lim"] = {k: (v if v < NONE else None) for k, v in o["lim"].items()}
    o["fraction"] = round(o["value"] / o["of"], 3) if o["of"] else 0.0
    return o
