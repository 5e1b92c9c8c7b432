#!/usr/bin/python3
"""Writes the notebooks of this folder from the cells below (edit here, then run this script), so the
committed .ipynb files stay small, output-free and reviewable. Every notebook reads run files only
through glimpse.runs; GLIMPSE_RUNS (a glob of run files) overrides each one's default input."""
import os

import nbformat as nbf

HERE = os.path.dirname(os.path.abspath(__file__))

SETUP = '''import glob, os, sys
import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
ROOT = os.path.abspath(os.path.join(os.getcwd(), "..", "..")) if os.path.basename(os.getcwd()) == "notebooks" else os.getcwd()
os.environ.setdefault("GLIMPSE_ROOT", ROOT)  # this checkout's build, whichever checkout glimpse.pth names
from glimpse import plot, runs, tables  # the reader, its tables and the figures of scripts/plot.py
def run_files(default_glob, env="GLIMPSE_RUNS"):
    """Run files: $GLIMPSE_RUNS (or the variable env names) if set, else the default glob under the repository."""
    pattern = os.environ.get(env) or os.path.join(ROOT, default_glob)
    paths = sorted(glob.glob(pattern))
    assert paths, f"no run files match {pattern}"
    return paths'''

NOTEBOOKS = {
    "learning_curves.ipynb": [
        (
            "markdown",
            "# Learning curves per variant\nValidation error (policy mean) and training cross-entropy per image seen; runs that differ only in seed are pooled (mean, +-1 std band). The table: each configuration's validation error and validation-selected test error (fractions), n and the 95% interval's half-width.",
        ),
        ("code", SETUP),
        (
            "code",
            """df = runs.load_runs(run_files("results/compare/runs/translated60-*.h5"))
fig = plot.draw_curves(df, "images")  # runs that differ only in seed: their mean and a +-1 std band
plt.show()
runs.group_seeds(df)[["id", "n", "best_val_mean", "mean", "ci95"]]""",
        ),
    ],
    "error_vs_glimpses.ipynb": [
        (
            "markdown",
            "# Test error against glimpses, in the layout of the RAM paper's tables\nRows: tasks; columns: number of glimpses; cells: test error (%) at each run's lowest validation error, with the policy mean (M = 1).",
        ),
        ("code", SETUP),
        (
            "code",
            """df = runs.load_runs(run_files("results/ram_table/runs/*.h5"))
# each run's test error at its lowest validation error (chosen on validation, never on test)
table = df.pivot_table(index="env", columns="glimpses", values="test_error_at_best", aggfunc="first") * 100
published = tables.PUBLISHED_RAM  # the one table of RAM's numbers (glimpse.tables)
print("glimpse (ours):"); print(table.round(2).to_string())
print("RAM, Mnih et al. 2014:"); print(pd.DataFrame(published).T.sort_index(axis=1).to_string())""",
        ),
    ],
    "trajectories.ipynb": [
        (
            "markdown",
            "# Glimpse trajectories drawn over test images\nThe logged locations of the fixed test images after the last evaluated epoch; boxes are the retina's patches, red first, yellow last.",
        ),
        ("code", SETUP),
        (
            "code",
            """run = runs.load_run(run_files("results/ram_mnist28/run.h5")[0])
plot.draw_trajectories(run, epoch=-1, count=8)
plt.show()""",
        ),
    ],
    "query_attention.ipynb": [
        (
            "markdown",
            "# strip5: where each query looks\nFor fixed test strips, the attention weights of every query digit 0..9 over the five slots (rows: queries; the model's answer at the right), and accuracy and attention-peak accuracy over training. `GLIMPSE_STRIP_RUNS` overrides the run files.",
        ),
        ("code", SETUP),
        (
            "code",
            """paths = run_files("results/strip5/*.h5", env="GLIMPSE_STRIP_RUNS")
for p in paths:
    plot.draw_attention(runs.load_run(p), epoch=-1, count=4)
    plt.show()
df = runs.load_runs(paths)
fig, ax = plt.subplots(figsize=(7, 4))
for _, row in df.iterrows():
    ev = row["eval"]
    ax.plot(ev["epoch"], 100 * (1 - ev["test_error"]), label=row["run"] + " answer accuracy")
    ax.plot(ev["epoch"], 100 * ev["test_peak"], "--", label=row["run"] + " peak on the right slot")
ax.set(xlabel="epoch", ylabel="% of test strips"); ax.legend(fontsize=7); plt.show()""",
        ),
    ],
    "gradient_variance.ipynb": [
        (
            "markdown",
            "# Estimator gradient variance\nThe location network's gradient variance and signal-to-noise ratio over training (`/diagnostics`), one line per estimator.",
        ),
        ("code", SETUP),
        (
            "code",
            """df = runs.load_runs(run_files("results/variance_probe/runs/*.h5"))
fig, (a, b) = plt.subplots(1, 2, figsize=(12, 4))
for _, row in df.iterrows():
    d = row["diagnostics"]
    if len(d):
        a.plot(d["step"], d["grad_var"], label=row["run"]); b.plot(d["step"], d["grad_snr"], label=row["run"])
a.set(xlabel="step", ylabel="gradient variance", yscale="log"); b.set(xlabel="step", ylabel="gradient SNR")
a.legend(); plt.show()
df[["run", "baseline", "samples", "grad_var", "grad_snr", "test_error"]]""",
        ),
    ],
}

for name, cells in NOTEBOOKS.items():
    nb = nbf.v4.new_notebook()
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nb.cells = [
        nbf.v4.new_markdown_cell(src) if kind == "markdown" else nbf.v4.new_code_cell(src) for kind, src in cells
    ]
    for i, cell in enumerate(nb.cells):  # stable ids, so regenerating changes only what was edited
        cell.id = f"{name[:-len('.ipynb')]}-{i}"
    nbf.write(nb, os.path.join(HERE, name))
    print("wrote", name)
