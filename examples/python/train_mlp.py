"""A small fully connected network (784 -> 100 -> 10) trained on clrt with PyTorch's
usual loop (the article's: zero_grad, forward, loss, backward, step). train_cnn.py
trains the article's CNN with the same loop; article_cnn.py is the article's code.

    python3 examples/python/train_mlp.py [--data MNIST_DIR] [--limit N] [--epochs 2]
                                         [--batch 32] [--lr 0.01] [--print-every 20]

Without --data it trains on a synthetic set of MNIST-shaped images (mnist_data.py) and
says so; with --data DIR, on the MNIST IDX files there (Fashion-MNIST's too).
"""
import argparse

import clrt as torch
import clrt.nn as nn
import clrt.optim as optim
from clrt.utils.data import DataLoader, TensorDataset
from mnist_data import load


def train(net, criterion, optimizer, trainloader, epochs, print_every):
    """The article's loop; the mean loss of every print_every steps is printed."""
    net.train()
    for epoch in range(epochs):
        running_loss = 0.0
        for i, (inputs, labels) in enumerate(trainloader):
            optimizer.zero_grad()
            loss = criterion(net(inputs), labels)
            loss.backward()
            optimizer.step()
            running_loss += loss.item()
            if i % print_every == print_every - 1:
                print("[%d, %5d] loss: %.3f" % (epoch + 1, i + 1, running_loss / print_every))
                running_loss = 0.0
    print("Finished Training")


def accuracy(net, x, y):
    """The test accuracy in percent, the images classified 500 at a time."""
    net.eval()
    correct = 0
    with torch.no_grad():
        for images, labels in DataLoader(TensorDataset(x, y), batch_size=500):
            correct += int((net(images).argmax(dim=1) == labels).sum().item())
    print(f"test accuracy: {100 * correct / len(y):.1f}% ({correct}/{len(y)})")


def options(lr, batch, print_every):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--data", help="a directory of MNIST IDX files (default: a synthetic set)")
    ap.add_argument("--limit", type=int, help="the first N training images only")
    ap.add_argument("--epochs", type=int, default=2)
    ap.add_argument("--batch", type=int, default=batch)
    ap.add_argument("--lr", type=float, default=lr)
    ap.add_argument("--momentum", type=float, default=0.9)
    ap.add_argument("--print-every", type=int, default=print_every)
    ap.add_argument("--seed", type=int, default=1, help="clrt.manual_seed (weights, order)")
    return ap.parse_args()


def data(args, image_shape):
    """(trainloader, test images, test labels) as tensors, the images image_shape each."""
    train_x, train_y, test_x, test_y = load(args.data, args.limit)
    print(f"training on {len(train_x)} images of "
          f"{args.data if args.data else 'a synthetic set (no --data given)'}")
    n = len(train_x)
    x = torch.from_numpy(train_x.reshape((n,) + image_shape))
    loader = DataLoader(TensorDataset(x, torch.from_numpy(train_y.astype("int64"))),
                        batch_size=args.batch, shuffle=True)
    test = torch.from_numpy(test_x.reshape((len(test_x),) + image_shape))
    return loader, test, torch.from_numpy(test_y.astype("int64"))


def main():
    args = options(lr=0.01, batch=32, print_every=20)
    torch.manual_seed(args.seed)
    trainloader, test_x, test_y = data(args, (784,))
    net = nn.Sequential(nn.Linear(784, 100), nn.ReLU(), nn.Linear(100, 10))
    criterion = nn.CrossEntropyLoss()
    optimizer = optim.SGD(net.parameters(), lr=args.lr, momentum=args.momentum)
    train(net, criterion, optimizer, trainloader, args.epochs, args.print_every)
    accuracy(net, test_x, test_y)


if __name__ == "__main__":
    main()
