"""clrt-isa's parsers on checked-in compiler outputs (data/, made by regenerate.sh from
data/kernels.cl), and its arithmetic (loops, occupancy, goals, clrt's build rows) on
made-up inputs: no compiler runs here, so these run on every CI machine.

The expected figures were read off the files by hand (the line counts by grep), not from
the tool. Run: python3 test_parsers.py [TOOLS_ISA_DIR] (ctest passes tools/isa)."""
import io
import json
import os
import re
import subprocess
import sys
import tempfile
import unittest

sys.dont_write_bytecode = True  # nothing written into the source tree
HERE = os.path.dirname(os.path.abspath(__file__))
TOOL = os.path.abspath(sys.argv.pop(1) if len(sys.argv) > 1 else os.path.join(HERE, "../../../tools/isa"))
sys.path.insert(0, TOOL)

from clrt_isa import amd, builds, goals, intel, loops, nvidia, occupancy, report, run  # noqa: E402
from clrt_isa.targets import TARGETS, parse_targets, target_for_device  # noqa: E402


def data(path):
    with open(os.path.join(HERE, "data", path)) as f:
        return f.read()


def hottest(vendor, ins, target):
    return loops.hottest(ins, vendor.classify, vendor.slot, TARGETS[target]["peak"])


class NvidiaParsers(unittest.TestCase):
    def test_ptxas_report_per_entry(self):
        log = data("sm_90/ptxas.log")
        d = nvidia.parse_ptxas(log, "dot_local")
        self.assertEqual((d["registers"], d["local_bytes"], d["barriers_used"], d["stack"]), (34, 1024, 1, 0))
        p = nvidia.parse_ptxas(log, "private_array")  # its array in local memory: a stack frame
        self.assertEqual((p["registers"], p["stack"], p["spill_stores"], p["spill_loads"]), (32, 256, 0, 0))
        self.assertEqual(nvidia.parse_ptxas(log, "hfma")["registers"], 8)
        with self.assertRaises(run.Failed):
            nvidia.parse_ptxas(log, "dot")  # a prefix of a name is not the name

    def test_ptxas_spill_lines(self):
        log = ("ptxas info    : Compiling entry function 'k' for 'sm_80'\nptxas info    : Function properties for k\n"
               "    24 bytes stack frame, 20 bytes spill stores, 16 bytes spill loads\n"
               "ptxas info    : Used 64 registers, used 1 barriers, 16384 bytes smem\n")
        d = nvidia.parse_ptxas(log, "k")
        self.assertEqual((d["spill_stores"], d["spill_loads"], d["registers"], d["local_bytes"]), (20, 16, 64, 16384))

    def test_ptxas_misread_fails(self):
        # every entry has its registers and its stack/spill line: a log without them is
        # misread, not a kernel of 0 registers and no spills
        log = data("sm_90/ptxas.log")
        log = log[log.find("ptxas info    : Compiling entry function 'dot_local'"):]  # its part alone
        for said in ("Used 34 registers", "0 bytes stack frame", "0 bytes spill stores", "0 bytes spill loads"):
            with self.subTest(said=said), self.assertRaises(run.Failed):
                nvidia.parse_ptxas(log.replace(said, ""), "dot_local")
        # shared memory and barriers are said only when used
        d = nvidia.parse_ptxas(log.replace(", used 1 barriers, 1024 bytes smem", ""), "dot_local")
        self.assertEqual((d["registers"], d["local_bytes"], d["barriers_used"]), (34, 0, 0))

    def test_sass_hottest_loop(self):
        sass = data("sm_90/k.sass")
        ins = nvidia.parse_sass(sass, "dot_local")
        self.assertEqual(len(ins), 96)
        h = hottest(nvidia, ins, "sm_90")
        # the inner loop, unrolled 4 times: 4 float4 FMAs = 16 FFMA, 4 LDS.128, 4 LDG.E.128,
        # in 29 instructions from .L_x_6 (0x0260) to its BRA (0x0420); the outer loop has the barriers
        self.assertEqual((h["loops"], ins[h["head"]]["addr"], ins[h["back"]]["addr"]), (2, 0x260, 0x420))
        self.assertEqual((h["instructions"], h["fma_instructions"], h["fma_ops"]), (29, 16, {"f32": 16}))
        self.assertEqual((h["local_loads"], h["local_load_bytes"], h["global_loads"], h["barriers"]), (4, 64, 4, 0))
        self.assertAlmostEqual(h["fma_share"], 16 / 29, places=4)
        self.assertAlmostEqual(h["bound"], 16 / 29, places=4)  # sm_90: one FFMA per issue slot at peak

    def test_sass_half_pairs_and_traps(self):
        ins = nvidia.parse_sass(data("sm_90/k.sass"), "hfma")
        h = hottest(nvidia, ins, "sm_90")
        self.assertEqual((h["loops"], h["instructions"], h["fma_instructions"], h["fma_ops"]), (1, 9, 1, {"f16": 2}))
        self.assertAlmostEqual(h["bound"], 2 / 9 / 2.0, places=4)  # HFMA2: 2 operations, peak 2 per slot
        # the end-of-kernel trap, BRA to itself, is no loop
        trap = [i for i, x in enumerate(ins) if x["target"] == i]
        self.assertEqual(len(trap), 1)
        self.assertNotIn(trap[0], [h for h, _ in loops.loops_of(ins)])
        with self.assertRaises(run.Failed):
            nvidia.parse_sass(data("sm_90/k.sass"), "saxpy")

    def test_sass_misread_fails(self):
        sass = data("sm_90/k.sass")
        # a branch to a label the parser did not see: a misread, not a kernel without loops
        with self.assertRaises(run.Failed):
            nvidia.parse_sass(sass.replace(".L_x_6:", ".L_y_6:"), "dot_local")
        # a section whose lines the parser reads none of
        with self.assertRaises(run.Failed):
            nvidia.parse_sass(re.sub(r"/\*[0-9a-f]{4}\*/", "/*addr*/", sass), "dot_local")

    def test_sass_classify(self):
        c = lambda text: nvidia.classify(dict(text=text, op=text.split()[0]))
        self.assertEqual(c("DFMA R4, R2, R6, R4"), ("fma", ("f64", 1)))
        self.assertEqual(c("HFMA2.MMA R3, -RZ, RZ, 0, 0"), (None, None))  # a move dressed as HFMA2
        self.assertEqual(c("LDS.64 R8, [R2+0x100]"), ("lds", 8))
        self.assertEqual(c("STL [R1+0x4], R5"), ("spill", 4))


class AmdParsers(unittest.TestCase):
    def test_metadata(self):
        s = data("gfx90a/k.s")
        d = amd.parse_metadata(s, "dot_local")
        self.assertEqual((d["registers"], d["sgprs"], d["local_bytes"], d["simd"], d["reqd_group"], d["llvm_occupancy"]),
                         (44, 20, 1024, 64, [64, 1, 1], 8))
        p = amd.parse_metadata(s, "private_array")  # its array in scratch memory
        self.assertEqual((p["registers"], p["spill_bytes"], p["reqd_group"], p["llvm_occupancy"]), (72, 260, None, 7))
        self.assertEqual(amd.parse_metadata(data("gfx1100/k.s"), "dot_local")["simd"], 32)
        with self.assertRaises(run.Failed):
            amd.parse_metadata(s, "dot")

    def test_metadata_misread_fails(self):
        # a field every kernel has, missing: a misread, never 0 registers or 0 spills
        s = data("gfx90a/k.s")
        for key in amd.REQUIRED:
            with self.subTest(key=key), self.assertRaises(run.Failed):
                amd.parse_metadata(re.sub(r"(?m)^\s*\.%s:.*\n" % key, "", s), "dot_local")
        self.assertEqual(amd.parse_metadata(data("gfx1100/k.s"), "dot_local")["agprs"], 0)  # none on RDNA3

    def test_body_misread_fails(self):
        s = data("gfx90a/k.s")
        label = re.search(r"s_branch (\.LBB\d+_\d+)", s).group(1)
        with self.assertRaises(run.Failed):
            amd.parse_body(s.replace(label + ":", ".Lnot_it:"), "dot_local")

    def test_packed_fma_loop(self):
        h = hottest(amd, amd.parse_body(data("gfx90a/k.s"), "dot_local"), "gfx90a")
        # 8 v_pk_fma_f32 (2 each) among 11 VALU instructions of the 26 on the inner loop's pass
        self.assertEqual((h["loops"], h["instructions"], h["slots"], h["fma_instructions"], h["fma_ops"]),
                         (2, 26, 11, 8, {"f32": 16}))
        self.assertEqual((h["local_loads"], h["local_load_bytes"], h["global_loads"]), (4, 64, 4))
        self.assertAlmostEqual(h["bound"], 16 / 11 / 2.0, places=4)

    def test_dual_issue_and_half(self):
        h = hottest(amd, amd.parse_body(data("gfx1100/k.s"), "dot_local"), "gfx1100")
        # 16 FMAs in 12 instructions: 4 VOPD pairs (v_dual_fmac :: v_dual_fmac) and 8 single
        self.assertEqual((h["fma_instructions"], h["fma_ops"], h["slots"]), (12, {"f32": 16}, 15))
        x = dict(text="v_dual_fmac_f32 v1, v2, v3 :: v_dual_fmac_f32 v4, v5, v6", op="v_dual_fmac_f32")
        self.assertEqual(amd.classify(x), ("fma", ("f32", 2)))
        h = hottest(amd, amd.parse_body(data("gfx90a/k.s"), "hfma"), "gfx90a")
        self.assertEqual((h["fma_instructions"], h["fma_ops"], h["slots"], h["bound"]), (1, {"f16": 2}, 1, 1.0))

    def test_widths(self):
        self.assertEqual(amd.width("ds_read_b128"), 16)
        self.assertEqual(amd.width("ds_read2_b64"), 16)
        self.assertEqual(amd.width("global_load_dwordx4"), 16)
        self.assertEqual(amd.width("buffer_load_ushort"), 2)


class IntelParsers(unittest.TestCase):
    def test_patch_tokens(self):
        ptm = data("pvc/PTM.txt")
        self.assertEqual(intel.ptm_facts(intel.parse_ptm(ptm, "dot_local")),
                         dict(simd=32, reqd_group=[64, 1, 1], grf=128, local_bytes=1024))
        self.assertEqual(intel.ptm_facts(intel.parse_ptm(ptm, "hfma")),
                         dict(simd=32, reqd_group=None, grf=128, local_bytes=0))
        with self.assertRaises(run.Failed):
            intel.parse_ptm(ptm, "dot")

    def test_patch_tokens_misread_fail(self):
        tokens = intel.parse_ptm(data("pvc/PTM.txt"), "dot_local")
        with self.assertRaises(run.Failed):  # no execution environment: never SIMD0
            intel.ptm_facts({k: v for k, v in tokens.items() if k != intel.TOKEN_EXEC_ENV})
        with self.assertRaises(run.Failed):  # one too short for its GRF word
            intel.ptm_facts({**tokens, intel.TOKEN_EXEC_ENV: [tokens[intel.TOKEN_EXEC_ENV][0][:80]]})
        with self.assertRaises(run.Failed):  # a listing of no instruction
            intel.parse_asm("// no code\n")

    def test_lsc_loop(self):
        ins = intel.parse_asm(data("pvc/dot_local_KernelHeap.asm"))
        self.assertEqual((len(ins), intel.simd_of(ins)), (139, 32))
        h = hottest(intel, ins, "pvc")
        # the inner loop: 16 mad (4 float4 FMAs at SIMD32) among 59 ALU instructions of 72;
        # A's 4 vectors from global memory, the tile's 16 floats in 2 SLM block loads of 32 B
        self.assertEqual((h["loops"], h["instructions"], h["slots"], h["fma_instructions"], h["fma_ops"]),
                         (2, 72, 59, 16, {"f32": 16}))
        self.assertEqual((h["local_loads"], h["local_load_bytes"], h["global_loads"]), (2, 64, 4))
        self.assertTrue(ins[h["back"]]["op"].startswith("goto") or ins[h["back"]]["op"].startswith("jmpi"))

    def test_data_port_loop(self):
        ins = intel.parse_asm(data("tgllp/dot_local_KernelHeap.asm"))
        h = hottest(intel, ins, "tgllp")
        # Xe-LP: a while back edge; 32 mad among 82 ALU instructions (sends, syncs, break and while
        # apart); the tile read as 2 oword blocks x2 from binding table 254 (SLM), A as 8 surface reads
        self.assertEqual(ins[h["back"]]["op"], "while")
        self.assertEqual((h["instructions"], h["slots"], h["fma_instructions"]), (100, 82, 32))
        self.assertEqual((h["local_loads"], h["local_load_bytes"], h["global_loads"]), (2, 64, 8))

    def test_half_mad(self):
        h = hottest(intel, intel.parse_asm(data("pvc/hfma_KernelHeap.asm")), "pvc")
        self.assertEqual((h["fma_instructions"], h["fma_ops"], h["slots"]), (2, {"f16": 2}, 6))
        x = dict(text="mad (16|M0) r5.0<1>:ud r6.0<1;0>:ud r7.0<1;0>:uw r8.0<0>:ud", op="mad", comment="")
        self.assertEqual(intel.classify(x), (None, None))  # an integer mad is no FMA

    def test_spills(self):
        log = data("pvc-spill/ocloc.log")
        self.assertEqual(intel.parse_log(log, "matmul_fast"), (32, 128, 1452))
        self.assertEqual(intel.parse_log(log, "matmul"), (32, 128, 652))
        self.assertIsNone(intel.parse_log(log, "matmul_sum"))
        kinds = [intel.classify(x) for x in intel.parse_asm(data("pvc-spill/scratch.asm"))]
        # 24 blocks of 8 hwords, 7 of 4, 4 of 2 (grep -c "x8$", "x4$", "x2$")
        self.assertEqual(sorted(set(kinds)), [("spill", 64), ("spill", 128), ("spill", 256)])
        self.assertEqual((kinds.count(("spill", 256)), kinds.count(("spill", 128)), kinds.count(("spill", 64))),
                         (24, 7, 4))


def ins_of(spec):
    """Made-up instructions: (op, target or None, conditional)."""
    return [dict(addr=i, text=op, op=op, cond=c, target=t) for i, (op, t, c) in enumerate(spec)]


class Loops(unittest.TestCase):
    def test_hottest_and_one_pass(self):
        ins = ins_of([("MOV", None, False),              # 0
                      ("FFMA", None, False),             # 1: outer loop head
                      ("FFMA", None, False),             # 2: inner loop head
                      ("BRA", 5, True),                  # 3: an edge case, not taken on the pass
                      ("BRA", 7, False),                 # 4: jumps forward over 5, 6
                      ("IADD", None, False),             # 5
                      ("IADD", None, False),             # 6
                      ("FFMA", None, False),             # 7
                      ("BRA", 2, True),                  # 8: inner back edge
                      ("BRA", 1, True),                  # 9: outer back edge
                      ("BRA", 10, False)])               # 10: the trap
        self.assertEqual(loops.loops_of(ins), [(1, 9), (2, 8)])
        self.assertEqual([x["addr"] for x in loops.one_pass(ins, 2, 8)], [2, 3, 4, 7, 8])
        h = hottest(nvidia, ins, "sm_90")  # outer: 3 FFMA on its pass, inner 2: the outer wins
        self.assertEqual((h["head"], h["fma_ops"], h["instructions"]), (1, {"f32": 3}, 7))

    def test_ties_go_to_the_shorter(self):
        ins = ins_of([("FFMA", None, False), ("BRA", 0, True), ("FFMA", None, False), ("MOV", None, False),
                      ("BRA", 2, True)])
        self.assertEqual(hottest(nvidia, ins, "sm_90")["head"], 0)

    def test_no_loop(self):
        self.assertIsNone(hottest(nvidia, ins_of([("FFMA", None, False), ("EXIT", None, False)]), "sm_90"))


class Occupancy(unittest.TestCase):
    def test_nvidia(self):
        o = occupancy.occupancy("sm_90", dict(registers=128, local_bytes=16384), 256)
        self.assertEqual((o["groups"], o["value"], o["limiter"]), (2, 16, "registers"))
        o = occupancy.occupancy("sm_90", dict(registers=168, local_bytes=16384), 256)
        self.assertEqual((o["groups"], o["value"]), (1, 8))
        o = occupancy.occupancy("sm_89", dict(registers=32, local_bytes=0), 256)
        self.assertEqual((o["groups"], o["value"], o["of"], o["limiter"]), (6, 48, 48, "warps"))
        o = occupancy.occupancy("sm_80", dict(registers=40, local_bytes=60 * 1024), 256)
        self.assertEqual((o["groups"], o["limiter"]), (2, "local memory"))  # 164 KiB / 61 KiB
        self.assertEqual(occupancy.occupancy("sm_90", dict(registers=256, local_bytes=0), 64)["groups"], 0)

    def test_amd(self):
        o = occupancy.occupancy("gfx90a", dict(registers=148, sgprs=40, local_bytes=16384, simd=64), 256)
        self.assertEqual((o["groups"], o["value"], o["limiter"]), (3, 3.0, "registers"))  # 512 // 152
        o = occupancy.occupancy("gfx1100", dict(registers=97, sgprs=40, local_bytes=16384, simd=32), 256)
        # 97 VGPRs take 120 (units of 24): 1536 // 120 = 12 waves per SIMD, 48 per WGP, 8 per group
        # of 256 (wave32): 6 groups (LDS would take 8), 12 waves per SIMD
        self.assertEqual((o["groups"], o["value"], o["limiter"]), (6, 12.0, "registers"))

    def test_intel(self):
        o = occupancy.occupancy("pvc", dict(simd=16, grf=128, local_bytes=16384), 256)
        self.assertEqual((o["groups"], o["per_group"], o["value"], o["of"]), (4, 16, 64, 64))
        o = occupancy.occupancy("pvc", dict(simd=16, grf=256, local_bytes=16384), 256)
        self.assertEqual((o["groups"], o["value"], o["of"]), (2, 32, 32))
        o = occupancy.occupancy("acm-g10", dict(simd=8, grf=128, local_bytes=24576), 256)
        self.assertEqual((o["groups"], o["limiter"]), (2, "local memory"))  # 64 KiB / 24 KiB


class Goals(unittest.TestCase):
    def result(self, **kw):
        r = dict(target="pvc", vendor="intel", entry="matmul_fast", dtype="f32", spill_bytes=0, simd=16, group=256,
                 occupancy=dict(groups=4, value=64), loop=dict(fma_share=0.91, bound=0.91))
        r.update(kw)
        return r

    def test_gemm_goals(self):
        self.assertEqual(goals.misses(self.result()), [])
        self.assertEqual(goals.misses(self.result(spill_bytes=8)), ["no spills"])
        self.assertEqual(goals.misses(self.result(loop=dict(fma_share=0.84, bound=0.84))),
                         ["FMA share >= 0.85 (is 0.84)"])
        self.assertEqual(goals.misses(self.result(simd=8)), ["SIMD >= 16 (is 8)"])
        self.assertEqual(goals.misses(self.result(dtype="f64", loop=dict(fma_share=0.80, bound=0.8))), [])
        self.assertEqual(goals.misses(self.result(occupancy=dict(groups=0, value=0))),
                         ["a group of 256 fits", "occupancy >= 32 (is 0)"])
        self.assertEqual(goals.misses(self.result(error="ocloc compile failed (exit 1)\nmore")),
                         ["compiles: ocloc compile failed (exit 1)"])

    def test_other_kernels_spills_only(self):
        r = self.result(entry="im2col", loop=dict(fma_share=0.1, bound=0.1), simd=8)
        self.assertEqual(goals.misses(r), [])
        self.assertEqual(goals.misses(dict(r, spill_vgprs=2, vendor="amd")), ["no spills"])
        # no goal for a precision a target has at a fraction of its rate
        self.assertEqual(goals.misses(self.result(target="gfx1100", vendor="amd", dtype="f64",
                                                  loop=dict(fma_share=0.1, bound=None))), [])


    def test_known_misses(self):
        # NVIDIA's GEMM has no known miss (its general kernel fits the 128-register cap)
        self.assertIsNone(goals.known(dict(self.result(), target="sm_89", vendor="nvidia", entry="matmul",
                                           dtype="f32", spill_bytes=40)))
        nv = dict(self.result(), target="gfx90a", vendor="amd", entry="maxpool_forward", dtype="f32",
                  spill_sgprs=24)
        self.assertIsNotNone(goals.known(nv))
        missed, excused, stale = goals.judge([nv, self.result(spill_bytes=8)])
        self.assertEqual(([r["target"] for r, _ in missed], [r["target"] for r, _ in excused], stale),
                         (["pvc"], ["gfx90a"], []))
        # a known miss that no longer happens is reported, so that the list stays true
        self.assertEqual(goals.judge([dict(nv, spill_sgprs=0)])[2], [("gfx90a", "maxpool_forward", "f32")])
        # a known spill does not excuse another miss of the same kernel
        self.assertEqual(len(goals.judge([dict(nv, occupancy=dict(groups=0, value=0))])[0]), 1)


class Builds(unittest.TestCase):
    ROWS = ("nvidia sm_90,sm_80,sm_89 matmul matmul_fast f32 NN 256 matmul.cl -DREAL=float -DTM=8 "
            "-cl-nv-maxrregcount=128\n"
            "intel-arc acm-g10 nn_pool maxpool_forward f32 - 256 nn_pool.cl -DREAL=float -DVW=4\n"
            "# intel-arc matmul f64: Intel(R) Arc(TM) A770 Graphics has no fp64 (cl_khr_fp64)\n")

    def test_rows(self):
        rows, notes = builds.parse_rows(self.ROWS)
        self.assertEqual(len(rows), 2)
        self.assertEqual(notes, ["intel-arc matmul f64: Intel(R) Arc(TM) A770 Graphics has no fp64 (cl_khr_fp64)"])
        self.assertEqual(builds.split_options(rows[0]["options"]), (["REAL=float", "TM=8"], ["-cl-nv-maxrregcount=128"]))
        jobs = builds.jobs(rows, "/src", targets=["sm_89", "acm-g10"])
        self.assertEqual([(j.target, j.kernel, j.file) for j in jobs],
                         [("sm_89", "matmul_fast", "/src/matmul.cl"), ("acm-g10", "maxpool_forward", "/src/nn_pool.cl")])
        self.assertEqual([j.target for j in builds.jobs(rows, "/src", classes=["intel"])], ["acm-g10"])
        self.assertEqual(len(builds.jobs(rows, "/src", programs=["matmul"])), 3)

    def test_rows_misread_fail(self):
        # a line that is no build, or none at all: never a build left out of --check
        for text in ("nvidia sm_90 matmul matmul_fast f32 NN\n", self.ROWS + "nvidia sm_90 matmul x f32 NN all m.cl -D\n",
                     "# intel-arc matmul f64: no fp64\n", ""):
            with self.subTest(text=text), self.assertRaises(run.Failed):
                builds.parse_rows(text)
        self.assertEqual(len(builds.parse_rows(self.ROWS + "\n")[0]), 2)  # a blank line is nothing

    def test_targets(self):
        self.assertEqual(parse_targets("intel,sm_90"), ["sm_90", "pvc", "acm-g10", "tgllp"])
        self.assertEqual(len(parse_targets("all")), 9)
        with self.assertRaises(ValueError):
            parse_targets("sm_70")

    def test_device_names(self):
        # CL_DEVICE_NAME as drivers report it -> target (gpu-check.sh's offline step, --device)
        for name, target in (("NVIDIA H200", "sm_90"), ("NVIDIA A100-SXM4-80GB", "sm_80"), ("NVIDIA L40S", "sm_89"),
                             ("gfx90a:sramecc+:xnack-", "gfx90a"), ("AMD Instinct MI300X", "gfx942"),
                             ("gfx1100", "gfx1100"), ("Intel(R) Data Center GPU Max 1550", "pvc"),
                             ("Intel(R) Arc(TM) A770 Graphics", "acm-g10"), ("Intel(R) Iris(R) Xe Graphics", "tgllp"),
                             ("pthread-Intel(R) Xeon(R) Platinum 8480+", None), ("NVIDIA GeForce GTX 1080", None)):
            with self.subTest(name=name):
                self.assertEqual(target_for_device(name), target)


class MissingCompilers(unittest.TestCase):
    def run_tool(self, *args):
        env = dict(os.environ, PATH="", CLRT_ISA_HOME=tempfile.mkdtemp(), CLRT_ISA_CUDA_BIN="", CLRT_ISA_INTEL="")
        src = os.path.join(HERE, "data", "kernels.cl")
        return subprocess.run([sys.executable, os.path.join(TOOL, "clrt-isa"), src, "-k", "dot_local"] + list(args),
                              capture_output=True, text=True, env=env)

    def test_says_what_to_install(self):
        p = self.run_tool("-t", "sm_90,gfx1100,pvc")
        self.assertEqual(p.returncode, 2, p.stderr)
        self.assertIn("clang-15 not found", p.stderr)
        self.assertIn("clang-19", p.stderr)
        self.assertIn("ocloc not found", p.stderr)
        self.assertIn("setup.sh", p.stderr)
        self.assertEqual(p.stdout, "")
        p = self.run_tool("-t", "pvc", "--optional")
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn("setup.sh intel", p.stderr)

    def test_refusals(self):
        p = self.run_tool("--device", "pthread-Intel(R) Xeon(R) Platinum 8480+")
        self.assertEqual(p.returncode, 3, p.stderr)
        self.assertIn("no target known for the device", p.stderr)
        p = self.run_tool("-t", "sm_70")
        self.assertEqual(p.returncode, 1, p.stderr)
        self.assertIn("unknown target 'sm_70'", p.stderr)


class GpuIsaTable(unittest.TestCase):
    """.ci/gpu_isa_table.py: docs/gpu-isa.md's figures written and checked against a run."""
    TABLE = os.path.join(HERE, "../../../.ci/gpu_isa_table.py")
    TOOLCHAINS = dict(nvidia="clang-15 (clang version 15.0.6) + libclc -> PTX sm_80 -> ptxas release 13.5, V13.5.37",
                      amd="clang-19 (clang version 19.1.7) + libclc -> amdgcn-amd-amdhsa",
                      intel="ocloc (IGC of intel-opencl-icd 22.43.24595.41-1) -device pvc")

    def result(self, target, vendor, **kw):
        r = dict(target=target, vendor=vendor, program="matmul", entry="matmul_fast", kernel="matmul_fast",
                 dtype="f32", variant="NN", registers=128, simd=16, spill_bytes=0, local_bytes=16384, group=256,
                 toolchain=self.TOOLCHAINS[vendor], occupancy=dict(groups=2, value=16),
                 loop=dict(fma_ops={"f32": 1024}, instructions=1100, fma_share=0.93, bound=0.93))
        r.update(kw)
        return r

    def table(self, results, *args):
        with tempfile.TemporaryDirectory() as d:
            with open(os.path.join(d, "r.jsonl"), "w") as f:
                f.writelines(json.dumps(r) + "\n" for r in results)
            doc = os.path.join(d, "page.md")
            with open(doc, "w") as f:
                f.write("# Page\n\n<!-- clrt-isa: begin (generated by .ci/gpu_isa_table.py) -->\n"
                        "<!-- clrt-isa: end -->\n")
            p = subprocess.run([sys.executable, self.TABLE, os.path.join(d, "r.jsonl"), "--doc", doc,
                                "--write", "--date", "2026-01-01"], capture_output=True, text=True)
            self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
            with open(os.path.join(d, "r.jsonl"), "w") as f:
                f.writelines(json.dumps(r) + "\n" for r in args[0])
            return subprocess.run([sys.executable, self.TABLE, os.path.join(d, "r.jsonl"), "--doc", doc, "--check"],
                                  capture_output=True, text=True)

    def test_check(self):
        run_ = [self.result("sm_90", "nvidia"), self.result("gfx90a", "amd"), self.result("pvc", "intel")]
        self.assertEqual(self.table(run_, run_).returncode, 0)
        other = [dict(run_[0], registers=168)] + run_[1:]
        p = self.table(run_, other)
        self.assertEqual(p.returncode, 1, p.stdout)
        self.assertIn("168", p.stdout)
        # a row the page lacks is named too (not only rows both have)
        p = self.table(run_ + [dict(run_[0], dtype="f64")], run_ + [dict(run_[0], dtype="f64"),
                                                                     dict(run_[1], dtype="f64")])
        self.assertEqual(p.returncode, 1, p.stdout)
        self.assertIn("+| gfx90a | matmul_fast f64", p.stdout)
        # nothing read, or a compiler's version not read: never "other versions, not compared"
        self.assertEqual(self.table(run_, []).returncode, 1)
        p = self.table(run_, [dict(r, toolchain="clang-19") if r["vendor"] == "amd" else r for r in run_])
        self.assertEqual(p.returncode, 1, p.stdout)
        self.assertIn("not all read", p.stdout)


class Report(unittest.TestCase):
    def test_table_row(self):
        r = dict(target="pvc", vendor="intel", kernel="k", registers=128, simd=16, spill_bytes=0, local_bytes=16384,
                 occupancy=dict(value=64), loop=dict(fma_instructions=1024, instructions=1237, fma_share=0.9143,
                                                     bound=0.9143))
        out = io.StringIO()
        report.table([r], out)
        self.assertEqual(out.getvalue().splitlines()[2], "| pvc | k | 128 GRF, SIMD16 | 0 | 16384 | 64 threads | "
                                                         "1024 / 1237 | 0.91 | 0.91 |")


if __name__ == "__main__":
    unittest.main()
