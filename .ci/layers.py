#!/usr/bin/env python3
"""The one-way layers of src/ (src/README.md): every #include "x.h" in src/
goes to a header of the includer's layer or below, there is no include cycle,
and tools/ and examples/ include only the public headers. The layer table is
read from src/README.md, so the document and the check cannot drift apart.
Exit 1 with one line per violation."""
import os, re, sys

root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
src = os.path.join(root, "src")
layer = {}
for line in open(os.path.join(src, "README.md")):
    m = re.match(r"\|\s*(\d+)\s*\|(.*?)\|", line)
    if m:
        for mod in re.findall(r"`([a-z_0-9]+)`", m.group(2)):
            layer[mod] = int(m.group(1))
owner = {"cl_names": "error", "validate": "handles"}

def module(name):
    stem = os.path.splitext(name)[0]
    return owner.get(stem, stem)

bad, graph = [], {}
for name in sorted(os.listdir(src)):
    if not name.endswith((".c", ".h")):
        continue
    mod = module(name)
    if mod not in layer:
        bad.append(f"src/{name}: module '{mod}' has no layer in src/README.md")
        continue
    for inc in re.findall(r'^\s*#\s*include\s+"([^"]+)"', open(os.path.join(src, name)).read(), re.M):
        if inc.startswith("clrt/"):
            continue
        target = module(inc)
        if target not in layer:
            bad.append(f"src/{name}: includes {inc}, which has no layer")
            continue
        if mod.startswith("mpi_") and not target.startswith("mpi_"):
            bad.append(f"src/{name} (clrt_mpi) includes {inc}: clrt_mpi sees only the public API and its own headers")
        if layer[target] > layer[mod]:
            bad.append(f"src/{name} (layer {layer[mod]}) includes {inc} (layer {layer[target]}): upward")
        if name.endswith(".h"):
            graph.setdefault(name, []).append(inc)

# cycles among the headers
state = {}
def visit(h, path):
    state[h] = 1
    for n in graph.get(h, []):
        if state.get(n) == 1:
            bad.append("include cycle: " + " -> ".join(path[path.index(n):] + [n]) if n in path else n)
        elif not state.get(n):
            visit(n, path + [n])
    state[h] = 2
for h in list(graph):
    if not state.get(h):
        visit(h, [h])

# outside programs see only include/clrt
for folder in ("tools", "examples"):
    for dirpath, _, files in os.walk(os.path.join(root, folder)):
        for name in files:
            if not name.endswith((".c", ".h")):
                continue
            text = open(os.path.join(dirpath, name)).read()
            for inc in re.findall(r'^\s*#\s*include\s+"([^"]+)"', text, re.M):
                if not os.path.exists(os.path.join(dirpath, inc)):
                    bad.append(f"{os.path.relpath(os.path.join(dirpath, name), root)}: includes \"{inc}\", not its own file")

for b in bad:
    print("layers:", b)
print(f"layers: {len(layer)} modules in {max(layer.values()) + 1} layers, {len(bad)} violation(s)")
sys.exit(1 if bad else 0)
