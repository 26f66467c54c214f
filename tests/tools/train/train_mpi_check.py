#!/usr/bin/env python3
"""clrt-train-mpi on R ranks against clrt-train in one process, same global
batch and seed: every printed loss and the test accuracy must agree within
floating-point tolerance (the ranks sum their shares' gradients in another
order than one process does). Both write --json; the losses there are the
printed ones at full precision.

usage: train_mpi_check.py WORK TRAIN TRAIN_MPI NP MPIEXEC [MPIEXEC_ARGS...] -- TRAIN_ARGS..."""
import json, os, subprocess, sys

work, train, train_mpi, np_, rest = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5:]
cut = rest.index("--")
mpiexec, args = rest[:cut], rest[cut + 1:]
os.makedirs(work, exist_ok=True)
one, many = os.path.join(work, "one.json"), os.path.join(work, f"np{np_}.json")

def run(cmd):
    print("+", " ".join(cmd), flush=True)
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=600)
    print(p.stdout, flush=True)
    if p.returncode != 0:
        sys.exit(f"FAIL: exit status {p.returncode}")
    return p.stdout

out1 = run([train] + args + ["--json", one])
outr = run(mpiexec + ["-np", np_, train_mpi] + args + ["--json", many])
a, b = json.load(open(one)), json.load(open(many))
bad = []
if len(a["losses"]) != len(b["losses"]) or not a["losses"]:
    bad.append(f"{len(a['losses'])} losses in one process, {len(b['losses'])} on {np_} ranks")
for i, (x, y) in enumerate(zip(a["losses"], b["losses"])):
    if abs(x - y) > 1e-4 * max(1.0, abs(x)):
        bad.append(f"loss {i}: {x!r} in one process, {y!r} on {np_} ranks")
# A prediction may flip where two logits are within rounding of each other.
if abs(a["test_correct"] - b["test_correct"]) > 1 or a["test_total"] != b["test_total"]:
    bad.append(f"test accuracy: {a['test_correct']}/{a['test_total']} in one process, "
               f"{b['test_correct']}/{b['test_total']} on {np_} ranks")
# Only rank 0 prints: the printed lines are the one process's, once each.
if outr.count("Finished Training") != 1:
    bad.append(f"'Finished Training' printed {outr.count('Finished Training')} times on {np_} ranks")
for line in bad:
    print("FAIL:", line)
if bad:
    sys.exit(1)
print(f"train_mpi: {len(a['losses'])} losses and the accuracy ({b['test_correct']}/{b['test_total']}) "
      f"agree on {np_} ranks; largest loss difference "
      f"{max(abs(x - y) for x, y in zip(a['losses'], b['losses'])):.3g}")
