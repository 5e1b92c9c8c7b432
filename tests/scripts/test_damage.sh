#!/usr/bin/env bash
# Damaged run files never crash, hang or give a wrong number (issue 25): a small run file made here,
# 300 copies with one byte changed at seeded positions spread uniformly over the file (metadata and
# data), and 100 copies with 8 bytes changed, mostly in the first 64 KB, each evaluated with a 5 s
# limit: every eval must be refused naming the file or print exactly the undamaged number.
set -euo pipefail
root=$1
glimpse=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
/usr/bin/python3 "$root/tests/scripts/make_fake_data.py" "$tmp/data"
"$glimpse" train --out "$tmp/run.h5" --data-dir "$tmp/data" --glimpses 2 --patch 6 --hidden 16 --glimpse-hidden 8 \
  --batch 8 --epochs 2 --train-images 64 --val-images 16 --trajectories 3 --threads 1 >/dev/null
"$root/scripts/damage" "$tmp/run.h5" --glimpse "$glimpse" --copies 300 --bytes 1 --head 0 --seed 7 --timeout 5 \
  > "$tmp/uniform.txt" || { cat "$tmp/uniform.txt"; echo "FAIL: single-byte damage"; exit 1; }
tail -1 "$tmp/uniform.txt"
"$root/scripts/damage" "$tmp/run.h5" --glimpse "$glimpse" --copies 100 --bytes 8 --head 65536 --seed 8 --timeout 5 \
  > "$tmp/head.txt" || { cat "$tmp/head.txt"; echo "FAIL: 8-byte damage"; exit 1; }
tail -1 "$tmp/head.txt"
echo "2 passed, 0 failed"
