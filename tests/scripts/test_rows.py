"""glimpse.rows: a benchmark's rows report test errors only for rows whose every planned seed finished
(results/benchmark/README.md, "Rows"), checked on made-up runs against hand-computed values."""
import os
import sys
import tempfile

import pandas as pd

from glimpse import rows


def frame(runs):
    """load_runs-like rows: run id, seed, best validation error, test error there, epochs done of 60."""
    return pd.DataFrame(
        [
            {
                "run": f"{k}-s{s}",
                "run-id": f"{k}-s{s}",
                "path": f"{k}-s{s}.h5",
                "seed": s,
                "best_val_error": v,
                "test_error_at_best": t,
                "epochs_done": d,
                "epochs": 60,
            }
            for k, s, v, t, d in runs
        ]
    )


def check(got, want):
    if got != want:
        sys.exit(f"FAIL: {got!r} != {want!r}")


seeds = [11, 12, 13]
df = frame(
    [
        ("stn", 11, 0.20, 0.10, 60),
        ("stn", 12, 0.22, 0.12, 60),
        ("stn", 13, 0.21, 0.11, 60),
        ("stn", 1, 0.50, 0.50, 60),  # a screen's seed: not the row's
        ("centre", 11, 0.30, 0.4321, 60),
        ("centre", 12, 0.32, 0.4322, 30),  # still training
        ("other", 11, 0.01, 0.01, 60),  # not a planned kind
        ("whole", 11, 0.40, 0.30, 60),
        ("whole", 12, 0.42, 0.32, 60),
        ("whole", 13, 0.41, 0.31, 60),
    ]
)
kinds = ["stn", "centre", "gaussian", "whole"]
check(rows.complete_rows(df, kinds, seeds), [("stn", [0.10, 0.12, 0.11]), ("whole", [0.30, 0.32, 0.31])])
# What a profile across tasks may read: the complete rows' planned seeds, not stn's screen seed 1,
# centre's finished seed 11 (its row is still training) or the unplanned kind.
check(
    list(rows.complete_runs(df, kinds, seeds)["run"]),
    ["stn-s11", "stn-s12", "stn-s13", "whole-s11", "whole-s12", "whole-s13"],
)


def answers(labels, given):
    return pd.DataFrame({"index": range(len(labels)), "label": labels, "answer": given})


# Stored test answers (/best_test) of seeds 11 and 12 of both complete rows, and of stn's seed 13 alone.
stored = {
    "stn-s11.h5": answers([0, 1, 2, 3], [0, 1, 2, 0]),
    "whole-s11.h5": answers([0, 1, 2, 3], [0, 0, 0, 3]),
    "stn-s12.h5": answers([5, 5], [5, 5]),
    "whole-s12.h5": answers([5, 5], [5, 4]),
    "stn-s13.h5": answers([7], [7]),
}
report = rows.rows_report(df, kinds, seeds, answers_of=stored.get)
lines = report.splitlines()
# A complete row: mean 11.00, std 1.00, t(0.975, 2) = 4.3027 x 1.00 / sqrt(3) = 2.48 either side; the IQM
# of three values trims none (scipy.stats.trim_mean(x, 0.25) = 11.00).
check(lines[2].startswith("| stn | 3 of 3 | 21.00 +- 1.00 | 11.00 +- 1.00 | [8.52, 13.48] | 11.00 ["), True)
# A row still training shows its finished seeds' validation error and no test error at all.
check(lines[3], "| centre | 1 of 3 | 30.00 | withheld until all finish | - | - |")
check("43.2" in report, False)
check(lines[4], "| gaussian | 0 of 3 | - | withheld until all finish | - | - |")
check(lines[5].startswith("| whole | 3 of 3 | 41.00 +- 1.00 | 31.00 +- 1.00 | [28.52, 33.48] | 31.00 ["), True)
# Two complete rows: the difference of their means, -20.00 points, with Welch's interval: standard
# error sqrt(1/3 + 1/3) = 0.8165 points, df = (2/3)^2 / (2 (1/3)^2 / 2) = 4, t(0.975, 4) = 2.7764, so
# -20.00 +- 2.27; the interval lies below 0, so stn is the lower.
check(lines[7], "| A | B | A - B % (means) | 95% interval (Welch) | lower |")
check(lines[9], "| stn | whole | -20.00 | [-22.27, -17.73] | stn |")
# The probability of improvement between them (every stn seed beats every whole seed).
check(lines[11], "| P(row beats column) | stn | whole |")
check(lines[13].startswith("| stn | - | 1.00 ["), True)
check(lines[14].startswith("| whole | 0.00 ["), True)
# Paired image by image over the seeds both stored answers for (11, 12: 6 images): stn gets 1 wrong
# (16.67%), whole 3 (50.00%); 1 image only stn gets wrong, 3 only whole: McNemar's exact p = 2 (1 + 4) /
# 2^4 = 0.625.
check(
    lines[16],
    "| A | B | seeds paired | images | error A % | error B % | A - B % | 95% interval (paired bootstrap) | "
    "only A wrong | only B wrong | McNemar p |",
)
check(lines[18].startswith("| stn | whole | 2 | 6 | 16.67 | 50.00 | -33.33 | ["), True)
check(lines[18].endswith("| 1 | 3 | 0.625 |"), True)
# Without stored answers there is no paired table.
check(len(rows.rows_report(df, kinds, seeds, answers_of=lambda path: None).splitlines()), 15)
# Two rows whose stored answers are of different images are refused.
stored["whole-s12.h5"] = answers([5, 6], [5, 4])
try:
    rows.rows_report(df, kinds, seeds, answers_of=stored.get)
    sys.exit("FAIL: answers of different images were compared")
except ValueError:
    pass
# Rows of several experiments: their runs.txt files' rows in order, or the chosen ones in the order given;
# a row two of them plan, or a chosen one none plans, is refused.
with tempfile.TemporaryDirectory() as root:
    for name, text in (("a", "x --lr 1\ny\n"), ("b/c", "# comment\nz --core lstm\n"), ("d", "x\n")):
        os.makedirs(os.path.join(root, "experiments", name))
        with open(os.path.join(root, "experiments", name, "runs.txt"), "w") as f:
            f.write(text)
    check(rows.planned_rows(["a", "b/c"], root=root), ["x", "y", "z"])
    check(rows.planned_rows(["a", "b/c"], ["z", "x"], root=root), ["z", "x"])
    for names, only in ((["a", "d"], None), (["a"], ["z"])):
        try:
            rows.planned_rows(names, only, root=root)
            sys.exit(f"FAIL: planned_rows({names}, {only}) was not refused")
        except ValueError:
            pass
print("rows: ok")
