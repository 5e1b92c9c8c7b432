"""A benchmark's rows (results/benchmark/README.md, "Rows"), reported so that the protocol holds: a
row's test errors are read only once every one of its planned seeds has finished, and a row still
training shows how many have, with its validation error alone.

A row is a kind of the rows' runs.txt, trained once per planned seed as KIND-sSEED. Its selected test
error per seed is the test error at that run's lowest validation error (M = 1).
"""
import math
import os
import re

import numpy as np
import pandas as pd

from glimpse import runs, stats
from glimpse.runs import _rules, best_test_answers
from glimpse.tables import PAIRED_HEAD, paired_cells, percent_mean_std
from glimpse.screens import planned_options, screen_name


def seeds_by_row(df, kinds, seeds):
    """{kind: {seed: (best validation error, selected test error, finished, path)}} of a load_runs
    frame, for the planned kinds and seeds only (fractions); a run of another kind or seed is left out."""
    out = {k: {} for k in kinds}
    for _, r in df.iterrows():
        kind, seed = screen_name(r), r.get("seed")
        if kind not in out or seed != seed or int(seed) not in seeds:
            continue
        done, epochs = r.get("epochs_done"), r.get("epochs")
        finished = done == done and epochs == epochs and int(done) >= int(epochs)
        out[kind][int(seed)] = (float(r["best_val_error"]), float(r["test_error_at_best"]), finished, r.get("path"))
    return out


def complete_rows(df, kinds, seeds):
    """[(kind, [selected test error of each seed])] of the rows whose every planned seed finished, in
    the plan's order: the only test errors this module passes on."""
    by_row = seeds_by_row(df, kinds, seeds)
    return [
        (k, [by_row[k][s][1] for s in seeds])
        for k in kinds
        if len(by_row[k]) == len(seeds) and all(v[2] for v in by_row[k].values())
    ]


def complete_runs(df, kinds, seeds):
    """The runs of a load_runs frame that belong to complete rows (every planned seed finished), the
    planned seeds only: what a profile across tasks may read (runs.errors_by)."""
    keep = {k for k, _ in complete_rows(df, kinds, seeds)}
    mask = [
        screen_name(r) in keep and r.get("seed") == r.get("seed") and int(r.get("seed")) in seeds
        for _, r in df.iterrows()
    ]
    return df[mask]


def planned_rows(names, only=None, root=None):
    """The rows the experiments `names` plan (each experiments/NAME/runs.txt under root, the
    repository by default), in their order, or the rows of `only`, in its order: rows of several
    experiments in one report (a row and its curriculum twin trained elsewhere). ValueError for a row
    two of them plan, or one of `only` that none plans."""
    planned = []
    for name in names:
        for k in planned_options(os.path.join(root or runs.ROOT, "experiments", name, "runs.txt")):
            if k in planned:
                raise ValueError(f"row {k} is planned by two of the experiments {', '.join(names)}")
            planned.append(k)
    if only is None:
        return planned
    missing = [k for k in only if k not in planned]
    if missing:
        raise ValueError(f"no experiment of {', '.join(names)} plans the rows {', '.join(missing)}")
    return list(only)


def experiments_frame(names):
    """One load_runs frame of the committed run files of the experiments `names`; one without run
    files yet (its rows not started) adds none."""
    paths = []
    for name in names:
        try:
            paths += runs.experiment_paths(name)
        except FileNotFoundError:
            continue
    return runs.load_runs(paths) if paths else pd.DataFrame()


def complete_experiments(names, seeds):
    """One load_runs frame of the runs of complete rows (complete_runs) of the benchmark rows'
    experiments `names` (each a results/NAME with its experiments/NAME/runs.txt naming the rows; one
    without run files yet adds none): the benchmark across its tasks, as the profiles read it."""
    frames = []
    for name in (re.sub(r"/runs$", "", n) for n in names):
        df = experiments_frame([name])
        if len(df):  # rows not started have nothing complete
            frames.append(complete_runs(df, planned_rows([name]), seeds))
    return pd.concat(frames) if frames else pd.DataFrame()


def rows_report(df, kinds, seeds, answers_of=best_test_answers):
    """Markdown: a table with one line per planned row, then, where two or more rows are complete, the
    difference of their mean test errors with its Welch interval (stats.difference_table: the
    protocol's test of which row is lower), the probability that a seed of one row beats a seed of
    another (stats.improvement_table) and their
    models compared image by image where they stored their test answers (paired_rows). A complete
    row gives n, its best validation error and selected test error (mean +- std, %), the 95% interval
    of the mean (Student's t, as glimpse summarize), the interquartile mean with its bootstrap 95%
    interval; a row still training gives the seeds finished and the mean validation error of those,
    and no test error."""
    by_row = seeds_by_row(df, kinds, seeds)
    complete = dict(complete_rows(df, kinds, seeds))
    lines = [
        "| row | seeds finished | best val error % | its test error % (M=1) | 95% interval | IQM % [95% bootstrap] |",
        "|---|---|---|---|---|---|",
    ]
    for k in kinds:
        done = [v for v in by_row[k].values() if v[2]]
        val = np.array([v[0] for v in done])
        val_text = percent_mean_std(val) if len(val) else "-"
        if k not in complete:
            lines.append(f"| {k} | {len(done)} of {len(seeds)} | {val_text} | withheld until all finish | - | - |")
            continue
        e = np.asarray(complete[k], dtype=float)
        pooled = _rules().seed_stats(e.tolist())
        lo, hi = stats.bootstrap_interval(e, stats.iqm)
        interval = (
            f"[{100 * (pooled['mean'] - pooled['ci95']):.2f}, {100 * (pooled['mean'] + pooled['ci95']):.2f}]"
            if not math.isnan(pooled["ci95"])
            else "-"
        )
        lines.append(
            f"| {k} | {len(done)} of {len(seeds)} | {val_text} | "
            f"{100 * pooled['mean']:.2f} +- {100 * pooled['std']:.2f} | {interval} | "
            f"{100 * stats.iqm(e):.2f} [{100 * lo:.2f}, {100 * hi:.2f}] |"
        )
    named = [(k, complete[k]) for k in kinds if k in complete]
    if len(named) >= 2:
        lines += ["", stats.difference_table(named), "", stats.improvement_table(named)]
        paired = paired_rows(by_row, [k for k, _ in named], seeds, answers_of)
        if paired:
            lines += ["", paired]
    return "\n".join(lines)


def paired_rows(by_row, kinds, seeds, answers_of=best_test_answers):
    """Markdown, or "" when no pair of rows has a seed whose two runs both stored their test answers
    (/best_test): for each pair of the given (complete) rows of seeds_by_row, every seed both stored
    answers for compared image by image on that seed's test canvases, the images of all such seeds
    together (tables.paired_cells): the seeds paired, both errors, the difference with its paired
    bootstrap 95% interval, the images only one row's model gets wrong and McNemar's exact p. It
    speaks of these trained models. answers_of: a run file's path -> its stored answers
    (runs.best_test_answers) or None."""
    answers = {}
    for k in kinds:
        for s in seeds:
            path = by_row[k][s][3] if s in by_row[k] else None
            got = answers_of(path) if path is not None else None
            if got is not None:
                answers[(k, s)] = got
    lines = []
    for i, a in enumerate(kinds):
        for b in kinds[i + 1 :]:
            both = [s for s in seeds if (a, s) in answers and (b, s) in answers]
            if not both:
                continue
            try:  # equal lengths per seed, so the joined labels match only where every seed's do
                if any(len(answers[(a, s)]) != len(answers[(b, s)]) for s in both):
                    raise ValueError("a seed's two evaluations hold different numbers of images")
                cells = paired_cells(*(pd.concat([answers[(k, s)] for s in both]) for k in (a, b)))
            except ValueError as e:
                raise ValueError(f"rows {a} and {b}, seeds {both}: {e}") from None
            lines.append(f"| {a} | {b} | {len(both)} | {cells}")
    if not lines:
        return ""
    head = ["| A | B | seeds paired | " + PAIRED_HEAD, "|---|---|---|---|---|---|---|---|---|---|---|"]
    return "\n".join(head + lines)
