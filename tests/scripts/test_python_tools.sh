#!/usr/bin/env bash
# results.py and plot.py on a small run file made here (Debian's python3-h5py, pandas, matplotlib).
set -euo pipefail
root=$1
glimpse=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
py=/usr/bin/python3
export PYTHONPATH="$root/src/python${PYTHONPATH:+:$PYTHONPATH}"  # this checkout's package, whatever glimpse.pth names
"$py" "$root/tests/scripts/make_fake_data.py" "$tmp/data"
mkdir -p "$tmp/results/tiny"
for b in learned loo; do
  "$glimpse" train --out "$tmp/results/tiny/$b.h5" --data-dir "$tmp/data" --glimpses 2 --patch 6 --hidden 16 \
    --glimpse-hidden 8 --batch 8 --epochs 2 --train-images 64 --val-images 16 --trajectories 3 --threads 1 --diag-every 4 \
    --baseline $b --samples 2 >/dev/null
done
# The test answers the trainer stores at the selected evaluation (/best_test) are what glimpse eval of
# the best checkpoint gives, image by image, and --paired compares two runs of one seed on them, a
# curves-only copy included, as it compares them through glimpse eval.
"$glimpse" eval --run "$tmp/results/tiny/learned.h5" --no-record --predictions "$tmp/learned.csv" >/dev/null
"$glimpse" eval --run "$tmp/results/tiny/loo.h5" --no-record --predictions "$tmp/loo.csv" >/dev/null
"$glimpse" slim --run "$tmp/results/tiny/loo.h5" --out "$tmp/loo_curves.h5" --curves-only >/dev/null
"$py" - "$root" "$tmp" <<'PY'
import subprocess
import sys

import pandas as pd
from glimpse import runs, tables

root, tmp = sys.argv[1:]
stored = runs.best_test_answers(tmp + "/results/tiny/learned.h5")
evaluated = pd.read_csv(tmp + "/learned.csv")
assert stored is not None and len(stored) == len(evaluated) > 0, stored
assert (stored.to_numpy() == evaluated.to_numpy()).all(), "stored answers differ from glimpse eval's"
paired = [root + "/scripts/results.py", "--paired", tmp + "/results/tiny/learned.h5"]
from_store = subprocess.run(paired + [tmp + "/loo_curves.h5"], capture_output=True, text=True, check=True).stdout
row = from_store.strip().split("\n")[-1]
want = tables.paired_table("a", evaluated, "b", pd.read_csv(tmp + "/loo.csv")).split("\n")[-1].split(" | ")[2:]
assert row.split(" | ")[2:] == want, (row, want)
print("stored test answers: ok")
PY
mkdir -p "$tmp/results/seeds"
for seed in 1 2; do  # one configuration, two seeds: pooled by results.group_seeds and plot.py curves
  "$glimpse" train --out "$tmp/results/seeds/s$seed.h5" --data-dir "$tmp/data" --glimpses 2 --patch 6 --hidden 16 \
    --glimpse-hidden 8 --batch 8 --epochs 2 --train-images 64 --val-images 16 --trajectories 3 --threads 1 \
    --seed $seed --run-id s$seed >/dev/null
done
mkdir -p "$tmp/results/strip"
"$glimpse" train --out "$tmp/results/strip/soft.h5" --env strip5 --attention soft --data-dir "$tmp/data" \
  --hidden 16 --glimpse-hidden 8 --attention-dim 6 --batch 16 --epochs 2 --val-images 16 --trajectories 3 \
  --threads 1 >/dev/null
mkdir -p "$tmp/results/pairs"  # two digits: the per-digit and unordered-pair errors reach the tables
"$glimpse" train --out "$tmp/results/pairs/p.h5" --env pairs100 --data-dir "$tmp/data" --glimpses 2 --patch 8 \
  --hidden 16 --glimpse-hidden 8 --batch 8 --epochs 2 --train-images 64 --val-images 16 --trajectories 3 \
  --threads 1 --run-id p-s1 >/dev/null
"$py" - "$tmp/results/pairs/p.h5" <<'PY'
import sys
import h5py
import numpy as np
from glimpse import runs, tables

path = sys.argv[1]
with h5py.File(path, "r") as f:
    val, unordered = np.asarray(f["eval/val_error"]), np.asarray(f["eval/test_unordered_error"])
    sequence = np.asarray(f["eval/test_error"])
best = int(np.argmin(val))
s = runs.summary(runs.load_run(path))
assert s["unordered_error_at_best"] == unordered[best] and unordered[best] <= sequence[best], (s, unordered, sequence)
table = tables.seeds_table(runs.group_seeds(runs.load_runs([path])))
assert "| unordered-pair test error % |" in table.splitlines()[0], table
assert f"| {100 * unordered[best]:.2f} |" in table.splitlines()[2], table
print("unordered pairs: ok")
PY
mkdir -p "$tmp/results/draw"
"$glimpse" train --out "$tmp/results/draw/draw.h5" --attention draw --patch 4 --data-dir "$tmp/data" --glimpses 3 \
  --hidden 16 --glimpse-hidden 8 --batch 8 --epochs 1 --train-images 32 --val-images 16 --trajectories 3 --threads 1 >/dev/null
out=$("$py" "$root/scripts/draw_reads.py" "$tmp/results/draw/draw.h5")
echo "$out"
[ "$(echo "$out" | grep -c '^| [0-9] |')" = 6 ] || { echo "FAIL: draw_reads.py does not list the 3 glimpses twice"; exit 1; }
# The first read spans more than the 28-pixel canvas, so its finest scale overlaps every digit.
echo "$out" | grep -Eq '^\| 1 \| [0-9]+ \| 100 \|$' \
  || { echo "FAIL: draw_reads.py: the first read's finest scale should overlap every digit"; exit 1; }
# After a few steps the first read is still (nearly) the initial one: centred, the same for every image
# (h_0 = 0), spanning 4 x 27/3 = 36 px of the 28-pixel canvas.
echo "$out" | grep -Eq '^\| 1 \| [+-]0\.0[0-9] \+- 0\.00 \| [+-]0\.0[0-9] \+- 0\.00 \| 3[56]\.[0-9] \+- 0\.0 \|' \
  || { echo "FAIL: draw_reads.py: the first read should be the initial, image-independent one"; exit 1; }
out=$("$py" "$root/scripts/draw_reads.py" "$tmp/results/tiny/learned.h5")  # the retina: coverage only
grep -q 'centre on the digit %' <<< "$out" && ! grep -q 'span px' <<< "$out" \
  || { echo "FAIL: draw_reads.py on a retina run: $out"; exit 1; }
out=$("$py" "$root/scripts/results.py" "$tmp/results/tiny/learned.h5" "$tmp/results/tiny/loo.h5")
echo "$out"
echo "$out" | grep -q "loo" || { echo "FAIL: results.py table lacks the loo run"; exit 1; }
"$glimpse" slim --run "$tmp/results/tiny/learned.h5" --out "$tmp/results/best_only.h5" --best-only >/dev/null
"$py" - "$root/scripts" "$tmp/results/tiny" <<'PY'
import glob, os, sys
from glimpse import runs as results, tables
df = results.load_runs(sorted(glob.glob(sys.argv[2] + "/*.h5")))
assert list(df["run"]) == ["learned", "loo"], df["run"]
assert (df["epochs_done"] == 2).all()
assert df.loc[1, "baseline"] == "loo" and df.loc[1, "samples"] == 2
assert len(df.loc[0, "train"]) > 0 and "loss" in df.loc[0, "train"]
assert len(df.loc[0, "diagnostics"]) == 4  # 16 steps, every 4
run = results.load_run(sys.argv[2] + "/learned.h5")
assert run["trajectories"]["locations"].shape == (2, 3, 2, 2)
strip = results.load_run(sys.argv[2] + "/../strip/soft.h5")
assert strip["attention"]["weights"].shape == (2, 3, 10, 5)
assert "test_peak" in strip["eval"]
# Checksums: the parameters come back checked against their digest; a damaged copy is refused, naming
# the file; a copy edited with h5py is refused until resealed, and glimpse accepts the resealed file.
import shutil, h5py, numpy as np
params = results.load_params(sys.argv[2] + "/learned.h5")
assert params["location.fc.W"].shape == (2, 16), params["location.fc.W"].shape
# A best-only copy (glimpse slim --best-only) holds the validation-selected parameters and no others.
best, copy = results.load_params(sys.argv[2] + "/learned.h5", "best"), sys.argv[2] + "/../best_only.h5"
assert all(np.array_equal(v, results.load_params(copy, "best")[k]) for k, v in best.items()) and best
try:
    results.load_params(copy)
    raise AssertionError("a best-only copy gave a last checkpoint")
except ValueError as e:
    assert "validation-selected parameters only" in str(e) and "'best'" in str(e), e
assert results.load_run(copy)["epochs_done"] == 2
bad = sys.argv[2] + "/../damaged.h5"
shutil.copy(sys.argv[2] + "/learned.h5", bad)
data = bytearray(open(bad, "rb").read()); data[len(data) // 2] ^= 0x40; open(bad, "wb").write(bytes(data))
for load in (results.load_run, results.load_params):
    try:
        load(bad)
        raise AssertionError("a damaged file was loaded")
    except ValueError as e:
        assert "damaged.h5' is damaged" in str(e), e
edited = sys.argv[2] + "/../edited.h5"
shutil.copy(sys.argv[2] + "/learned.h5", edited)
with h5py.File(edited, "r+") as f:
    f.attrs["note"] = np.bytes_("looked at")  # fixed-length: kept in the checksummed header
try:
    results.load_run(edited)
    raise AssertionError("an edited file without its checksum was loaded")
except ValueError as e:
    assert "reseal" in str(e), e
results.reseal(edited)
assert results.load_run(edited)["config"]["note"] == "looked at"
# Seeds pooled: one configuration of two runs, mean and std of the validation-selected test errors.
seeds = results.load_runs(sorted(glob.glob(sys.argv[2] + "/../seeds/*.h5")))
assert list(seeds["run-id"]) == ["s1", "s2"], seeds["run-id"]
g = results.group_seeds(seeds)
assert len(g) == 1 and g.loc[0, "n"] == 2, g
v = seeds["test_error_at_best"].to_numpy()
assert abs(g.loc[0, "mean"] - v.mean()) < 1e-12 and abs(g.loc[0, "std"] - v.std(ddof=1)) < 1e-12
assert abs(g.loc[0, "ci95"] - 12.706 * v.std(ddof=1) / 2 ** 0.5) < 1e-9
assert len(results.group_seeds(df)) == 2  # learned and loo are two configurations
# What selecting on validation does: the selected evaluation against the mean of the last ones. With
# last=1 those are each run's final evaluation; the selected validation error is the minimum over every
# evaluation, so never above the last ones' mean.
rows = [l for l in tables.selection_table(seeds, last=1).splitlines()[2:]]
assert len(rows) == 1, rows
cells = [c.strip() for c in rows[0].strip("|").split("|")]
assert cells[2] == "2" and cells[3] == "2", cells  # epochs, seeds
first = lambda c: float(c.split(" +- ")[0])
assert cells[4] == f"{100 * seeds['best_val_error'].mean():.2f} +- {100 * seeds['best_val_error'].std(ddof=1):.2f}", cells
assert cells[7] == f"{100 * seeds['val_error'].mean():.2f} +- {100 * seeds['val_error'].std(ddof=1):.2f}", cells
assert cells[8] == f"{100 * seeds['test_error'].mean():.2f} +- {100 * seeds['test_error'].std(ddof=1):.2f}", cells
assert abs(first(cells[9]) - 100 * (seeds["test_error"] - seeds["val_error"]).mean()) < 0.006, cells
assert abs(first(cells[10]) - 100 * (seeds["test_error_at_best"] - seeds["test_error"]).mean()) < 0.006, cells
assert first(cells[4]) <= first(cells[7]), cells
# An experiment's files: each full file, and the slim copy (runs/ID.h5) of a run whose full file is absent.
d = os.path.join(sys.argv[2], "..", "layout")  # inside the test's temporary folder
os.makedirs(os.path.join(d, "runs"))
for f in ("a.h5", "runs/a.h5", "runs/b.h5"):
    open(os.path.join(d, f), "w").close()
assert results.experiment_paths("x", d) == [os.path.join(d, "a.h5"), os.path.join(d, "runs", "b.h5")]
os.remove(os.path.join(d, "a.h5"))  # a fresh clone: slim copies only
assert results.experiment_paths("x", d) == [os.path.join(d, "runs", "a.h5"), os.path.join(d, "runs", "b.h5")]
print("results.py: ok")
PY
"$glimpse" verify "$tmp/results/edited.h5" | grep -q "edited.h5: ok" || { echo "FAIL: glimpse refuses a resealed file"; exit 1; }
if "$glimpse" verify "$tmp/results/damaged.h5" >/dev/null; then echo "FAIL: verify passed a damaged file"; exit 1; fi
for fig in curves variance; do "$py" "$root/scripts/plot.py" $fig "$tmp/results/tiny/learned.h5" "$tmp/results/tiny/loo.h5" --out "$tmp/$fig.png"; done
"$py" "$root/scripts/plot.py" curves "$tmp/results/tiny/learned.h5" --x images --out "$tmp/curves.png"
"$py" "$root/scripts/plot.py" curves "$tmp/results/seeds/s1.h5" "$tmp/results/seeds/s2.h5" --out "$tmp/band.png"
[ -s "$tmp/band.png" ] || { echo "FAIL: the seed band figure is missing"; exit 1; }
# Two pooled groups with the same run id (one recipe at 60 and at 100 epochs, committed slim files):
# each legend label names the option that differs, so the two curves can be told apart.
# The attention kinds glimpse registers, as its option error names them (gaussian|categorical|...).
kinds=$("$glimpse" train --attention '?' --out "$tmp/kinds.h5" 2>&1 | sed -n 's/.*--attention: expected \([a-z|]*\), found.*/\1/p' || true)
KINDS=$kinds "$py" - "$root" "$tmp" <<'PY'
import os
import sys
from glimpse import plot, runs as results
df = results.load_runs(results.run_paths([sys.argv[1] + "/results/frontier/cluttered60_lstm_final/runs",
                                          sys.argv[1] + "/results/frontier/cluttered60_lstm100_final/runs"]))
labels = sorted(plot.group_labels(results.configuration_groups(df)))
assert labels == ["loo4-lstm-context, epochs=100 (3 seeds: mean, band +-1 std)",
                  "loo4-lstm-context, epochs=60 (3 seeds: mean, band +-1 std)"], labels
# The same with options that only the later row stores (--average, --denormals, ... were added in
# between; each reads as its value before it existed, and --denormals makes no configuration): only
# the schedule is named.
df = results.load_runs(results.run_paths([sys.argv[1] + "/results/frontier/cluttered60_best_final/runs",
                                          sys.argv[1] + "/results/frontier/cluttered60_best200_final/runs"]))
labels = sorted(plot.group_labels(results.configuration_groups(df)))
assert labels == ["stn-context-lstm-clip1, epochs=100 (3 seeds: mean, band +-1 std)",
                  "stn-context-lstm-clip1, epochs=200 (3 seeds: mean, band +-1 std)"], labels
# A row whose seeds straddle an option's addition pools whole, as glimpse summarize pools it: pairs100's
# seeds 2 and 3 predate --strided-filters and --strided-layers, seed 4 stores their defaults (a column
# with NaN in the others, which pandas keeps as floats).
df = results.load_runs(results.run_paths([sys.argv[1] + "/results/multi_digit_frontier_rows/runs/pairs-lstm-conv-s*.h5"]))
assert df["strided-filters"].isna().sum() == 2, df["strided-filters"]
groups = results.configuration_groups(df)
assert [len(g) for g in groups.values()] == [3], [[r["run"] for r in g] for g in groups.values()]
assert results.configuration_key({}) == results.configuration_key(dict(results._rules().absent_option_values()))
# A curriculum row's seeds, each started from its own seed's source (--init-from .../random-s{seed}.h5),
# pool as one configuration; a source of another seed keeps a run apart.
df = results.load_runs(results.run_paths([sys.argv[1] + "/results/benchmark/rows/runs/random-s*.h5"]))
assert len(set(df["init-from"])) == 5 and len(results.configuration_groups(df)) == 1, list(df["init-from"])
own = {"seed": "12", "init-from": "results/x/runs/random-s12.h5"}
assert results.configuration_key(own) == results.configuration_key({**own, "seed": "13", "init-from": "results/x/runs/random-s13.h5"})
assert results.configuration_key(own) != results.configuration_key({**own, "seed": "13"})
print("plot.py labels: ok")
# A figure fit for a paper: the comparison's 72 runs over three tasks give one panel per task in the
# order of the canvases, a colour per attention kind shared by the panels, and a legend inside the
# figure; every metric and x axis draws; PDF and SVG are written.
import matplotlib
matplotlib.use("Agg")
df = results.load_runs(results.run_paths([sys.argv[1] + "/results/compare/runs"]))
fig = plot.draw_curves(df, x="images")
panels = [ax for ax in fig.axes if ax.lines]
assert [ax.get_title() for ax in panels] == ["translated60", "cluttered60", "cluttered100"], [a.get_title() for a in panels]
assert all(len(ax.lines) == 8 for ax in panels), [len(ax.lines) for ax in panels]
for kind, colour in plot.KIND_COLOURS.items():
    drawn = {l.get_color() for ax in panels for l in ax.lines if l.get_label().startswith(kind + " ")}
    assert drawn in (set(), {colour}), (kind, drawn)
# Every registered kind has a colour of its own: one without would take the colour cycle's first,
# the retina's, and two rows of a figure would look alike.
kinds = os.environ["KINDS"].split("|")
assert len(kinds) >= 10 and "gaussian" in kinds, kinds
assert set(kinds) <= set(plot.KIND_COLOURS), set(kinds) - set(plot.KIND_COLOURS)
assert len(set(plot.KIND_COLOURS.values())) == len(plot.KIND_COLOURS), plot.KIND_COLOURS
fig.canvas.draw()
box = fig.bbox
legend = next(ax for ax in fig.axes if not ax.lines).get_legend().get_window_extent()
assert box.x0 <= legend.x0 and legend.x1 <= box.x1 and box.y0 <= legend.y0 and legend.y1 <= box.y1, (legend, box)
assert len(next(ax for ax in fig.axes if not ax.lines).get_legend().get_texts()) == 8  # one entry per kind
for metric, x in (("test_error", "epoch"), ("loss_action", "minutes"), ("lr", "images")):
    f2 = plot.draw_curves(df.head(6), x=x, metric=metric)
    assert any(ax.lines for ax in f2.axes), (metric, x)
    f2.savefig(sys.argv[2] + "/curves_" + metric + (".pdf" if metric == "lr" else ".svg"))
print("plot.py paper figure: ok")
# Performance profiles of the comparison: a step line per attention kind in its colour, within [0, 1].
fig = plot.draw_profile(df)
ax = fig.axes[0]
assert len(ax.lines) == 8 and all(0 <= y <= 1 for l in ax.lines for y in l.get_ydata()), len(ax.lines)
assert {l.get_color() for l in ax.lines if l.get_label().startswith("stn ")} == {plot.KIND_COLOURS["stn"]}
print("plot.py profile: ok")
# scripts/figures --check's measure (plot.picture_rms): a figure saved again is equal; a few edge pixels
# a shade off (as another CPU's rounding leaves them) pass the tolerance; one legend character more, or
# a GIF with a frame fewer, does not.
from PIL import Image
import numpy as np
a, b, c = (sys.argv[2] + "/" + n for n in ("prof_a.png", "prof_b.png", "prof_c.png"))
fig.savefig(a, dpi=110)
fig.savefig(b, dpi=110)
assert plot.picture_rms(a, b) == 0
pixels = np.asarray(Image.open(a).convert("RGB")).copy()
pixels[30:38, 200] = np.clip(pixels[30:38, 200].astype(int) - 25, 0, 255)
Image.fromarray(pixels).save(c)
assert 0 < plot.picture_rms(a, c) < plot.PICTURE_TOLERANCE, plot.picture_rms(a, c)
ax.get_legend().get_texts()[0].set_text(ax.get_legend().get_texts()[0].get_text() + "s")
fig.savefig(b, dpi=110)
assert plot.picture_rms(a, b) > plot.PICTURE_TOLERANCE, plot.picture_rms(a, b)
frames = [Image.fromarray(np.full((20, 30, 3), v, np.uint8)) for v in (0, 128, 255)]
frames[0].save(b.replace(".png", ".gif"), save_all=True, append_images=frames[1:])
frames[0].save(c.replace(".png", ".gif"), save_all=True, append_images=frames[1:2])
assert plot.picture_rms(b.replace(".png", ".gif"), b.replace(".png", ".gif")) == 0
assert plot.picture_rms(b.replace(".png", ".gif"), c.replace(".png", ".gif")) == float("inf")
print("plot.py picture comparison: ok")
# Paired comparisons: McNemar's exact p against the binomial sums written out (3 of 20: 2 (1 + 20 +
# 190 + 1140) / 2^20; 0 of 5: 2 / 2^5) and a large case, a paired bootstrap of identical runs, and the
# table on two committed runs.
from glimpse import stats
assert abs(stats.mcnemar(747, 764) - 0.680637865246012) < 1e-9
assert abs(stats.mcnemar(3, 17) - 2 * 1351 / 2**20) < 1e-12
assert stats.mcnemar(0, 0) == 1.0 and abs(stats.mcnemar(0, 5) - 0.0625) < 1e-15
assert stats.mcnemar(6766, 1532) < 1e-300 and stats.format_p(stats.mcnemar(6766, 1532)) == "< 1e-300"
assert stats.format_p(stats.mcnemar(3, 17)) == "0.00258" and stats.format_p(1.0) == "1"
assert stats.paired_bootstrap([0, 1, 1, 0], [0, 1, 1, 0]) == (0.0, 0.0)
import subprocess
out = subprocess.run([sys.executable, sys.argv[1] + "/scripts/results.py", "--paired",
                      sys.argv[1] + "/results/ram_mnist28/loo4.h5", sys.argv[1] + "/results/ram_mnist28/run.h5",
                      "--checkpoint=last"], capture_output=True, text=True, check=True).stdout
row = out.strip().split("\n")[-1].split(" | ")
assert row[2] == "10000" and row[3] == "0.96" and row[4] == "1.20", row  # their stored last test errors
print("paired comparison: ok")
# The keep rule (results.py --kept, docs/results.md): a configuration's lowest seed keeps its parameters
# when it has two seeds or more; a named file keeps them ({seed}, $k stand for any part of a name; a
# glob names nothing; the full file's name names its committed copy); curves-only copies are not listed.
import importlib.util
spec = importlib.util.spec_from_file_location("results_cli", sys.argv[1] + "/scripts/results.py")
results_cli = importlib.util.module_from_spec(spec)
spec.loader.exec_module(results_cli)
files = [("results/a/runs/x-s1.h5", "x", 1, 10), ("results/a/runs/x-s2.h5", "x", 2, 10), ("results/a/runs/x-s3.h5", "x", 3, 0),
         ("results/a/runs/y-s4.h5", "y", 4, 10), ("results/a/runs/z-s1.h5", "z", 1, 10), ("results/a/runs/w-s1.h5", "w", 1, 10),
         ("results/a/runs/v-s1.h5", "v", 1, 10), ("results/b/runs/x-s2.h5", "x", 2, 10)]
named = {"results/a/runs/*.h5", "results/a/runs/z-s{seed}.h5", "results/a/w-s1.h5", "results/$e/runs/v-s1.h5"}
assert results_cli.beyond_rule(files, named) == [("results/a/runs/x-s2.h5", 10), ("results/a/runs/y-s4.h5", 10),
                                                 ("results/a/runs/v-s1.h5", 10), ("results/b/runs/x-s2.h5", 10)]
# A generated table's command and rows name no file (they read stored series); the rest of a doc does.
doc = ("Run `glimpse eval --run results/a/runs/e-s1.h5`.\n<!-- table: glimpse summarize results/a/runs/t-s1.h5 -->\n"
       "| results/a/runs/t-s1.h5 | 1 |\n<!-- end table -->\nresults/a/runs/f-s2.h5 after it.\n")
assert results_cli.named_in_doc(doc) == {"results/a/runs/e-s1.h5", "results/a/runs/f-s2.h5"}, results_cli.named_in_doc(doc)
print("keep rule: ok")
# A source that only finished runs start from (their committed copies finished) is no longer needed;
# one that a missing or unfinished run starts from is; a row's {seed} source is released seed by seed.
import os
import tempfile
from glimpse import runs as runs_mod
fake = tempfile.mkdtemp()
os.makedirs(fake + "/experiments/x")
os.makedirs(fake + "/results/x/runs")
with open(fake + "/experiments/x/runs.txt", "w") as f:
    f.write("# a --init-from results/x/nope.h5 in a comment\n"
            "a  --init-from results/x/src1.h5\nb  --init-from results/x/src2.h5\nc  --init-from results/x/src2.h5\n"
            "d  --init-from results/x/src3.h5\ne  --init-from results/x/src4-s{seed}.h5\nf  --lr 0.1\n")
ev = {"step": [1], "epoch": [1], "val_error": [0.5], "test_error": [0.5]}
for rid, done in (("a-s1", 2), ("b", 2), ("c", 1), ("e-s1", 2), ("e-s2", 1)):
    runs_mod.write_run(f"{fake}/results/x/runs/{rid}.h5", {"epochs": 2, "run-id": rid}, {}, ev, "test", done)
results_cli.ROOT = fake
assert results_cli.finished_sources() == {"results/x/src1.h5", "results/x/src4-s1.h5"}, results_cli.finished_sources()
results_cli.ROOT = runs_mod.ROOT
print("finished sources: ok")
# glimpse.stats against hand-computed values.
from glimpse import stats
import numpy as np
assert stats.iqm([5, 1, 9, 2, 7, 3]) == 4.25 and stats.iqm([1, 2, 3, 4]) == 2.5  # (2+3+5+7)/4; (2+3)/2
from scipy.stats import trim_mean  # an independent reference: it cuts int(0.25 n) from each end
rng7 = np.random.default_rng(7)
for n in (1, 3, 4, 5, 8, 11, 40):
    v = rng7.random(n)
    assert np.isclose(stats.iqm(v), trim_mean(v, 0.25), rtol=0, atol=1e-15), (n, stats.iqm(v), trim_mean(v, 0.25))
assert stats.probability_of_improvement([1, 2], [2, 3]) == 0.875  # (1 + 1 + 0.5 + 1) / 4
# Its bootstrap interval: every resample of [1, 2] against [2, 3] lies in [0.5, 1] (no run of A is
# above one of B); fully separated sides give 1 (and 0 the other way) in every resample.
lo, hi = stats.improvement_interval([1, 2], [2, 3])
assert 0.5 <= lo <= 0.875 <= hi <= 1, (lo, hi)
matrix = stats.improvement_table([("A", [1, 1, 1]), ("B", [2, 2, 2]), ("C", [1, 2])]).split("\n")
assert matrix[0] == "| P(row beats column) | A | B | C |", matrix
assert matrix[2] == "| A | - | 1.00 [1.00, 1.00] | 0.75 [0.50, 1.00] |", matrix  # (0.5 + 1) / 2; C = [1, 1] or [2, 2]
assert matrix[3].startswith("| B | 0.00 [0.00, 0.00] | - | 0.25 [0.00, 0.50] |"), matrix
assert stats.seeds_needed(0.5, 1.0) == 63  # 2 (1.95996 + 0.84162)^2 / 0.25 = 62.8
assert np.allclose(stats.bootstrap_interval([0.2, 0.2, 0.2]), (0.2, 0.2), atol=1e-15)
assert stats.bootstrap_interval([0, 0, 1, 1], strata=["a", "a", "b", "b"]) == (0.5, 0.5)  # each task keeps its runs
# Performance profiles, by hand: task means t1 A 1.5, B 2 (best 1.5), t2 A 10, B 25 (best 10); ratios
# A t1 [2/3, 4/3], t2 [1]; B t1 [4/3, 4/3], t2 [2, 3]; at tau = 1: A (1/2 + 1) / 2, B 0.
prof = stats.performance_profile({"A": {"t1": [1, 2], "t2": [10]}, "B": {"t1": [2, 2], "t2": [20, 30]}}, [1, 1.5, 2.5])
assert np.allclose(prof["A"][0], [0.75, 1, 1]) and np.allclose(prof["B"][0], [0, 0.5, 0.75]), prof
assert np.all(prof["B"][1] <= prof["B"][0]) and np.all(prof["B"][0] <= prof["B"][2])
# A variant that joins first, without changing a task's best mean, leaves the others' bands as they were
# (one stream shared by all variants moves these bands: a draw of C's would come first).
two = {"A": {"t1": [2.61, 2.62, 2.03, 1.57, 1.11], "t2": [1.77, 1.82, 1.09, 1.1, 3.0]},
       "B": {"t1": [2.3, 1.47, 1.87, 2.95, 2.8], "t2": [2.69, 1.78, 1.99, 2.35, 1.12]}}
taus = [1, 1.1, 1.2, 1.5, 2, 2.5, 3]
alone = stats.performance_profile(two, taus)
joined = stats.performance_profile({"C": {"t1": [5, 6, 7], "t2": [5, 6]}, **two}, taus)
assert all(np.array_equal(a, b) for v in "AB" for a, b in zip(alone[v], joined[v])), (alone, joined)
assert stats.profile_table({"A": {"t1": [1, 2], "t2": [10]}, "B": {"t1": [2, 2], "t2": [20, 30]}}).split("\n")[2].startswith("| A | 2 | 3 | ")
lo, hi = stats.bootstrap_interval([0, 0, 1, 1])
assert lo < 0.5 < hi and stats.bootstrap_interval([0, 0, 1, 1]) == (lo, hi)  # wider unstratified; seeded
out = subprocess.run([sys.executable, sys.argv[1] + "/scripts/results.py", "--stats", "estimators/runs"],
                     capture_output=True, text=True, check=True).stdout
assert out.count("\n| estimators: ") == 13, out
print("statistics: ok")
# Quoted globs are expanded; an item that finds nothing is one line naming it, exit 1.
g = sys.argv[1] + "/results/ram_table/runs/mnist28-g*.h5"
assert len(results.run_paths([g])) == 6, results.run_paths([g])
bad = subprocess.run([sys.executable, sys.argv[1] + "/scripts/results.py", "--seeds", sys.argv[1] + "/results/x/*.h5"],
                     capture_output=True, text=True)
assert bad.returncode == 1 and bad.stderr.strip().startswith("results.py: no run files match"), bad.stderr
print("globs: ok")
PY
# Welch's t-test (results.py --compare): t and df against the hand-worked values (means 2 and 5, both
# variances 1/3: t = -3 / sqrt(2/3), df = 4), p against Student's t; then on two committed 3-seed rows,
# whose p the frontier README quotes (translated60: 0.022 and 0.025).
"$py" - "$root" <<'PY'
import sys
from glimpse import runs as results, stats, tables
t, df, p = stats.welch([1, 2, 3], [4, 5, 6])
assert abs(t + 3.6742346) < 1e-6 and abs(df - 4) < 1e-12 and abs(p - 0.0213116) < 1e-6, (t, df, p)
t, df, p = stats.welch([1, 2, 3, 4], [2, 4, 9])
assert abs(t + 1.1470787) < 1e-6 and abs(p - 0.3532095) < 1e-6, (t, df, p)
table = tables.compare_table(*[results.load_runs(results.run_paths([sys.argv[1] + "/results/frontier/" + d + "/runs"]))
                                for d in ("translated60_context_final", "translated60_final")])
assert "| 1.35 +- 0.06 (3) | 1.69 +- 0.12 (3) | -0.34 | -4.40 | 2.8 | 0.025 |" in table, table
assert "| 1.47 +- 0.09 (3) | 1.74 +- 0.05 (3) | -0.27 | -4.46 | 2.9 | 0.0223 |" in table, table
print("welch: ok")
# Gradient norms per module (results.py --grad-norms) on a committed --grad-norms screen: its row's
# medians and its late location / action ratio against the series read straight from the file.
import h5py, numpy as np
path = sys.argv[1] + "/results/attention100_diagnosis/runs/draw-translated100-s1.h5"
table = tables.grad_norms_table(results.load_runs([path]))
cells = [c.strip() for c in table.splitlines()[2].strip("|").split("|")]
with h5py.File(path, "r") as f:
    tr = {k: np.asarray(f["train"][k]) for k in ("grad_norm_action", "grad_norm_location")}
late = slice(len(tr["grad_norm_action"]) // 2, None)
assert cells[0] == "draw-translated100-s1" and cells[2] == f"{np.median(tr['grad_norm_action'][late]):.3g}", cells
assert cells[8] == f"{np.median(tr['grad_norm_location'][late] / tr['grad_norm_action'][late]):.3g}", cells
print("grad norms: ok")
PY
if "$py" "$root/scripts/results.py" --compare "$tmp/results/seeds/s1.h5" "$tmp/results/seeds/s2.h5" 2>/dev/null; then
  echo "FAIL: results.py --compare accepted a side of one run"; exit 1
fi
"$glimpse" summarize "$tmp/results/seeds/s1.h5" "$tmp/results/seeds/s2.h5" | grep -q "| 2 | " \
  || { echo "FAIL: summarize does not pool the two seeds"; exit 1; }
out=$("$py" "$root/scripts/results.py" --pivot "$tmp/results/seeds/s1.h5" "$tmp/results/seeds/s2.h5")
echo "$out"
echo "$out" | grep -q "(n=2); " || { echo "FAIL: results.py --pivot does not pool the two seeds in one cell"; exit 1; }
out=$("$py" "$root/scripts/results.py" --seeds "$tmp/results/seeds/s1.h5" "$tmp/results/seeds/s2.h5")
echo "$out"
echo "$out" | grep -Eq '^\| s1 \| 2 \| [0-9.]+ \+- [0-9.]+ \| [0-9.]+ \+- [0-9.]+ \| \[' \
  || { echo "FAIL: results.py --seeds does not pool the two seeds in one row named by the run id"; exit 1; }
out=$("$py" "$root/scripts/results.py" --selection --last=1 "$tmp/results/seeds/s1.h5" "$tmp/results/seeds/s2.h5")
echo "$out"
echo "$out" | grep -Eq '^\| mnist28 \| s1 \| 2 \| 2 \| ' || { echo "FAIL: results.py --selection does not pool the two seeds"; exit 1; }
if "$py" "$root/scripts/results.py" --selection --last=0 "$tmp/results/seeds/s1.h5" 2>/dev/null; then
  echo "FAIL: results.py --selection accepted --last=0"; exit 1
fi
# The glimpse eval results recorded in a run file: own canvases and other canvas seeds (mnist28 has no
# canvas to draw, so the other seeds' error equals the own one), each split apart.
cp "$tmp/results/seeds/s1.h5" "$tmp/ev.h5"
for extra in "" "--canvas-seed 5" "--canvas-seed 6" "--split val"; do "$glimpse" eval --run "$tmp/ev.h5" $extra >/dev/null; done
out=$("$py" "$root/scripts/results.py" --evaluations "$tmp/ev.h5")
echo "$out"
echo "$out" | grep -Eq '^\| ev \| test \| last \| 2 \| 1 \| [0-9.]+ \| [0-9.]+ \+- 0\.00 \(2\) \| \+0\.00 \|$' \
  || { echo "FAIL: results.py --evaluations does not pool the two other canvas seeds"; exit 1; }
echo "$out" | grep -Eq '^\| ev \| val \| last \| 2 \| 1 \| [0-9.]+ \| - \| - \|$' \
  || { echo "FAIL: results.py --evaluations does not list the validation evaluation apart"; exit 1; }
# --hide-test (as glimpse summarize --hide-test): the tables keep the validation errors and show no test
# error, the evaluations keep the validation split only, and a mode of test errors alone refuses it.
out=$("$py" "$root/scripts/results.py" --seeds "$tmp/results/seeds/s1.h5" "$tmp/results/seeds/s2.h5" --hide-test)
echo "$out" | grep -Eq '^\| s1 \| 2 \| [0-9.]+ \+- [0-9.]+ \| - \| - \|' \
  || { echo "FAIL: results.py --seeds --hide-test shows a test error: $out"; exit 1; }
out=$("$py" "$root/scripts/results.py" --hide-test --selection --last=1 "$tmp/results/seeds/s1.h5" "$tmp/results/seeds/s2.h5")
echo "$out" | grep -Eq '^\| mnist28 \| s1 \| 2 \| 2 \| [0-9.]+ \+- [0-9.]+ \| - \| - \| [0-9.]+ \+- [0-9.]+ \| - \| - \| - \|$' \
  || { echo "FAIL: results.py --selection --hide-test shows a test error: $out"; exit 1; }
out=$("$py" "$root/scripts/results.py" --evaluations "$tmp/ev.h5" --hide-test)
echo "$out" | grep -q '| val |' && ! echo "$out" | grep -q '| test |' \
  || { echo "FAIL: results.py --evaluations --hide-test shows the test split's evaluations: $out"; exit 1; }
"$py" - "$tmp/results/seeds/s1.h5" <<'PY'
import sys
from glimpse import runs
shown, hidden = runs.load_runs([sys.argv[1]]), runs.load_runs([sys.argv[1]], hide_test=True)
cols = ["test_error_at_best", "test_error"]
assert shown[cols].notna().all().all() and hidden[cols].isna().all().all(), (shown[cols], hidden[cols])
assert (hidden["best_val_error"] == shown["best_val_error"]).all()
PY
for mode in --stats --improvement --profile --paired; do
  if "$py" "$root/scripts/results.py" $mode --hide-test "$tmp/results/seeds/s1.h5" 2>/dev/null; then
    echo "FAIL: results.py $mode --hide-test ran, with nothing but test errors to show"; exit 1
  fi
done
# DRAM's trajectories: the glimpses coloured by the object they serve.
"$glimpse" train --out "$tmp/results/dram.h5" --env pairs100 --agent dram --data-dir "$tmp/data" --glimpses 2 \
  --patch 8 --scales 2 --hidden 16 --glimpse-hidden 8 --batch 8 --epochs 1 --train-images 32 --val-images 16 \
  --trajectories 3 --threads 1 >/dev/null
"$py" "$root/scripts/plot.py" trajectories "$tmp/results/dram.h5" --out "$tmp/traj-dram.png"
[ -s "$tmp/traj-dram.png" ] || { echo "FAIL: traj-dram.png missing"; exit 1; }
"$py" "$root/scripts/plot.py" trajectories "$tmp/results/dram.h5" --scales-drawn 1 --out "$tmp/traj-dram-1.png"
[ -s "$tmp/traj-dram-1.png" ] || { echo "FAIL: traj-dram-1.png missing"; exit 1; }
# Per image: the path of the centres, then each of the 4 glimpses' outlines (2 scales, or the finest
# with scales=1), glimpses 1-2 (object 1) cyan and 3-4 (object 2) magenta; the digits named apart.
"$py" - "$tmp/results/dram.h5" <<'PY'
import sys
from glimpse import plot, runs
run = runs.load_run(sys.argv[1])
for scales, per_glimpse in ((None, 2), (1, 1)):
    ax = plot.draw_trajectories(run, count=1, scales=scales).axes[0]
    lines = ax.get_lines()
    assert len(lines) == 1 + 4 * per_glimpse, (scales, len(lines))
    colours = [line.get_color() for line in lines[1:]]
    assert colours == ["cyan"] * (2 * per_glimpse) + ["magenta"] * (2 * per_glimpse), colours
    label = int(run["trajectories"]["label"][0])
    assert ax.get_title().startswith(f"label {label // 10} {label % 10}, answer "), ax.get_title()
PY
# draw_reads.py on DRAM: per glimpse the digit it serves (2 glimpses a digit), and shares in [0, 100].
out=$("$py" "$root/scripts/draw_reads.py" "$tmp/results/dram.h5")
echo "$out" | grep -q "the digit it serves" || { echo "FAIL: draw_reads.py on DRAM: $out"; exit 1; }
[ "$(echo "$out" | grep -E '^\| [0-9]+ \|' | awk -F'|' '{printf "%d", $3}')" = 1122 ] \
  || { echo "FAIL: draw_reads.py: the glimpses should serve digits 1, 1, 2, 2: $out"; exit 1; }
echo "$out" | grep -E '^\| [0-9]+ \|' | awk -F'|' '{for (c = 4; c <= 6; ++c) if ($c < 0 || $c > 100) exit 1}' \
  || { echo "FAIL: draw_reads.py: a share outside [0, 100]: $out"; exit 1; }
# ... and on a hand-made run (20 x 20 canvas, one 4 x 4 scale, one glimpse a digit): image 0 looks at
# its first digit, then its second; image 1 at its second digit first, then at neither.
"$py" - "$root/scripts/draw_reads.py" <<'PY'
import importlib.util, sys
import numpy as np
spec = importlib.util.spec_from_file_location("draw_reads", sys.argv[1])
dr = importlib.util.module_from_spec(spec)
spec.loader.exec_module(dr)
config = {"agent": "dram", "glimpses": "1", "attention": "gaussian", "patch": "4", "scales": "1"}
# centres W/2 + x W/2 - 0.5: x = 0 -> 9.5, -0.9 -> 0.5, 0.5 -> 14.5
locations = np.array([[[0, 0], [-0.9, -0.9]], [[-0.9, -0.9], [0.5, 0.5]]])
run = {"path": "fake.h5", "config": config, "trajectories": {"locations": locations[None], "epoch": np.array([3])}}
dr.runs.trajectory_images = lambda r: np.zeros((2, 20, 20))
dr.runs.trajectory_object_boxes = lambda r: np.array([[[8, 8, 12, 12], [0, 0, 4, 4]]] * 2)
epoch, rows = dr.object_table(run)
assert epoch == 3 and rows == [(1, 1, 50.0, 50.0, 50.0), (2, 2, 50.0, 50.0, 0.0)], rows
PY
if "$py" "$root/scripts/plot.py" trajectories "$tmp/results/dram.h5" --scales-drawn 0 --out "$tmp/x.png" 2>/dev/null; then
  echo "FAIL: --scales-drawn 0 was accepted"; exit 1
fi
"$py" "$root/scripts/plot.py" trajectories "$tmp/results/tiny/learned.h5" --out "$tmp/traj.png"
"$py" "$root/scripts/plot.py" attention "$tmp/results/strip/soft.h5" --out "$tmp/att.png"
for f in curves variance traj att; do [ -s "$tmp/$f.png" ] || { echo "FAIL: $f.png missing"; exit 1; }; done
# Differentiable reads (committed DRAW and STN runs) as pictures and GIFs, hard attention as a GIF: one
# frame per glimpse plus the answer's. Soft attention's reads cannot be drawn from the file: refused.
for k in draw stn; do
  "$py" "$root/scripts/plot.py" trajectories "$root/results/compare/runs/translated60-$k-s1.h5" --out "$tmp/traj-$k.png"
  [ -s "$tmp/traj-$k.png" ] || { echo "FAIL: traj-$k.png missing"; exit 1; }
  "$py" "$root/scripts/plot.py" animate "$root/results/compare/runs/translated60-$k-s1.h5" --out "$tmp/$k.gif"
done
"$py" "$root/scripts/plot.py" animate "$tmp/results/tiny/learned.h5" --count 2 --out "$tmp/hard.gif"
for g in draw stn hard; do
  frames=$("$py" -c "from PIL import Image; import sys; print(Image.open(sys.argv[1]).n_frames)" "$tmp/$g.gif")
  want=$([ $g = hard ] && echo 3 || echo 7)  # glimpses + 1: tiny runs take 2, the compare runs 6
  [ "$frames" = "$want" ] || { echo "FAIL: $g.gif has $frames frames, expected $want"; exit 1; }
done
if msg=$("$py" "$root/scripts/plot.py" trajectories "$root/results/compare/runs/translated60-soft-s1.h5" --out "$tmp/soft.png" 2>&1); then
  echo "FAIL: soft attention's trajectories were drawn"; exit 1
fi
echo "$msg" | grep -q "do not say where it reads" || { echo "FAIL: soft attention refused without a reason: $msg"; exit 1; }
# Every notebook, executed headless against the small runs.
n=0
for nb in "$root"/scripts/notebooks/*.ipynb; do
  (cd "$root/scripts/notebooks" && GLIMPSE_RUNS="$tmp/results/tiny/*.h5" GLIMPSE_STRIP_RUNS="$tmp/results/strip/*.h5" \
     jupyter nbconvert --to notebook --execute --ExecutePreprocessor.timeout=120 --output-dir "$tmp/nb" "$nb") \
     || { echo "FAIL: notebook $nb"; exit 1; }
  n=$((n + 1))
done
[ "$n" -ge 5 ] || { echo "FAIL: expected 5 notebooks, found $n"; exit 1; }
# ... and as on a fresh clone: their defaults read committed run files only (no overrides).
for nb in "$root"/scripts/notebooks/*.ipynb; do
  (cd "$root/scripts/notebooks" && env -u GLIMPSE_RUNS -u GLIMPSE_STRIP_RUNS \
     jupyter nbconvert --to notebook --execute --ExecutePreprocessor.timeout=300 --output-dir "$tmp/nb_defaults" "$nb") \
     || { echo "FAIL: notebook $nb on its committed defaults"; exit 1; }
done
# An executed notebook shows what it says: a figure (image/png) where it draws one, text otherwise.
"$py" - "$tmp/nb_defaults" <<'PYEOF' || exit 1
import json, os, sys
d = sys.argv[1]
for name in sorted(os.listdir(d)):
    outputs = [o for c in json.load(open(os.path.join(d, name)))["cells"] for o in c.get("outputs", [])]
    figures = sum("image/png" in o.get("data", {}) for o in outputs)
    want_figure = name != "error_vs_glimpses.ipynb"
    if (want_figure and figures == 0) or not outputs:
        print(f"FAIL: {name} executed but shows {figures} figures in {len(outputs)} outputs"); sys.exit(1)
PYEOF
echo "$((18 + 2 * n)) passed, 0 failed"
