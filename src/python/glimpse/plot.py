"""Figures from glimpse run files (read through glimpse.runs): learning curves, glimpse paths, GIFs,
strip5's attention, gradient variance and performance profiles. scripts/plot.py is its command line;
from Python or a notebook: from glimpse import plot; plot.draw_curves(runs.load_runs(paths)).

    scripts/plot.py curves RUN.h5|EXPERIMENT ... --out curves.png        learning curves, one panel per
                     [--x epoch|images|minutes] [--metric val_error]      task, seeds pooled (mean, band
                     [--figsize W H] [--fontsize 9]                       +-1 std), a colour per attention
                                                                          kind; .png, .pdf or .svg
    scripts/plot.py trajectories RUN.h5 --out traj.png [--epoch -1]      glimpses drawn over test images
                     [--scales-drawn K]                                   (hard attention, DRAW, STN,
                                                                          Gumbel grid); K: only the K
                                                                          finest scales
    scripts/plot.py animate RUN.h5 --out glimpses.gif [--epoch -1]       the same as a GIF, one frame
                     [--count 4] [--fps 2]                                per glimpse
    scripts/plot.py variance EXPERIMENT|RUN.h5 ... --out var.png         gradient variance per run
    scripts/plot.py attention RUN.h5 --out att.png [--epoch -1]          strip5: each query's weights
                                                                          over the slots of test strips
    scripts/plot.py profile EXPERIMENT|RUN.h5 ... --out prof.png         performance profiles across the
                     [--by attention] [--seeds S,S,...]                   tasks (glimpse.stats), a line
                                                                          per value of --by, 95% bands;
                                                                          --seeds: benchmark rows, the
                                                                          complete ones only (glimpse.rows)
    scripts/plot.py levers EXPERIMENT --out levers.png                   one-seed screens KIND-LEVER
                                                                          (glimpse.screens): a panel per
                                                                          kind, its base and each lever's
                                                                          validation curve
"""
import argparse
import os
import re
import sys
import textwrap

import matplotlib.ticker  # noqa: E402
import matplotlib.pyplot as plt  # noqa: E402  (a notebook keeps its own backend; main() picks Agg)
import numpy as np  # noqa: E402

from glimpse import geometry, runs  # noqa: E402


def _paths(items):
    out = runs.run_paths(items)
    if not out:
        sys.exit("plot.py: no run files")
    return out


def group_labels(groups):
    """Legend labels of runs.configuration_groups' groups (configuration key -> run rows), in their
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


# A stable colour per registered attention kind in every figure, no two alike (a kind without one
# would take the colour cycle's first, the retina's); configurations of one kind differ by line
# style, in the order they come.
KIND_COLOURS = {
    "gaussian": "#1f77b4",
    "categorical": "#ff7f0e",
    "soft": "#2ca02c",
    "draw": "#d62728",
    "stn": "#9467bd",
    "pathwise": "#8c564b",
    "gumbel": "#e377c2",
    "random": "#7f7f7f",
    "centre": "#bcbd22",
    "whole": "#17becf",
    "cnn": "#000000",
}
STYLES = ["-", "--", ":", "-."]
TASK_ORDER = ["mnist28", "translated60", "cluttered60", "cluttered100", "pairs100", "sum100", "strip5"]
# Metrics in percent of a fraction (error rates, accuracy), drawn on a log axis and clipped to [0, 100].
PERCENT = {
    "val_error",
    "test_error",
    "val_error_raw",
    "test_error_raw",
    "test_digit_error",
    "test_unordered_error",
    "test_peak",
    "accuracy",
    "reward",
}


def _series(run_row, metric, x):
    """(xs, ys) of one run: `metric` from /eval or /train (whichever logs it) against x: "epoch",
    "images" (training images seen, millions) or "minutes" (the run's wall time, evaluations
    included). None when the run does not log the metric."""
    for table in ("eval", "train"):
        df = run_row[table]
        if len(df) and metric in df:
            break
    else:
        return None
    ys = df[metric].to_numpy(dtype=float) * (100 if metric in PERCENT else 1)
    if x == "epoch":
        xs = df["epoch"].to_numpy(dtype=float)
    elif x == "images":
        xs = (df["images"] if "images" in df else df["step"] * float(run_row["batch"])).to_numpy(dtype=float) / 1e6
    else:
        seconds = df["train_s"] if "train_s" in df else df["wall_s"] if "wall_s" in df else None
        if seconds is None:  # an older /eval without its times: the /train row logged at each step
            tr = run_row["train"]
            seconds = np.interp(df["step"], tr["step"], tr["wall_s"]) if len(tr) else df["step"] * np.nan
        xs = np.asarray(seconds, dtype=float) / 60
    return xs, ys


def draw_curves(df, x="epoch", metric="val_error", figsize=None, fontsize=9):
    """Learning curves fit for a paper: one panel per task (in the order mnist28, translated60, ...),
    `metric` (any /eval or /train series: val_error, test_error, loss, loss_action, reward, lr, ...)
    against x ("epoch", "images" or "minutes") on every panel, a stable colour per attention kind, runs
    that differ only in seed drawn as their mean with a band of one standard deviation (clipped to the
    metric's range), and one legend below the panels, inside the figure."""
    groups = runs.configuration_groups(df)
    labels = group_labels(groups)
    tasks = sorted(
        {str(m[0].get("env")) for m in groups.values()},
        key=lambda t: (TASK_ORDER.index(t) if t in TASK_ORDER else len(TASK_ORDER), t),
    )
    cols = min(3, len(tasks))
    rows = -(-len(tasks) // cols)
    # The panel names the task and the legend's title says how seeds are drawn: a label keeps the rest,
    # and one legend entry serves a kind and label shared by several tasks.
    short = []
    for members, label in zip(groups.values(), labels):
        task = str(members[0].get("env"))
        label = re.sub(r" \((\d+) seeds: mean, band \+-1 std\)$", r" (n=\1)", label)
        short.append(label[len(task) + 1 :] if label.startswith(task + "-") and len(tasks) > 1 else label)
    legend_rows = -(-len({(str(m[0].get("attention")), lab) for m, lab in zip(groups.values(), short)}) // 2)
    width, height = figsize or (4.6 * cols, 3.4 * rows + 0.22 * legend_rows + 0.4)
    fig = plt.figure(figsize=(width, height))
    grid = fig.add_gridspec(rows + 1, cols, height_ratios=[3.4] * rows + [0.22 * legend_rows + 0.4])
    axes = {t: fig.add_subplot(grid[i // cols, i % cols]) for i, t in enumerate(tasks)}
    percent = metric in PERCENT
    per_kind = {}  # (task, kind) -> configurations drawn so far: the line style
    handles = {}  # legend label -> line: one entry for a kind and style shared by several tasks
    means = {t: [] for t in tasks}
    for members, label in zip(groups.values(), short):
        first = members[0]
        kind, task = str(first.get("attention", "")), str(first.get("env"))
        style = STYLES[per_kind.get((task, kind), 0) % len(STYLES)]
        per_kind[(task, kind)] = per_kind.get((task, kind), 0) + 1
        curves = [c for c in (_series(m, metric, x) for m in members) if c is not None and len(c[0])]
        if not curves:
            continue
        n = min(len(c[0]) for c in curves)
        xs = np.nanmean([c[0][:n] for c in curves], axis=0)
        ys = np.array([c[1][:n] for c in curves])
        mean = ys.mean(axis=0)
        ax = axes[task]
        means[task].append(mean)
        (line,) = ax.plot(xs, mean, style, color=KIND_COLOURS.get(kind), label=textwrap.fill(label, 60), lw=1.4)
        if len(curves) > 1:
            sd = ys.std(axis=0, ddof=1)
            lo, hi = mean - sd, mean + sd
            lo, hi = (np.clip(lo, 1e-3, 100), np.clip(hi, 1e-3, 100)) if percent else (lo, hi)
            if metric.startswith("loss") or metric in ("entropy", "grad_norm", "lr"):
                lo = np.clip(lo, 0, None)
            ax.fill_between(xs, lo, hi, color=line.get_color(), alpha=0.18, lw=0)
        handles.setdefault((line.get_color(), style, line.get_label()), line)
    from matplotlib.ticker import FuncFormatter, LogLocator, NullFormatter

    xlabel = {"epoch": "epoch", "images": "training images (millions)", "minutes": "wall time (minutes)"}[x]
    ylabel = metric.replace("_", " ") + (" (%)" if percent else "")
    for t, ax in axes.items():
        ax.set_title(t, fontsize=fontsize + 1)
        ax.set_xlabel(xlabel, fontsize=fontsize)
        ax.set_ylabel(ylabel, fontsize=fontsize)
        ax.tick_params(labelsize=fontsize - 1)
        if percent and metric not in ("accuracy", "reward", "test_peak"):
            ax.set_yscale("log")  # plain percentages on the log axis (1, 2, 5, 10, ...), not powers of ten
            ax.yaxis.set_major_locator(LogLocator(base=10, subs=(1.0, 2.0, 5.0)))
            ax.yaxis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:g}"))
            ax.yaxis.set_minor_formatter(NullFormatter())
        ax.grid(alpha=0.3)
        finite = np.concatenate([m[np.isfinite(m)] for m in means[t]]) if means[t] else np.array([])
        if len(finite):  # the axis fits the mean curves; a wide band is cut at the panel's edge
            lo, hi = finite.min(), finite.max()
            span = hi - lo or abs(hi) or 1.0
            if ax.get_yscale() == "log" and lo > 0:
                ax.set_ylim(lo / 1.15, hi * 1.15)
            else:
                ax.set_ylim(lo - 0.05 * span, hi + 0.05 * span)
    handles = list(handles.values())
    legend_ax = fig.add_subplot(grid[rows, :])
    legend_ax.axis("off")
    pooled = any(len(m) > 1 for m in groups.values())
    legend_ax.legend(
        handles=handles,
        loc="upper center",
        ncol=2 if len(handles) > 1 else 1,
        fontsize=fontsize - 1,
        frameon=False,
        title=f"{len(df)} run{'' if len(df) == 1 else 's'}" + ("; seeds pooled: mean, band +-1 std" if pooled else ""),
        title_fontsize=fontsize - 1,
    )
    fig.tight_layout()
    return fig


def _glimpses(run, epoch):
    """(images, labels, predictions, epoch number, per image and glimpse: (outlines, centre)) of the
    logged test images after logged epoch `epoch`; exits with a message when nothing can be drawn."""
    tj = run["trajectories"]
    key = "locations" if "locations" in tj else "read_params" if "read_params" in tj else None
    if key is None or not len(tj[key]):
        sys.exit(f"plot.py: {run['path']} has no logged trajectories")
    images, labels = runs.trajectory_images(run), tj["label"]
    params, preds = tj[key][epoch], tj["prediction"][epoch]
    H, W = images.shape[1:]
    try:
        shapes = [
            [geometry.outlines(run["config"], params[i, t], H, W) for t in range(params.shape[1])]
            for i in range(len(images))
        ]
    except ValueError as e:
        sys.exit(f"plot.py: {run['path']}: {e}")
    # pairs100's class is 10 a + b for the digits a, b left to right: written "a b" (0 7, not 7).
    name = (lambda v: f"{v // 10} {v % 10}") if run["config"].get("env") == "pairs100" else str
    labels, preds = [name(int(v)) for v in labels], [name(int(v)) for v in preds]
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


def _drawn(scales):
    """The title's note of which scales are outlined (none when all are)."""
    return "" if scales is None else f", the {'finest scale' if scales == 1 else f'{scales} finest scales'} drawn"


def _draw_image(ax, image, label, pred, shapes, upto, W, H, colours, scales=None):
    """One test image with its glimpses 1..upto: the outline of each of its `scales` finest scales
    (None: all; colours[t]; the current glimpse solid, earlier ones faint) and the path of the centres."""
    ax.imshow(image, cmap="gray", vmin=0, vmax=1)
    xs = [c[0] for _, c in shapes[:upto]]
    ys = [c[1] for _, c in shapes[:upto]]
    ax.plot(xs, ys, "-", color="yellow", lw=1)
    for t in range(upto):
        colour = colours[t]
        for poly in shapes[t][0][:scales]:
            ax.plot(
                poly[:, 0],
                poly[:, 1],
                color=colour,
                lw=1.2 if t == upto - 1 else 0.6,
                alpha=1.0 if t == upto - 1 else 0.5,
            )
    ax.set_xlim(-0.5, W - 0.5)
    ax.set_ylim(H - 0.5, -0.5)
    ok = "right" if pred == label else "wrong"
    ax.set_title(f"label {label}, answer {pred} ({ok})", fontsize=8)
    ax.axis("off")


def _title(run, what):
    cfg = run["config"]
    return (
        f"{os.path.basename(run['path'])}: {cfg.get('env')}, --attention {cfg.get('attention')}, "
        f"patch {cfg.get('patch')} x {cfg.get('scales')} scales; {what}"
    )


def draw_trajectories(run, epoch=-1, count=8, scales=None):
    """A figure of the logged glimpses of run (from runs.load_run) over its test images: the outline
    of each glimpse's `scales` finest scales (None: all; retina patches, DRAW's filter grid, the
    transformer's grid)."""
    images, labels, preds, ep, shapes = _glimpses(run, epoch)
    n = min(count, len(images))
    H, W = images.shape[1:]
    fig, axes = plt.subplots(1, n, figsize=(2.2 * n, 2.7))
    colours = _colours(run, len(shapes[0]))
    for i, ax in enumerate(np.atleast_1d(axes)):
        _draw_image(ax, images[i], labels[i], preds[i], shapes[i], len(shapes[i]), W, H, colours, scales)
    fig.suptitle(
        textwrap.fill(_title(run, f"glimpses after epoch {ep}{_drawn(scales)} ({_legend(run)})"), 30 * n), fontsize=8
    )
    fig.tight_layout()
    return fig


def animate(path, out, epoch=-1, count=4, fps=2, scales=None):
    """A GIF of the logged glimpses: frame t shows glimpses 1..t of `count` test images (the current
    one solid; the outlines of its `scales` finest scales, None: all), then a last frame holds the
    answer."""
    from matplotlib.animation import FuncAnimation, PillowWriter

    run = runs.load_run(path)
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
            _draw_image(ax, images[i], labels[i], preds[i], shapes[i], t, W, H, colours, scales)
        what = f"glimpse {t} of {T}" if f < T else f"all {T} glimpses, and the answer"
        what += f"{_drawn(scales)} ({_legend(run)})"
        fig.suptitle(textwrap.fill(_title(run, f"{what}, after epoch {ep}"), 32 * n), fontsize=8)
        return list(axes)

    anim = FuncAnimation(fig, frame, frames=T + 1, blit=False)
    anim.save(out, writer=PillowWriter(fps=fps), dpi=80)
    plt.close(fig)


def trajectories(path, out, epoch=-1, count=8, scales=None):
    draw_trajectories(runs.load_run(path), epoch, count, scales).savefig(out, dpi=110)


def draw_attention(run, epoch=-1, count=4):
    """A figure of a strip5 run's attention: for each logged test strip, the strip and below it the
    weights alpha of every query 0..9 over its five slots (one row per query), after `epoch`."""
    at = run["attention"]
    if "weights" not in at or not len(at["weights"]):
        sys.exit(f"plot.py: {run['path']} has no logged attention weights (a strip5 run)")
    strips, labels, weights, preds = at["strip"], at["labels"], at["weights"][epoch], at["prediction"][epoch]
    n = min(count, len(strips))
    fig, axes = plt.subplots(
        2, n, figsize=(3.6 * n, 4.4), gridspec_kw={"height_ratios": [1, 2], "wspace": 0.6}, squeeze=False
    )
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
    fig.suptitle(
        f"{os.path.basename(run['path'])} ({cfg.get('attention')}): weights over the slots for each "
        f"query, after epoch {int(at['epoch'][epoch])}",
        fontsize=9,
    )
    return fig


def attention(path, out, epoch=-1, count=4):
    draw_attention(runs.load_run(path), epoch, count).savefig(out, dpi=110)


def draw_profile(df, by="attention", figsize=(5.5, 3.6), fontsize=9):
    """Performance profiles across tasks (glimpse.stats.performance_profile) of the runs of
    load_runs: a line per value of option `by`, each run scored by its test error at its best
    validation error, over tau, the ratio to the task's best mean; shaded: the bootstrap 95% band."""
    from glimpse import stats

    errors = runs.errors_by(df, by)
    if not errors:
        raise ValueError("no run has a test error at its best validation error (screens run with --test-every 0)")
    worst = max(r.max() for per_task in stats.profile_ratios(errors).values() for r in per_task.values())
    taus = np.geomspace(1, max(worst, 1.01) * 1.05, 200)
    profiles = stats.performance_profile(errors, taus)
    fig, ax = plt.subplots(figsize=figsize)
    for i, (variant, (prof, lo, hi)) in enumerate(profiles.items()):
        colour = KIND_COLOURS.get(variant) if by == "attention" else None
        (line,) = ax.step(taus, prof, where="post", color=colour, label=f"{variant} ({len(errors[variant])} tasks)")
        ax.fill_between(taus, lo, hi, step="post", color=line.get_color(), alpha=0.15, linewidth=0)
    tasks = sorted(
        {t for per in errors.values() for t in per}, key=lambda t: TASK_ORDER.index(t) if t in TASK_ORDER else 99
    )
    ax.set(
        xscale="log",
        ylim=(-0.02, 1.02),
        xlabel="tau: test error / the task's best mean test error",
        ylabel="fraction of runs with ratio <= tau",
        title="performance profiles over " + ", ".join(tasks),
    )
    ax.title.set_fontsize(fontsize)
    ax.xaxis.label.set_fontsize(fontsize)
    ax.yaxis.label.set_fontsize(fontsize)
    ax.xaxis.set_major_formatter(matplotlib.ticker.FormatStrFormatter("%g"))
    ax.xaxis.set_minor_formatter(matplotlib.ticker.FormatStrFormatter("%g"))
    ax.tick_params(labelsize=fontsize - 1, which="both")
    ax.grid(alpha=0.3, which="both")
    ax.legend(fontsize=fontsize - 1, loc="lower right")
    fig.tight_layout()
    return fig


def _source_images(run_row):
    """The training images of the run a curriculum run started from (its init-from, when that file is
    here), else 0: where its own curve begins on a budget's axis."""
    source = run_row.get("init-from")
    if not isinstance(source, str) or not source:
        return 0.0
    path = source if os.path.isabs(source) else os.path.join(runs.ROOT, source)
    if not os.path.exists(path):
        return 0.0
    train = runs.load_run(path)["train"]
    return float(train["images"].iloc[-1]) if len(train) and "images" in train else 0.0


def draw_levers(df, planned=None, fontsize=8):
    """The screens of a screening protocol (glimpse.screens: KIND-base, KIND-LEVER, KIND-combined),
    a panel per kind in the plan's order: the validation error (%, log axis) of its base (black) and
    of each lever's screen against the training images of that run (a curriculum screen's curve
    starts after its source's images), one colour per lever in every panel."""
    from glimpse import screens

    names = {screens.screen_name(r): r for _, r in df.iterrows()}
    kinds, _, levers = screens.plan(planned or sorted(names))
    if not kinds:
        raise ValueError("no KIND-base screen to draw levers against")
    colours = dict(zip(levers + [screens.COMBINED], plt.get_cmap("tab10").colors))
    cols = 3
    rows = -(-len(kinds) // cols)
    fig, axes = plt.subplots(rows, cols, figsize=(4.2 * cols, 2.8 * rows + 0.6), squeeze=False, sharey=True)
    for ax, kind in zip(axes.flat, kinds):
        for lever in [screens.BASE] + levers + [screens.COMBINED]:
            row = names.get(f"{kind}-{lever}")
            curve = _series(row, "val_error", "images") if row is not None else None
            if curve is None or not len(curve[0]):
                continue
            curve = (curve[0] + _source_images(row) / 1e6, curve[1])
            colour = "black" if lever == screens.BASE else colours[lever]
            ax.plot(curve[0], curve[1], color=colour, lw=1.6 if lever == screens.BASE else 1.1, label=lever)
        ax.set_title(kind, fontsize=fontsize + 1)
        ax.set_yscale("log")
        ax.yaxis.set_major_formatter(matplotlib.ticker.FormatStrFormatter("%g"))
        ax.yaxis.set_minor_formatter(matplotlib.ticker.FormatStrFormatter("%g"))
        ax.tick_params(labelsize=fontsize - 1, which="both")
        ax.grid(alpha=0.3, which="both")
    for ax in axes.flat[len(kinds) :]:
        ax.axis("off")
    for ax in axes[:, 0]:
        ax.set_ylabel("validation error (%)", fontsize=fontsize)
    for ax in axes[-1, :]:
        ax.set_xlabel("training images (millions)", fontsize=fontsize)
    handles = [plt.Line2D([], [], color="black", lw=1.6, label=screens.BASE)]
    handles += [plt.Line2D([], [], color=colours[x], lw=1.1, label=x) for x in levers + [screens.COMBINED]]
    fig.legend(handles=handles, loc="lower center", ncol=len(handles), fontsize=fontsize, frameon=False)
    fig.tight_layout(rect=(0, 0.06, 1, 1))
    return fig


def variance(paths, out):
    df = runs.load_runs(paths)
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


# A rebuilt figure matches its committed file when no frame differs by more than antialiasing: a
# CPU's float rounding (numpy's SIMD paths, text layout) moves an edge by a fraction of a pixel (RMS
# about 0.1), where one seed more or less, or one character of a legend, changes RMS by 2 or more.
PICTURE_TOLERANCE = 0.5


def picture_rms(a, b):
    """The largest root-mean-square difference between the frames of two pictures (PNG, or GIF frame by
    frame), over RGB in 0-255 (matplotlib.testing.compare's measure); inf when their sizes or frame
    counts differ. scripts/figures --check compares each rebuilt figure with PICTURE_TOLERANCE."""
    from matplotlib.testing.compare import calculate_rms
    from PIL import Image, ImageSequence

    def frames(path):
        with Image.open(path) as im:
            return [np.asarray(f.convert("RGB"), dtype=float) for f in ImageSequence.Iterator(im)]

    fa, fb = frames(a), frames(b)
    if len(fa) != len(fb) or any(x.shape != y.shape for x, y in zip(fa, fb)):
        return float("inf")
    return max(calculate_rms(x, y) for x, y in zip(fa, fb))


def _positive(text):
    """argparse type: an integer of at least 1."""
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a whole number of at least 1, got '{text}'")
    return value


def main(argv):
    plt.switch_backend("Agg")  # as a command: files only, no window
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument(
        "figure", choices=["curves", "trajectories", "animate", "variance", "attention", "profile", "levers"]
    )
    p.add_argument("runs", nargs="+", help="run files or experiment names")
    p.add_argument("--out", required=True, help="the file to write: .png, .pdf or .svg (animate: a GIF)")
    p.add_argument("--count", type=int, default=4, help="animate: test images side by side")
    p.add_argument("--fps", type=float, default=2, help="animate: frames (glimpses) per second")
    p.add_argument(
        "--x", choices=["epoch", "images", "minutes"], default="epoch", help="curves: the x axis of every panel"
    )
    p.add_argument(
        "--metric",
        default="val_error",
        help="curves: any /eval or /train series (val_error, test_error, loss, loss_action, reward, lr, ...)",
    )
    p.add_argument("--figsize", type=float, nargs=2, metavar=("W", "H"), help="curves: figure size in inches")
    p.add_argument("--fontsize", type=float, default=9, help="curves: font size of labels (points)")
    p.add_argument("--by", default="attention", help="profile: the option whose values are the lines")
    p.add_argument(
        "--seeds",
        help="profile: S,S,...: each experiment is a benchmark's rows; only rows whose every seed of S finished count",
    )
    p.add_argument("--epoch", type=int, default=-1, help="trajectories, attention: which logged epoch (-1 = last)")
    p.add_argument(
        "--scales-drawn",
        type=_positive,
        help="trajectories, animate: outline only each glimpse's K finest scales (default: all)",
        metavar="K",
    )
    a = p.parse_args(argv)
    if a.figure == "curves":
        df = runs.load_runs(_paths(a.runs))
        if not any(_series(r, a.metric, a.x) is not None for _, r in df.iterrows()):
            sys.exit(f"plot.py: no run logs the series '{a.metric}' (see /eval and /train in docs/run_file.md)")
        draw_curves(df, a.x, a.metric, a.figsize, a.fontsize).savefig(a.out, dpi=110)
    elif a.figure == "levers":
        from glimpse import screens

        name = re.sub(r"/runs$", "", a.runs[0]) if len(a.runs) == 1 else ""
        plan = os.path.join(runs.ROOT, "experiments", name, "runs.txt")
        planned = screens.planned_screens(plan) if name and os.path.exists(plan) else None
        draw_levers(runs.load_runs(_paths(a.runs)), planned).savefig(a.out, dpi=110)
    elif a.figure == "profile":
        if a.seeds is None:
            df = runs.load_runs(_paths(a.runs))
        else:  # the benchmark's protocol: a row's test errors only once its every seed finished
            from glimpse import rows

            if not re.fullmatch(r"\d+(,\d+)*", a.seeds):
                sys.exit("plot.py: --seeds takes S,S,...")
            df = rows.complete_experiments(a.runs, [int(x) for x in a.seeds.split(",")])
        draw_profile(df, a.by).savefig(a.out, dpi=110)
    elif a.figure == "trajectories":
        trajectories(_paths(a.runs)[0], a.out, a.epoch, scales=a.scales_drawn)
    elif a.figure == "animate":
        animate(_paths(a.runs)[0], a.out, a.epoch, a.count, a.fps, a.scales_drawn)
    elif a.figure == "attention":
        attention(_paths(a.runs)[0], a.out, a.epoch)
    else:
        variance(_paths(a.runs), a.out)
    print(f"wrote {a.out}")
    return 0
