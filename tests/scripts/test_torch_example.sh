#!/usr/bin/env bash
# The PyTorch example (scripts/examples/train_torch_ram.py): a RAM trained on glimpse.Task writes a
# run file that glimpse summarize, scripts/results.py and scripts/plot.py read like a C++ run, and it
# learns (validation error well under chance, 90%, after 2 short epochs). One thread: with two,
# PyTorch's OpenMP workers spin when other tests hold the cores (a run took over 600 s that way).
#   tests/scripts/test_torch_example.sh SOURCE_DIR GLIMPSE_BINARY
set -euo pipefail
src=$1; bin=$2
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
cd "$work"
/usr/bin/python3 "$src/scripts/examples/train_torch_ram.py" --epochs 2 --train-images 5120 --threads 1 \
  --out torch-ram.h5 | tee train.log
table=$("$bin" summarize torch-ram.h5)
echo "$table"
echo "$table" | grep -q "| torch-ram.h5 | 2/2 |" || { echo "FAIL: summarize does not show 2/2 epochs"; exit 1; }
/usr/bin/python3 "$src/scripts/results.py" torch-ram.h5 > results.txt
/usr/bin/python3 "$src/scripts/plot.py" curves torch-ram.h5 --out curves.png
[ -s curves.png ] || { echo "FAIL: no curves.png"; exit 1; }
PYTHONPATH="$src/src/python" /usr/bin/python3 - <<'PY'
import os, sys
from glimpse import runs
run = runs.load_run("torch-ram.h5")
s = runs.summary(run)
assert run["config"]["trained_by"].startswith("PyTorch"), run["config"]["trained_by"]
assert run["epochs_done"] == 2 and len(run["eval"]) == 2, (run["epochs_done"], len(run["eval"]))
assert s["best_val_error"] < 0.8, f"validation error {s['best_val_error']:.3f}: not learning"
print(f"torch example: best validation error {100 * s['best_val_error']:.2f}% after 2 x 5120 images; read back")
PY
