#!/usr/bin/env bash
# results.py and plot.py on a small run file made here (Debian's python3-h5py, pandas, matplotlib).
set -euo pipefail
root=$1
glimpse=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
py=/usr/bin/python3
"$py" - "$tmp/data" <<'PY'
import os, struct, sys, random
d = sys.argv[1]; os.makedirs(d)
random.seed(1)
def images(path, n):
    with open(path, "wb") as f:
        f.write(bytes([0, 0, 8, 3]) + struct.pack(">III", n, 28, 28))
        f.write(bytes(random.choice([0, 0, 0, 200]) for _ in range(n * 784)))
def labels(path, n):
    with open(path, "wb") as f:
        f.write(bytes([0, 0, 8, 1]) + struct.pack(">I", n) + bytes(random.randrange(10) for _ in range(n)))
# 10,000 held out for validation; 200 training and 200 test digits hold every class (strip5 needs it)
images(f"{d}/train-images-idx3-ubyte", 10200); labels(f"{d}/train-labels-idx1-ubyte", 10200)
images(f"{d}/t10k-images-idx3-ubyte", 200); labels(f"{d}/t10k-labels-idx1-ubyte", 200)
PY
mkdir -p "$tmp/results/tiny"
for b in learned loo; do
  "$glimpse" train --out "$tmp/results/tiny/$b.h5" --data-dir "$tmp/data" --glimpses 2 --patch 6 --hidden 16 \
    --glimpse-hidden 8 --batch 8 --epochs 2 --train-images 64 --val-images 16 --trajectories 3 --threads 1 --diag-every 4 \
    --baseline $b --samples 2 >/dev/null
done
mkdir -p "$tmp/results/strip"
"$glimpse" train --out "$tmp/results/strip/soft.h5" --env strip5 --attention soft --data-dir "$tmp/data" \
  --hidden 16 --glimpse-hidden 8 --attention-dim 6 --batch 16 --epochs 2 --val-images 16 --trajectories 3 \
  --threads 1 >/dev/null
out=$("$py" "$root/scripts/results.py" "$tmp/results/tiny/learned.h5" "$tmp/results/tiny/loo.h5")
echo "$out"
echo "$out" | grep -q "loo" || { echo "FAIL: results.py table lacks the loo run"; exit 1; }
"$py" - "$root/scripts" "$tmp/results/tiny" <<'PY'
import glob, sys
sys.path.insert(0, sys.argv[1])
import results
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
print("results.py: ok")
PY
for fig in curves variance; do "$py" "$root/scripts/plot.py" $fig "$tmp/results/tiny/learned.h5" "$tmp/results/tiny/loo.h5" --out "$tmp/$fig.png"; done
"$py" "$root/scripts/plot.py" curves "$tmp/results/tiny/learned.h5" --x images --out "$tmp/curves.png"
"$py" "$root/scripts/plot.py" trajectories "$tmp/results/tiny/learned.h5" --out "$tmp/traj.png"
"$py" "$root/scripts/plot.py" attention "$tmp/results/strip/soft.h5" --out "$tmp/att.png"
for f in curves variance traj att; do [ -s "$tmp/$f.png" ] || { echo "FAIL: $f.png missing"; exit 1; }; done
# Every notebook, executed headless against the small runs.
n=0
for nb in "$root"/scripts/notebooks/*.ipynb; do
  (cd "$root/scripts/notebooks" && GLIMPSE_RUNS="$tmp/results/tiny/*.h5" GLIMPSE_STRIP_RUNS="$tmp/results/strip/*.h5" \
     jupyter nbconvert --to notebook --execute --ExecutePreprocessor.timeout=120 --output-dir "$tmp/nb" "$nb") \
     || { echo "FAIL: notebook $nb"; exit 1; }
  n=$((n + 1))
done
[ "$n" -ge 5 ] || { echo "FAIL: expected 5 notebooks, found $n"; exit 1; }
echo "$((4 + n)) passed, 0 failed"
