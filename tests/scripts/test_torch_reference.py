#!/usr/bin/python3
"""The default RAM step against an independent PyTorch implementation, in double precision.

    tests/scripts/test_torch_reference.py GLIMPSE_TESTS_BINARY

Runs the hidden Catch2 case "[reference]" (tests/model/test_reference_step.cpp), which writes RAM's
mnist28 model (6 glimpses of one 8 x 8 patch, ReLU RNN 256, glimpse network 128, Gaussian policy with
std 0.1, learned baseline) with its initial parameters, a batch, the sampled locations, the reward,
the losses and every gradient. This file rebuilds the step from the paper's equations (Mnih et al.
2014) with torch.autograd, given the same parameters, images and locations, and requires the logits,
baselines, rewards, the three loss terms and every parameter's gradient to agree to 1e-9 (relative).

The hybrid loss, as RAM trains it: cross-entropy of the last step's logits for the action, core and
glimpse networks; REINFORCE, -1/N sum_t sum_n (R_n - b_tn) log pi(l_tn | h_{t-1}), for the location
network only (its input h_{t-1} detached, R - b a constant); and the baseline's regression,
1/(T N) sum (b_tn - R_n)^2, for the baseline network only (its input detached).
"""
import os
import subprocess
import sys
import tempfile

import h5py
import numpy as np
import torch

torch.set_default_dtype(torch.float64)
binary = sys.argv[1]
out = os.path.join(tempfile.mkdtemp(prefix="glimpse_ref_"), "step.h5")
subprocess.run(
    [binary, "[reference]"], check=True, env={**os.environ, "GLIMPSE_REFERENCE_OUT": out}, stdout=subprocess.DEVNULL
)

with h5py.File(out, "r") as f:
    P = {k: torch.tensor(f["params"][k][()], requires_grad=True) for k in f["params"]}
    G = {k: f["grads"][k][()] for k in f["grads"]}
    images = torch.tensor(f["images"][()])
    labels = torch.tensor(f["labels"][()].astype(np.int64))
    locations = torch.tensor(f["locations"][()])  # (T, N, 2), the sampled l_t
    want = {k: f[k][()] for k in ("logits", "baseline", "reward", "losses")}

T, N, PATCH, STD = locations.shape[0], images.shape[0], 8, 0.1
H, W = images.shape[1:]


def retina(images, loc):
    """RAM's glimpse: the PATCH x PATCH crop centred at pixel (W/2 (1 + x), H/2 (1 + y)), rounded to
    the nearest pixel; zeros outside the canvas. A crop's position has no gradient."""
    pad = torch.nn.functional.pad(images, (PATCH, PATCH, PATCH, PATCH))
    out = []
    for n in range(images.shape[0]):
        cx, cy = W / 2 * (1 + float(loc[n, 0])), H / 2 * (1 + float(loc[n, 1]))
        x0, y0 = int(np.floor(cx - PATCH / 2 + 0.5)), int(np.floor(cy - PATCH / 2 + 0.5))
        out.append(pad[n, PATCH + y0 : PATCH + y0 + PATCH, PATCH + x0 : PATCH + x0 + PATCH].reshape(-1))
    return torch.stack(out)


def linear(x, name, bias=True):
    return x @ P[name + ".W"].T + (P[name + ".b"] if bias else 0)


relu = torch.relu
h = torch.zeros(N, P["core.hh.W"].shape[0])
log_pi, baselines = [], []
for t in range(T):
    mu = torch.tanh(linear(h.detach(), "location.fc"))  # the location network reads h_{t-1}, detached
    loc = locations[t]
    log_pi.append((-((loc - mu) ** 2) / (2 * STD**2)).sum(1) - 2 * np.log(STD) - np.log(2 * np.pi))
    baselines.append(linear(h.detach(), "baseline.fc")[:, 0])  # b_t = W h_{t-1} + c, input detached
    read = loc.clamp(-1, 1)  # the retina reads on the canvas
    hg = relu(linear(retina(images, read), "glimpse.fc_x"))
    hl = relu(linear(read, "glimpse.fc_l"))
    g = relu(linear(hg, "glimpse.fc_hg") + linear(hl, "glimpse.fc_hl", bias=False))
    h = relu(linear(g, "core.in") + linear(h, "core.hh", bias=False))
logits = linear(h, "action.fc")
reward = (logits.argmax(1) == labels).double()
b = torch.stack(baselines)  # (T, N)
ce = torch.nn.functional.cross_entropy(logits, labels)
advantage = (reward[None, :] - b).detach()
reinforce = -(advantage * torch.stack(log_pi)).sum() / N
mse = ((b - reward[None, :]) ** 2).mean()
(ce + reinforce + mse).backward()

failures = []


def close(name, got, expected, tol=1e-9):
    got, expected = np.asarray(got, dtype=float), np.asarray(expected, dtype=float)
    err = np.max(np.abs(got - expected) / np.maximum(np.maximum(np.abs(got), np.abs(expected)), 1e-6), initial=0)
    if not err <= tol:
        failures.append(f"{name}: max relative difference {err:.3g}")


close("logits", logits.detach(), want["logits"])
close("baselines", b.detach(), want["baseline"])
close("reward", reward, want["reward"])
total, action, rl, base = want["losses"]
close("cross-entropy", ce.item(), action)
close("REINFORCE term", reinforce.item(), rl)
close("baseline regression", mse.item(), base)
close("total loss", (ce + reinforce + mse).item(), total)
for name, grad in G.items():
    close(f"gradient of {name}", P[name].grad, grad)
for f in failures:
    print("FAIL:", f)
checked = 7 + len(G)
print(
    f"torch reference: {checked - len(failures)} passed, {len(failures)} failed "
    f"(loss {total:.6f}: cross-entropy {action:.6f}, REINFORCE {rl:.6f}, baseline {base:.6f}; "
    f"{int(want['reward'].sum())} of {N} right)"
)
sys.exit(1 if failures else 0)
