#!/usr/bin/env bash
# scripts/setup --check-data: accepts the fetched MNIST, rejects a copy with one byte changed,
# naming the file and both checksums.
set -euo pipefail
root=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if [ -d "$root/data/mnist" ]; then
  "$root/scripts/setup" --check-data "$root/data/mnist"
  cp "$root"/data/mnist/*-ubyte "$tmp/"
else
  echo "data/mnist not fetched: checking the rejection path only"
  for f in train-images-idx3-ubyte train-labels-idx1-ubyte t10k-images-idx3-ubyte t10k-labels-idx1-ubyte; do
    printf 'not mnist' > "$tmp/$f"
  done
fi
printf '\x01' | dd of="$tmp/t10k-labels-idx1-ubyte" bs=1 seek=100 conv=notrunc status=none
if out=$("$root/scripts/setup" --check-data "$tmp" 2>&1); then
  echo "FAIL: a damaged file was accepted"; exit 1
fi
echo "$out" | grep -q "t10k-labels-idx1-ubyte: SHA-256" || { echo "FAIL: unexpected message: $out"; exit 1; }
echo "$out" | grep -q "expected ff7bcfd4" || { echo "FAIL: expected checksum not named: $out"; exit 1; }
echo "1 passed, 0 failed"
