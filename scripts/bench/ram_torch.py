#!/usr/bin/python3
"""A compact, batched PyTorch RAM on mnist28, the same model and step as `glimpse bench` (6 glimpses of
one 8x8 patch, glimpse net 128/128 -> 256, ReLU RNN 256, Gaussian policy std 0.1 with tanh mean,
learned baseline, hybrid loss, Adam, batch 128), to compare training speed on the same machine.

    scripts/bench/ram_torch.py [--threads 2] [--images 25600] [--data-dir data/mnist]

Last line: images_per_s=F. Uses Debian's python3-torch; the images are the trainer's own mnist28
training split, from the Python package (glimpse.Task, zero-copy into NumPy).
"""
import argparse
import os
import time

import torch
import torch.nn.functional as F

# The compiled part is this checkout's, whichever checkout Python's glimpse.pth names.
os.environ.setdefault("GLIMPSE_ROOT", os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..")))
import glimpse  # noqa: E402
from glimpse.torch import Ram  # noqa: E402  (the model; this script times its training step)


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--images", type=int, default=25600)
    p.add_argument("--batch", type=int, default=128)
    p.add_argument("--data-dir", default=None, help="MNIST folder (default: the checkout's data/mnist)")
    a = p.parse_args()
    torch.set_num_threads(a.threads)
    torch.manual_seed(1)
    images, labels = glimpse.Task("mnist28", seed=1, data_dir=a.data_dir).batch("train", start=0, count=50000)
    x, y = torch.from_numpy(images), torch.from_numpy(labels)
    model = Ram()
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)

    def step(i):
        idx = torch.arange(i * a.batch, (i + 1) * a.batch) % 50000
        images, labels = x[idx], y[idx]
        logits, logp, base = model(images)
        reward = (logits.argmax(1) == labels).float()
        adv = (reward[:, None] - base).detach()
        loss = (
            F.cross_entropy(logits, labels)
            - (adv * logp).sum(1).mean()
            + F.mse_loss(base, reward[:, None].expand_as(base))
        )
        opt.zero_grad()
        loss.backward()
        opt.step()

    step(0)  # warm-up
    steps = max(1, a.images // a.batch)
    t0 = time.perf_counter()
    for i in range(steps):
        step(i + 1)
    rate = steps * a.batch / (time.perf_counter() - t0)
    print(f"PyTorch {torch.__version__}, {a.threads} threads, batch {a.batch}, {steps} steps")
    print(f"images_per_s={rate:.0f}")


if __name__ == "__main__":
    main()
