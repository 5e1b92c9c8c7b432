"""A benchmark's rows (results/benchmark/README.md, "Rows"), reported so that the protocol holds: a
row's test errors are read only once every one of its planned seeds has finished, and a row still
training shows how many have, with its validation error alone.

A row is a kind of the rows' runs.txt, trained once per planned seed as KIND-sSEED. Its selected test
error per seed is the test error at that run's lowest validation error (M = 1).
"""
import math

import numpy as np

from glimpse import stats
from glimpse.runs import _rules, best_test_answers
from glimpse.screens import screen_name


def seeds_by_row(df, kinds, seeds):
    """{kind: {seed: (best validation error, selected test error, finished)}} of a load_runs frame, for
    the planned kinds and seeds only (fractions); a run of another kind or seed is left out."""
    out = {k: {} for k in kinds}
    for _, r in df.iterrows():
        kind, seed = screen_name(r), r.get("seed")
        if kind not in out or seed != seed or int(seed) not in seeds:
            continue
        done, epochs = r.get("epochs_done"), r.get("epochs")
        finished = done == done and epochs == epochs and int(done) >= int(epochs)
        out[kind][int(seed)] = (float(r["best_val_error"]), float(r["test_error_at_best"]), finished)
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


def rows_report(df, kinds, seeds, answers_of=best_test_answers):
    """Markdown: a table with one line per planned row, then, where two or more rows are complete, the
    probability that a seed of one row beats a seed of another (stats.improvement_table) and their
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
        val_text = (
            "-"
            if not len(val)
            else f"{100 * val.mean():.2f}" + (f" +- {100 * val.std(ddof=1):.2f}" if len(val) > 1 else "")
        )
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
        lines += ["", stats.improvement_table(named)]
        paired = paired_rows(df, [k for k, _ in named], seeds, answers_of)
        if paired:
            lines += ["", paired]
    return "\n".join(lines)


def paired_rows(df, kinds, seeds, answers_of=best_test_answers):
    """Markdown, or "" when no pair of rows has a seed whose two runs both stored their test answers
    (/best_test): for each pair of the given (complete) rows, every seed both stored answers for
    compared image by image on that seed's test canvases, the images of all such seeds together: the
    seeds paired, both errors, the difference with its paired bootstrap 95% interval, the images only
    one row's model gets wrong and McNemar's exact p. It speaks of these trained models. answers_of:
    a run file's path -> its stored answers (runs.best_test_answers) or None."""
    answers = {}
    for _, r in df.iterrows():
        kind, seed = screen_name(r), r.get("seed")
        if kind in kinds and seed == seed and int(seed) in seeds:
            got = answers_of(r["path"])
            if got is not None:
                answers[(kind, int(seed))] = got
    lines = []
    for i, a in enumerate(kinds):
        for b in kinds[i + 1 :]:
            both = [s for s in seeds if (a, s) in answers and (b, s) in answers]
            if not both:
                continue
            for s in both:
                if not np.array_equal(answers[(a, s)]["label"].to_numpy(), answers[(b, s)]["label"].to_numpy()):
                    raise ValueError(f"{a}-s{s} and {b}-s{s} stored answers for different test images")
            wa = np.concatenate([(answers[(a, s)]["answer"] != answers[(a, s)]["label"]).to_numpy() for s in both])
            wb = np.concatenate([(answers[(b, s)]["answer"] != answers[(b, s)]["label"]).to_numpy() for s in both])
            lo, hi = stats.paired_bootstrap(wa, wb)
            only_a, only_b = int((wa & ~wb).sum()), int((wb & ~wa).sum())
            lines.append(
                f"| {a} | {b} | {len(both)} | {len(wa)} | {100 * wa.mean():.2f} | {100 * wb.mean():.2f} | "
                f"{100 * (wa.mean() - wb.mean()):+.2f} | [{100 * lo:+.2f}, {100 * hi:+.2f}] | {only_a} | {only_b} | "
                f"{stats.mcnemar(only_a, only_b):.3g} |"
            )
    if not lines:
        return ""
    head = [
        "| A | B | seeds paired | images | error A % | error B % | A - B % | 95% interval (paired bootstrap) | "
        "only A wrong | only B wrong | McNemar p |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    return "\n".join(head + lines)
