"""Statistics over seeds, as reinforcement-learning papers report them today (rliable: Agarwal et al.
2021): the interquartile mean, stratified bootstrap intervals, the probability of improvement, and how
many seeds a difference needs. Scores are error rates (fractions): lower is better.

    from glimpse import stats
    stats.iqm([0.021, 0.019, 0.023, 0.020])                       # mean of the middle 50%
    stats.bootstrap_interval(errors, stats.iqm, strata=tasks)      # 95%, resampling seeds within each task
    stats.probability_of_improvement(errors_a, errors_b)           # P(a run of A beats a run of B)
    stats.improvement_table([("A", errors_a), ("B", errors_b), ...])  # every pair, with intervals
    stats.seeds_needed(difference=0.002, std=0.0015)               # per side, two-sided 5%, power 80%
    stats.performance_profile({"gaussian": {"cluttered60": [...], ...}, ...}, taus)   # across tasks
    stats.welch(errors_a, errors_b)                                # two configurations' seeds
    stats.welch_interval(errors_a, errors_b)                       # mean(A) - mean(B) and its 95% interval
    stats.mcnemar(only_a_wrong, only_b_wrong); stats.paired_bootstrap(wrong_a, wrong_b)  # image by image
The distributions come from SciPy (Debian's python3-scipy).
"""
import math
import zlib

import numpy as np
from scipy import stats as _scipy


def _core():
    """glimpse._core: the statistics glimpse summarize computes (src/core/stats.h)."""
    from glimpse import _compiled

    return _compiled()


__all__ = [
    "iqm",
    "bootstrap_interval",
    "probability_of_improvement",
    "seeds_needed",
    "profile_ratios",
    "performance_profile",
    "profile_table",
    "stats_table",
    "improvement_interval",
    "improvement_table",
    "welch",
    "welch_interval",
    "difference_table",
    "mcnemar",
    "format_p",
    "paired_bootstrap",
]


def iqm(values):
    """The interquartile mean: the mean of the values left after the lowest and the highest
    floor(n / 4) are cut, as rliable computes it (scipy.stats.trim_mean(values, 0.25)); the C++ that
    glimpse summarize prints (src/core/stats.h)."""
    return _core().iqm([float(x) for x in np.asarray(values, dtype=float).ravel()])


def bootstrap_interval(values, statistic=np.mean, strata=None, draws=10000, seed=0, level=0.95):
    """The percentile bootstrap interval of statistic(values), statistic np.mean or iqm (or "mean",
    "iqm"): each of `draws` resamples draws the runs with replacement within each stratum (strata: one
    label per value, e.g. its task; None: one stratum), from a seeded stream, so the same call gives
    the same interval. The C++ that glimpse summarize runs (src/core/stats.h)."""
    names = {np.mean: "mean", iqm: "iqm", "mean": "mean", "iqm": "iqm"}
    if statistic not in names:
        raise ValueError(f"bootstrap_interval: statistic np.mean or stats.iqm (or 'mean', 'iqm'), found {statistic!r}")
    v = [float(x) for x in np.asarray(values, dtype=float).ravel()]
    labels = [] if strata is None else list(strata)
    if strata is not None and len(labels) != len(v):
        raise ValueError(f"bootstrap_interval: expected one stratum label per value ({len(v)}), found {len(labels)}")
    codes = {s: i for i, s in enumerate(dict.fromkeys(labels))}
    return tuple(_core().bootstrap_interval(v, names[statistic], [codes[s] for s in labels], draws, seed, level))


def probability_of_improvement(errors_a, errors_b):
    """P(X < Y) + P(X = Y) / 2 for X a run of A and Y a run of B, over every pair (the Mann-Whitney
    statistic over n_a n_b): the chance that A's run has the lower error. 0.5: no difference."""
    a, b = np.asarray(errors_a, dtype=float)[:, None], np.asarray(errors_b, dtype=float)[None, :]
    return float(((a < b) + 0.5 * (a == b)).mean())


def improvement_interval(errors_a, errors_b, draws=10000, seed=0, level=0.95):
    """The percentile bootstrap interval of probability_of_improvement(A, B): each resample draws A's
    runs and B's runs with replacement, each side apart (rliable's two-sample bootstrap), from a
    seeded stream."""
    a, b = np.asarray(errors_a, dtype=float), np.asarray(errors_b, dtype=float)
    rng = np.random.default_rng(seed)
    values = np.empty(draws)
    for d in range(draws):
        values[d] = probability_of_improvement(a[rng.integers(0, len(a), len(a))], b[rng.integers(0, len(b), len(b))])
    tail = 100 * (1 - level) / 2
    return float(np.percentile(values, tail)), float(np.percentile(values, 100 - tail))


def seeds_needed(difference, std, alpha=0.05, power=0.8):
    """Seeds per side for a two-sided test at level alpha to detect a true difference of means
    `difference` with probability `power`, runs spreading with standard deviation `std`:
    n = 2 (z_{1-alpha/2} + z_power)^2 std^2 / difference^2 (the normal approximation), rounded up, at
    least 2. A t-test needs one or two more at these small n."""
    if difference == 0:
        return math.inf
    z = _scipy.norm.ppf(1 - alpha / 2) + _scipy.norm.ppf(power)
    return max(2, math.ceil(2 * (z * std / difference) ** 2))


def profile_ratios(errors):
    """errors (variant -> task -> the errors of its runs) as ratios: each run's error over its task's
    best variant mean (the lowest mean error of any variant there), variant -> task -> array."""
    tasks = dict.fromkeys(t for per_task in errors.values() for t in per_task)
    best = {
        t: min(float(np.mean(per_task[t])) for per_task in errors.values() if t in per_task and len(per_task[t]))
        for t in tasks
    }
    return {
        variant: {t: np.asarray(e, dtype=float) / best[t] for t, e in per_task.items() if len(e)}
        for variant, per_task in errors.items()
    }


def performance_profile(errors, taus, draws=2000, seed=0, level=0.95):
    """Performance profiles across tasks (Dolan and More 2002; over runs, as rliable draws them):
    errors maps variant -> task -> the errors of its runs. On each task a run's ratio is its error over
    the task's best variant mean (the lowest mean error of any variant there). A variant's profile at
    tau is the fraction of its runs with ratio <= tau, averaged over the tasks it ran (each task
    weighs the same). Returns variant -> (profile, lower, upper), arrays over taus; the band is the
    percentile bootstrap interval that resamples runs within each task (the references stay fixed).
    Each variant draws from its own stream, seeded by (seed, the CRC-32 of its name), so a variant
    that joins or leaves moves no other variant's band unless it changes a task's best mean."""
    taus = np.asarray(taus, dtype=float)
    out = {}
    for variant, per_task in profile_ratios(errors).items():
        ratios = list(per_task.values())
        rng = np.random.default_rng([seed, zlib.crc32(str(variant).encode())])

        def profile(rs):
            return np.mean([(r[:, None] <= taus[None, :]).mean(axis=0) for r in rs], axis=0)

        boot = np.array([profile([r[rng.integers(0, len(r), len(r))] for r in ratios]) for _ in range(draws)])
        tail = 100 * (1 - level) / 2
        out[variant] = (profile(ratios), np.percentile(boot, tail, axis=0), np.percentile(boot, 100 - tail, axis=0))
    return out


def stats_table(named):
    """A markdown table of (name, errors) pairs: n, mean +- std, the IQM, each with its bootstrap 95%
    interval over seeds (%); and for the first against each other, the probability that a run of the
    first has the lower error, and the seeds per side that the observed difference of means would need
    (at the pooled spread, 5% two-sided, power 80%)."""
    lines = [
        "| configuration | n | mean +- std % | 95% interval of the mean (bootstrap) | IQM % | 95% interval of the IQM | "
        "P(first is better) | seeds per side for this difference |",
        "|---|---|---|---|---|---|---|---|",
    ]
    first = np.asarray(named[0][1], dtype=float)
    for i, (name, errors) in enumerate(named):
        e = np.asarray(errors, dtype=float)
        m_lo, m_hi = bootstrap_interval(e, np.mean)
        q_lo, q_hi = bootstrap_interval(e, iqm)
        sd = e.std(ddof=1) if len(e) > 1 else math.nan
        if i == 0:
            poi, need = "-", "-"
        else:
            poi = f"{probability_of_improvement(first, e):.2f}"
            pooled = math.sqrt((first.var(ddof=1) + e.var(ddof=1)) / 2) if len(first) > 1 and len(e) > 1 else math.nan
            n = seeds_needed(first.mean() - e.mean(), pooled) if not math.isnan(pooled) else math.nan
            need = "-" if math.isnan(n) else ("no difference" if math.isinf(n) else str(n))
        lines.append(
            f"| {name} | {len(e)} | {100 * e.mean():.2f} +- {100 * sd:.2f} | [{100 * m_lo:.2f}, {100 * m_hi:.2f}] | "
            f"{100 * iqm(e):.2f} | [{100 * q_lo:.2f}, {100 * q_hi:.2f}] | {poi} | {need} |"
        )
    return "\n".join(lines)


def improvement_table(named, draws=2000):
    """A markdown matrix of (name, errors) pairs: the cell in row A, column B is the probability that a
    run of A has a lower error than a run of B, with its bootstrap 95% interval (improvement_interval);
    0.50 is no difference, and an interval above 0.50 says A's runs beat B's more often than not.
    Rows and columns in the order given."""
    head = ["P(row beats column)"] + [name for name, _ in named]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for name_a, a in named:
        cells = []
        for name_b, b in named:
            if name_a == name_b:
                cells.append("-")
                continue
            lo, hi = improvement_interval(a, b, draws=draws)
            cells.append(f"{probability_of_improvement(a, b):.2f} [{lo:.2f}, {hi:.2f}]")
        lines.append("| " + " | ".join([name_a] + cells) + " |")
    return "\n".join(lines)


def profile_table(errors, taus=(1.1, 1.5, 2, 4)):
    """A markdown table of performance_profile(errors, taus): per variant the tasks, the runs, and the
    fraction of its runs within tau of each task's best mean, with the 95% band, best first."""
    prof = performance_profile(errors, taus)
    lines = [
        "| variant | tasks | runs | " + " | ".join(f"runs within {t:g}x the best mean [95% band]" for t in taus) + " |",
        "|---|---|---|" + "---|" * len(taus),
    ]
    for v in sorted(prof, key=lambda k: tuple(-x for x in prof[k][0])):
        p, lo, hi = prof[v]
        cells = " | ".join(f"{p[i]:.2f} [{lo[i]:.2f}, {hi[i]:.2f}]" for i in range(len(taus)))
        lines.append(f"| {v} | {len(errors[v])} | {sum(len(r) for r in errors[v].values())} | {cells} |")
    return "\n".join(lines)


def welch(a, b):
    """Welch's t-test of two samples' means (unequal variances): (t, degrees of freedom (Welch-
    Satterthwaite), two-sided p), as scipy.stats.ttest_ind(a, b, equal_var=False)."""
    d, se, df = _welch_parts(a, b)
    t = d / se
    return float(t), float(df), float(2 * _scipy.t.sf(abs(t), df))


def _welch_parts(a, b):
    """mean(a) - mean(b), its standard error without pooling the variances, and the
    Welch-Satterthwaite degrees of freedom: what welch and welch_interval are made of."""
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    va, vb = a.var(ddof=1) / len(a), b.var(ddof=1) / len(b)
    df = (va + vb) ** 2 / (va**2 / (len(a) - 1) + vb**2 / (len(b) - 1))
    return a.mean() - b.mean(), math.sqrt(va + vb), df


def welch_interval(a, b, level=0.95):
    """The difference of two samples' means, mean(a) - mean(b), and its `level` interval by Welch's t
    (unequal variances, Welch-Satterthwaite degrees of freedom): (difference, low, high)."""
    d, se, df = _welch_parts(a, b)
    half = _scipy.t.ppf(0.5 + level / 2, df) * se
    return float(d), float(d - half), float(d + half)


def difference_table(named):
    """A markdown table of every pair (A, B) of (name, errors), A before B in the order given: the
    difference of their mean errors, A - B in points, its 95% interval (welch_interval), and what it
    says: the lower of the two when the interval excludes 0, otherwise "not established"."""
    lines = ["| A | B | A - B % (means) | 95% interval (Welch) | lower |", "|---|---|---|---|---|"]
    for i, (name_a, a) in enumerate(named):
        for name_b, b in named[i + 1 :]:
            d, lo, hi = welch_interval(a, b)
            lower = name_a if hi < 0 else name_b if lo > 0 else "not established"
            lines.append(f"| {name_a} | {name_b} | {100 * d:+.2f} | [{100 * lo:+.2f}, {100 * hi:+.2f}] | {lower} |")
    return "\n".join(lines)


def mcnemar(only_a_wrong, only_b_wrong):
    """McNemar's exact test of two classifiers on the same images: the two-sided p value of the
    discordant counts (images only A got wrong, images only B got wrong) under the null that either is
    equally likely: the exact binomial test of b of b + c at 1/2 (1 without discordant images)."""
    b, c = int(only_a_wrong), int(only_b_wrong)
    return 1.0 if b + c == 0 else float(_scipy.binomtest(b, b + c, 0.5).pvalue)


def format_p(p):
    """A p value as a table prints it: 3 significant digits, or the bound "< 1e-300" when it lies
    below what a double holds at full precision (an exact test of thousands of discordant images
    underflows to 0, which is not a probability anyone computed)."""
    return "< 1e-300" if p < 1e-300 else f"{p:.3g}"


def paired_bootstrap(wrong_a, wrong_b, draws=10000, seed=0):
    """The 95% percentile interval of error(A) - error(B) over `draws` resamples of the images (the
    same resample for both: paired), from a seeded stream. wrong_a, wrong_b: 0/1 per image."""
    a, b = np.asarray(wrong_a, dtype=float), np.asarray(wrong_b, dtype=float)
    if a.shape != b.shape:
        raise ValueError("paired_bootstrap: the two runs were evaluated on different numbers of images")
    rng = np.random.default_rng(seed)
    d = a - b
    means = np.array([d[rng.integers(0, len(d), len(d))].mean() for _ in range(draws)])
    return float(np.percentile(means, 2.5)), float(np.percentile(means, 97.5))
