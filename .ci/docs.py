#!/usr/bin/env python3
"""The docs point only at what exists: in every tracked Markdown file, each
relative link [text](file#anchor) names a tracked file or folder and, into a
Markdown file, a heading's anchor (GitHub's rule); each repository path cited
(src/..., tools/..., docs/..., ...) is a tracked file or folder, or a program
built from one (examples/quickstart from examples/quickstart.c); and each
Markdown file named (DESIGN.md, say) is in the tree; and each table row ends
with its pipe and has as many cells as its table's header (a row run into the
text after it breaks the table). Exit 1 listing every miss.
Usage: .ci/docs.py (from anywhere in the checkout)."""
import fnmatch
import os
import re
import subprocess
import sys

TOP = ("src", "tools", "tests", "cl", "python", "examples", "cmake", "docs", "include", ".ci")
FENCE = re.compile(r"(?ms)^```.*?^```")


def tracked_files():
    out = subprocess.run(["git", "ls-files"], capture_output=True, text=True, check=True)
    files = set(out.stdout.split())
    folders = set()
    for f in files:
        d = os.path.dirname(f)
        while d:
            folders.add(d)
            d = os.path.dirname(d)
    return files, folders


def anchors(path, cache={}):
    """The anchors GitHub gives path's headings: lower case, punctuation but - and _
    dropped, spaces as -, a repeated one suffixed -1, -2, ..."""
    if path not in cache:
        seen, out = {}, set()
        for m in re.finditer(r"(?m)^#{1,6}\s+(.*?)\s*$", FENCE.sub("", open(path).read())):
            slug = re.sub(r"[^\w\- ]", "", m.group(1).strip().lower()).replace(" ", "-")
            n = seen.get(slug, 0)
            seen[slug] = n + 1
            out.add(slug if n == 0 else f"{slug}-{n}")
        cache[path] = out
    return cache[path]


def check_links(md, text, files, folders):
    for m in re.finditer(r"\[[^\]]*\]\(([^)\s]+)\)", FENCE.sub("", text)):
        target = m.group(1)
        if re.match(r"^[a-z]+:", target):
            continue
        path, _, anchor = target.partition("#")
        dest = os.path.normpath(os.path.join(os.path.dirname(md), path)) if path else md
        if dest not in files and dest not in folders:
            yield f"{md}: link to {target}: no such file"
        elif anchor and dest.endswith(".md") and anchor not in anchors(dest):
            yield f"{md}: link to {target}: no such heading"


def check_citations(md, text, files, folders):
    names = {os.path.basename(f) for f in files}
    for m in re.finditer(r"(?<![\w/.$-])((?:\.\./)*(?:%s)/[\w/.*-]*[\w*])" % "|".join(map(re.escape, TOP)), text):
        cited = m.group(1)
        path = os.path.normpath(os.path.join(os.path.dirname(md), cited)) if cited.startswith("..") else cited
        if path in files or path in folders or any(path + ext in files for ext in (".c", ".py", ".sh")):
            continue
        if "*" in path and fnmatch.filter(files, path):  # a pattern (cl/transpose*.cl) that matches
            continue
        yield f"{md}: cites {cited}, which is not in the repository"
    for m in re.finditer(r"(?<![\w/.-])([\w-]+\.md)\b", text):
        if m.group(1) not in names:
            yield f"{md}: names {m.group(1)}, which is not in the repository"


def cells(row):
    return len(re.split(r"(?<!\\)\|", re.sub(r"`[^`]*`", "``", row.strip()))) - 2


def check_tables(md, text):
    header = None
    for no, line in enumerate(FENCE.sub(lambda m: "\n" * m.group(0).count("\n"), text).split("\n"), 1):
        if not line.startswith("|"):
            header = None
            continue
        if not line.rstrip().endswith("|"):
            yield f"{md}:{no}: a table row that does not end with |"
        elif header is None:
            header = cells(line)
        elif cells(line) != header:
            yield f"{md}:{no}: a table row of {cells(line)} cells under a header of {header}"


def main():
    os.chdir(subprocess.run(["git", "rev-parse", "--show-toplevel"], capture_output=True, text=True,
                            check=True).stdout.strip())
    files, folders = tracked_files()
    bad = []
    for md in sorted(f for f in files if f.endswith(".md")):
        text = open(md).read()
        bad += check_links(md, text, files, folders)
        bad += check_citations(md, text, files, folders)
        bad += check_tables(md, text)
    for line in bad:
        print(line)
    print(f"docs.py: {len(bad)} broken link(s), citation(s) or table row(s)" if bad else "docs.py: every link and citation resolves, every table row is whole")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
