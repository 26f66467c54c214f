"""The article's CNN as an nn.Sequential, trained on clrt with the loop of train_mlp.py:
conv(1->20, 5x5) -> relu -> maxpool 2 -> conv(20->50, 5x5) -> relu -> maxpool 2 ->
flatten -> fc(800->500) -> relu -> fc(500->10), cross-entropy, SGD with momentum
(clrt-train's network). article_cnn.py runs the article's own code for it.

    python3 examples/python/train_cnn.py [--data MNIST_DIR] [--limit N] [--epochs 2]
                                         [--batch 4] [--lr 0.001] [--print-every 2000]

Without --data it trains on a synthetic set of MNIST-shaped images (mnist_data.py) and
says so; with --data DIR, on the MNIST IDX files there (Fashion-MNIST's too).
"""
import clrt as torch
import clrt.nn as nn
import clrt.optim as optim
from train_mlp import accuracy, data, options, train

args = options(lr=0.001, batch=4, print_every=2000)
torch.manual_seed(args.seed)
trainloader, test_x, test_y = data(args, (1, 28, 28))
net = nn.Sequential(
    nn.Conv2d(1, 20, 5), nn.ReLU(), nn.MaxPool2d(2),      # -> 20 x 12 x 12
    nn.Conv2d(20, 50, 5), nn.ReLU(), nn.MaxPool2d(2),     # -> 50 x 4 x 4
    nn.Flatten(), nn.Linear(50 * 4 * 4, 500), nn.ReLU(), nn.Linear(500, 10))
criterion = nn.CrossEntropyLoss()
optimizer = optim.SGD(net.parameters(), lr=args.lr, momentum=args.momentum)
train(net, criterion, optimizer, trainloader, args.epochs, args.print_every)
accuracy(net, test_x, test_y)
