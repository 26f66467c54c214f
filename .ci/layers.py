#!/usr/bin/env python3
"""The folder rules of src/ (src/README.md, "Which folder may include which"):

- every file of src/ lives in a layer folder; none at src/'s top;
- every internal include names its folder ("runtime/handles.h") and goes to
  the includer's own folder or to one its rule lists; nothing else;
- no include cycle among the headers;
- the embedded kernel sources (clrt__cl_<name>) are named only in kernels/;
- tools/ and examples/ include only the public headers (<clrt/...>), files of
  their own folder and, for tools, tools/common/ and support/ (the host
  reference and the output files), never a header of src/;
- support/ includes only the public headers and its own folder: it knows
  nothing of clrt's inside, so that the tools may use it;
- a relative include ("../...") counts where it lands, not how it is spelt:
  from tools/, examples/ or support/ it must land in a folder that file may
  include (its own tool's or example folder, tools/common/, support/), never
  in src/ or another tool's folder; in src/ an include names its folder and
  never climbs out of it;
- file names in src/ are unique, but for the five that repeat already
  (REPEATED; docs/conventions.md says how a new file is named).

The rules are read from src/README.md, so the document and the check cannot
drift apart. Exit 1 with one line per violation.
Usage: .ci/layers.py [ROOT] (ROOT: the checkout, default this script's;
.ci/test_layers.py runs it on made-up trees)."""
import os
import re
import sys

root = os.path.normpath(sys.argv[1] if len(sys.argv) > 1 else
                        os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
src = os.path.join(root, "src")
support = os.path.join(root, "support")


def lands_in(folder, base, inc):
    """Whether include inc, looked up from folder base, names an existing file
    inside folder (after resolving any "..")."""
    path = os.path.normpath(os.path.join(base, inc))
    return os.path.isfile(path) and os.path.commonpath([path, os.path.normpath(folder)]) == os.path.normpath(folder)
# Names that two folders of src/ share already; no new one joins them.
REPEATED = {"device.c", "elementwise.c", "gemm.c", "reduce.c", "transpose.c"}
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def rules_from_readme():
    """{folder: set of folders it may include}, from the README's table rows
    "| `folder` | `a` `b` ... |" under the rules heading."""
    allowed, on = {}, False
    for line in open(os.path.join(src, "README.md")):
        if line.startswith("## "):
            on = "may include" in line
            continue
        m = re.match(r"\|\s*`([a-z]+)/?`\s*\|(.*?)\|", line) if on else None
        if m:
            allowed[m.group(1)] = set(re.findall(r"`([a-z]+)/?`", m.group(2)))
    return allowed


def sources(folder, exts=(".c", ".h")):
    for dirpath, _, files in os.walk(folder):
        for name in sorted(files):
            if name.endswith(exts):
                yield os.path.join(dirpath, name)


def check_src(allowed, bad):
    graph = {}
    embedded = re.compile(r"\bclrt__cl_(%s)\b" % "|".join(
        os.path.splitext(n)[0] for n in os.listdir(os.path.join(root, "cl")) if n.endswith(".cl")))
    for name in sorted(os.listdir(src)):
        if name.endswith((".c", ".h")):
            bad.append(f"src/{name}: a file at src/'s top; it belongs in a layer folder")
    for path in sources(src):
        rel = os.path.relpath(path, src)
        folder = rel.split(os.sep)[0]
        if folder not in allowed:
            bad.append(f"src/{rel}: folder '{folder}' has no rule in src/README.md")
            continue
        text = open(path).read()
        if folder != "kernels" and embedded.search(text):
            bad.append(f"src/{rel}: names an embedded kernel source; only kernels/ may")
        for inc in INCLUDE.findall(text):
            if inc.startswith("clrt/"):
                continue
            target = inc.split("/")[0] if "/" in inc else None
            if ".." in inc.split("/"):
                bad.append(f"src/{rel}: includes \"{inc}\": an internal include names its folder, never \"..\"")
                continue
            if target is None or not (os.path.exists(os.path.join(src, inc)) or
                                      os.path.exists(os.path.join(support, inc))):
                bad.append(f"src/{rel}: includes \"{inc}\": internal includes name their folder (\"base/util.h\")")
                continue
            if target != folder and target not in allowed[folder]:
                bad.append(f"src/{rel}: includes {inc}; {folder}/ may include only "
                           + (", ".join(sorted(allowed[folder])) or "the public headers"))
            if rel.endswith(".h"):
                graph.setdefault(rel, []).append(inc)
    # no cycles among the headers
    state = {}

    def visit(h, path):
        state[h] = 1
        for n in graph.get(h, []):
            if state.get(n) == 1:
                bad.append("include cycle: " + " -> ".join(path[path.index(n):] + [n]))
            elif not state.get(n):
                visit(n, path + [n])
        state[h] = 2

    for h in list(graph):
        if not state.get(h):
            visit(h, [h])
    # and none among the folders' rules themselves
    for f, deps in allowed.items():
        for d in deps:
            if f in allowed.get(d, ()):
                bad.append(f"src/README.md: {f}/ and {d}/ may include each other")


def check_names(bad):
    """No file name twice in src/, but those of REPEATED."""
    seen = {}
    for path in sources(src, (".c", ".h", ".cl")):
        seen.setdefault(os.path.basename(path), []).append(os.path.relpath(path, root))
    for name, paths in sorted(seen.items()):
        if len(paths) > 1 and name not in REPEATED:
            bad.append(f"{', '.join(paths)}: one file name in two places; name the new one for its "
                       "folder too (docs/conventions.md, \"Names\")")


def check_support(bad):
    """support/: the public headers and its own folder, nothing of src/."""
    for path in sources(support):
        here = os.path.dirname(path)
        mine = os.path.join(support, os.path.relpath(here, support).split(os.sep)[0])
        for inc in INCLUDE.findall(open(path).read()):
            if inc.startswith("clrt/") and ".." not in inc.split("/"):
                continue
            own = lands_in(mine, here, inc) or (inc.split("/")[0] == os.path.basename(mine) and
                                                lands_in(mine, support, inc))
            if not own:
                bad.append(f"{os.path.relpath(path, root)}: includes \"{inc}\"; support/ knows nothing of "
                           "clrt's inside (the public headers and its own folder only)")


def check_private_names(bad):
    """No header of tools/, examples/, support/ or tests/ named as a header of src/:
    an include of "args.h" or "tune.h" from a tool reads as the library's inside,
    which outside programs never see."""
    private = {os.path.basename(p) for p in sources(src, (".h",))}
    for top in ("tools", "examples", "support", "tests"):
        for path in sources(os.path.join(root, top), (".h",)):
            if os.path.basename(path) in private:
                bad.append(f"{os.path.relpath(path, root)}: named as a header of src/; outside programs see "
                           "only <clrt/...>, so give it a name of its own (docs/conventions.md, \"Names\")")


def check_outside(bad):
    """tools/ and examples/: the public headers, their own folder, tools/common/, support/."""
    for top in ("tools", "examples"):
        for path in sources(os.path.join(root, top)):
            here = os.path.dirname(path)
            rel = os.path.relpath(here, os.path.join(root, top)).split(os.sep)
            # a tool's folder is tools/<tool>/ (subfolders included); examples/ is one folder
            mine = os.path.join(root, top, rel[0]) if top == "tools" and rel[0] != "." else os.path.join(root, top)
            for inc in INCLUDE.findall(open(path).read()):
                # a program in rooms (tools/bench/measure/...) names a room's header from
                # the program's folder: "report/report.h"
                own = lands_in(mine, here, inc) or (top == "tools" and lands_in(mine, mine, inc))
                common = top == "tools" and (lands_in(os.path.join(root, "tools", "common"), here, inc) or
                                             (inc.startswith("common/") and
                                              lands_in(os.path.join(root, "tools", "common"),
                                                       os.path.join(root, "tools"), inc)))
                plain = top == "tools" and (lands_in(support, support, inc) or lands_in(support, here, inc))
                if not (own or common or plain):
                    bad.append(f"{os.path.relpath(path, root)}: includes \"{inc}\", not its own folder's "
                               "(outside programs see only <clrt/...>)")


def main():
    allowed = rules_from_readme()
    bad = []
    if not allowed:
        bad.append("src/README.md: no folder rules found (a table under a '## ... may include ...' heading)")
    else:
        check_src(allowed, bad)
    check_names(bad)
    check_support(bad)
    check_private_names(bad)
    check_outside(bad)
    for b in bad:
        print("layers:", b)
    print(f"layers: {len(allowed)} folders of src/, {len(bad)} violation(s)")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
