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
import sys
import time

import torch
import torch.nn as nn
import torch.nn.functional as F

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "src", "python"))
import glimpse  # noqa: E402  (the checkout's package, whatever glimpse.pth names)


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

    def forward(self, images, greedy=False):
        """Logits (B, 10), log-probabilities of the locations (B, T), baselines (B, T); greedy: every
        location is the policy's mean (evaluation)."""
        B = images.shape[0]
        h = images.new_zeros(B, self.core_in.out_features)
        logps, baselines = [], []
        for t in range(self.steps):
            mu = torch.tanh(self.loc(h.detach()))
            l = (mu if greedy else mu + self.std * torch.randn_like(mu)).detach()
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
