"""The nine targets: each GPU's public architecture numbers that registers, local memory and
the loop's instruction mix are turned into occupancy and a bound on peak with."""

import re

KIB = 1024

# Per target:
#   vendor     nvidia, amd or intel: which compiler and which parser
#   gpu        the devices it stands for
#   peak       FMA operations per issue slot at the vector peak, per precision (an issue
#              slot: NVIDIA, any instruction a scheduler issues; AMD, a VALU instruction;
#              Intel, an ALU instruction of an EU thread). A precision missing has no bound.
#   fp64       1 where the devices have cl_khr_fp64 at a rate worth a goal
# NVIDIA: registers per SM (in 4 partitions), allocated per warp in units of reg_unit; shared
#   memory per SM (the largest carve-out) with smem_reserved per group in smem_unit units;
#   the most warps and groups an SM holds.
# AMD: wave size (clang's default), SIMDs per CU (WGP on RDNA), VGPRs per SIMD lane and their
#   allocation unit, the most waves per SIMD, SGPRs per SIMD (None: not a limit), LDS per CU.
# Intel: hardware threads per Xe-core (subslice on Xe-LP) with 128 GRFs (half as many with
#   256: large-GRF mode), SLM per Xe-core, the ocloc device name.
TARGETS = {
    "sm_90": dict(vendor="nvidia", gpu="NVIDIA Hopper (H100, H200)", regs=65536, parts=4, reg_unit=256,
                  max_regs=255, smem=228 * KIB, smem_reserved=KIB, smem_unit=128, max_warps=64, max_groups=32,
                  peak={"f32": 1.0, "f64": 0.5, "f16": 2.0}, fp64=1),
    "sm_80": dict(vendor="nvidia", gpu="NVIDIA Ampere (A100)", regs=65536, parts=4, reg_unit=256, max_regs=255,
                  smem=164 * KIB, smem_reserved=KIB, smem_unit=128, max_warps=64, max_groups=32,
                  peak={"f32": 0.5, "f64": 0.25, "f16": 2.0}, fp64=1),
    # Ada: 128 FP32 lanes per SM as on Hopper; FP64 at 1/64 of that rate (no goal)
    "sm_89": dict(vendor="nvidia", gpu="NVIDIA Ada (L4, L40S, RTX 4090)", regs=65536, parts=4, reg_unit=256,
                  max_regs=255, smem=100 * KIB, smem_reserved=KIB, smem_unit=128, max_warps=48, max_groups=24,
                  peak={"f32": 1.0, "f16": 2.0}, fp64=0),
    # CDNA: FP32 peak is the packed v_pk_fma_f32 (2 per instruction), FP64 one per instruction
    "gfx90a": dict(vendor="amd", gpu="AMD CDNA2 (MI210, MI250X)", wave=64, simds=4, unit="CU", vgprs=512,
                   vgpr_unit=8, max_waves=8, sgprs=800, sgpr_unit=16, lds=64 * KIB,
                   peak={"f32": 2.0, "f64": 1.0, "f16": 2.0}, fp64=1),
    "gfx942": dict(vendor="amd", gpu="AMD CDNA3 (MI300X, MI300A)", wave=64, simds=4, unit="CU", vgprs=512,
                   vgpr_unit=8, max_waves=8, sgprs=800, sgpr_unit=16, lds=64 * KIB,
                   peak={"f32": 2.0, "f64": 1.0, "f16": 2.0}, fp64=1),
    # RDNA3: FP32 peak counts dual issue (VOPD, 2 per instruction); FP64 at 1/32 (no goal)
    "gfx1100": dict(vendor="amd", gpu="AMD RDNA3 (RX 7900 XTX, W7900)", wave=32, simds=4, unit="WGP",
                    vgprs=1536, vgpr_unit=24, max_waves=16, sgprs=None, sgpr_unit=None, lds=128 * KIB,
                    peak={"f32": 2.0, "f16": 2.0}, fp64=0),
    # Intel: one SIMD-wide mad per ALU instruction is the FPU's peak; sends (memory, SLM,
    # scratch), syncs and branches go to other units
    "pvc": dict(vendor="intel", gpu="Intel Data Center GPU Max (Ponte Vecchio, Xe-HPC)", device="pvc",
                threads=64, slm=128 * KIB, unit="Xe-core", large_grf=1, peak={"f32": 1.0, "f64": 1.0, "f16": 1.0},
                fp64=1),
    "acm-g10": dict(vendor="intel", gpu="Intel Arc A770, A750 (Alchemist, Xe-HPG)", device="acm-g10",
                    threads=128, slm=64 * KIB, unit="Xe-core", large_grf=1, peak={"f32": 1.0, "f16": 1.0}, fp64=0),
    "tgllp": dict(vendor="intel", gpu="Intel Iris Xe (Tiger Lake, Xe-LP)", device="tgllp", threads=112,
                  slm=64 * KIB, unit="subslice", large_grf=0, peak={"f32": 1.0, "f16": 1.0}, fp64=0),
}

ORDER = ["sm_90", "sm_80", "sm_89", "gfx90a", "gfx942", "gfx1100", "pvc", "acm-g10", "tgllp"]
VENDORS = {"nvidia": ["sm_90", "sm_80", "sm_89"], "amd": ["gfx90a", "gfx942", "gfx1100"],
           "intel": ["pvc", "acm-g10", "tgllp"]}


def vendor_of(target):
    return TARGETS[target]["vendor"]


def parse_targets(text):
    """'sm_90,gfx1100', 'nvidia', 'all' -> target names in ORDER; ValueError names an unknown one."""
    out = []
    for word in filter(None, (w.strip() for w in text.replace(" ", ",").split(","))):
        names = ORDER if word == "all" else VENDORS.get(word, [word])
        for n in names:
            if n not in TARGETS:
                raise ValueError("unknown target '%s' (targets: %s; or nvidia, amd, intel, all)"
                                 % (n, ", ".join(ORDER)))
            if n not in out:
                out.append(n)
    return sorted(out, key=ORDER.index)


# A device's name as its OpenCL driver reports it -> its target (clrt-isa --device)
DEVICE_NAMES = [(r"\b(H100|H200|H800|H20|GH200)\b", "sm_90"), (r"\b(A100|A800|A30|A40|A10|RTX A\d+)\b", "sm_80"),
                (r"\b(L4|L40S?|RTX 40\d0|RTX \d+ Ada)\b", "sm_89"), (r"gfx90a|MI2[15]0", "gfx90a"),
                (r"gfx94[0-2]|MI300", "gfx942"), (r"gfx110[0-2]|RX 7[89]00|W7[89]00", "gfx1100"),
                (r"Data Center GPU Max|\bMax 1[15]\d0\b", "pvc"), (r"\bArc\b.*\bA7[5-7]0", "acm-g10"),
                (r"Iris.*Xe", "tgllp")]


def target_for_device(name):
    """The target of a device named name, or None."""
    for pattern, target in DEVICE_NAMES:
        if re.search(pattern, name):
            return target
    return None
