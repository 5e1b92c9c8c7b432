#!/usr/bin/python3
"""The Python package against the C++ trainer: run from an empty folder with Debian's python3.

    tests/scripts/test_python_package.py SOURCE_DIR GLIMPSE_BINARY BUILD_DIR

1. Every registered task's batches equal `glimpse render --out FILE.npy` byte for byte (train at two
   epochs, val, test), labels included.
2. samples(split, indices) equals batch row by row; train_order is a permutation, fixed by the seed, new each epoch, and the first epoch's differs
   between seeds.
3. The sensors: the retina equals a NumPy reference (crop, block means, zeros outside), the whole-
   canvas view equals block means, DRAW's initial read of a constant image is constant; the outlines
   glimpse.geometry draws (plot.py trajectories, animate) are where the retina, DRAW, the spatial
   transformer and the Gumbel grid sample.
4. The canvases of logged trajectories: a committed run file that stores them (one per image task and
   its seeds) equals what runs.trajectory_images renders again from the run's task and seed, which is
   how a file written without them is drawn.
5. The package's surface: __version__ is `glimpse --version`'s; every name in runs.__all__ and
   tables.__all__ exists; glimpse.torch.TaskDataset's items are the task's samples, through a
   DataLoader too.
6. Bad input: an unknown task raises ValueError naming the known ones; a file that is not a glimpse
   run file raises ValueError naming its path.
Exits non-zero on the first failure, saying what differed.
"""
import os
import subprocess
import sys
import tempfile

import h5py
import numpy as np

src, binary, build = (os.path.abspath(a) for a in sys.argv[1:4])
os.environ["GLIMPSE_BUILD"] = build
assert os.environ.get("PYTHONPATH", "").split(":")[0] == os.path.join(
    src, "src", "python"
), "run with PYTHONPATH=SOURCE_DIR/src/python (tests/CMakeLists.txt sets it): the checkout's package"
work = tempfile.mkdtemp(prefix="glimpse_py_")
os.chdir(work)  # "from any folder"

import glimpse  # noqa: E402
from glimpse import runs  # noqa: E402

checked = 0


def expect(cond, what):
    global checked
    if not cond:
        print("FAIL:", what)
        sys.exit(1)
    checked += 1


# 1. Byte for byte against the trainer's rendering.
for name in glimpse.task_names():
    for seed in (1, 7):
        task = glimpse.Task(name, seed=seed)
        for split, start, epoch in (("train", 0, 0), ("train", 123, 3), ("val", 9990, 0), ("test", 17, 0)):
            count = 5 if split != "val" else 10
            out = os.path.join(work, f"{name}-{split}.npy")
            cmd = [
                binary,
                "render",
                "--env",
                name,
                "--seed",
                str(seed),
                "--split",
                split,
                "--start",
                str(start),
                "--count",
                str(count),
                "--epoch",
                str(epoch),
                "--out",
                out,
                "--force",
                "--data-dir",
                os.path.join(src, "data", "mnist"),
            ]
            text = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
            want_labels = [int(v) for v in text.splitlines()[0].split()[1:]]
            want = np.load(out)
            images, labels = task.batch(split, start=start, count=count, epoch=epoch)
            where = f"{name} seed {seed} {split} [{start}, {start + count}) epoch {epoch}"
            expect(
                images.dtype == np.float32 and images.shape == (count, task.height, task.width),
                f"{where}: images {images.dtype} {images.shape}",
            )
            expect(labels.dtype == np.int64 and labels.shape == (count,), f"{where}: labels {labels.dtype}")
            expect(images.tobytes() == want.tobytes(), f"{where}: images differ from glimpse render's")
            expect(labels.tolist() == want_labels, f"{where}: labels {labels.tolist()} != {want_labels}")
        if name == "strip5":
            _, _, info = task.batch("test", 0, 4, info=True)
            expect(((info["query"] >= 0) & (info["query"] <= 9)).all(), "strip5 queries are digits")
        else:
            images, _, info = task.batch("test", 0, 4, info=True)
            expect((info["query"] == -1).all(), f"{name}: no query")
            for img, (x0, y0, x1, y1) in zip(images, info["box"]):
                expect(img[y0:y1, x0:x1].max() > 0.5, f"{name}: the digit's box holds ink")
            two = name in ("pairs100", "sum100")
            expect(((info["object_labels"][:, 1] >= 0) == two).all(), f"{name}: a second object exactly for two digits")
            if two:  # left to right, and the answer made of the two labels
                a, b = info["object_labels"][:, 0], info["object_labels"][:, 1]
                expect((info["object_boxes"][:, 0, 2] <= info["object_boxes"][:, 1, 0]).all(), f"{name}: left to right")
                _, answers = task.batch("test", 0, 4)
                expect((answers == (10 * a + b if name == "pairs100" else a + b)).all(), f"{name}: the answer")
                expect(task.classes == (100 if name == "pairs100" else 19), f"{name}: classes")

# The contract of the issue, as written.
task = glimpse.Task("cluttered60", seed=1)
images, labels = task.batch("train", start=0, count=8)
expect(images.dtype == np.float32 and images.shape == (8, 60, 60), "contract: float32 (8, 60, 60)")
expect(labels.dtype == np.int64 and labels.shape == (8,), "contract: int64 (8,)")
expect(task.size("train") == 50000 and task.size("val") == 10000 and task.size("test") == 10000, "split sizes")

# 2. The training order, and samples at any indices.
o0, o1 = task.train_order(0), task.train_order(1)
a, la = task.samples("train", o0[:6], epoch=2)
for r, i in enumerate(o0[:6]):
    b, lb = task.batch("train", start=int(i), count=1, epoch=2)
    expect(a[r].tobytes() == b[0].tobytes() and la[r] == lb[0], "samples at indices equal the batch rows")
expect(sorted(o0.tolist()) == list(range(50000)), "train_order is a permutation")
expect((o0 == task.train_order(0)).all() and not (o0 == o1).all(), "fixed by seed, new each epoch")
expect(not (o0 == glimpse.Task("cluttered60", seed=2).train_order(0)).all(), "differs between seeds")

# 3. Sensors against NumPy references.
rng = np.random.default_rng(0)
x = rng.random((3, 60, 60), dtype=np.float32)
loc = np.array([[0, 0], [-0.5, 0.25], [0.95, -0.9]], np.float32)
g = glimpse.retina(x, loc, patch=8, scales=2)
expect(g.shape == (3, 2, 8, 8), f"retina shape {g.shape}")
pad = np.pad(x, ((0, 0), (60, 60), (60, 60)))
for b in range(3):
    cx, cy = 30 + loc[b, 0] * 30, 30 + loc[b, 1] * 30
    for s, f in enumerate((1, 2)):
        size = 8 * f
        x0, y0 = int(np.floor(cx - size / 2 + 0.5)), int(np.floor(cy - size / 2 + 0.5))
        crop = pad[b, 60 + y0 : 60 + y0 + size, 60 + x0 : 60 + x0 + size]
        ref = crop.reshape(8, f, 8, f).mean(axis=(1, 3))
        expect(np.allclose(g[b, s], ref, atol=1e-5), f"retina glimpse {b} scale {s} differs from the NumPy crop")
w = glimpse.whole_canvas(x, patch=6, scales=1)  # 6 x 6 view of 60 x 60: 10 x 10 block means
expect(np.allclose(w, x.reshape(3, 6, 10, 6, 10).mean(axis=(2, 4)), atol=1e-5), "whole-canvas view = block means")
params = np.tile(np.asarray(glimpse.draw_initial_params(n=12, scales=1, sigma=3.0), np.float32), (3, 1))
r = glimpse.draw_read(np.full((3, 60, 60), 0.5, np.float32), params, n=12, scales=1, sigma=3.0)
expect(r.shape == (3, 1, 12, 12) and np.allclose(r, 0.5, atol=1e-4), "DRAW's read of a constant image")

# The outlines plot.py draws (glimpse.geometry) against the sensors themselves: read an image whose
# pixel values are their own x (or y) coordinate, so each glimpse pixel says where it sampled.
from glimpse import geometry  # noqa: E402

xs = np.tile(np.arange(60, dtype=np.float32), (60, 1))
coords = np.stack([xs, xs.T.copy()])
loc = np.array([0.3, -0.2], np.float32)
g = glimpse.retina(coords, np.tile(loc, (2, 1)), patch=8, scales=2)
polys, _ = geometry.retina(loc, 60, 60, 8, 2)
for s in range(2):  # block means' centres run from the box's edge + half a block to the other edge - half
    f = 2**s
    expect(
        abs(g[0, s].min() - (polys[s][0, 0] + f / 2)) < 1e-3 and abs(g[0, s].max() - (polys[s][1, 0] - f / 2)) < 1e-3,
        f"retina outline, scale {s}",
    )
p = np.array([0.2, -0.3, 0.0, np.log(0.3), 0.0], np.float32)
r = glimpse.draw_read(coords, np.tile(p, (2, 1)), n=12, scales=2, sigma=1.0)
polys, centre = geometry.draw(p, 60, 60, 12, 2)
for m in range(2):
    step = (polys[m][1, 0] - polys[m][0, 0]) / 12
    expect(abs(r[0, m].mean() - centre[0]) < 0.05 and abs(r[1, m].mean() - centre[1]) < 0.05, f"DRAW centre, scale {m}")
    expect(abs(r[0, m][0, 0] - (polys[m][0, 0] + step / 2)) < 0.05, f"DRAW outline, scale {m}")
p = np.array([0.3, 0.1, 0.2, -0.05, 0.25, -0.1], np.float32)
r = glimpse.stn_read(coords, np.tile(p, (2, 1)), patch=12, scales=2, sampler="bilinear")
polys, centre = geometry.stn(p, 60, 60, 12, 2)
for m in range(2):
    got = np.array([[r[0, m][i, j], r[1, m][i, j]] for i, j in ((0, 0), (0, -1), (-1, -1), (-1, 0))])
    want = (polys[m][:4] - centre) / (1 + 1 / 11) + centre  # the outline is the corner samples widened by half a step
    expect(np.allclose(got, want, atol=1e-3), f"STN outline, scale {m}: {got.tolist()} != {want.tolist()}")
# The Gumbel grid reads at its largest logit's cell, cell k = (row k // N, column k % N) centred at
# (-1 + (2 column + 1) / N, -1 + (2 row + 1) / N): on a 6 x 6 grid cell 8 is (-1/6, -1/2), which on a
# 60 x 60 canvas is pixel (24.5, 14.5) (30 + 30 x, less half a pixel); the retina reads there too.
logits = np.zeros(36, np.float32)
logits[8] = 2.0
polys, centre = geometry.outlines({"attention": "gumbel", "grid": "6", "patch": "8", "scales": "2"}, logits, 60, 60)
expect(np.allclose(centre, (24.5, 14.5)), f"Gumbel grid centre: {centre}")
g = glimpse.retina(coords, np.tile(np.array([-1 / 6, -1 / 2], np.float32), (2, 1)), patch=8, scales=2)
expect(
    abs(g[0, 0].mean() - centre[0]) < 1e-3 and abs(g[1, 0].mean() - centre[1]) < 1e-3, "Gumbel grid: the retina there"
)
expect(len(polys) == 2 and np.allclose(polys[1][0], (24.5 - 8, 14.5 - 8)), f"Gumbel grid outline: {polys[1][0]}")

# 4. Logged canvases rendered again.
for rel in (
    "results/ram_mnist28/run.h5",
    "results/compare/runs/translated60-draw-s2.h5",
    "results/compare/runs/cluttered60-stn-s3.h5",
    "results/compare/runs/cluttered100-gaussian-s1.h5",
    "results/multi_digit/runs/pairs-dram-context-s2.h5",
    "results/multi_digit/runs/sum-ram-s3.h5",
):
    run = runs.load_run(os.path.join(src, rel))
    stored = run["trajectories"].pop("image")
    again = runs.trajectory_images(run)
    expect(again.dtype == np.float32 and np.array_equal(stored, again), f"{rel}: the canvases rendered again differ")
run["trajectories"]["label"] = run["trajectories"]["label"] + 1
try:
    runs.trajectory_images(run)
    expect(False, "canvases whose labels differ from the logged ones raise")
except ValueError as e:
    expect("other labels" in str(e), f"the error says the labels differ: {e}")

# 5. The package's surface.
version = subprocess.run([binary, "--version"], check=True, capture_output=True, text=True).stdout.split()[1]
expect(glimpse.__version__ == version, f"glimpse.__version__ {glimpse.__version__} != glimpse --version {version}")
import inspect  # noqa: E402
from glimpse import geometry, stats, tables  # noqa: E402

for module in (runs, tables):
    expect(all(hasattr(module, n) for n in module.__all__), f"every name of {module.__name__}.__all__ exists")
for module in (glimpse, runs, tables, stats, geometry):  # every public function and method says what it does
    for name in getattr(module, "__all__", [n for n in dir(module) if not n.startswith("_")]):
        obj = getattr(module, name)
        members = inspect.getmembers(obj, inspect.isfunction) if inspect.isclass(obj) else [(name, obj)]
        for member, f in members:
            if callable(f) and not member.startswith("_"):
                expect(bool((f.__doc__ or "").strip()), f"{module.__name__}.{name}: {member} has no docstring")
import torch  # noqa: E402  (setup installs Debian's python3-torch)
from glimpse.torch import TaskDataset  # noqa: E402

data = TaskDataset("cluttered60", split="train", seed=3, epoch=2)
want_images, want_labels = glimpse.Task("cluttered60", seed=3).batch("train", start=40, count=4, epoch=2)
for i in range(4):
    image, label = data[40 + i]
    expect(image.shape == (1, 60, 60) and image.dtype == torch.float32 and label.dtype == torch.int64, "item types")
    expect(np.array_equal(image.numpy()[0], want_images[i]) and int(label) == want_labels[i], f"item {40 + i}")
loader = torch.utils.data.DataLoader(TaskDataset("mnist28", split="test"), batch_size=16)
images, labels = next(iter(loader))
want_images, want_labels = glimpse.Task("mnist28", seed=1).batch("test", start=0, count=16)
expect(
    images.shape == (16, 1, 28, 28)
    and np.array_equal(images.numpy()[:, 0], want_images)
    and np.array_equal(labels.numpy(), want_labels),
    "a DataLoader batch is the task's batch",
)
try:
    data[len(data)]
    expect(False, "an index past the split raises IndexError")
except IndexError:
    checked += 1

# 6. Bad input.
try:
    glimpse.Task("cluttered61")
    expect(False, "an unknown task raises")
except ValueError as e:
    expect("cluttered60" in str(e) and "strip5" in str(e), f"the error names the known tasks: {e}")
try:
    task.batch("train", start=49998, count=5)
    expect(False, "a batch past the split raises")
except ValueError as e:
    expect("outside" in str(e), f"a batch past the split: {e}")
other = os.path.join(work, "other.h5")
with h5py.File(other, "w") as f:
    f["x"] = np.zeros(3)
try:
    runs.load_run(other)
    expect(False, "a non-glimpse HDF5 file raises")
except ValueError as e:
    expect(other in str(e), f"the error names the file: {e}")

print(f"python package: {checked} checks passed ({', '.join(glimpse.task_names())})")
