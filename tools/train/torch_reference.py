#!/usr/bin/env python3
"""clrt-train's network in PyTorch, for side-by-side measurements (docs/train.md):
the same layers, data (IDX files scaled to [0, 1]), options and output lines as
clrt-train, plus images/s of training and of inference (the test set in
batches of 256, no grad, as clrt-train --predict classifies it). Its own
initial weights and shuffle (PyTorch's), so the loss curves agree in
distribution, not digit for digit.

  OPENBLAS_NUM_THREADS=1 /usr/bin/python3 tools/train/torch_reference.py --limit 12000 --epochs 1 --threads 2

It first says which PyTorch runs and with what: its version, where it was
loaded from and who installed it (Debian's python3-torch, pip), its threads,
the BLAS it was built with, the OpenBLAS cores loaded into the process (an
old core is a slow reference), oneDNN and the CPU capability; --about says
only that. Needs python3-torch (Debian) or torch from PyPI (a venv:
docs/train.md), and numpy."""
import argparse, ctypes, gzip, os, re, struct, sys, time

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


def idx(path):
    if not os.path.exists(path) and os.path.exists(path + ".gz"):
        path += ".gz"
    with (gzip.open if path.endswith(".gz") else open)(path, "rb") as f:
        data = f.read()
    zero, kind, dims = struct.unpack(">HBB", data[:4])
    assert zero == 0 and kind == 8, path
    shape = struct.unpack(">" + "I" * dims, data[4:4 + 4 * dims])
    return np.frombuffer(data, np.uint8, offset=4 + 4 * dims).reshape(shape)


def openblas_cores():
    """"libblas.so.3 Cooperlake" for each library in this process that answers
    openblas_get_corename (Debian's torch computes with the system's OpenBLAS,
    whose core OPENBLAS_CORETYPE may force); "" when none."""
    found = []
    try:
        maps = sorted({l.split()[-1] for l in open("/proc/self/maps") if l.rstrip().endswith(".so") or ".so." in l})
    except OSError:
        return ""
    for path in maps:
        if "blas" not in os.path.basename(path).lower():
            continue
        try:
            fn = ctypes.CDLL(path).openblas_get_corename
        except (OSError, AttributeError):
            continue
        fn.restype = ctypes.c_char_p
        found.append("%s %s" % (os.path.basename(path), (fn() or b"?").decode()))
    return ", ".join(found)


def about():
    """Two lines: which PyTorch (version, where, who installed it, which
    Python), and what it computes with (threads, BLAS, OpenBLAS cores, oneDNN,
    CPU capability, the OpenBLAS variables)."""
    where = os.path.dirname(torch.__file__)
    try:
        import importlib.metadata
        installer = (importlib.metadata.distribution("torch").read_text("INSTALLER") or "").strip()
    except Exception:  # no metadata: Debian's egg-info has no INSTALLER
        installer = ""
    origin = ("pip" if installer == "pip" else "Debian's python3-torch"
              if where.startswith("/usr/lib/python3/") else installer or "installed by hand")
    print("torch: %s from %s (%s), python %s %s" % (torch.__version__, where, origin, sys.executable,
                                                   sys.version.split()[0]))
    torch.mm(torch.ones(64, 64), torch.ones(64, 64))  # the BLAS loaded, if it loads late
    m = re.search(r"BLAS_INFO=([^,\s]+)", torch.__config__.show())
    cpu = getattr(torch.backends, "cpu", None)
    cap = cpu.get_cpu_capability() if cpu and hasattr(cpu, "get_cpu_capability") else "?"
    cores = openblas_cores()
    print("torch threads: %d (interop %d); BLAS %s%s; oneDNN %s; CPU capability %s; OPENBLAS_NUM_THREADS=%s "
          "OPENBLAS_CORETYPE=%s" % (torch.get_num_threads(), torch.get_num_interop_threads(),
                                    m.group(1) if m else "?", " (OpenBLAS loaded: %s)" % cores if cores else "",
                                    "yes" if torch.backends.mkldnn.is_available() else "no", cap,
                                    os.environ.get("OPENBLAS_NUM_THREADS", "unset"),
                                    os.environ.get("OPENBLAS_CORETYPE", "unset")), flush=True)


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 20, 5)
        self.conv2 = nn.Conv2d(20, 50, 5)
        self.fc1 = nn.Linear(800, 500)
        self.fc2 = nn.Linear(500, 10)

    def forward(self, x):
        x = F.max_pool2d(F.relu(self.conv1(x)), 2)
        x = F.max_pool2d(F.relu(self.conv2(x)), 2)
        x = F.relu(self.fc1(torch.flatten(x, 1)))
        return self.fc2(x)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--data", default="/usr/share/datasets/fashion-mnist")
    p.add_argument("--epochs", type=int, default=2)
    p.add_argument("--batch", type=int, default=4)
    p.add_argument("--lr", type=float, default=0.001)
    p.add_argument("--momentum", type=float, default=0.9)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--print-every", type=int, default=2000)
    p.add_argument("--limit", type=int, default=0)
    p.add_argument("--test-limit", type=int, default=0)
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--device", default="cpu", help="a torch device: cpu (default), cuda")
    p.add_argument("--about", action="store_true", help="say which PyTorch and what it runs with, then stop")
    a = p.parse_args()
    torch.manual_seed(a.seed)
    torch.set_num_threads(a.threads)
    about()
    if a.about:
        return
    x = idx(os.path.join(a.data, "train-images-idx3-ubyte"))
    y = idx(os.path.join(a.data, "train-labels-idx1-ubyte"))
    tx = idx(os.path.join(a.data, "t10k-images-idx3-ubyte"))
    ty = idx(os.path.join(a.data, "t10k-labels-idx1-ubyte"))
    if a.limit:
        x, y = x[:a.limit], y[:a.limit]
    if a.test_limit:
        tx, ty = tx[:a.test_limit], ty[:a.test_limit]
    x = torch.tensor(x, dtype=torch.float32).unsqueeze(1) / 255
    y = torch.tensor(y, dtype=torch.long)
    tx = torch.tensor(tx, dtype=torch.float32).unsqueeze(1) / 255
    ty = torch.tensor(ty, dtype=torch.long)
    dev = torch.device(a.device)
    x, y, tx, ty = x.to(dev), y.to(dev), tx.to(dev), ty.to(dev)
    net = Net().to(dev)
    opt = torch.optim.SGD(net.parameters(), lr=a.lr, momentum=a.momentum)
    crit = nn.CrossEntropyLoss()
    images, t0 = 0, time.perf_counter()
    for epoch in range(a.epochs):
        running = 0.0
        # the shuffle and the batches on the device itself: a DataLoader would
        # copy every batch from the host, which PyTorch on a GPU need not do
        order = torch.randperm(len(x), device=dev)
        # a line at least once an epoch, as clrt-train prints them
        every = min(a.print_every, (len(x) + a.batch - 1) // a.batch)
        for i, start in enumerate(range(0, len(x), a.batch)):
            pick = order[start:start + a.batch]
            xb, yb = x[pick], y[pick]
            opt.zero_grad()
            loss = crit(net(xb), yb)
            loss.backward()
            opt.step()
            running += loss.item()
            images += len(xb)
            if i % every == every - 1:
                print("[%d, %5d] loss: %.3f" % (epoch + 1, i + 1, running / every), flush=True)
                running = 0.0
    if dev.type == "cuda":
        torch.cuda.synchronize()
    secs = time.perf_counter() - t0
    print("Finished Training")
    net.eval()
    with torch.no_grad():
        # inference: one batch first (as clrt-train --predict does), then the
        # test set in batches of 256, timed up to the classes on the host
        net(tx[:256]).argmax(1)
        if dev.type == "cuda":
            torch.cuda.synchronize()
        t1 = time.perf_counter()
        pred = torch.cat([net(tx[i:i + 256]).argmax(1) for i in range(0, len(tx), 256)]).cpu()
        infer = time.perf_counter() - t1
    correct = int((pred == ty.cpu()).sum())
    print("test accuracy: %.2f%% (%d/%d)" % (100.0 * correct / len(ty), correct, len(ty)))
    print("images/s: %.0f (%d images in %.1f s, %s, %d threads)" % (images / secs, images, secs, a.device, a.threads))
    print("inference images/s: %.0f (%d images in batches of 256 in %.3f s, no grad)"
          % (len(tx) / infer if infer > 0 else 0, len(tx), infer))


if __name__ == "__main__":
    main()
