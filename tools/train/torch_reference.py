#!/usr/bin/env python3
"""clrt-train's network in PyTorch, for side-by-side measurements (docs/train.md):
the same layers, data (IDX files scaled to [0, 1]), options and output lines as
clrt-train, plus images/s of training and of inference (the test set in
batches of 256, no grad, as clrt-train --predict classifies it). Its own
initial weights and shuffle (PyTorch's), so the loss curves agree in
distribution, not digit for digit.

  OPENBLAS_NUM_THREADS=1 /usr/bin/python3 tools/train/torch_reference.py --limit 12000 --epochs 1 --threads 2

Needs python3-torch (Debian) or torch from PyPI, and numpy."""
import argparse, gzip, os, struct, time

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
    a = p.parse_args()
    torch.manual_seed(a.seed)
    torch.set_num_threads(a.threads)
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
        for i, start in enumerate(range(0, len(x), a.batch)):
            pick = order[start:start + a.batch]
            xb, yb = x[pick], y[pick]
            opt.zero_grad()
            loss = crit(net(xb), yb)
            loss.backward()
            opt.step()
            running += loss.item()
            images += len(xb)
            if i % a.print_every == a.print_every - 1:
                print("[%d, %5d] loss: %.3f" % (epoch + 1, i + 1, running / a.print_every), flush=True)
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
