#!/usr/bin/python3
"""Writes a small fake digit data set (the four IDX files) into the folder given: 10,000 training
digits held out for validation plus 200 training and 200 test digits, random sparse pixels, random
labels (every class present, as strip5 needs). Seeded: the same files every time."""
import os
import random
import struct
import sys

d = sys.argv[1]
os.makedirs(d, exist_ok=True)
random.seed(1)


def images(path, n):
    with open(path, "wb") as f:
        f.write(bytes([0, 0, 8, 3]) + struct.pack(">III", n, 28, 28))
        f.write(bytes(random.choice([0, 0, 0, 200]) for _ in range(n * 784)))


def labels(path, n):
    with open(path, "wb") as f:
        f.write(bytes([0, 0, 8, 1]) + struct.pack(">I", n) + bytes(random.randrange(10) for _ in range(n)))


images(f"{d}/train-images-idx3-ubyte", 10200)
labels(f"{d}/train-labels-idx1-ubyte", 10200)
images(f"{d}/t10k-images-idx3-ubyte", 200)
labels(f"{d}/t10k-labels-idx1-ubyte", 200)
