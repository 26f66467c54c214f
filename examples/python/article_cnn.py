"""The article's PyTorch training code, run on clrt: only its four imports differ.

    python3 examples/python/article_cnn.py [--data MNIST_DIR] [--limit N] [--epochs E]
                                           [--batch B] [--device SELECTOR]
    python3 examples/python/article_cnn.py --compare [OPTIONS]  # python/bench/article_compare.py

trainloader holds Fashion-MNIST's training images (Debian's dataset-fashion-mnist), or
MNIST's from --data DIR (the IDX files, plain or .gz), first --limit N of them; device
is torch.device() (the default device; --device or CLRT_DEVICE picks another). The
code between the two marker lines is the article's, character for character
(python/tests/test_article.py checks it against docs/python.md and runs it); --epochs E
other than its 2 runs that text with range(E) in place of range(2). After it, the
network classifies the test set.
"""
import argparse
import pathlib
import sys
import time

import clrt as torch
import clrt.nn as nn
import clrt.nn.functional as F
import clrt.optim as optim

BEGIN = "# ---- the article's code ----"
END = "# ---- end of the article's code ----"


def article_code(epochs=2):
    """The article's code as this file holds it, with range(epochs) for its range(2)."""
    text = pathlib.Path(__file__).read_text()
    code = text[text.index(BEGIN + "\n") + len(BEGIN) + 1:text.index(END + "\n")]
    if epochs != 2:
        code = code.replace("for epoch in range(2):", f"for epoch in range({int(epochs)}):", 1)
    return code


def options(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--data", help="a directory of MNIST's IDX files (default: Fashion-MNIST, "
                                   f"{torch.utils.data.FASHION_MNIST_DIR})")
    ap.add_argument("--limit", type=int, help="train on the first N images only")
    ap.add_argument("--epochs", type=int, default=2, help="epochs (the article's: 2)")
    ap.add_argument("--batch", type=int, default=4, help="batch size (the article's: 4)")
    ap.add_argument("--device", help="a device selector (as CLRT_DEVICE)")
    ap.add_argument("--compare", action="store_true",
                    help="run python/bench/article_compare.py instead, with the other options")
    return ap.parse_known_args(argv)


def loaders(data_dir, limit, batch):
    """(trainloader, test set): the training images as the issue builds the loader."""
    data = torch.utils.data
    root = data_dir or data.FASHION_MNIST_DIR
    train, test = data.MNIST(root, train=True, limit=limit), data.MNIST(root, train=False)
    x, y = train.tensors  # N x 1 x 28 x 28 float32 in [0, 1], and int64 labels as PyTorch's
    trainloader = data.DataLoader(data.TensorDataset(torch.from_numpy(x), torch.from_numpy(y)),
                                  batch_size=batch, shuffle=True)
    return trainloader, test


def accuracy(net, test):
    net.eval()
    correct = 0
    with torch.no_grad():
        for images, labels in torch.utils.data.DataLoader(test, batch_size=1000):
            correct += int((net(images).argmax(dim=1) == labels).sum().item())
    return correct, len(test)


def report(net, testset, images, seconds):
    print(f"{images / seconds:.0f} training images/s ({images} in {seconds:.1f} s)")
    correct, total = accuracy(net, testset)
    print(f"test accuracy: {100 * correct / total:.2f}% ({correct}/{total})")


args, rest = options()
if args.compare:
    sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2] / "python" / "bench"))
    import article_compare
    sys.exit(article_compare.main([a for a in sys.argv[1:] if a != "--compare"]))
if rest:
    sys.exit(f"article_cnn.py: unknown arguments: {' '.join(rest)}")
trainloader, testset = loaders(args.data, args.limit, args.batch)
device = torch.device(args.device) if args.device else torch.device()
images = len(trainloader.dataset) * args.epochs
print(f"training on {len(trainloader.dataset)} images of {args.data or 'Fashion-MNIST'}, "
      f"batch {args.batch}, {args.epochs} epochs, on {device}")
t0 = time.perf_counter()
if args.epochs != 2:
    exec(compile(article_code(args.epochs), __file__, "exec"))
    report(net, testset, images, time.perf_counter() - t0)  # noqa: F821 (the code made it)
    sys.exit(0)

# ---- the article's code ----
class Net(nn.Module):
    def __init__(self):
        super(Net, self).__init__()
        self.conv1 = nn.Conv2d(1, 20, 5)
        self.pool = nn.MaxPool2d(2, 2)
        self.conv2 = nn.Conv2d(20, 50, 5)
        self.fc1 = nn.Linear(50 * 4 * 4, 500)
        self.fc2 = nn.Linear(500, 10)

    def forward(self, x):
        x = self.pool(F.relu(self.conv1(x)))
        x = self.pool(F.relu(self.conv2(x)))
        x = x.view(-1, 50 * 4 * 4)
        x = F.relu(self.fc1(x))
        x = self.fc2(x)
        return x

net = Net()
criterion = nn.CrossEntropyLoss()
optimizer = optim.SGD(net.parameters(), lr=0.001, momentum=0.9)

for epoch in range(2):
    running_loss = 0.0
    for i, data in enumerate(trainloader, 0):
        inputs, labels = data
        inputs, labels = inputs.to(device), labels.to(device)
        optimizer.zero_grad()
        outputs = net(inputs)
        loss = criterion(outputs, labels)
        loss.backward()
        optimizer.step()
        running_loss += loss.item()
        if i % 2000 == 1999:
            print('[%d, %5d] loss: %.3f' % (epoch + 1, i + 1, running_loss / 2000))
            running_loss = 0.0
# ---- end of the article's code ----

report(net, testset, images, time.perf_counter() - t0)
