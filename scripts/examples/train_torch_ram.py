#!/usr/bin/python3
"""A PyTorch RAM trained on a glimpse task, written as a glimpse run file.

    scripts/examples/train_torch_ram.py [--env mnist28] [--seed 1] [--epochs 2] [--train-images 0]
                                        [--batch 128] [--lr 1e-3] [--threads 2] --out RUN.h5

The data are glimpse's own (glimpse.Task: the same splits, seeds and rendering as `glimpse train
--env ENV --seed SEED`), and so is the sample order (Task.train_order: step s of epoch e trains on
order[s B:(s+1) B], the first --train-images of each epoch's order, as glimpse's --train-images).
The model is glimpse.torch.Ram, the RAM scripts/bench/ram_torch.py times (one 8 x 8 patch, ReLU RNN 256, Gaussian policy with
std 0.1 and tanh mean, learned baseline, hybrid loss, Adam). After every epoch it records validation
and test error with the policy's mean locations (M = 1), as glimpse does; the run file it writes
(glimpse.runs.write_run) is read by `glimpse summarize`, scripts/results.py, scripts/plot.py and the
notebooks like a C++ run. It has no glimpse checkpoint: it cannot be resumed or re-evaluated by glimpse.
"""
import argparse
import os
import time

import torch
import torch.nn.functional as F

# The compiled part and data are this checkout's, whichever checkout Python's glimpse.pth names.
os.environ.setdefault("GLIMPSE_ROOT", os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..")))
import glimpse  # noqa: E402
from glimpse import runs  # noqa: E402
from glimpse.torch import Ram  # noqa: E402


def error(model, task, split, batch=1000):
    """Fraction misclassified on a whole split, the policy's mean locations (std 0 at evaluation)."""
    wrong, n = 0, task.size(split)
    with torch.no_grad():
        for start in range(0, n, batch):
            images, labels = task.batch(split, start=start, count=min(batch, n - start))
            logits, _, _ = model(torch.from_numpy(images), greedy=True)
            wrong += int((logits.argmax(1) != torch.from_numpy(labels)).sum())
    return wrong / n


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--env", default="mnist28", help="a registered image task (glimpse.task_names())")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--epochs", type=int, default=2)
    p.add_argument("--train-images", type=int, default=0, help="training images per epoch (0 = the whole split)")
    p.add_argument("--batch", type=int, default=128)
    p.add_argument("--lr", type=float, default=1e-3)
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--out", required=True, help="run file to write (refused if it exists)")
    a = p.parse_args()
    if os.path.exists(a.out):
        p.error(f"{a.out} exists; remove it or choose another --out")
    if a.env == "strip5":
        p.error("strip5 is a query task; this example's RAM answers the image tasks only")
    torch.set_num_threads(a.threads)
    torch.manual_seed(a.seed)
    task = glimpse.Task(a.env, seed=a.seed)
    n = min(a.train_images or task.size("train"), task.size("train"))
    steps = max(1, n // a.batch)
    model = Ram()
    opt = torch.optim.Adam(model.parameters(), lr=a.lr)
    train = {k: [] for k in ("step", "epoch", "images", "loss", "loss_action", "reward", "wall_s")}
    evals = {k: [] for k in ("step", "epoch", "val_error", "test_error")}
    step, wall = 0, 0.0
    for epoch in range(a.epochs):
        order = task.train_order(epoch)
        t0 = time.perf_counter()
        for s in range(steps):
            images, labels = task.samples("train", order[s * a.batch : (s + 1) * a.batch], epoch=epoch)
            x, y = torch.from_numpy(images), torch.from_numpy(labels)
            logits, logp, base = model(x)
            reward = (logits.argmax(1) == y).float()
            adv = (reward[:, None] - base).detach()
            action = F.cross_entropy(logits, y)
            loss = action - (adv * logp).sum(1).mean() + F.mse_loss(base, reward[:, None].expand_as(base))
            opt.zero_grad()
            loss.backward()
            opt.step()
            step += 1
            if step % 50 == 0 or s == steps - 1:
                now = time.perf_counter()
                wall, t0 = wall + now - t0, now
                for k, v in (
                    ("step", step),
                    ("epoch", epoch + (s + 1) / steps),
                    ("images", step * a.batch),
                    ("loss", float(loss)),
                    ("loss_action", float(action)),
                    ("reward", float(reward.mean())),
                    ("wall_s", wall),
                ):
                    train[k].append(v)
        val, test = error(model, task, "val"), error(model, task, "test")
        for k, v in (("step", step), ("epoch", epoch + 1), ("val_error", val), ("test_error", test)):
            evals[k].append(v)
        print(
            f"epoch {epoch + 1}/{a.epochs} | val_error {100 * val:.2f}% | test_error {100 * test:.2f}% | "
            f"{step * a.batch / wall:.0f} img/s",
            flush=True,
        )
    config = {
        "env": a.env,
        "seed": a.seed,
        "epochs": a.epochs,
        "train-images": a.train_images,
        "batch": a.batch,
        "lr": a.lr,
        "optimizer": "adam",
        "schedule": "constant",
        "attention": "gaussian",
        "patch": 8,
        "scales": 1,
        "glimpses": model.steps,
        "core": "rnn",
        "hidden": 256,
        "std": model.std,
        "baseline": "learned",
        "threads": a.threads,
        "run-id": os.path.splitext(os.path.basename(a.out))[0],
    }
    runs.write_run(
        a.out,
        config,
        train,
        evals,
        epochs_done=a.epochs,
        trained_by=f"PyTorch {torch.__version__} (scripts/examples/train_torch_ram.py)",
    )
    print(f"wrote {a.out}")


if __name__ == "__main__":
    main()
