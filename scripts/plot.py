#!/usr/bin/python3
"""PNG figures from glimpse run files, for people without Jupyter (reads through results.py).

    scripts/plot.py curves RUN.h5|EXPERIMENT ... --out curves.png        learning curves (validation
                     [--x epoch|images]                                   error and training loss;
                                                                          seeds pooled, labels name the
                                                                          options that tell groups apart)
    scripts/plot.py trajectories RUN.h5 --out traj.png [--epoch -1]      glimpses drawn over test images
                                                                          (hard attention, DRAW, STN)
    scripts/plot.py animate RUN.h5 --out glimpses.gif [--epoch -1]       the same as a GIF, one frame
                     [--count 4] [--fps 2]                                per glimpse
    scripts/plot.py variance EXPERIMENT|RUN.h5 ... --out var.png         gradient variance per run
    scripts/plot.py attention RUN.h5 --out att.png [--epoch -1]          strip5: each query's weights
                                                                          over the slots of test strips
"""
import argparse
import glob
import os
import re
import sys
import textwrap

import matplotlib.pyplot as plt  # noqa: E402  (a notebook keeps its own backend; main() picks Agg)
import numpy as np  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import results  # noqa: E402
from glimpse import geometry  # noqa: E402  (results.py put src/python on the path)


def _paths(items):
    out = results.run_paths(items)
    if not out:
        sys.exit("plot.py: no run files")
    return out


def curves(paths, out, x="epoch"):
    """The learning curves of the run files `paths` (draw_curves) as a PNG."""
    draw_curves(results.load_runs(paths), x).savefig(out, dpi=110)


def group_labels(groups):
    """Legend labels of results.configuration_groups' groups (configuration key -> run rows), in their
    order. A pooled group is named by its run id without the seed suffix (scripts/sweep --seeds: ID-sS)
    and its n; where two groups would share a name (the same run id in two experiments), each label
    adds the configuration options whose values differ between them, e.g. "loo4-lstm-context,
    epochs=100". An option that only some of them store (added to glimpse after the others were
    made) is compared among those that store it; it says nothing about the others."""
    names = []
    for members in groups.values():
        first = members[0]
        name = first.get("run-id") or first["run"]
        names.append(re.sub(r"-s\d+$", "", str(name)) if len(members) > 1 else str(first["run"]))
    cfgs = [dict(key) for key in groups]
    labels = []
    for name, cfg, members in zip(names, cfgs, groups.values()):
        same = [c for c, n in zip(cfgs, names) if n == name]
        if len(same) > 1:
            differ = [k for k in sorted(set().union(*same)) if len({c[k] for c in same if k in c}) > 1]
            name += "".join(", %s=%s" % (k, cfg.get(k, "-")) for k in differ)
        labels.append(name if len(members) == 1 else "%s (%d seeds: mean, band +-1 std)" % (name, len(members)))
    return labels


def draw_curves(df, x="epoch"):
    """A figure of validation error per epoch (x="epoch") or per training image seen (x="images"),
    and the training cross-entropy per image seen, for the runs of df (results.load_runs or
    results.frame). Runs that differ only in seed are drawn as their mean with a band of one standard
    deviation (label: the first run's name and n)."""
    fig, (a, b) = plt.subplots(1, 2, figsize=(11, 4))
    groups = results.configuration_groups(df)
    for members, label in zip(groups.values(), group_labels(groups)):
        label = textwrap.fill(label, 50)  # a long label would widen the legend past its panel
        first = members[0]
        evs = [m["eval"] for m in members if len(m["eval"])]
        if evs:
            n = min(len(e) for e in evs)
            ev = evs[0].iloc[:n]
            xs = ev["epoch"] if x == "epoch" else ev["step"] * int(first["batch"]) / 1e6
            ys = np.array([100 * e["val_error"].to_numpy()[:n] for e in evs])
            line, = a.plot(xs, ys.mean(axis=0), label=label)
            if len(evs) > 1:
                sd = ys.std(axis=0, ddof=1)
                a.fill_between(xs, ys.mean(axis=0) - sd, ys.mean(axis=0) + sd, color=line.get_color(), alpha=0.2)
        trs = [m["train"] for m in members if len(m["train"])]
        if trs:
            n = min(len(t) for t in trs)
            ys = np.array([t["loss_action"].to_numpy()[:n] for t in trs])
            line, = b.plot(trs[0]["images"].iloc[:n] / 1e6, ys.mean(axis=0), label=label)
            if len(trs) > 1:
                sd = ys.std(axis=0, ddof=1)
                b.fill_between(trs[0]["images"].iloc[:n] / 1e6, ys.mean(axis=0) - sd, ys.mean(axis=0) + sd,
                               color=line.get_color(), alpha=0.2)
    a.set(xlabel="epoch" if x == "epoch" else "training images (millions)",
          ylabel="validation error (%, policy mean)", yscale="log")
    # Plain percentages on the log axis (1, 2, 5, 10, 20, 50), not powers of ten.
    from matplotlib.ticker import FuncFormatter, LogLocator, NullFormatter
    a.yaxis.set_major_locator(LogLocator(base=10, subs=(1.0, 2.0, 5.0)))
    a.yaxis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:g}"))
    a.yaxis.set_minor_formatter(NullFormatter())
    tasks = sorted({str(m[0].get("env")) for m in groups.values()})
    fig.suptitle(f"{', '.join(tasks)}: validation error and training loss "
                 f"({len(df)} runs{'; seeds pooled: mean, band +-1 std' if any(len(m) > 1 for m in groups.values()) else ''})",
                 fontsize=10)
    b.set(xlabel="training images (millions)", ylabel="cross-entropy")
    a.grid(alpha=0.3)
    b.grid(alpha=0.3)
    a.legend(fontsize=7)
    fig.tight_layout()
    return fig


def _glimpses(run, epoch):
    """(images, labels, predictions, epoch number, per image and glimpse: (outlines, centre)) of the
    logged test images after logged epoch `epoch`; exits with a message when nothing can be drawn."""
    tj = run["trajectories"]
    key = "locations" if "locations" in tj else "read_params" if "read_params" in tj else None
    if key is None or not len(tj[key]):
        sys.exit(f"plot.py: {run['path']} has no logged trajectories")
    images, labels = results.trajectory_images(run), tj["label"]
    params, preds = tj[key][epoch], tj["prediction"][epoch]
    H, W = images.shape[1:]
    try:
        shapes = [[geometry.outlines(run["config"], params[i, t], H, W) for t in range(params.shape[1])]
                  for i in range(len(images))]
    except ValueError as e:
        sys.exit(f"plot.py: {run['path']}: {e}")
    return images, labels, preds, int(tj["epoch"][epoch]), shapes


# DRAM (--agent dram): the glimpses of object j (block j of --glimpses steps) share colour j.
OBJECT_COLOURS = ["cyan", "magenta", "lime"]


def _colours(run, T):
    """The colour of each of T glimpses: by object for DRAM, else red (first) to yellow (last)."""
    cfg = run["config"]
    if cfg.get("agent") == "dram":
        K = int(cfg.get("glimpses", T))
        return [OBJECT_COLOURS[min(t // K, len(OBJECT_COLOURS) - 1)] for t in range(T)]
    return [plt.cm.autumn(t / max(1, T - 1)) for t in range(T)]


def _legend(run):
    if run["config"].get("agent") == "dram":
        return "object 1's glimpses cyan, object 2's magenta"
    return "red first, yellow last"


def _draw_image(ax, image, label, pred, shapes, upto, W, H, colours):
    """One test image with its glimpses 1..upto: each scale's outline (colours[t]; the current
    glimpse solid, earlier ones faint) and the path of the centres."""
    ax.imshow(image, cmap="gray", vmin=0, vmax=1)
    xs = [c[0] for _, c in shapes[:upto]]
    ys = [c[1] for _, c in shapes[:upto]]
    ax.plot(xs, ys, "-", color="yellow", lw=1)
    for t in range(upto):
        colour = colours[t]
        for poly in shapes[t][0]:
            ax.plot(poly[:, 0], poly[:, 1], color=colour, lw=1.2 if t == upto - 1 else 0.6,
                    alpha=1.0 if t == upto - 1 else 0.5)
    ax.set_xlim(-0.5, W - 0.5)
    ax.set_ylim(H - 0.5, -0.5)
    ok = "right" if pred == label else "wrong"
    ax.set_title(f"label {label}, answer {pred} ({ok})", fontsize=8)
    ax.axis("off")


def _title(run, what):
    cfg = run["config"]
    return (f"{os.path.basename(run['path'])}: {cfg.get('env')}, --attention {cfg.get('attention')}, "
            f"patch {cfg.get('patch')} x {cfg.get('scales')} scales; {what}")


def draw_trajectories(run, epoch=-1, count=8):
    """A figure of the logged glimpses of run (from results.load_run) over its test images: every
    scale's outline of every glimpse (retina patches, DRAW's filter grid, the transformer's grid)."""
    images, labels, preds, ep, shapes = _glimpses(run, epoch)
    n = min(count, len(images))
    H, W = images.shape[1:]
    fig, axes = plt.subplots(1, n, figsize=(2.2 * n, 2.7))
    colours = _colours(run, len(shapes[0]))
    for i, ax in enumerate(np.atleast_1d(axes)):
        _draw_image(ax, images[i], labels[i], preds[i], shapes[i], len(shapes[i]), W, H, colours)
    fig.suptitle(textwrap.fill(_title(run, f"glimpses after epoch {ep} ({_legend(run)})"), 30 * n), fontsize=8)
    fig.tight_layout()
    return fig


def animate(path, out, epoch=-1, count=4, fps=2):
    """A GIF of the logged glimpses: frame t shows glimpses 1..t of `count` test images (the current
    one solid), then a last frame holds the answer."""
    from matplotlib.animation import FuncAnimation, PillowWriter
    run = results.load_run(path)
    images, labels, preds, ep, shapes = _glimpses(run, epoch)
    n = min(count, len(images))
    H, W = images.shape[1:]
    T = len(shapes[0])
    colours = _colours(run, T)
    fig, axes = plt.subplots(1, n, figsize=(2.4 * n, 2.9))
    axes = np.atleast_1d(axes)

    def frame(f):
        t = min(f + 1, T)
        for i, ax in enumerate(axes):
            ax.clear()
            _draw_image(ax, images[i], labels[i], preds[i], shapes[i], t, W, H, colours)
        what = f"glimpse {t} of {T}" if f < T else f"all {T} glimpses, and the answer"
        what += f" ({_legend(run)})"
        fig.suptitle(textwrap.fill(_title(run, f"{what}, after epoch {ep}"), 32 * n), fontsize=8)
        return list(axes)

    anim = FuncAnimation(fig, frame, frames=T + 1, blit=False)
    anim.save(out, writer=PillowWriter(fps=fps), dpi=80)
    plt.close(fig)


def trajectories(path, out, epoch=-1, count=8):
    draw_trajectories(results.load_run(path), epoch, count).savefig(out, dpi=110)


def draw_attention(run, epoch=-1, count=4):
    """A figure of a strip5 run's attention: for each logged test strip, the strip and below it the
    weights alpha of every query 0..9 over its five slots (one row per query), after `epoch`."""
    at = run["attention"]
    if "weights" not in at or not len(at["weights"]):
        sys.exit(f"plot.py: {run['path']} has no logged attention weights (a strip5 run)")
    strips, labels, weights, preds = at["strip"], at["labels"], at["weights"][epoch], at["prediction"][epoch]
    n = min(count, len(strips))
    fig, axes = plt.subplots(2, n, figsize=(3.6 * n, 4.4), gridspec_kw={"height_ratios": [1, 2], "wspace": 0.6}, squeeze=False)
    for i in range(n):
        top, bottom = axes[0, i], axes[1, i]
        top.imshow(strips[i], cmap="gray", vmin=0, vmax=1)
        top.set_title("slots hold " + " ".join(str(d) for d in labels[i]), fontsize=8)
        top.axis("off")
        im = bottom.imshow(weights[i], cmap="viridis", vmin=0, vmax=1, aspect="auto")
        bottom.set_xticks(range(weights.shape[2]))
        bottom.set_yticks(range(weights.shape[1]))
        bottom.set(xlabel="slot", ylabel="query digit" if i == 0 else None)
        right = bottom.twinx()  # the model's answer to each query, at the right of its row
        right.set_ylim(bottom.get_ylim())
        right.set_yticks(range(weights.shape[1]))
        right.set_yticklabels(["absent" if int(a) == 5 else f"slot {int(a)}" for a in preds[i]], fontsize=6)
    fig.colorbar(im, ax=axes[1, :].tolist(), shrink=0.8, pad=0.06, label="attention weight")
    cfg = run["config"]
    fig.suptitle(f"{os.path.basename(run['path'])} ({cfg.get('attention')}): weights over the slots for each "
                 f"query, after epoch {int(at['epoch'][epoch])}", fontsize=9)
    return fig


def attention(path, out, epoch=-1, count=4):
    draw_attention(results.load_run(path), epoch, count).savefig(out, dpi=110)


def variance(paths, out):
    df = results.load_runs(paths)
    fig, ax = plt.subplots(figsize=(7, 4))
    for _, row in df.iterrows():
        dg = row["diagnostics"]
        if len(dg):
            ax.plot(dg["step"], dg["grad_var"], label=row["run"])
    ax.set(xlabel="step", ylabel="location-gradient variance", yscale="log")
    ax.grid(alpha=0.3)
    ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(out, dpi=110)


def main(argv):
    plt.switch_backend("Agg")  # as a command: files only, no window
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("figure", choices=["curves", "trajectories", "animate", "variance", "attention"])
    p.add_argument("runs", nargs="+", help="run files or experiment names")
    p.add_argument("--out", required=True, help="PNG file to write (animate: a GIF)")
    p.add_argument("--count", type=int, default=4, help="animate: test images side by side")
    p.add_argument("--fps", type=float, default=2, help="animate: frames (glimpses) per second")
    p.add_argument("--x", choices=["epoch", "images"], default="epoch", help="curves: x axis of the validation error")
    p.add_argument("--epoch", type=int, default=-1, help="trajectories, attention: which logged epoch (-1 = last)")
    a = p.parse_args(argv)
    if a.figure == "curves":
        curves(_paths(a.runs), a.out, a.x)
    elif a.figure == "trajectories":
        trajectories(_paths(a.runs)[0], a.out, a.epoch)
    elif a.figure == "animate":
        animate(_paths(a.runs)[0], a.out, a.epoch, a.count, a.fps)
    elif a.figure == "attention":
        attention(_paths(a.runs)[0], a.out, a.epoch)
    else:
        variance(_paths(a.runs), a.out)
    print(f"wrote {a.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
