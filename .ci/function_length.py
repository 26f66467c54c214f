#!/usr/bin/env python3
"""No function over 100 lines: every C function (a definition whose body opens
with "{" alone on the line after its signature and closes with "}" alone at
column 0, clang-format's layout here) and every Python def in the tracked
sources, counted from its first line to its last. Exit 1 listing each one over.
Usage: .ci/function_length.py [LIMIT] (default 100; from anywhere in the checkout)."""
import os
import re
import subprocess
import sys

LIMIT = int(sys.argv[1]) if len(sys.argv) > 1 else 100
C_SIGNATURE = re.compile(r"^[A-Za-z_].*\)\s*$")
PY_DEF = re.compile(r"^(\s*)(async\s+)?def ")


def c_functions(lines):
    i = 0
    while i + 1 < len(lines):
        if C_SIGNATURE.match(lines[i]) and lines[i + 1] == "{":
            j = i + 2
            while j < len(lines) and lines[j] != "}":
                j += 1
            yield i, j - i + 1, lines[i]
            i = j
        i += 1


def py_functions(lines):
    for i, line in enumerate(lines):
        m = PY_DEF.match(line)
        if not m:
            continue
        indent, j = len(m.group(1)), i + 1
        while j < len(lines) and (not lines[j].strip() or len(lines[j]) - len(lines[j].lstrip()) > indent):
            j += 1
        while j > i + 1 and not lines[j - 1].strip():
            j -= 1
        yield i, j - i, line.strip()


def main():
    top = subprocess.run(["git", "rev-parse", "--show-toplevel"], capture_output=True, text=True,
                         check=True, cwd=os.path.dirname(os.path.abspath(__file__))).stdout.strip()
    files = subprocess.run(["git", "ls-files", "*.c", "*.h", "*.cl", "*.py"], capture_output=True,
                           text=True, check=True, cwd=top).stdout.split()
    over = []
    for f in files:
        lines = open(os.path.join(top, f), errors="replace").read().split("\n")
        walk = py_functions if f.endswith(".py") else c_functions
        over += [f"{f}:{i + 1}: {n} lines: {sig[:70]}" for i, n, sig in walk(lines) if n > LIMIT]
    for line in over:
        print(line)
    print(f"function_length: {len(files)} files, {len(over)} function(s) over {LIMIT} lines")
    return 1 if over else 0


if __name__ == "__main__":
    sys.exit(main())
