"""The article's CNN trained from Python through clrt.nn, with its PyTorch loop (train_mlp.train):
conv(1->20, 5x5) -> relu -> maxpool 2 -> conv(20->50, 5x5) -> relu -> maxpool 2 ->
fc(800->500) -> relu -> fc(500->10), cross-entropy, SGD with momentum (clrt-train's net).

    python3 examples/python/train_cnn.py [--data MNIST_DIR] [--epochs 2] [--batch 4]

Needs a libclrt with convolution and pooling (clrt_nn.h, the CNN issue); without them
it says so and exits with status 2.
"""
import argparse
import sys

import clrt
from clrt import _lib, nn
from mnist_data import load
from train_mlp import train  # the article's PyTorch loop

ap = argparse.ArgumentParser()
ap.add_argument("--data"), ap.add_argument("--limit", type=int)
ap.add_argument("--epochs", type=int, default=2), ap.add_argument("--batch", type=int, default=4)
ap.add_argument("--lr", type=float, default=0.001), ap.add_argument("--momentum", type=float, default=0.9)
ap.add_argument("--print-every", type=int, default=2000)
args = ap.parse_args()
if not _lib.has("clrt_nn_conv2d_forward"):
    print("train_cnn: this libclrt has no convolution yet (clrt_nn_conv2d_forward); "
          "train_mlp.py trains a fully connected network meanwhile", file=sys.stderr)
    sys.exit(2)
train_x, train_y, test_x, test_y = load(args.data, args.limit)

conv1 = nn.Conv2d((1, 28, 28), 20, 5, seed=1)              # -> 20 x 24 x 24
pool1 = nn.MaxPool2d(conv1.out_image, 2)                    # -> 20 x 12 x 12
conv2 = nn.Conv2d(pool1.out_image, 50, 5, seed=2)           # -> 50 x 8 x 8
pool2 = nn.MaxPool2d(conv2.out_image, 2)                    # -> 50 x 4 x 4 = 800
net = nn.Sequential(conv1, nn.ReLU(), pool1, conv2, nn.ReLU(), pool2,
                    nn.Linear(800, 500, seed=3), nn.ReLU(), nn.Linear(500, 10, seed=4))
criterion = nn.CrossEntropyLoss()
optimizer = nn.SGD(net.parameters(), lr=args.lr, momentum=args.momentum)

train(net, criterion, optimizer, train_x, train_y, args.epochs, args.batch, args.print_every)

correct = 0
for start in range(0, len(test_x), 100):
    pred = net(clrt.to_device(test_x[start:start + 100])).argmax(axis=1).get()
    correct += int((pred == test_y[start:start + 100]).sum())
print(f"test accuracy: {100 * correct / len(test_y):.1f}% ({correct}/{len(test_y)})")
