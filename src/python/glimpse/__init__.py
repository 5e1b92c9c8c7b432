"""glimpse from Python: the trainer's tasks, its sensors, and its run files.

    import glimpse
    task = glimpse.Task("cluttered60", seed=1)
    images, labels = task.batch("train", start=0, count=8)   # float32 (8, 60, 60), int64 (8,)
    order = task.train_order(epoch=0)      # the trainer's sample order for that epoch (seed's "data" stream)
    g = glimpse.retina(images, locs, patch=8, scales=3)      # (8, 3, 8, 8), locs float32 (8, 2) in [-1, 1]
    from glimpse import runs; df = runs.load_experiment("compare")
    from glimpse.torch import TaskDataset                    # a task as a torch.utils.data.Dataset

Task, the sensors and task_names come from the compiled part (glimpse._core, built by scripts/setup
into build/python/glimpse/), as do the run-file rules glimpse.runs applies with h5py, numpy and
pandas (the same C++ as glimpse summarize's). Samples are rendered by
the same C++ code as `glimpse train`, so a batch equals the trainer's byte for byte (tests/scripts/
test_python_package.sh checks it against `glimpse render --out FILE.npy`).
"""
import functools as _functools
import numbers as _numbers
import os as _os

# This package: src/python/glimpse/ of a checkout. Its compiled module is built into the checkout's
# build/python/glimpse/ (GLIMPSE_BUILD names another build folder); extending __path__ lets
# "from . import _core" find it there.
ROOT = _os.environ.get("GLIMPSE_ROOT") or _os.path.dirname(
    _os.path.dirname(_os.path.dirname(_os.path.dirname(_os.path.abspath(__file__))))
)
_BUILD = _os.path.abspath(_os.environ.get("GLIMPSE_BUILD") or _os.path.join(ROOT, "build"))
__path__.append(_os.path.join(_BUILD, "python", "glimpse"))

_COMPILED = ("Task", "task_names", "retina", "draw_read", "draw_initial_params", "stn_read", "whole_canvas")
__all__ = list(_COMPILED) + ["runs", "tables", "stats", "default_data_dir", "check_checkout", "__version__"]
__version__ = "0.1.0"  # the project's version (CMakeLists.txt; `glimpse --version`), checked by a test


def default_data_dir(dataset="mnist"):
    """The digit files a task reads: the checkout's data/mnist (scripts/setup fetches them), or
    Debian's Fashion-MNIST for dataset="fashion", as for `glimpse train --dataset`."""
    if dataset == "mnist":
        path = _os.path.join(ROOT, "data", "mnist")
        if not _os.path.isdir(path) and not _os.path.isfile(_os.path.join(ROOT, "CMakeLists.txt")):
            raise ValueError(
                "glimpse is installed outside a checkout, so it has no data/mnist: pass data_dir= (a "
                "folder with the four MNIST IDX files, e.g. a checkout's data/mnist) or set GLIMPSE_ROOT "
                "to a checkout"
            )
        return path
    if dataset == "fashion":
        return "/usr/share/datasets/fashion-mnist"
    raise ValueError(f"unknown dataset {dataset!r}: expected 'mnist' or 'fashion'")


def check_checkout():
    """For a checkout's scripts, which set GLIMPSE_ROOT to their own checkout before importing glimpse
    (so experiment names and the compiled part are that checkout's): a warning on stderr when this
    package's Python code comes from elsewhere (Python's glimpse.pth names the checkout that last ran
    scripts/setup; run it in this checkout to use this checkout's code). Returns whether they agree."""
    here = _os.path.realpath(_os.path.join(_os.path.dirname(_os.path.abspath(__file__)), "..", "..", ".."))
    if _os.path.realpath(ROOT) == here:
        return True
    import sys

    print(
        f"glimpse: warning: this checkout is {ROOT}, but Python imports glimpse from {_os.path.dirname(__file__)}; "
        f"run scripts/setup in {ROOT} to use its code (its results and build are used either way)",
        file=sys.stderr,
    )
    return False


def _compiled():
    try:
        from . import _core as core
    except ImportError as e:
        raise ImportError(
            f"glimpse's compiled module was not found in {_os.path.join(_BUILD, 'python', 'glimpse')} "
            f"({e}); build it with scripts/setup (needs pybind11-dev and python3-dev)"
        ) from None
    return core


def _integer(name, value):
    """value as an int, or ValueError: a float, a string or a bool is refused, never truncated."""
    if isinstance(value, bool) or not isinstance(value, _numbers.Integral):
        raise ValueError(f"{name}: expected an integer, found {value!r}")
    return int(value)


def _checked(function, integers):
    """The compiled function with its integer arguments checked (_integer) and a refused argument
    (pybind11's TypeError) raised as the ValueError the package documents."""

    @_functools.wraps(function)
    def call(*args, **kwargs):
        for name in integers:
            if name in kwargs:
                kwargs[name] = _integer(name, kwargs[name])
        try:
            return function(*args, **kwargs)
        except TypeError as e:  # pybind11's message ends with the whole arrays it was given: cut there
            raise ValueError(str(e).split("\nInvoked with")[0]) from None

    return call


_INTEGER_ARGS = {
    "retina": ("patch", "scales"),
    "draw_read": ("n", "scales"),
    "draw_initial_params": ("n", "scales"),
    "stn_read": ("patch", "scales"),
    "whole_canvas": ("patch", "scales"),
}


class Task:
    """A registered task (glimpse.task_names()) with its seed: the splits, samples and rendering of
    `glimpse train --env NAME --seed SEED`.

    Task(name, seed=1, dataset="mnist", data_dir=None); unknown names raise ValueError naming the
    known ones. Attributes: name, seed, height, width, classes; size(split) for split in "train",
    "val", "test".
    """

    def __init__(self, name, seed=1, dataset="mnist", data_dir=None):
        core = _compiled()
        if name not in core.task_names():
            raise ValueError(f"unknown task {name!r}: the registered tasks are {', '.join(core.task_names())}")
        self._task = core.Task(name, _integer("seed", seed), data_dir or default_data_dir(dataset))

    name = property(lambda self: self._task.name)
    seed = property(lambda self: self._task.seed)
    height = property(lambda self: self._task.height)
    width = property(lambda self: self._task.width)
    classes = property(lambda self: self._task.classes)

    def size(self, split):
        """Samples in split ("train": 50,000, "val": 10,000, "test": 10,000 for the MNIST tasks)."""
        return self._task.size(split)

    def batch(self, split, start=0, count=1, epoch=0, info=False):
        """Samples start .. start+count-1 of split, rendered for epoch (training samples are drawn
        afresh each epoch; validation and test ignore it): images float32 (count, H, W) in [0, 1],
        labels int64 (count,). With info=True also a dict: query (count,) (strip5's asked digit, -1
        for the others), box (count, 4) int32 (x0, y0, x1, y1) of the digit, digit (count,) its index
        in the source file."""
        return self._task.batch(
            split, _integer("start", start), _integer("count", count), _integer("epoch", epoch), bool(info)
        )

    def samples(self, split, indices, epoch=0, info=False):
        """The samples of split at indices (a 1-d integer array, any order), as batch returns them:
        e.g. task.samples("train", task.train_order(e)[s*B:(s+1)*B], epoch=e) is the trainer's step s."""
        import numpy as np

        indices = np.asarray(indices)
        if indices.dtype.kind not in "iu":
            raise ValueError(f"indices: expected integers, found an array of {indices.dtype}")
        return self._task.samples(split, indices, _integer("epoch", epoch), bool(info))

    def train_order(self, epoch):
        """The trainer's order of the training samples in epoch (int64, a permutation of
        size("train")): step s of the epoch trains on order[s*B:(s+1)*B] for batch size B. It replays
        the shuffles of epochs 0..epoch, so it takes time in epoch (about 75 s at 10**6); Ctrl-C stops it."""
        return self._task.train_order(_integer("epoch", epoch))

    def __repr__(self):
        return f"glimpse.Task({self.name!r}, seed={self.seed}: {self.height}x{self.width}, {self.classes} classes)"


def __getattr__(name):  # the compiled functions, loaded on first use (PEP 562)
    if name in _COMPILED and name != "Task":
        function = getattr(_compiled(), name)
        return _checked(function, _INTEGER_ARGS.get(name, ())) if callable(function) else function
    raise AttributeError(f"module 'glimpse' has no attribute {name!r}")
