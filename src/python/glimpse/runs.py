"""Reading glimpse run files (HDF5) into pandas: the reader behind scripts/results.py, plot.py and
the notebooks.

    from glimpse import runs
    df = runs.load_experiment("compare")              # one row per run (results/compare/, or its runs/)
    run = runs.load_run("results/ram_mnist28/runs/run.h5")   # one run, every series

Each row of `load_experiment` / `load_runs` holds the run's configuration as columns (option names
as on the command line, values converted to numbers where they are numbers), summary columns
(`epochs_done`, `test_error`, `val_error`, `images`, `images_per_s`, `grad_var`, `grad_snr`), and the
series as arrays in columns `train`, `eval`, `diagnostics` (each a DataFrame).

Every load checks the file first (`check_file`: the CRC-32 glimpse appends to every run file) and
raises ValueError naming a damaged file or one that is not a glimpse run file; `load_params` also
checks the checkpoint's digest. A file edited with h5py loses that checksum (HDF5 rewrites the end
of the file): `reseal` appends a new one. The rules a run file is read by (the checksum, which
checkpoint slot is loaded, which evaluation selects a run, which options make a configuration, the
seed statistics) are glimpse's own C++ (src/store/run_rules.h), called through the compiled part
glimpse._core, so Python and `glimpse summarize` cannot disagree; this module adds pandas around them.
"""
import glob
import math
import numbers
import re
import os
import tempfile
import time
import zlib  # the checkpoint digest "crc32:%08x" (src/store/checkpoint.h documents it for Python)

import h5py
import numpy as np
import pandas as pd


__all__ = [
    "ROOT",
    "SUMMARY",
    "check_file",
    "reseal",
    "write_run",
    "load_params",
    "load_run",
    "load_runs",
    "load_experiment",
    "experiment_paths",
    "run_paths",
    "unique_files",
    "frame",
    "summary",
    "trajectory_images",
    "trajectory_boxes",
    "trajectory_object_boxes",
    "configuration_key",
    "configuration_groups",
    "configuration_id",
    "group_seeds",
    "errors_by",
]

# The checkout this package lives in (src/python/glimpse/runs.py), for results/NAME; GLIMPSE_ROOT overrides.
ROOT = os.environ.get("GLIMPSE_ROOT") or os.path.dirname(
    os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
)
SUMMARY = [
    "epochs_done",
    "best_val_error",
    "best_epoch",
    "test_error_at_best",
    "test_error",
    "val_error",
    "images",
    "images_per_s",
    "grad_var",
    "grad_snr",
]


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


def _read(ds, dtype=None):
    """A dataset's values, refused (ValueError naming the file) when it declares more values than its
    stored bytes can hold (deflate packs at most about 1,032:1): a damaged or hostile file is never
    allocated whole. glimpse's RunFile::ReadArray applies the same bound."""
    declared = int(ds.size) * ds.dtype.itemsize
    stored = ds.id.get_storage_size()
    if declared > 2**20 + 1100 * stored:
        raise ValueError(
            f"{ds.file.filename}: dataset {ds.name} declares {ds.size} values in {stored} stored "
            "bytes: the file is damaged"
        )
    return np.asarray(ds, dtype=dtype)


def _group(f, name):
    if name not in f:
        return pd.DataFrame()
    g = f[name]
    return pd.DataFrame({k: _read(g[k]) for k in g.keys() if isinstance(g[k], h5py.Dataset)})


def _rules():
    """glimpse._core: the C++ rules every reader of run files applies (src/store/run_rules.h)."""
    from glimpse import _compiled

    return _compiled()


def _checkpoint_slot(f):
    """The checkpoint group glimpse loads: the complete slot with the most steps (None if none)."""
    slots = [
        (s, _value(f[s].attrs.get("complete", "0")) == 1, int(_value(f[s].attrs.get("step", -1))))
        for s in ("checkpoint", "checkpoint_next", "checkpoint_prev", "checkpoint_new")
        if s in f
    ]
    return _rules().chosen_checkpoint_slot(slots) or None


def _checkpoint_epoch(f):
    """Epochs done: the checkpoint's, or a run written by another framework's epochs_done (write_run)."""
    slot = _checkpoint_slot(f)
    if slot:
        return int(_value(f[slot].attrs["epoch"]))
    return int(_value(f.attrs["epochs_done"])) if "epochs_done" in f.attrs else 0


def check_file(path):
    """Raises ValueError naming `path` unless its bytes match the CRC-32 glimpse stored at its end
    (glimpse's own check, src/store/file_checksum.h). A file of the earliest HDF5 format without one
    (written by an older glimpse) passes unchecked."""
    _rules().check_file_checksum(os.fspath(path), False)


def reseal(path):
    """After editing a run file with h5py: append the checksum glimpse checks (the edit is trusted)."""
    _rules().reseal_file_checksum(os.fspath(path))


def write_run(path, config, train, evals, trained_by, epochs_done, version="0.1.0"):
    """Writes a run file for a run trained outside glimpse (PyTorch, JAX, ...), which glimpse
    summarize, scripts/results.py, plot.py and the notebooks then read like a glimpse run.

    config: the run's options under glimpse's option names ("env", "seed", "epochs", "batch",
    "attention", "run-id", ...; values as strings or numbers); options left out read as glimpse's
    defaults. train / evals: dicts of equal-length 1-d sequences, the series /train (step, epoch,
    images, loss_action, wall_s, ...) and /eval (step, epoch, val_error, test_error as fractions).
    trained_by: what trained it (stored, and summarized as such); epochs_done: the epochs completed
    (a glimpse run's checkpoint says this; such a file has no checkpoint, so it cannot be resumed or
    evaluated with glimpse eval). Written to a new private PATH.tmp-XXXXXX in the checksummed format
    and renamed into place. Whole-number options (epochs, batch, seed, ...) must be integers.
    """
    for k in ("epochs", "batch", "seed", "glimpses", "patch", "scales", "hidden", "samples"):
        v = config.get(k)
        if v is not None and (isinstance(v, bool) or not re.fullmatch(r"-?[0-9]+", str(v).strip())):
            raise ValueError(f"{path}: option {k!r} must be an integer, found {v!r}")
    if isinstance(epochs_done, bool) or not isinstance(epochs_done, numbers.Integral):
        raise ValueError(f"{path}: epochs_done must be an integer, found {epochs_done!r}")
    for name, series in (("train", train), ("eval", evals)):
        lengths = {len(v) for v in series.values()}
        if len(lengths) > 1:
            raise ValueError(f"{path}: the {name} series differ in length ({sorted(lengths)})")
    for need in ("val_error", "test_error", "epoch", "step"):
        if need not in evals:
            raise ValueError(f"{path}: the eval series need {need!r}")
    fd, tmp = tempfile.mkstemp(prefix=os.path.basename(path) + ".tmp-", dir=os.path.dirname(path) or ".")
    os.close(fd)  # created exclusively: never a link planted at a fixed name
    try:
        _write_run_file(tmp, config, train, evals, trained_by, epochs_done, version)
        reseal(tmp)
        os.replace(tmp, path)
    except BaseException:
        os.remove(tmp)
        raise


def _write_run_file(tmp, config, train, evals, trained_by, epochs_done, version):
    with h5py.File(tmp, "w", libver=("v110", "v110")) as f:
        attrs = {str(k): str(v).lower() if isinstance(v, bool) else str(v) for k, v in config.items()}
        attrs.update(
            {
                "glimpse_version": version,
                "trained_by": str(trained_by),
                "epochs_done": str(int(epochs_done)),
                "created_utc": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
            }
        )
        for k, v in attrs.items():
            f.attrs.create(k, np.bytes_(v.encode() or b" "))
        for name, series in (("train", train), ("eval", evals)):
            g = f.create_group(name)
            for k, v in series.items():
                g.create_dataset(
                    k, data=np.asarray(v, dtype=np.float64), maxshape=(None,), chunks=True, fletcher32=True
                )


def load_params(path, checkpoint="last"):
    """The parameters of the run's last checkpoint, or with checkpoint="best" of its validation-selected
    one (/best: what `glimpse eval --checkpoint best` evaluates), as float32 checked against the
    digest stored with them; a dict name -> array shaped as in the model."""
    if checkpoint not in ("last", "best"):
        raise ValueError(f"load_params: checkpoint is 'last' or 'best', not {checkpoint!r}")
    check_file(path)
    with h5py.File(path, "r", locking=False) as f:
        slot = _checkpoint_slot(f) if checkpoint == "last" else ("best" if "best" in f else None)
        if slot is None and checkpoint == "last" and "best" in f:
            raise ValueError(
                f"{path} keeps the validation-selected parameters only (glimpse slim --best-only): "
                "load_params(path, 'best')"
            )
        if slot is None:
            raise ValueError(
                f"{path} holds no {'complete' if checkpoint == 'last' else 'validation-selected'} checkpoint"
            )
        g = f[slot]
        flat = _read(g["params"], dtype="<f4")
        digest = g.attrs.get("digest:params")
        if digest is not None:
            digest = digest.decode() if isinstance(digest, bytes) else digest
            now = "crc32:%08x" % zlib.crc32(flat.tobytes())
            if now != digest:
                raise ValueError(
                    f"{path} is damaged: the checkpoint's params ({slot}/params) have digest "
                    f"{now}, {digest} was stored with them"
                )
        names = _value(g.attrs["param_names"]).split("\n")
        shapes = _value(g.attrs["param_shapes"]).split("\n")
        offsets = _read(g["param_offsets"])
        out = {}
        for name, shape, off in zip(names, shapes, offsets):
            dims = [int(d) for d in shape.split("x")]
            n = int(np.prod(dims))
            out[name] = flat[off : off + n].reshape(dims)
        return out


def load_run(path, hide_test=False):
    """One run as a dict: config (dict), train/eval/diagnostics/evaluations (DataFrames), trajectories and
    attention (dicts of arrays). hide_test: every test error reads NaN (eval's test_* columns) and the
    test split's glimpse evals are left out, as glimpse summarize --hide-test shows a running row."""
    check_file(path)
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
            # every glimpse eval of the file: split (1 test), best (1: the best checkpoint), epoch, samples,
            # images, error, canvas_seed (NaN before it was recorded: the run's own seed)
            "evaluations": _group(f, "evaluations"),
            "trajectories": {k: _read(v) for k, v in f["trajectories"].items()} if "trajectories" in f else {},
            # strip5 runs: fixed test strips and, per evaluation, every query's weights over the slots
            "attention": {k: _read(v) for k, v in f["attention"].items()} if "attention" in f else {},
            "epochs_done": _checkpoint_epoch(f),
        }
    if hide_test:
        ev = run["eval"]
        for c in [c for c in ev.columns if c.startswith("test_")]:
            ev[c] = math.nan
        if "split" in run["evaluations"]:
            run["evaluations"] = run["evaluations"][run["evaluations"]["split"] != 1].reset_index(drop=True)
    return run


def trajectory_images(run):
    """The canvases of a run's logged test samples, float32 (N, H, W): /trajectories/image where the
    file stores them (files written before the canvases were dropped), else the first N test samples
    rendered again by the run's task from its seed and data (needs the compiled part, glimpse._core,
    and the data set), which is what the trainer logged."""
    tj = run["trajectories"]
    if "image" in tj:
        return tj["image"]
    if "label" not in tj:
        raise ValueError(f"{run['path']} logged no trajectories")
    return _render_logged(run)[0]


def trajectory_boxes(run):
    """The digit boxes of a run's logged test samples, int (N, 4) as (x0, y0, x1, y1) in pixels (x1, y1
    exclusive), rendered again by the run's task (needs the compiled part and the data set)."""
    if "label" not in run["trajectories"]:
        raise ValueError(f"{run['path']} logged no trajectories")
    return _render_logged(run)[1]["box"]


def trajectory_object_boxes(run):
    """The boxes of each object of a run's logged test samples on a two-digit task (pairs100, sum100),
    int (N, 2, 4), the digits left to right as the task orders them; rendered again as trajectory_boxes."""
    if "label" not in run["trajectories"]:
        raise ValueError(f"{run['path']} logged no trajectories")
    info = _render_logged(run)[1]
    if "object_boxes" not in info:
        raise ValueError(f"{run['path']}: --env {run['config'].get('env')} has one object a canvas")
    return info["object_boxes"]


def _render_logged(run):
    """The first N test samples of the run's task, its seed and data: (images, info), N the samples
    logged; checked against the logged labels."""
    from glimpse import Task  # the compiled part, only for files that do not store their canvases

    c, tj = run["config"], run["trajectories"]
    data_dir = c.get("data-dir") or None  # a folder of the machine that trained it, if it is here
    data_dir = data_dir if data_dir and os.path.isdir(str(data_dir)) else None
    task = Task(
        str(c["env"]), seed=int(c["seed"]), dataset=str(c.get("dataset", "mnist") or "mnist"), data_dir=data_dir
    )
    images, labels, info = task.batch("test", 0, len(tj["label"]), info=True)
    if not np.array_equal(labels, np.asarray(tj["label"], dtype=labels.dtype)):
        raise ValueError(
            f"{run['path']}: the test samples rendered now have other labels than the logged ones "
            "(other data than the run was trained on?)"
        )
    return images, info


def summary(run):
    """The summary numbers of one run (NaN where not recorded). best_*: the evaluation with the lowest
    validation error (the first such), the one to select on; test_error_at_best is its test error,
    reported for it, never used to choose."""
    tr, ev, dg = run["train"], run["eval"], run["diagnostics"]
    images = float(tr["images"].iloc[-1]) if len(tr) else math.nan
    wall = float(tr["wall_s"].iloc[-1]) if len(tr) else math.nan
    best = _rules().selected_evaluation(ev["val_error"].to_numpy().tolist()) if len(ev) else -1
    best = None if best < 0 else best
    return {
        "epochs_done": run["epochs_done"],
        "best_val_error": float(ev["val_error"].iloc[best]) if best is not None else math.nan,
        "best_epoch": float(ev["epoch"].iloc[best]) if best is not None else math.nan,
        "test_error_at_best": float(ev["test_error"].iloc[best]) if best is not None else math.nan,
        # pairs100: the error per digit named (the two digits of the answer against the canvas's)
        "digit_error_at_best": float(ev["test_digit_error"].iloc[best])
        if best is not None and "test_digit_error" in ev
        else math.nan,
        # pairs100: the two digits named in either order (the unordered pair)
        "unordered_error_at_best": float(ev["test_unordered_error"].iloc[best])
        if best is not None and "test_unordered_error" in ev
        else math.nan,
        "test_error": float(ev["test_error"].iloc[-1]) if len(ev) else math.nan,
        "val_error": float(ev["val_error"].iloc[-1]) if len(ev) else math.nan,
        "images": images,
        "images_per_s": images / wall if wall and wall > 0 else math.nan,
        "wall_s": wall,
        "grad_var": float(dg["grad_var"].mean()) if len(dg) else math.nan,
        "grad_snr": float(dg["grad_snr"].mean()) if len(dg) else math.nan,
    }


def configuration_key(config):
    """The options that make runs the same configuration, as a hashable value (glimpse's rule,
    _core.configuration_entries: it leaves out the seed, how a run was run and the file's metadata, and
    reads a per-seed --init-from source with its seed as {seed}; an option the file predates reads as
    _core.absent_option_values gives it; as glimpse summarize reads it)."""
    rules = _rules()
    full = {**rules.absent_option_values(), **config}
    return tuple(sorted(rules.configuration_entries({k: str(v) for k, v in full.items()}).items()))


def _missing(value):
    """True for an attribute a run file does not have (a NaN or None in its DataFrame row)."""
    return value is None or (isinstance(value, float) and math.isnan(value))


def _finite_mean(values):
    """The mean of the finite values (NaN when there are none: runs without diagnostics)."""
    v = [float(x) for x in values if x is not None and np.isfinite(x)]
    return float(np.mean(v)) if v else math.nan


def configuration_groups(df):
    """The rows of load_runs / load_experiment grouped by configuration (runs that differ only in
    seed): a dict configuration_key -> list of rows, in the order of df."""
    groups = {}
    for _, r in df.iterrows():
        groups.setdefault(configuration_key(dict(r["options"])), []).append(r)
    return groups


def configuration_id(row):
    """A configuration's name: a row's run id (else its file name) less the seed suffix -sN."""
    return re.sub(r"-s[0-9]+$", "", str(row.get("run-id", "") or row["run"]))


def errors_by(df, by="attention"):
    """The runs of load_runs / load_experiment as {value of option `by`: {task: [each run's test error at
    its best validation error]}}, leaving out runs without one (screens never read the test split):
    the input of stats.performance_profile."""
    errors = {}
    for _, r in df.iterrows():
        if not math.isnan(r["test_error_at_best"]):
            errors.setdefault(str(r.get(by, "-")), {}).setdefault(str(r["env"]), []).append(r["test_error_at_best"])
    return errors


def group_seeds(df, value="test_error_at_best"):
    """Pools the rows of load_runs / load_experiment that differ only in seed: one row per
    configuration with n, mean, std (sample), ci95 (half-width of the 95% interval of the mean,
    Student's t) of `value` (default: each run's test error at its best validation error), the runs,
    and the validation error pooled likewise (best_val_mean, best_val_std)."""
    out = []
    for key, members in configuration_groups(df).items():
        v = np.array([m[value] for m in members if not math.isnan(m[value])])
        bv = np.array([m["best_val_error"] for m in members if not math.isnan(m["best_val_error"])])
        pooled = _rules().seed_stats(v.tolist())  # glimpse summarize's own pooling
        n = int(pooled["n"])
        first = members[0]
        out.append(
            {
                **{k: first[k] for k in ("env", "attention", "baseline", "samples", "glimpses") if k in first},
                "id": configuration_id(first),
                "runs": [m["run"] for m in members],
                "n": n,
                "n_runs": len(members),
                "mean": pooled["mean"],
                "std": pooled["std"],
                "ci95": pooled["ci95"],
                "best_val_mean": float(bv.mean()) if len(bv) else math.nan,
                "best_val_std": float(bv.std(ddof=1)) if len(bv) > 1 else math.nan,
                "images_per_s": float(np.nanmean([m["images_per_s"] for m in members])),
                "wall_min": float(np.nanmean([m["wall_s"] for m in members])) / 60,
                "grad_var": _finite_mean([m.get("grad_var", math.nan) for m in members]),
                "grad_snr": _finite_mean([m.get("grad_snr", math.nan) for m in members]),
                "digit_error": _finite_mean([m.get("digit_error_at_best", math.nan) for m in members]),
                "unordered_error": _finite_mean([m.get("unordered_error_at_best", math.nan) for m in members]),
                "finished": all(
                    m["epochs_done"] >= m["epochs"] or not _missing(m.get("stopped_at_target"))
                    for m in members
                    if "epochs" in m
                ),
                "key": key,
            }
        )
    return pd.DataFrame(out)


def best_test_answers(path):
    """The test split's labels and answers that the trainer stored at the run's selected evaluation
    (group /best_test: the evaluation with the lowest validation error, M = 1), as a DataFrame (index,
    label, answer) like glimpse eval --predictions; None when the file has none (a run from before
    they were stored, or whose selected evaluation had no test pass) or when they are of another
    evaluation than the one its /eval series selects."""
    check_file(path)
    with h5py.File(path, "r", locking=False) as f:
        if "best_test" not in f or "eval" not in f or "val_error" not in f["eval"]:
            return None
        g = f["best_test"]
        epoch = _value(g.attrs.get("epoch", b"none"))
        val, epochs = _read(f["eval/val_error"]), _read(f["eval/epoch"])
        best = _rules().selected_evaluation(val.tolist()) if len(val) else -1  # the selection summary() reads
        if isinstance(epoch, str) or best < 0 or int(epochs[best]) != epoch:
            return None
        labels, answers = _read(g["labels"]), _read(g["answers"])
    return pd.DataFrame({"index": np.arange(len(labels)), "label": labels, "answer": answers})


def frame(runs):
    """A DataFrame of runs already loaded (load_run), one row each: configuration, summary, series."""
    rows = []
    for run in runs:
        p = run["path"]
        row = {"run": os.path.splitext(os.path.basename(p))[0], "path": p}
        row.update(run["config"])
        # The file's own options and values: a column that other files lack holds NaN for them,
        # which makes pandas store its integers as floats ("16" would read "16.0").
        row["options"] = tuple(run["config"].items())
        row.update(summary(run))
        row.update({"train": run["train"], "eval": run["eval"], "diagnostics": run["diagnostics"]})
        rows.append(row)
    return pd.DataFrame(rows)


def unique_files(paths):
    """paths without a second name of a file already listed (a link, "./a.h5", a hard link): one
    file is one run, never pooled as two seeds."""
    seen, out = set(), []
    for p in paths:
        try:
            st = os.stat(p)
            key = (st.st_dev, st.st_ino)
        except OSError:
            key = os.path.realpath(p)
        if key not in seen:
            seen.add(key)
            out.append(p)
    return out


def load_runs(paths, hide_test=False):
    """A DataFrame, one row per run file (a file named twice counts once): configuration, summary,
    and the series (hide_test: load_run's)."""
    return frame([load_run(p, hide_test) for p in unique_files(paths)])


def run_paths(items):
    """Command-line items as run files: a glob (quoted, so the shell left it: "results/x/*.h5") as the
    files it matches, sorted; a path ending in .h5 as given; anything else an experiment name
    (experiment_paths). An item that finds no run file raises FileNotFoundError saying so."""
    paths = []
    for a in items:
        if any(c in a for c in "*?["):
            found = sorted(glob.glob(a))
            if not found:
                raise FileNotFoundError(f"no run files match {a}")
            paths += found
        elif a.endswith(".h5"):
            if not os.path.exists(a):
                raise FileNotFoundError(f"no run file {a}")
            paths.append(a)
        else:
            paths += experiment_paths(a)
    return paths


def experiment_paths(name, results_dir=None):
    """The run files of experiment NAME, sorted by file name: each full file results/NAME/ID.h5 (a
    sweep's own) and the committed slim copy results/NAME/runs/ID.h5 of each run whose full file is
    absent (a fresh clone holds only these; a row finished over two machines holds both kinds), the
    same files as scripts/sweep's closing summary."""
    d = results_dir or os.path.join(ROOT, "results", name)
    full = glob.glob(os.path.join(d, "*.h5"))
    have = {os.path.basename(p) for p in full}
    slim = [p for p in glob.glob(os.path.join(d, "runs", "*.h5")) if os.path.basename(p) not in have]
    paths = sorted(full + slim, key=os.path.basename)
    if not paths:
        raise FileNotFoundError(f"no run files in {d} or {os.path.join(d, 'runs')}")
    return paths


def load_experiment(name, results_dir=None):
    """Every run file of experiment NAME (experiment_paths), one row per run."""
    return load_runs(experiment_paths(name, results_dir))
