#!/usr/bin/python3
"""Load glimpse run files (HDF5) into pandas.

    import results                       # scripts/ on sys.path
    df = results.load_experiment("estimators_cluttered60")   # one row per run
    run = results.load_run("results/ram_mnist28/run.h5")      # one run, every series

Each row of `load_experiment` / `load_runs` holds the run's configuration as columns (option names
as on the command line, values converted to numbers where they are numbers), summary columns
(`epochs_done`, `test_error`, `val_error`, `images`, `images_per_s`, `grad_var`, `grad_snr`), and the
series as arrays in columns `train`, `eval`, `diagnostics` (each a DataFrame). Command line:

    scripts/results.py EXPERIMENT|RUN.h5 ...      prints the summary table
"""
import glob
import math
import os
import sys

import h5py
import numpy as np
import pandas as pd

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SUMMARY = ["epochs_done", "test_error", "val_error", "images", "images_per_s", "grad_var", "grad_snr"]


def _value(v):
    """Attribute strings to int/float/bool where they are such."""
    if isinstance(v, bytes):
        v = v.decode()
    if not isinstance(v, str):
        return v
    if v in ("true", "false"):
        return v == "true"
    for cast in (int, float):
        try:
            return cast(v)
        except ValueError:
            pass
    return v


def _group(f, name):
    if name not in f:
        return pd.DataFrame()
    g = f[name]
    return pd.DataFrame({k: np.asarray(g[k]) for k in g.keys() if isinstance(g[k], h5py.Dataset)})


def _checkpoint_epoch(f):
    best = 0
    for slot in ("checkpoint", "checkpoint_next", "checkpoint_prev", "checkpoint_new"):
        if slot in f and f[slot].attrs.get("complete") in ("1", b"1"):
            best = max(best, int(_value(f[slot].attrs["epoch"])))
    return best


def load_run(path):
    """One run as a dict: config (dict), train/eval/diagnostics (DataFrames), trajectories and
    attention (dicts of arrays)."""
    with h5py.File(path, "r", locking=False) as f:
        if "glimpse_version" not in f.attrs:
            raise ValueError(f"{path} is not a glimpse run file")
        config = {k: _value(v) for k, v in f.attrs.items()}
        run = {
            "path": path,
            "config": config,
            "train": _group(f, "train"),
            "eval": _group(f, "eval"),
            "diagnostics": _group(f, "diagnostics"),
            "trajectories": {k: np.asarray(v) for k, v in f["trajectories"].items()} if "trajectories" in f else {},
            # strip5 runs: fixed test strips and, per evaluation, every query's weights over the slots
            "attention": {k: np.asarray(v) for k, v in f["attention"].items()} if "attention" in f else {},
            "epochs_done": _checkpoint_epoch(f),
        }
    return run


def summary(run):
    """The summary numbers of one run (NaN where not recorded)."""
    tr, ev, dg = run["train"], run["eval"], run["diagnostics"]
    images = float(tr["images"].iloc[-1]) if len(tr) else math.nan
    wall = float(tr["wall_s"].iloc[-1]) if len(tr) else math.nan
    return {
        "epochs_done": run["epochs_done"],
        "test_error": float(ev["test_error"].iloc[-1]) if len(ev) else math.nan,
        "val_error": float(ev["val_error"].iloc[-1]) if len(ev) else math.nan,
        "images": images,
        "images_per_s": images / wall if wall and wall > 0 else math.nan,
        "grad_var": float(dg["grad_var"].mean()) if len(dg) else math.nan,
        "grad_snr": float(dg["grad_snr"].mean()) if len(dg) else math.nan,
    }


def load_runs(paths):
    """A DataFrame, one row per run file: configuration, summary, and the series."""
    rows = []
    for p in paths:
        run = load_run(p)
        row = {"run": os.path.splitext(os.path.basename(p))[0], "path": p}
        row.update(run["config"])
        row.update(summary(run))
        row.update({"train": run["train"], "eval": run["eval"], "diagnostics": run["diagnostics"]})
        rows.append(row)
    return pd.DataFrame(rows)


def load_experiment(name, results_dir=None):
    """Every run file of results/NAME/ (the runs of scripts/sweep NAME)."""
    d = results_dir or os.path.join(ROOT, "results", name)
    paths = sorted(glob.glob(os.path.join(d, "*.h5")))
    if not paths:
        raise FileNotFoundError(f"no run files in {d}")
    return load_runs(paths)


def main(argv):
    if not argv:
        print(__doc__)
        return 2
    paths = []
    for a in argv:
        paths += [a] if a.endswith(".h5") else sorted(glob.glob(os.path.join(ROOT, "results", a, "*.h5")))
    df = load_runs(paths)
    cols = ["run", "env", "attention", "baseline", "samples", "glimpses"] + SUMMARY
    with pd.option_context("display.width", 200, "display.max_columns", 30):
        print(df[[c for c in cols if c in df.columns]].to_string(index=False))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
