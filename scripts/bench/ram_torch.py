#!/usr/bin/python3
"""A compact, batched PyTorch RAM on mnist28, the same model and step as `glimpse bench` (6 glimpses of
one 8x8 patch, glimpse net 128/128 -> 256, ReLU RNN 256, Gaussian policy std 0.1 with tanh mean,
learned baseline, hybrid loss, Adam, batch 128), to compare training speed on the same machine.

    scripts/bench/ram_torch.py [--threads 2] [--images 25600] [--data-dir data/mnist]

Last line: images_per_s=F. Uses Debian's python3-torch; data are read from the IDX files directly.
"""
import argparse
import os
import struct
import time

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


def read_idx(path):
    with open(path, "rb") as f:
        data = f.read()
    dims = data[3]
    shape = struct.unpack(">" + "I" * dims, data[4:4 + 4 * dims])
    return np.frombuffer(data, dtype=np.uint8, offset=4 + 4 * dims).reshape(shape)


class Ram(nn.Module):
    def __init__(self, g=8, hidden=256, gh=128, steps=6, std=0.1):
        super().__init__()
        self.g, self.steps, self.std = g, steps, std
        self.fc_x, self.fc_l = nn.Linear(g * g, gh), nn.Linear(2, gh)
        self.fc_hg, self.fc_hl = nn.Linear(gh, hidden), nn.Linear(gh, hidden, bias=False)
        self.core_in, self.core_hh = nn.Linear(hidden, hidden), nn.Linear(hidden, hidden, bias=False)
        self.loc, self.act, self.base = nn.Linear(hidden, 2), nn.Linear(hidden, 10), nn.Linear(hidden, 1)

    def glimpse(self, images, l):
        # One g x g patch centred at l (in [-1, 1]^2, unit = half the canvas), zero outside: gather
        # from a zero-padded canvas with per-image index grids.
        B, H, W = images.shape
        g = self.g
        padded = F.pad(images, (g, g, g, g))
        cx = (W / 2 + l[:, 0] * W / 2 - g / 2 + 0.5).floor().long() + g
        cy = (H / 2 + l[:, 1] * H / 2 - g / 2 + 0.5).floor().long() + g
        ar = torch.arange(g)
        rows = (cy[:, None] + ar[None, :]).clamp(0, H + 2 * g - 1)
        cols = (cx[:, None] + ar[None, :]).clamp(0, W + 2 * g - 1)
        b = torch.arange(B)[:, None, None]
        return padded[b, rows[:, :, None], cols[:, None, :]].reshape(B, g * g)

    def forward(self, images):
        B = images.shape[0]
        h = images.new_zeros(B, self.core_in.out_features)
        logps, baselines = [], []
        for t in range(self.steps):
            mu = torch.tanh(self.loc(h.detach()))
            l = (mu + self.std * torch.randn_like(mu)).detach()
            logps.append(torch.distributions.Normal(mu, self.std).log_prob(l).sum(1))
            baselines.append(self.base(h.detach()).squeeze(1))
            x = self.glimpse(images, l.clamp(-1, 1))
            g = F.relu(self.fc_hg(F.relu(self.fc_x(x))) + self.fc_hl(F.relu(self.fc_l(l.clamp(-1, 1)))))
            h = F.relu(self.core_in(g) + (self.core_hh(h) if t > 0 else 0))
        return self.act(h), torch.stack(logps, 1), torch.stack(baselines, 1)


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--images", type=int, default=25600)
    p.add_argument("--batch", type=int, default=128)
    p.add_argument("--data-dir", default=os.path.join(os.path.dirname(__file__), "..", "..", "data", "mnist"))
    a = p.parse_args()
    torch.set_num_threads(a.threads)
    torch.manual_seed(1)
    x = torch.from_numpy(read_idx(os.path.join(a.data_dir, "train-images-idx3-ubyte"))[:50000].astype(np.float32) / 255)
    y = torch.from_numpy(read_idx(os.path.join(a.data_dir, "train-labels-idx1-ubyte"))[:50000].astype(np.int64))
    model = Ram()
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)

    def step(i):
        idx = torch.arange(i * a.batch, (i + 1) * a.batch) % 50000
        images, labels = x[idx], y[idx]
        logits, logp, base = model(images)
        reward = (logits.argmax(1) == labels).float()
        adv = (reward[:, None] - base).detach()
        loss = F.cross_entropy(logits, labels) - (adv * logp).sum(1).mean() + F.mse_loss(base, reward[:, None].expand_as(base))
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
