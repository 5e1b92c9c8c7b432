#!/usr/bin/env bash
# The Python package installed like any other: pyproject.toml builds a wheel offline with Debian's
# tools, pip installs it into a fresh virtual environment (numpy, h5py and pandas from Debian through
# --system-site-packages), and from an empty folder the installed package renders the same samples as
# the checkout's build, reads a committed run file, and says what to do without a data folder.
set -euo pipefail
root=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$root"
/usr/bin/python3 -m pip wheel --no-build-isolation --no-deps -q -w "$tmp/dist" . > "$tmp/build.log" 2>&1 \
  || { cat "$tmp/build.log"; echo "FAIL: the wheel did not build"; exit 1; }
wheel=$(ls "$tmp"/dist/glimpse-*.whl)
/usr/bin/python3 -m venv --system-site-packages "$tmp/env"
"$tmp/env/bin/pip" install -q --no-index --no-deps "$wheel"
mkdir "$tmp/empty"
cd "$tmp/empty"
env -u GLIMPSE_ROOT -u GLIMPSE_BUILD "$tmp/env/bin/python" - "$root" <<'PYEOF'
import os, subprocess, sys
import numpy as np
root = sys.argv[1]
import glimpse
from glimpse import runs
assert glimpse.__file__.startswith(sys.prefix), f"imported {glimpse.__file__}, not the installed package"
assert glimpse._compiled().__file__.startswith(sys.prefix), "the compiled part is not the wheel's"
data = os.path.join(root, "data", "mnist")
# The checkout's own build of the compiled part, for comparison.
checkout = subprocess.run([sys.executable, "-c", f"""
import sys
import glimpse, numpy as np
out = []
for name in glimpse.task_names():
    x, y = glimpse.Task(name, seed=2, data_dir={data!r}).batch("train", start=7, count=3, epoch=1)
    out.append(x); out.append(y.astype(np.float32).reshape(-1))
np.save(sys.argv[1], np.concatenate([a.reshape(-1) for a in out]))
""", os.path.join(os.getcwd(), "want.npy")], check=True,
    env={**{k: v for k, v in os.environ.items() if k != "GLIMPSE_ROOT"}, "PYTHONPATH": os.path.join(root, "src", "python")})
got = []
for name in glimpse.task_names():
    x, y = glimpse.Task(name, seed=2, data_dir=data).batch("train", start=7, count=3, epoch=1)
    got.append(x); got.append(y.astype(np.float32).reshape(-1))
assert np.array_equal(np.concatenate([a.reshape(-1) for a in got]), np.load("want.npy")), "the wheel renders other samples"
run = runs.load_run(os.path.join(root, "results", "ram_mnist28", "run.h5"))
assert run["config"]["env"] == "mnist28"
try:
    glimpse.Task("mnist28")
    raise AssertionError("a task without a data folder outside a checkout was made")
except ValueError as e:
    assert "data_dir" in str(e), e
print(f"wheel: {len(glimpse.task_names())} tasks render as the checkout's build; 4 passed, 0 failed")
PYEOF
