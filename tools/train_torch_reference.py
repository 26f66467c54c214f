#!/usr/bin/env python3
"""The source article's network in PyTorch: the reference clrt-train is measured against.

Same network, loss, optimizer, defaults, command line subset and output as clrt-train
(docs/train.md), so one can be run beside the other on the same CPU:

    conv(1->20, 5x5) -> relu -> maxpool 2 -> conv(20->50, 5x5) -> relu -> maxpool 2
    -> fc(800->500) -> relu -> fc(500->10), cross-entropy, SGD (lr, momentum)

Two modes:
  train (default)  train on the IDX files of --data DIR (MNIST or Fashion-MNIST, plain or
                   .gz), print `[%d, %5d] loss: %.3f` every --print-every mini-batches,
                   `Finished Training` and `test accuracy: P% (correct/total)`; --json FILE
                   writes clrt-train's keys (device, epochs, batch, losses, test_accuracy,
                   images_per_s)
  --speed          training and inference images/s on synthetic 1x28x28 inputs at each
                   --speed-batches size (a table, or --json FILE)

Threads: --threads N (default: every CPU) for torch; OpenBLAS is pinned to one thread
before torch loads (its own threads fight torch's and run 2-5x slower otherwise).
Needs python3-torch (Debian) or torch from PyPI, and numpy.
"""
import argparse
import gzip
import json
import os
import struct
import sys
import time

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", str(os.cpu_count() or 1))

import numpy as np  # noqa: E402
import torch  # noqa: E402
import torch.nn as nn  # noqa: E402
import torch.nn.functional as F  # noqa: E402

FILES = {
    "train_images": "train-images-idx3-ubyte",
    "train_labels": "train-labels-idx1-ubyte",
    "test_images": "t10k-images-idx3-ubyte",
    "test_labels": "t10k-labels-idx1-ubyte",
}


class Net(nn.Module):
    """The article's LeNet-style network, layer for layer."""

    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 20, 5)
        self.conv2 = nn.Conv2d(20, 50, 5)
        self.fc1 = nn.Linear(800, 500)
        self.fc2 = nn.Linear(500, 10)

    def forward(self, x):
        x = F.max_pool2d(F.relu(self.conv1(x)), 2)
        x = F.max_pool2d(F.relu(self.conv2(x)), 2)
        x = torch.flatten(x, 1)
        return self.fc2(F.relu(self.fc1(x)))


def fail(msg):
    print(f"train_torch_reference: {msg}", file=sys.stderr)
    sys.exit(2)


def read_idx(directory, stem, magic, limit=None):
    """An IDX file (plain or .gz) as a numpy array; images scaled to [0, 1]."""
    for name in (stem, stem + ".gz"):
        path = os.path.join(directory, name)
        if os.path.exists(path):
            break
    else:
        fail(f"{os.path.join(directory, stem)}[.gz]: not found")
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rb") as f:
        data = f.read()
    if len(data) < 8 or struct.unpack(">I", data[:4])[0] != magic:
        fail(f"{path}: not an IDX file of the expected kind (magic)")
    dims = data[3]
    shape = struct.unpack(">" + "I" * dims, data[4 : 4 + 4 * dims])
    body = np.frombuffer(data, dtype=np.uint8, offset=4 + 4 * dims)
    if body.size != int(np.prod(shape)):
        fail(f"{path}: {body.size} bytes of data, the header says {int(np.prod(shape))}")
    arr = body.reshape(shape)
    if limit:
        arr = arr[:limit]
    if dims == 3:
        if shape[1:] != (28, 28):
            fail(f"{path}: images are {shape[1]}x{shape[2]}, the network takes 28x28")
        return torch.from_numpy(arr.astype(np.float32) / 255.0).unsqueeze(1)
    return torch.from_numpy(arr.astype(np.int64))


def train(args):
    d = args.data
    xtr = read_idx(d, FILES["train_images"], 2051, args.limit)
    ytr = read_idx(d, FILES["train_labels"], 2049, args.limit)
    xte = read_idx(d, FILES["test_images"], 2051)
    yte = read_idx(d, FILES["test_labels"], 2049)
    if len(xtr) != len(ytr) or len(xte) != len(yte):
        fail(f"{d}: image and label counts disagree")
    torch.manual_seed(args.seed)
    net = Net()
    opt = torch.optim.SGD(net.parameters(), lr=args.lr, momentum=args.momentum)
    loss_fn = nn.CrossEntropyLoss()
    gen = torch.Generator().manual_seed(args.seed)
    losses = []
    n = len(xtr)
    t0 = time.perf_counter()
    for epoch in range(args.epochs):
        order = torch.randperm(n, generator=gen)
        running = 0.0
        for i in range(0, n // args.batch):
            idx = order[i * args.batch : (i + 1) * args.batch]
            opt.zero_grad()
            loss = loss_fn(net(xtr[idx]), ytr[idx])
            loss.backward()
            opt.step()
            running += loss.item()
            if (i + 1) % args.print_every == 0:
                losses.append(running / args.print_every)
                print("[%d, %5d] loss: %.3f" % (epoch + 1, i + 1, running / args.print_every), flush=True)
                running = 0.0
    seconds = time.perf_counter() - t0
    print("Finished Training")
    correct = 0
    with torch.no_grad():
        for i in range(0, len(xte), 1000):
            correct += int((net(xte[i : i + 1000]).argmax(1) == yte[i : i + 1000]).sum())
    acc = 100.0 * correct / len(xte)
    print(f"test accuracy: {acc:.2f}% ({correct}/{len(xte)})")
    images = args.epochs * (n // args.batch) * args.batch
    if args.json:
        with open(args.json, "w") as f:
            json.dump(
                {
                    "device": f"pytorch {torch.__version__} cpu, {torch.get_num_threads()} threads",
                    "epochs": args.epochs,
                    "batch": args.batch,
                    "losses": losses,
                    "test_accuracy": acc,
                    "images_per_s": images / seconds,
                },
                f,
            )


def speed(args):
    torch.manual_seed(args.seed)
    rows = []
    for batch in args.speed_batches:
        net = Net()
        opt = torch.optim.SGD(net.parameters(), lr=args.lr, momentum=args.momentum)
        loss_fn = nn.CrossEntropyLoss()
        x = torch.rand(batch, 1, 28, 28)
        y = torch.randint(0, 10, (batch,))

        def step():
            opt.zero_grad()
            loss_fn(net(x), y).backward()
            opt.step()

        train_ips = batch / time_per_call(step, args.seconds)
        with torch.no_grad():
            infer_ips = batch / time_per_call(lambda: net(x), args.seconds)
        rows.append({"batch": batch, "train_images_per_s": train_ips, "infer_images_per_s": infer_ips})
    info = f"pytorch {torch.__version__} cpu, {torch.get_num_threads()} threads"
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"device": info, "speed": rows}, f)
    print(f"{info}: images/s on synthetic 1x28x28 inputs, median of rounds of >= {args.seconds} s")
    print(f"{'batch':>6} {'train':>10} {'infer':>10}")
    for r in rows:
        print(f"{r['batch']:>6} {r['train_images_per_s']:>10.0f} {r['infer_images_per_s']:>10.0f}")


def time_per_call(fn, seconds):
    """Median seconds per call over 3 rounds of at least `seconds`/3 each, after warm-up."""
    for _ in range(3):
        fn()
    rounds = []
    for _ in range(3):
        calls, t0 = 0, time.perf_counter()
        while True:
            fn()
            calls += 1
            t = time.perf_counter() - t0
            if t >= seconds / 3:
                break
        rounds.append(t / calls)
    return sorted(rounds)[1]


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--data", default="/usr/share/datasets/fashion-mnist", help="IDX folder (default: Fashion-MNIST)")
    p.add_argument("--epochs", type=int, default=2)
    p.add_argument("--batch", type=int, default=4)
    p.add_argument("--lr", type=float, default=0.001)
    p.add_argument("--momentum", type=float, default=0.9)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--print-every", type=int, default=2000)
    p.add_argument("--limit", type=int, default=0, help="use only the first N training images")
    p.add_argument("--json", help="write the run (or the speed table) as JSON")
    p.add_argument("--threads", type=int, default=os.cpu_count(), help="torch threads (default: every CPU)")
    p.add_argument("--speed", action="store_true", help="images/s on synthetic inputs instead of training")
    p.add_argument("--speed-batches", type=lambda s: [int(v) for v in s.split(",")], default=[4, 64, 256])
    p.add_argument("--seconds", type=float, default=3.0, help="--speed: seconds per measurement")
    args = p.parse_args()
    for name in ("epochs", "batch", "print_every", "threads"):
        if getattr(args, name) < 1:
            fail(f"--{name.replace('_', '-')} must be at least 1")
    torch.set_num_threads(args.threads)
    speed(args) if args.speed else train(args)


if __name__ == "__main__":
    main()
