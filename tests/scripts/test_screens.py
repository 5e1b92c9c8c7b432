"""glimpse.screens: the screening protocol's choice rule (results/benchmark/README.md, "Choice") on
made-up screens, one case per branch of the rule, and its table from run-file rows."""
import math
import sys

import pandas as pd

from glimpse import screens


def frame(rows):
    """load_runs-like rows: run id, best validation error (fraction), epochs done of epochs."""
    return pd.DataFrame(
        [{"run": rid, "run-id": rid, "best_val_error": v, "epochs_done": d, "epochs": 20} for rid, v, d in rows]
    )


def check(got, want):
    if got != want:
        sys.exit(f"FAIL: {got!r} != {want!r}")


levers = ["lstm", "lr"]
done = {"base": (50.0, True)}
# Every planned screen must have finished before anything is chosen.
check(screens.choose(dict(done), levers), ([], "to run: lstm, lr"))
check(screens.choose({**done, "lstm": (40.0, False), "lr": (49.5, True)}, levers), ([], "to run: lstm"))
check(screens.choose({**done, "lstm": (40.0, True), "lr": (49.5, False)}, levers), (["lstm"], "to run: lr"))
# None at least 1 point better: the base. Exactly 1 point counts as helping.
check(screens.choose({**done, "lstm": (49.5, True), "lr": (50.5, True)}, levers), ([], "base"))
check(screens.choose({**done, "lstm": (49.0, True), "lr": (50.5, True)}, levers), (["lstm"], "lstm"))
# Two help: the combination screen runs, then the lower of it and the best single lever wins.
two = {**done, "lstm": (45.0, True), "lr": (48.0, True)}
check(screens.choose(two, levers), (["lstm", "lr"], "to run: combined (lstm + lr)"))
check(screens.choose({**two, "combined": (44.0, True)}, levers), (["lstm", "lr"], "combined"))
check(screens.choose({**two, "combined": (46.0, True)}, levers), (["lstm", "lr"], "lstm"))

# The table: kinds by their base screens, the longest kind prefix owning a screen, seeds stripped,
# levers from the plan (a lever a kind is not screened on is n/a; a planned one not yet run is -).
df = frame(
    [
        ("draw-base-s1", 0.7619, 20),
        ("draw-lstm-s1", 0.60, 20),
        ("draw-lr3e-4-s1", 0.50, 10),
        ("gaussian-base-s1", 0.40, 20),
        ("gaussian-loo4-s1", 0.395, 20),
    ]
)
plan = ["gaussian-base", "gaussian-loo4", "draw-base", "draw-lstm", "draw-lr3e-4", "draw-combined"]
table = screens.levers_table(df, plan).splitlines()
check(table[0], "| kind | base val % | loo4 (diff) | lstm (diff) | lr3e-4 (diff) | combined (diff) | helps | recipe |")
check(table[2], "| gaussian | 40.00 | 39.50 (-0.50) | n/a | n/a | - | none | base |")
# The levers that help so far are named while a screen is still unfinished; nothing is chosen.
check(table[3], "| draw | 76.19 | n/a | 60.00 (-16.19) | 50.00 (-26.19) unfinished | - | lstm | to run: lr3e-4 |")
check(screens.screens_by_kind(df)["draw"]["lstm"], (60.0, True))
check(math.isclose(screens.screens_by_kind(df)["gaussian"]["base"][0], 40.0), True)

# The figure: a panel per planned kind in the plan's order, a line per screen that logged a curve
# (validation error in %, against millions of images), the base first.
import matplotlib  # noqa: E402

matplotlib.use("Agg")
from glimpse import plot  # noqa: E402

curves = df.assign(
    eval=[pd.DataFrame({"epoch": [1, 2], "images": [5e5, 1e6], "val_error": [0.8, e]}) for e in df["best_val_error"]],
    train=[pd.DataFrame() for _ in range(len(df))],
)
fig = plot.draw_levers(curves, plan)
legend = [t.get_text() for t in fig.legends[0].get_texts()]
check(legend, ["base", "loo4", "lstm", "lr3e-4", "combined"])  # the combination once, as its own line
panels = [ax for ax in fig.axes if ax.get_title()]
check([ax.get_title() for ax in panels], ["gaussian", "draw"])
check([line.get_label() for line in panels[1].get_lines()], ["base", "lstm", "lr3e-4"])
base = panels[1].get_lines()[0]
check((list(base.get_xdata()), [round(y, 2) for y in base.get_ydata()]), ([0.5, 1.0], [80.0, 76.19]))
print("screens: ok")

# The recipes as runs: a decided kind's chosen screen (its options without --epochs and --init-from);
# a curriculum recipe also trains each seed's source on the stage experiment and starts its row from
# it for the rest of the images; an undecided kind is left out.
import os  # noqa: E402
import tempfile  # noqa: E402

with tempfile.TemporaryDirectory() as tmp:
    runs_txt = os.path.join(tmp, "runs.txt")
    with open(runs_txt, "w") as f:
        f.write("# the plan\n\na-base   --attention a\na-lstm   --attention a  --core lstm\n")
        f.write(
            "a-cur    --attention a --epochs 10 --init-from results/s/runs/a-s1.h5\na-combined --attention a --core lstm"
        )
        f.write(
            " --epochs 10 --init-from results/s/runs/a-combined-s1.h5\nbb-base  --attention bb\nbb-lstm --attention bb --core lstm\n"
        )
    options = screens.planned_options(runs_txt)
check(options["a-lstm"], "--attention a --core lstm")
check(list(options), ["a-base", "a-lstm", "a-cur", "a-combined", "bb-base", "bb-lstm"])
rows = frame([("a-base-s1", 0.5, 20), ("a-lstm-s1", 0.45, 20), ("a-cur-s1", 0.47, 20), ("bb-base-s1", 0.3, 20)])
check(screens.recipes(rows, options), {})  # a needs its combination, bb its lstm screen
rows = pd.concat([rows, frame([("a-combined-s1", 0.40, 20), ("bb-lstm-s1", 0.295, 20)])])
chosen = screens.recipes(rows, options)
check(chosen, {"a": "a-combined", "bb": "bb-base"})
got = screens.row_lines(chosen, options, "x/stage", 50)
check(
    got[0],
    ["a   --attention a --core lstm --init-from results/x/stage/runs/a-s{seed}.h5 --epochs 50", "bb  --attention bb"],
)
check(got[1], ["a   --attention a --core lstm"])
got = screens.row_lines(chosen, options, None, 0)  # no stage: the recipes on the rows' task alone
check(got, (["a   --attention a --core lstm", "bb  --attention bb"], []))
print("recipes: ok")
