#!/usr/bin/env bash
# Every script of scripts/ answers --help with its usage (for a shell script, its whole leading comment
# block) and exit status 0, and does nothing else (no setup, no build, no run: each is given 20 s, and
# the checkout is unchanged); the shell scripts refuse an unknown option with exit status 2 before they
# set anything up.
set -euo pipefail
root=$1
cd "$root"
before=$(git status --porcelain 2>/dev/null || true)
fail=0; n=0
for s in scripts/setup scripts/test scripts/sweep scripts/figures scripts/fuzz scripts/train-default \
         scripts/damage scripts/dashboard scripts/plot.py scripts/results.py scripts/draw_reads.py scripts/tables; do
  n=$((n + 1))
  out=$(timeout 20 "$s" --help 2>&1) && rc=0 || rc=$?
  if [ "$rc" != 0 ] || [ -z "$out" ]; then echo "FAIL: $s --help: exit $rc: $out"; fail=$((fail + 1)); continue; fi
  if echo "$out" | grep -q "^\[setup\]\|Building\|\[figures\]\|\[sweep\]"; then
    echo "FAIL: $s --help did work instead of printing its usage: $out"; fail=$((fail + 1))
  fi
  # A shell script's usage is its whole leading comment block: the help must reach its last line
  # (a fixed line range would drift when the header grows).
  if head -1 "$s" | grep -q bash; then
    last=""; while IFS= read -r line; do case "$line" in '#!'*) ;; '#'*) last=$line ;; *) break ;; esac; done < "$s"
    if ! grep -qxF -- "$last" <<< "$out"; then
      echo "FAIL: $s --help stops before the end of its header ('$last')"; fail=$((fail + 1))
    fi
  fi
done
for s in scripts/setup scripts/test scripts/sweep scripts/figures scripts/fuzz; do
  n=$((n + 1))
  out=$(timeout 20 "$s" --no-such-option 2>&1) && rc=0 || rc=$?
  if [ "$rc" != 2 ] || ! echo "$out" | grep -q "unknown option"; then
    echo "FAIL: $s --no-such-option: exit $rc (want 2 and 'unknown option'): $out"; fail=$((fail + 1))
  fi
done
after=$(git status --porcelain 2>/dev/null || true)
n=$((n + 1))
[ "$before" = "$after" ] || { echo "FAIL: --help changed the checkout"; fail=$((fail + 1)); }
echo "$((n - fail)) passed, $fail failed"
[ "$fail" = 0 ]
