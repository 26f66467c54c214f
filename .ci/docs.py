#!/usr/bin/env python3
"""The docs point only at what exists: in every tracked Markdown file, each
relative link [text](file#anchor) names a tracked file or folder and, into a
Markdown file, a heading's anchor (GitHub's rule); each repository path cited
(src/..., tools/..., docs/..., ...) is a tracked file or folder, or a program
built from one (examples/quickstart from examples/quickstart.c); and each
Markdown file named (DESIGN.md, say) is in the tree, and no relative path
climbs out of it (../shared/...); and each table row ends
with its pipe and has as many cells as its table's header (a row run into the
text after it breaks the table).

Reference, not record: README.md and the pages of docs/ say what is true now;
what was measured when, and what changed, lives on the one history page,
docs/benchmarks-history.md (HISTORY below), which these checks skip:

- dates: a date (2026-12-05, "Dec 2026", "5 December 2026") may appear only
  in the line that introduces a table of current figures (the paragraph just
  before the table, or the one before a fenced block that the table follows;
  a fenced block of a tool's output counts as a table) or in the table's
  header row, and on one such table per page: a page names its figures'
  machine and date once;
- before/after: no phrase that tells a story of changes (RECORD_PHRASES:
  "the commit before", "that night", "in the morning", "before 2026-...",
  "since ..., not ...", "where it built/took ...", "not re-measured", ...);
- one owner per command's figures: a figure (a number with a unit of time,
  rate or ratio: 37 s, 9.8 ms, 211 GFLOP/s, 1,335 images/s, 87.18%, 1.23x;
  not after "every", "at most", "at least", "up to", "default", "timeout",
  which give a setting the program keeps rather than a measurement)
  that stands in the same paragraph, list item or table row as a command in
  backticks (`build/tools/clrt-train --limit 2000`) is attached to the
  nearest such command before it; the command is its program's name and its options, with the
  folder (build/tools/, examples/python/, ...), `env ...` and VAR=value
  prefixes dropped. The figures of one command may stand on one page only;
  any other page links to that page instead of repeating (or contradicting)
  them. Two pages that attach figures to the same command both fail, named
  with their lines.

README.md stays at most README_LINES lines (a page a newcomer reads in five
minutes; the rest belongs in docs/). And README.md's test command is, byte for byte, the line that .ci/run runs
between its "keep in sync" markers.

Exit 1 listing every miss. `.ci/test_docs.py` feeds these checks text that
must pass and text that must fail.
Usage: .ci/docs.py (from anywhere in the checkout)."""
import fnmatch
import os
import re
import subprocess
import sys

TOP = ("src", "tools", "tests", "cl", "python", "examples", "cmake", "docs", "include", ".ci")
FENCE = re.compile(r"(?ms)^```.*?^```")
HISTORY = "docs/benchmarks-history.md"
README_LINES = 200
# Pages held to "reference, not record": README.md and docs/ (the history page aside).
REFERENCE = re.compile(r"^(README\.md|docs/[^/]+\.md)$")

MONTH = (r"(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec)[a-z]*\.?")
DATE = re.compile(r"\b(?:(?:19|20)\d\d-[01]\d-[0-3]\d"
                  r"|(?:[0-3]?\d )?%s,? (?:19|20)\d\d"
                  r"|%s [0-3]?\d(?:st|nd|rd|th)?,? (?:19|20)\d\d)\b" % (MONTH, MONTH))
# Phrases of a record: what changed, when, against what came before.
RECORD_PHRASES = [
    r"\bcommits? before\b", r"\bthe (?:previous|last|earlier) commit\b", r"\bcommit [0-9a-f]{7,40}\b",
    r"\b(?:that|this|the same|in the|early|late|one) (?:morning|afternoon|evening|night)\b",
    r"\bthat day\b", r"\b(?:yesterday|today|tonight)\b",
    # a year, not a count ("after 2048 steps", "since 2048 x 2048 fits", "a 2048-element row")
    r"\b(?:before|after|since|until) (?:19|20)\d\d\b(?!\s?[x×*]\s?\d)(?!-[a-z])(?! [a-z]{2,}s\b)",
    r"\balternated with (?:the|an?) (?:commit|build|version)\b",
    r"\bsince [^.;:()]{1,80}, not \d",
    r"\bwhere it (?:built|took|launched|ran|had|used|gave|read)\b",
    r"\b(?:not |never )?re-(?:measured|run)\b", r"\bnot yet (?:re-?run|measured|re-measured)\b",
    # "no longer than 100 lines" is a bound; "the buffer used to hold it" a use
    r"\b(?<!best )so far\b", r"\bno longer\b(?! than)",
    r"\b(?:(?:it|they|this|that|which|we|there) used to|used to be)\b",
    r"\b(?:fixed|changed|added|merged|measured) since\b",
    r"\b(?:before|after) (?:these|this|that|the) (?:changes?|commit|merge|round|fix)\b",
    r"\bearlier (?:runs?|the same day|that day)\b", r"\bthe runs? before\b",
    r"\b(?:old|older|earlier) (?:figures|tables|values)\b",
]
RECORD = re.compile("|".join(RECORD_PHRASES), re.I)
UNIT = r"(?:s|ms|us|µs|min|h|GFLOP/s|TFLOP/s|GB/s|TB/s|MB/s|images/s|%|x)"
# A number after these words is a setting or a bound the program keeps ("every 5 s",
# "at most 3 s"), not a measurement.
SETTING = r"(?<!every )(?<!at most )(?<!at least )(?<!up to )(?<!default )(?<!timeout )"
FIGURE = re.compile(SETTING + r"(?<![\w.])\d[\d,]*(?:\.\d+)?(?:-\d[\d,]*(?:\.\d+)?)?\s?%s(?![\w])" % UNIT)
PROGRAM = re.compile(r"^(?:clrt-[\w-]+|quickstart|[\w-]+\.(?:py|sh))$")


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
        with open(path) as f:
            text = f.read()
        for m in re.finditer(r"(?m)^#{1,6}\s+(.*?)\s*$", FENCE.sub("", text)):
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
    """Repository paths (src/..., or any ../...: relative to md) and Markdown names cited in
    text that are not in the tree; a ../ path that climbs out of it (../shared/...) too."""
    names = {os.path.basename(f) for f in files}
    top = r"(?:%s)/[\w/.*-]*[\w*]" % "|".join(map(re.escape, TOP))
    for m in re.finditer(r"(?<![\w/.$-])(%s|(?:\.\./)+[\w.-][\w/.*-]*[\w*])" % top, text):
        cited = m.group(1)
        path = os.path.normpath(os.path.join(os.path.dirname(md), cited)) if cited.startswith("..") else cited
        if path.startswith(".."):
            yield f"{md}: cites {cited}, outside the repository"
            continue
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


def blocks(text):
    """(first line number, lines) of each paragraph, list item and table row of
    text, fenced blocks left out (a list item or table row is a block of its own)."""
    lines = FENCE.sub(lambda m: "\n" * m.group(0).count("\n"), text).split("\n")
    cur, start = [], 0
    for no, line in enumerate(lines, 1):
        item = re.match(r"\s*(?:[-*+]|\d+\.)\s", line)
        if not line.strip() or line.startswith("|") or line.startswith("#") or item:
            if cur:
                yield start, cur
            cur = []
            if line.startswith("|") or line.startswith("#"):
                yield no, [line]
                continue
            if not line.strip():
                continue
        if not cur:
            start = no
        cur.append(line)
    if cur:
        yield start, cur


def table_intros(text):
    """Line numbers allowed to carry a date: each table's (or fenced block's)
    first line and the paragraph just before it, or just before the fenced
    block that a table follows.
    Returns {table header line: set of line numbers}."""
    lines = text.split("\n")
    out = {}
    fenced = False
    for i, line in enumerate(lines):
        opens = line.startswith("```") and not fenced  # a fenced block of figures (a tool's output) counts too
        if line.startswith("```"):
            fenced = not fenced
        if not opens and (fenced or not line.startswith("|") or (i > 0 and lines[i - 1].startswith("|"))):
            continue
        allowed = {i + 1}
        j = i - 1
        while j >= 0 and not lines[j].strip():
            j -= 1
        if j >= 0 and lines[j].startswith("```"):  # a fenced block (the command) between
            j -= 1
            while j >= 0 and not lines[j].startswith("```"):
                j -= 1
            j -= 1
            while j >= 0 and not lines[j].strip():
                j -= 1
        while j >= 0 and lines[j].strip() and not lines[j].startswith(("#", "|", "```")):
            allowed.add(j + 1)
            j -= 1
        out[i + 1] = allowed
    return out


def check_record(md, text):
    """Dates outside a figure table's header or introduction, more than one
    dated table, and phrases of a record (see the module's docstring)."""
    intros = table_intros(text)
    dated_tables = set()
    for no, line in enumerate(text.split("\n"), 1):
        line = re.sub(r"\]\([^)\s]*\)", "]()", line)  # a link's target (a dated heading's anchor) is no date
        for m in DATE.finditer(line):
            owner = [t for t, allowed in intros.items() if no in allowed]
            if owner:
                dated_tables.add(owner[0])
            else:
                yield f"{md}:{no}: a date ({m.group(0)}) outside a figure table's header or introduction; " \
                      f"what happened when belongs on {HISTORY}"
        for m in RECORD.finditer(line):
            yield f"{md}:{no}: \"{m.group(0)}\" tells a story of changes; say what is true now " \
                  f"(the story belongs on {HISTORY})"
    if len(dated_tables) > 1:
        yield f"{md}: {len(dated_tables)} dated tables (header lines {sorted(dated_tables)}); " \
              "one table of current figures per page names its machine and date"


def command_key(code):
    """The command a code span runs, as "program --opt value ...", or None."""
    words = code.split()
    while words and (re.match(r"^[A-Z_][A-Z0-9_]*=", words[0]) or words[0] in ("env", "sudo", "time")
                     or (words[0].startswith("-") and words[0] in ("-u",)) ):
        if words[0] == "env" and len(words) > 2 and words[1] == "-u":
            words = words[3:]
            continue
        words = words[1:]
    if not words or not PROGRAM.match(os.path.basename(words[0])):
        return None
    return " ".join([os.path.basename(words[0])] + words[1:])


def figures_by_command(md, text):
    """{command: [line numbers]} of the blocks where figures stand beside a command."""
    found = {}
    for no, lines in blocks(text):
        block = " ".join(lines)
        commands = [(m.start(), command_key(m.group(1))) for m in re.finditer(r"`([^`]+)`", block)]
        commands = [(at, key) for at, key in commands if key]
        if not commands:
            continue
        bare = re.sub(r"`[^`]*`", lambda m: " " * len(m.group(0)), block)  # same offsets, no code
        for fig in FIGURE.finditer(bare):
            before = [key for at, key in commands if at < fig.start()]
            if not before:
                continue
            key = before[-1]
            if no not in found.setdefault(key, []):
                found[key].append(no)
    return found


def check_owners(pages):
    """pages: {md: text}. A command's figures on more than one page."""
    where = {}
    for md, text in sorted(pages.items()):
        for key, nos in figures_by_command(md, text).items():
            where.setdefault(key, []).append(f"{md}:{nos[0]}")
    for key, places in sorted(where.items()):
        if len(places) > 1:
            yield f"figures for `{key}` on {len(places)} pages ({', '.join(places)}): " \
                  "give them on one page and link to it from the others"


def check_readme_length(readme):
    n = readme.count("\n")
    if n > README_LINES:
        yield f"README.md: {n} lines, more than {README_LINES}; move the detail to a page of docs/"


def check_test_command(readme, run):
    """The command between .ci/run's "keep in sync" markers is a line of README.md."""
    m = re.search(r"(?m)^# --- keep in sync with README\.md.*\n(.*)\n# ---$", run)
    if not m:
        yield ".ci/run: no command between \"# --- keep in sync with README.md\" and \"# ---\""
    elif m.group(1) not in readme.split("\n"):
        yield "README.md: its test command is not the line .ci/run runs (keep them byte for byte the same)"


def main():
    os.chdir(subprocess.run(["git", "rev-parse", "--show-toplevel"], capture_output=True, text=True,
                            check=True).stdout.strip())
    files, folders = tracked_files()
    bad, reference = [], {}
    for md in sorted(f for f in files if f.endswith(".md")):
        text = open(md).read()
        bad += check_links(md, text, files, folders)
        bad += check_citations(md, text, files, folders)
        bad += check_tables(md, text)
        if REFERENCE.match(md) and md != HISTORY:
            bad += check_record(md, text)
            reference[md] = text
    bad += check_owners(reference)
    bad += check_test_command(open("README.md").read(), open(".ci/run").read())
    bad += check_readme_length(open("README.md").read())
    for line in bad:
        print(line)
    print(f"docs.py: {len(bad)} problem(s): links, citations, table rows, records outside {HISTORY}, "
          "figures on two pages" if bad else
          "docs.py: every link and citation resolves, every table row is whole, the pages are reference "
          f"(no dates or stories outside {HISTORY}), each command's figures on one page")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
