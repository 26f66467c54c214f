"""Training from Python through clrt.nn, with the article's PyTorch loop, on a small
fully connected network (784 -> 100 -> 10). train_cnn.py is the article's CNN.

    python3 examples/python/train_mlp.py [--data MNIST_DIR] [--epochs 2] [--batch 32]
"""
import argparse

import clrt
from clrt import nn
from mnist_data import load


def train(net, criterion, optimizer, train_x, train_y, epochs, batch, print_every):
    """The article's PyTorch loop over train_x in order, batch images a step; the mean
    loss of every print_every steps is printed. train_cnn.py trains with it too."""
    for epoch in range(epochs):
        running_loss = 0.0
        for i, start in enumerate(range(0, len(train_x) - batch + 1, batch)):
            inputs = clrt.to_device(train_x[start:start + batch])
            labels = clrt.to_device(train_y[start:start + batch])
            outputs = net(inputs)
            loss = criterion(outputs, labels)
            net.backward(criterion.backward())
            optimizer.step()
            running_loss += loss.item()
            if i % print_every == print_every - 1:
                print("[%d, %5d] loss: %.3f" % (epoch + 1, i + 1, running_loss / print_every))
                running_loss = 0.0
    print("Finished Training")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--data"), ap.add_argument("--limit", type=int)
    ap.add_argument("--epochs", type=int, default=2), ap.add_argument("--batch", type=int, default=32)
    ap.add_argument("--lr", type=float, default=0.01), ap.add_argument("--print-every", type=int, default=20)
    args = ap.parse_args()
    train_x, train_y, test_x, test_y = load(args.data, args.limit)

    net = nn.Sequential(nn.Linear(784, 100, seed=1), nn.ReLU(), nn.Linear(100, 10, seed=2))
    criterion = nn.CrossEntropyLoss()
    optimizer = nn.SGD(net.parameters(), lr=args.lr, momentum=0.9)
    train(net, criterion, optimizer, train_x, train_y, args.epochs, args.batch, args.print_every)

    pred = net(clrt.to_device(test_x)).argmax(axis=1).get()
    correct = int((pred == test_y).sum())
    print(f"test accuracy: {100 * correct / len(test_y):.1f}% ({correct}/{len(test_y)})")


if __name__ == "__main__":
    main()
