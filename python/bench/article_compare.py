#!/usr/bin/env python3
"""The article's training loop three ways, side by side in one run: through clrt's
Python front (examples/python/article_cnn.py's code, as written), in PyTorch (the same
text with PyTorch's four imports, under every Python that has torch: Debian's
python3-torch through /usr/bin/python3, and pip's in a venv), and clrt-train (the C
tool, the same network, data and hyper-parameters).

    python3 python/bench/article_compare.py [--build build] [--reps 3]
            [--sizes 4:2000,64:8192,256:8192] [--pythons "/usr/bin/python3 VENV/bin/python"]
            [--torch-threads 2] [--data DIR]
    (or: python3 examples/python/article_cnn.py --compare [the same options])

Each run trains one epoch over the first N training images of Fashion-MNIST (or of
--data DIR) at batch B, in a new process; images/s is N over the seconds of the loop
(the first batch's builds included, as clrt-train counts them; the network's creation
and the data's loading not). For each B:N the runs alternate, --reps times, and the
table gives each one's median and the front's ratios to clrt-train and to each
PyTorch. PyTorch runs with --torch-threads threads and OPENBLAS_NUM_THREADS=1, and,
where clrt-bench names one, OpenBLAS on its best core for this CPU (as
tools/train/compare.sh). The front and clrt-train use clrt's default device
(CLRT_DEVICE picks another). Needs a built clrt-train (BUILD/tools/clrt-train) and
libclrt for the front (CLRT_LIBRARY, or the installed package).
"""
import argparse
import json
import os
import pathlib
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parents[1]
ARTICLE = ROOT / "examples" / "python" / "article_cnn.py"
BEGIN, END = "# ---- the article's code ----", "# ---- end of the article's code ----"
IMPORTS = {"clrt": ("import clrt as torch", "import clrt.nn as nn", "import clrt.nn.functional as F",
                    "import clrt.optim as optim"),
           "torch": ("import torch", "import torch.nn as nn", "import torch.nn.functional as F",
                     "import torch.optim as optim")}


def article_code(epochs):
    text = ARTICLE.read_text()
    code = text[text.index(BEGIN + "\n") + len(BEGIN) + 1:text.index(END + "\n")]
    return code.replace("for epoch in range(2):", f"for epoch in range({epochs}):", 1)


class Timed:
    """The loader, timed from the first batch asked to the end of the last epoch's loop."""

    def __init__(self, loader):
        self.loader, self.start, self.end = loader, None, None

    def __iter__(self):
        if self.start is None:
            self.start = time.perf_counter()
        yield from self.loader
        self.end = time.perf_counter()

    def __len__(self):
        return len(self.loader)


def worker(front, batch, limit, npz):
    """One timed run in this process: prints 'images/s: X'."""
    ns = {}
    for line in IMPORTS[front]:
        exec(line, ns)
    torch = ns["torch"]
    data = np.load(npz)
    x, y = data["x"][:limit], data["y"][:limit]
    loader = torch.utils.data.DataLoader(
        torch.utils.data.TensorDataset(torch.from_numpy(x), torch.from_numpy(y)),
        batch_size=batch, shuffle=True)
    ns["trainloader"] = timed = Timed(loader)
    ns["device"] = torch.device() if front == "clrt" else torch.device("cpu")
    exec(compile(article_code(1), str(ARTICLE), "exec"), ns)
    print(f"images/s: {len(x) / (timed.end - timed.start):.1f}")
    print(f"loss: {ns['loss'].item():.4f}")


def median_of(values):
    return statistics.median(values) if values else None


def run(cmd, env=None):
    r = subprocess.run(cmd, capture_output=True, text=True, env=env)
    if r.returncode != 0:
        sys.stderr.write(f"article_compare: {' '.join(map(str, cmd))} failed:\n{r.stderr[-2000:]}")
        return None
    return r.stdout


def images_per_s(out):
    for line in (out or "").splitlines():
        if line.startswith("images/s: "):
            return float(line.split()[1])
    return None


def openblas_env(build):
    """OPENBLAS_CORETYPE for PyTorch's runs: the best core clrt-bench names, where OpenBLAS
    chose another (as tools/train/compare.sh does)."""
    env = {"OPENBLAS_NUM_THREADS": "1"}
    if "OPENBLAS_CORETYPE" in os.environ:
        print(f"OpenBLAS: OPENBLAS_CORETYPE={os.environ['OPENBLAS_CORETYPE']}, as set by the caller")
        return env
    out = run([str(build / "tools" / "clrt-bench"), "--openblas-core"]) \
        if (build / "tools" / "clrt-bench").exists() else None
    words = (out or "").split()
    if len(words) == 2 and words[0] != "-":
        if words[0] != words[1]:
            env["OPENBLAS_CORETYPE"] = words[0]
            print(f"OpenBLAS: core {words[0]} for PyTorch, forced: it chose {words[1]} on this CPU")
        else:
            print(f"OpenBLAS: core {words[0]} for PyTorch, its own choice")
    return env


def pytorches(pythons, threads):
    found = []
    for py in pythons:
        about = run([py, "-c", "import sys, torch, numpy; print('torch %s (%s), numpy %s, python %s, "
                               "%d threads' % (torch.__version__, torch.__file__.rsplit('/', 2)[0], "
                               f"numpy.__version__, sys.version.split()[0], {threads}))"]) \
            if pathlib.Path(py).exists() else None
        if about:
            found.append(py)
            print(f"PyTorch {len(found)}: {py}: {about.strip()}")
        else:
            print(f"skipped {py}: no PyTorch there")
    return found


def main(argv=None):
    ap = argparse.ArgumentParser(description="the article's loop: clrt's front, PyTorch, clrt-train")
    ap.add_argument("--build", default=str(ROOT / "build"), help="the build with tools/clrt-train")
    ap.add_argument("--sizes", default="4:2000,64:8192,256:8192", help="BATCH:IMAGES,...")
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--pythons", default=f"/usr/bin/python3 {pathlib.Path.home()}/.local/share/clrt-torch/bin/python",
                    help="interpreters to try PyTorch with")
    ap.add_argument("--torch-threads", type=int, default=2)
    ap.add_argument("--data", help="MNIST IDX directory (default: Fashion-MNIST)")
    ap.add_argument("--worker", choices=("clrt", "torch"), help=argparse.SUPPRESS)
    ap.add_argument("--batch", type=int, help=argparse.SUPPRESS)
    ap.add_argument("--limit", type=int, help=argparse.SUPPRESS)
    ap.add_argument("--npz", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.worker:
        if args.worker == "torch":
            import torch
            torch.set_num_threads(args.torch_threads)
        worker(args.worker, args.batch, args.limit, args.npz)
        return 0

    import clrt
    from clrt.utils.data import MNIST, FASHION_MNIST_DIR
    build = pathlib.Path(args.build)
    train_tool = build / "tools" / "clrt-train"
    if not train_tool.exists():
        sys.exit(f"article_compare: no {train_tool} (build clrt first, or pass --build)")
    sizes = [tuple(int(v) for v in s.split(":")) for s in args.sizes.split(",")]
    root = args.data or FASHION_MNIST_DIR
    ds = MNIST(root, train=True, limit=max(n for _, n in sizes))
    tmp_dir = tempfile.TemporaryDirectory(prefix="article_compare.")  # gone when main returns
    tmp = pathlib.Path(tmp_dir.name)
    npz = tmp / "data.npz"
    np.savez(npz, x=ds.tensors[0], y=ds.targets)  # MNIST's images as floats in [0, 1]
    print(f"data: the first images of {root}; clrt {clrt.__version__} from {clrt.library_path} "
          f"on {clrt.default_context().device.name}")
    torch_env = dict(os.environ, **openblas_env(build))
    found = pytorches(args.pythons.split(), args.torch_threads)
    me = [sys.executable, str(pathlib.Path(__file__).resolve())]
    print_header(len(found), args.reps)
    for batch, n in sizes:
        c, f, t = [], [], [[] for _ in found]
        for _ in range(args.reps):
            j = tmp / "train.json"
            out = run([str(train_tool), "--limit", str(n), "--epochs", "1", "--batch", str(batch),
                       "--print-every", "1000000", "--test-limit", "1", "--no-progress",
                       "--json", str(j)] + (["--data", args.data] if args.data else []))
            if out is not None:
                c.append(json.loads(j.read_text())["images_per_s"])
            ips = images_per_s(run(me + ["--worker", "clrt", "--batch", str(batch), "--limit", str(n),
                                         "--npz", str(npz)]))
            if ips:
                f.append(ips)
            for i, py in enumerate(found):
                ips = images_per_s(run([py, me[1], "--worker", "torch", "--batch", str(batch),
                                        "--limit", str(n), "--npz", str(npz),
                                        "--torch-threads", str(args.torch_threads)], torch_env))
                if ips:
                    t[i].append(ips)
        print_row(batch, n, median_of(c), median_of(f), [median_of(v) for v in t])
    return 0


def print_header(npy, reps):
    head = f"\n{'batch':>5} {'images':>7} {'clrt-train/s':>13} {'front/s':>9} {'x train':>8}"
    for i in range(npy):
        head += f" {'pytorch%d/s' % (i + 1):>11} {'front x':>8}"
    print(head + f"   (images/s: medians of {reps}; x: the front's ratio to it)")


def print_row(batch, n, c, f, ts):
    def fmt(v):
        return f"{v:.0f}" if v else "failed"

    def ratio(a, b):
        return f"{a / b:.2f}" if a and b else "-"

    line = f"{batch:>5} {n:>7} {fmt(c):>13} {fmt(f):>9} {ratio(f, c):>8}"
    for t in ts:
        line += f" {fmt(t):>11} {ratio(f, t):>8}"
    print(line, flush=True)


if __name__ == "__main__":
    sys.exit(main())
