"""Markdown tables of run files read by glimpse.runs: the tables scripts/results.py prints and the
results READMEs embed. Each takes what the readers give (load_runs frames, group_seeds rows, load_run
dicts, answers as best_test_answers gives them) and returns one markdown string; none reads a file.

    from glimpse import runs, tables
    print(tables.seeds_table(runs.group_seeds(runs.load_experiment("compare"))))
"""
import math
import os

import numpy as np
import pandas as pd

from glimpse import stats
from glimpse.runs import configuration_groups, configuration_id

__all__ = [
    "PUBLISHED_RAM",
    "PAIRED_HEAD",
    "published_ram",
    "last_evaluations",
    "seeds_table",
    "rows_table",
    "compare_table",
    "paired_cells",
    "paired_table",
    "selection_table",
    "grad_norms_table",
    "evaluations_table",
    "pivot_table",
    "percent_mean_std",
]


def percent_mean_std(values):
    """Fractions as "mean +- std" in % (the sample std; the mean alone for one value; "-" where a value
    is missing: a screen that never read the test split, or a test error hidden)."""
    v = 100 * np.asarray(values, dtype=float)
    if not len(v) or np.isnan(v).any():
        return "-"
    return f"{v.mean():.2f}" + (f" +- {v.std(ddof=1):.2f}" if len(v) > 1 else "")


def _pm(mean, std):
    """A pooled fraction as "mean +- std" in % (the mean alone without a std; "-" without a mean: a
    screen that never read the test split)."""
    if math.isnan(mean):
        return "-"
    return f"{100 * mean:.2f}" + ("" if math.isnan(std) else f" +- {100 * std:.2f}")


def _interval(g):
    """A group_seeds row's 95% interval of the mean test error as "[lo, hi]" in %, "-" below 2 seeds."""
    return f"[{100 * (g['mean'] - g['ci95']):.2f}, {100 * (g['mean'] + g['ci95']):.2f}]" if g["n"] > 1 else "-"


def seeds_table(groups):
    """A markdown table of group_seeds' rows, one per configuration (named by its run id less the
    seed), best first by mean validation error: n, the validation error and the validation-selected
    test error (mean +- std, %), the test error's 95% interval, the mean gradient variance and SNR of
    the probe-batch diagnostic, images/s and wall time (minutes; evaluations included). Where a run
    records the error per digit (pairs100), a column gives its mean at the selected evaluations, and
    another the unordered-pair error where runs record it."""
    digits = "digit_error" in groups and groups["digit_error"].notna().any()
    unordered = "unordered_error" in groups and groups["unordered_error"].notna().any()
    lines = [
        "| run | n | best val error % | its test error % (M=1) | 95% interval | "
        + ("per-digit test error % | " if digits else "")
        + ("unordered-pair test error % | " if unordered else "")
        + "grad var | grad SNR | images/s | wall, min |",
        "|---|---|---|---|---|" + ("---|" if digits else "") + ("---|" if unordered else "") + "---|---|---|---|",
    ]
    for _, g in groups.sort_values("best_val_mean").iterrows():
        ci = _interval(g)
        gv = "-" if math.isnan(g["grad_var"]) or g["grad_var"] == 0 else f"{g['grad_var']:.2e}"
        snr = "-" if math.isnan(g["grad_snr"]) or g["grad_snr"] == 0 else f"{g['grad_snr']:.3f}"
        de = ("-" if math.isnan(g["digit_error"]) else f"{100 * g['digit_error']:.2f}") + " | " if digits else ""
        if unordered:
            de += ("-" if math.isnan(g["unordered_error"]) else f"{100 * g['unordered_error']:.2f}") + " | "
        lines.append(
            f"| {g['id']}{'' if g['finished'] else ' (unfinished)'} | {g['n_runs']} | "
            f"{_pm(g['best_val_mean'], g['best_val_std'])} | {_pm(g['mean'], g['std'])} | {ci} | "
            f"{de}{gv} | {snr} | {g['images_per_s']:,.0f} | {g['wall_min']:.1f} |"
        )
    return "\n".join(lines)


# The published RAM test errors (%) a row is read against, per task and glimpse count (Mnih et al.
# 2014, NIPS version; ../shared/DESIGN.md section 4); the nearest listed count is used.
PUBLISHED_RAM = {
    "mnist28": {4: 1.54, 6: 1.12, 7: 1.07},
    "translated60": {4: 1.54, 6: 1.22, 8: 1.20},
    "cluttered60": {4: 4.96, 6: 4.08, 8: 4.04},
    "cluttered100": {4: 14.95, 6: 11.58, 8: 10.83},
}  # 4 glimpses: arXiv v1


def published_ram(env, glimpses):
    """RAM's published test error (%) on `env` at the listed glimpse count nearest `glimpses`, as
    "1.12 (6)", or "-" for a task RAM did not report."""
    table = PUBLISHED_RAM.get(str(env))
    if not table:
        return "-"
    g = min(table, key=lambda k: (abs(k - int(glimpses)), -k))
    return f"{table[g]:.2f} ({g})"


def rows_table(named_groups):
    """A markdown table with one row per (experiment name, group_seeds row): the experiment, the task,
    the configuration, n, the validation error and the validation-selected test error (mean +- std, %),
    the test error's 95% interval, and RAM's published error on that task. Rows keep the given order."""
    lines = [
        "| experiment | task | configuration | n | best val error % | its test error % (M=1) | 95% interval | "
        "RAM published % (glimpses) |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for name, groups in named_groups:
        for _, g in groups.sort_values("best_val_mean").iterrows():
            ci = _interval(g)
            lines.append(
                f"| {name} | {g.get('env', '-')} | {g['id']}{'' if g['finished'] else ' (unfinished)'} | "
                f"{g['n_runs']} | {_pm(g['best_val_mean'], g['best_val_std'])} | "
                f"{_pm(g['mean'], g['std'])} | {ci} | {published_ram(g.get('env'), g.get('glimpses', 0))} |"
            )
    return "\n".join(lines)


def last_evaluations(run_row, last):
    """Mean validation and test error (fractions) over a run's last `last` evaluations (all of them
    when it has fewer): a figure that no selection touched, to read the selected one against."""
    ev = run_row["eval"]
    if not len(ev):
        return math.nan, math.nan
    tail = ev.iloc[-last:]
    return float(tail["val_error"].mean()), float(tail["test_error"].mean())


def paired_cells(pred_a, pred_b):
    """The cells paired_table gives after the two names, as one markdown string: pred_* are DataFrames
    (index, label, answer) of the same images, in the same order. Error (ValueError) when their labels
    differ: they are not of the same images."""
    if len(pred_a) != len(pred_b) or not np.array_equal(pred_a["label"].to_numpy(), pred_b["label"].to_numpy()):
        raise ValueError("the two evaluations are not of the same images (same task, split and canvases)")
    wa = (pred_a["answer"] != pred_a["label"]).to_numpy()
    wb = (pred_b["answer"] != pred_b["label"]).to_numpy()
    lo, hi = stats.paired_bootstrap(wa, wb)
    only_a, only_b = int((wa & ~wb).sum()), int((wb & ~wa).sum())
    return (
        f"{len(wa)} | {100 * wa.mean():.2f} | {100 * wb.mean():.2f} | "
        f"{100 * (wa.mean() - wb.mean()):+.2f} | [{100 * lo:+.2f}, {100 * hi:+.2f}] | {only_a} | {only_b} | "
        f"{stats.format_p(stats.mcnemar(only_a, only_b))} |"
    )


PAIRED_HEAD = (
    "images | error A % | error B % | A - B % | 95% interval (paired bootstrap) | only A wrong | only B wrong | "
    "McNemar p |"
)


def paired_table(name_a, pred_a, name_b, pred_b):
    """A markdown table comparing two runs image by image: pred_* are DataFrames (index, label, answer)
    of the same images (glimpse eval --predictions). Errors, their difference with its paired
    bootstrap 95% interval, the discordant counts and McNemar's exact p (paired_cells)."""
    cells = paired_cells(pred_a, pred_b)
    return "\n".join(
        ["| A | B | " + PAIRED_HEAD, "|---|---|---|---|---|---|---|---|---|---|", f"| {name_a} | {name_b} | {cells}"]
    )


def compare_table(df_a, df_b):
    """A markdown table comparing two configurations' seeds (each a frame of load_runs with at least
    two runs): the validation error and the validation-selected test error, mean +- std in %, and
    Welch's t, degrees of freedom and two-sided p for each."""
    lines = ["| error % | A (n) | B (n) | A - B | Welch's t | df | two-sided p |", "|---|---|---|---|---|---|---|"]
    for label, col in (("validation (selected)", "best_val_error"), ("test at it (M=1)", "test_error_at_best")):
        a, b = df_a[col].to_numpy(dtype=float), df_b[col].to_numpy(dtype=float)
        head = f"| {label} | {percent_mean_std(a)} ({len(a)}) | {percent_mean_std(b)} ({len(b)}) | "
        if np.isnan(a).any() or np.isnan(b).any():  # a test error not read (a screen) or hidden
            lines.append(head + "- | - | - | - |")
            continue
        t, df, p = stats.welch(a, b)
        lines.append(head + f"{100 * (a.mean() - b.mean()):+.2f} | {t:.2f} | {df:.1f} | {p:.3g} |")
    return "\n".join(lines)


def selection_table(df, last=10):
    """A markdown table of what selecting the epoch on validation error does, one row per
    configuration pooled over seeds (configuration_groups), best first by the selected validation
    error. For the selected evaluation (the lowest validation error) and for the mean of the last
    `last` evaluations: validation and test error and the gap test - validation (mean +- std over the
    seeds, %); and `test, selected - last`: how much lower (negative) or higher the selected
    checkpoint's test error is than the last evaluations'. The minimum of a noisy validation curve is
    biased low (the more so the more evaluations it is taken over), so the gap at the selected
    evaluation minus the gap over the last ones estimates that bias; the gap over the last ones is
    what separates the two splits without selection. Reads only; chooses nothing."""
    lines = [
        f"| env | run | epochs | n | selected: val % | its test % | gap | last {last}: val % | test % | gap | "
        "test, selected - last |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    pm = percent_mean_std
    rows = []
    for members in configuration_groups(df).values():
        first = members[0]
        sel_v = np.array([m["best_val_error"] for m in members])
        sel_t = np.array([m["test_error_at_best"] for m in members])
        tails = np.array([last_evaluations(m, last) for m in members])
        rows.append(
            (
                float(np.mean(sel_v)),
                f"| {first.get('env', '')} | {configuration_id(first)} | {first.get('epochs', '')} | {len(members)} | ",
                sel_v,
                sel_t,
                tails[:, 0],
                tails[:, 1],
            )
        )
    for _, head, sv, st, lv, lt in sorted(rows, key=lambda r: r[0]):
        lines.append(
            f"{head}{pm(sv)} | {pm(st)} | {pm(st - sv)} | {pm(lv)} | {pm(lt)} | {pm(lt - lv)} | {pm(st - lt)} |"
        )
    return "\n".join(lines)


def grad_norms_table(df):
    """A markdown table of each run's gradient norms per module (runs trained with --grad-norms:
    /train/grad_norm_MODULE, before clipping): the median over the second half of the run's logged
    steps ("late"), and the median of the read's (location's) over the classifier's (action's), early
    (the first quarter of the logged steps) and late. Runs without them are left out."""
    rows, modules = [], ["action", "location", "glimpse", "core", "context"]
    for _, r in df.iterrows():
        tr = r["train"]
        if "grad_norm_action" not in tr or not len(tr):
            continue
        n = len(tr)
        late, early = tr.iloc[n // 2 :], tr.iloc[: max(1, n // 4)]

        def ratio(part):
            return float((part["grad_norm_location"] / part["grad_norm_action"]).median())

        cells = [f"{late[f'grad_norm_{m}'].median():.3g}" if f"grad_norm_{m}" in tr else "-" for m in modules]
        rows.append(
            f"| {r.get('run-id') or r['run']} | {100 * r['best_val_error']:.2f} | "
            + " | ".join(cells)
            + f" | {ratio(early):.3g} | {ratio(late):.3g} |"
        )
    head = (
        "| run | best val error % | " + " | ".join(f"{m}, late" for m in modules) + " | "
        "location / action, early | location / action, late |"
    )
    return "\n".join([head, "|" + "---|" * (len(modules) + 4)] + rows)


def evaluations_table(runs):
    """A markdown table of the `glimpse eval` results recorded in runs (load_run dicts), one row per run,
    split, checkpoint, epoch and M: the error on the run's own canvases (canvas_seed = the run's seed,
    or not recorded) and on canvases drawn from other seeds (`eval --canvas-seed`; mean +- std over the
    seeds, n), and their difference. Several evaluations of one seed count once (the last)."""
    lines = [
        "| run | split | checkpoint | epoch | M | own canvases % | other canvases % (n seeds) | own - others |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for run in runs:
        ev = run.get("evaluations", pd.DataFrame())
        if not len(ev):
            continue
        own_seed = float(run["config"].get("seed", 1))
        name = os.path.splitext(os.path.basename(run["path"]))[0]
        seeds = ev["canvas_seed"] if "canvas_seed" in ev else pd.Series(np.nan, index=ev.index)
        ev = ev.assign(canvas=seeds.fillna(own_seed))
        for (split, best, epoch, m), g in ev.groupby(["split", "best", "epoch", "samples"], sort=False):
            by_seed = g.groupby("canvas")["error"].last()
            own = by_seed.get(own_seed, math.nan)
            others = by_seed.drop(own_seed, errors="ignore").to_numpy()
            other = "-" if not len(others) else f"{percent_mean_std(others)} ({len(others)})"
            diff = "-" if not len(others) or math.isnan(own) else f"{100 * (own - others.mean()):+.2f}"
            lines.append(
                f"| {name} | {'test' if split == 1 else 'val'} | {'best' if best == 1 else 'last'} | "
                f"{int(epoch)} | {int(m)} | {'-' if math.isnan(own) else f'{100 * own:.2f}'} | {other} | {diff} |"
            )
    return "\n".join(lines)


def pivot_table(groups, rows="env", cols="attention", order=None, row_order=None):
    """A markdown table of group_seeds' rows: one row per value of `rows`, one column per value of
    `cols` (in order of first appearance); each cell the mean +- std (n) of the validation-selected
    test error in %, the mean images/s and the mean wall time in minutes (evaluations included); "(unfinished)" marks a
    cell whose runs have not all finished."""
    rvals = list(dict.fromkeys(groups[rows])) if len(groups) else []
    cvals = list(dict.fromkeys(groups[cols])) if len(groups) else []
    if order:  # the given columns first, in that order
        cvals = [c for c in order if c in cvals] + [c for c in cvals if c not in order]
    if row_order:  # likewise the rows
        rvals = [r for r in row_order if r in rvals] + [r for r in rvals if r not in row_order]
    lines = ["| " + rows + " | " + " | ".join(str(c) for c in cvals) + " |", "|---" * (len(cvals) + 1) + "|"]
    for r in rvals:
        cells = []
        for c in cvals:
            g = groups[(groups[rows] == r) & (groups[cols] == c)]
            if not len(g):
                cells.append("")
                continue
            g = g.iloc[0]
            err = f"{100 * g['mean']:.2f}" + (f" +- {100 * g['std']:.2f}" if g["n"] > 1 else "") + f" (n={g['n']})"
            cells.append(
                f"{err}; {g['images_per_s']:,.0f}/s; {g['wall_min']:.1f} min"
                + ("" if g["finished"] else " (unfinished)")
            )
        lines.append(f"| {r} | " + " | ".join(cells) + " |")
    return "\n".join(lines)
