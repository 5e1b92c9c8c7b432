#!/usr/bin/env bash
# scripts/sweep on this machine: runs a spec, skips finished runs (or their committed slim copies),
# resumes a partial one.
set -euo pipefail
root=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$root/tests/scripts/sweep_common.sh"
make_tiny_experiment
"$root/scripts/sweep" tiny --jobs 2 --threads 1
expect_finished a b
out=$("$root/scripts/sweep" tiny --jobs 2 --threads 1)
echo "$out" | grep -q "tiny/a: finished, skipped" || { echo "FAIL: finished run not skipped: $out"; exit 1; }
grep -q "^epoch 2/2 done" "$tmp/results/tiny/a.log" || { echo "FAIL: skipping a finished run clobbered its log"; exit 1; }
grep -q "test_error hidden" "$tmp/results/tiny/a.log" && ! grep -q "test_error [0-9]" "$tmp/results/tiny/a.log" \
  || { echo "FAIL: a sweep's log shows a test error (--hide-test)"; exit 1; }
# A fresh checkout holds only the committed slim copy (runs/ID.h5) of a finished run: skipped, not redone.
mkdir -p "$tmp/results/tiny/runs"
"$root/build/glimpse" slim --run "$tmp/results/tiny/a.h5" --out "$tmp/results/tiny/runs/a.h5" >/dev/null
mv "$tmp/results/tiny/a.h5" "$tmp/a-full.h5"
out=$("$root/scripts/sweep" tiny --only a --dry-run)
echo "$out" | grep -q "tiny/a: finished (committed slim copy" || { echo "FAIL: a run with a finished slim copy not skipped: $out"; exit 1; }
# ... and the sweep's closing summary reads that slim copy beside the other runs' full files.
out=$("$root/scripts/sweep" tiny --jobs 2 --threads 1)
echo "$out" | grep -q "^| $tmp/results/tiny/runs/a.h5 | 2/2 |" && echo "$out" | grep -q "^| $tmp/results/tiny/b.h5 | 2/2 |" \
  || { echo "FAIL: the summary left out the slim copy or a full file: $out"; exit 1; }
rm "$tmp/results/tiny/runs/a.h5"
"$root/scripts/sweep" tiny --only a --dry-run | grep -q -- "train --config" || { echo "FAIL: a run without any file not trained"; exit 1; }
mv "$tmp/a-full.h5" "$tmp/results/tiny/a.h5"
# A dry run leaves alone the command list a running sweep may be reading.
before=$(cat "$tmp/results/tiny/.commands")
"$root/scripts/sweep" tiny --only b --dry-run >/dev/null
[ "$(cat "$tmp/results/tiny/.commands")" = "$before" ] || { echo "FAIL: a dry run rewrote .commands"; exit 1; }
ls "$tmp/results/tiny"/.commands.* 2>/dev/null && { echo "FAIL: a dry run left its command file"; exit 1; }
# A binary built from a tree with uncommitted changes is named in a warning (its runs name no
# committed source); a clean one is not.
printf '#!/bin/sh\n[ "$1" = --version ] && { echo "glimpse 0.1.0 (commit %s)"; exit 0; }\nexec "%s" "$@"\n' abc123-dirty \
  "$root/build/glimpse" > "$tmp/dirty-glimpse" && chmod +x "$tmp/dirty-glimpse"
GLIMPSE_BIN=$tmp/dirty-glimpse "$root/scripts/sweep" tiny --only b --dry-run 2>&1 >/dev/null | grep -q "abc123-dirty).*uncommitted" \
  || { echo "FAIL: no warning for a binary built from uncommitted changes"; exit 1; }
sed -i 's/abc123-dirty/abc123/' "$tmp/dirty-glimpse"
if GLIMPSE_BIN=$tmp/dirty-glimpse "$root/scripts/sweep" tiny --only b --dry-run 2>&1 >/dev/null | grep -q uncommitted; then
  echo "FAIL: a clean binary warned"; exit 1
fi
# A nested name (a group of experiments, e.g. frontier/mnist28) writes to the same nested results folder.
mkdir -p "$tmp/experiments/group" && cp -r "$tmp/experiments/tiny" "$tmp/experiments/group/"
"$root/scripts/sweep" group/tiny --only a --dry-run | grep -q -- "--out $tmp/results/group/tiny/a.h5" \
  || { echo "FAIL: a nested experiment name"; exit 1; }
# A run stopped after one epoch is resumed, not restarted.
"$root/build/glimpse" train --config "$tmp/experiments/tiny/config.ini" --seed 3 --epochs 1 \
  --out "$tmp/results/tiny/c.h5" --threads 1 >/dev/null
# ... as if it had been stopped after 1 of 2 epochs:
PYTHONPATH="$root/src/python" /usr/bin/python3 -c "import h5py,sys; from glimpse import runs
f=h5py.File(sys.argv[1],'r+'); f.attrs['epochs']=__import__('numpy').bytes_('2'); f.close(); runs.reseal(sys.argv[1])" \
  "$tmp/results/tiny/c.h5"
[ "$("$root/build/glimpse" summarize --status "$tmp/results/tiny/c.h5")" = partial ]
printf 'c  --seed 3\n' >> "$tmp/experiments/tiny/runs.txt"
"$root/scripts/sweep" tiny --only c --dry-run | grep -q -- "--resume" || { echo "FAIL: partial run not resumed"; exit 1; }
# --seeds: one run per seed, each with its id stored; summarize pools them (n, mean +- std, interval).
mkdir -p "$tmp/experiments/pool"
cp "$tmp/experiments/tiny/config.ini" "$tmp/experiments/pool/"
printf 'x  --baseline none\n' > "$tmp/experiments/pool/runs.txt"
out=$("$root/scripts/sweep" pool --seeds 1,2,3 --jobs 2 --threads 1)
for s in 1 2 3; do
  [ "$("$root/build/glimpse" summarize --status "$tmp/results/pool/x-s$s.h5")" = finished ] || { echo "FAIL: x-s$s"; exit 1; }
done
/usr/bin/python3 -c "import h5py,sys; f=h5py.File(sys.argv[1],'r'); assert f.attrs['run-id']==b'x-s2' and f.attrs['seed']==b'2', dict(f.attrs)" \
  "$tmp/results/pool/x-s2.h5"
echo "$out" | grep -q "| 3 | [0-9.]* +- [0-9.]* | - | - | - |" || { echo "FAIL: no pooled row of 3 seeds, its test error hidden: $out"; exit 1; }
echo "$out" | grep -q "^| $tmp/results/pool/x-s1.h5 | 2/2 | [0-9.]* ([0-9]*) | - |" \
  || { echo "FAIL: the closing summary shows a run's test error: $out"; exit 1; }
if "$root/scripts/sweep" tiny --seeds 1,2 --dry-run 2>/dev/null; then echo "FAIL: --seeds over runs that set --seed"; exit 1; fi
# --slim MODE: each run that finishes leaves its copy to commit in runs/; a skipped run gets none.
out=$("$root/scripts/sweep" pool --seeds 4 --slim best-only --threads 1)
echo "$out" | grep -q "slim  pool/x-s4: .*runs/x-s4.h5 (best-only)" || { echo "FAIL: --slim said nothing: $out"; exit 1; }
/usr/bin/python3 -c "import h5py,sys; f=h5py.File(sys.argv[1],'r'); assert 'slim' in f.attrs and 'best' in f and 'checkpoint' not in f, (dict(f.attrs), list(f))" \
  "$tmp/results/pool/runs/x-s4.h5" || { echo "FAIL: --slim best-only did not write a best-only copy"; exit 1; }
[ ! -e "$tmp/results/pool/runs/x-s1.h5" ] || { echo "FAIL: --slim copied a run this sweep did not train"; exit 1; }
out=$("$root/scripts/sweep" pool --seeds 1,4 --slim curves-only --threads 1)
[ ! -e "$tmp/results/pool/runs/x-s1.h5" ] || { echo "FAIL: --slim copied a run skipped as finished"; exit 1; }
if "$root/scripts/sweep" pool --seeds 4 --slim small --dry-run 2>/dev/null; then echo "FAIL: --slim small accepted"; exit 1; fi
# {seed} in a line stands for each run's seed (a curriculum row starting from its own seed's source);
# without --seeds it has nothing to stand for.
printf 'y  --init-from results/pool/x-s{seed}.h5\n' > "$tmp/experiments/pool/runs.txt"
out=$("$root/scripts/sweep" pool --seeds 2,3 --dry-run)
echo "$out" | grep -q -- "--init-from results/pool/x-s2.h5 --seed 2 --run-id y-s2" && \
  echo "$out" | grep -q -- "--init-from results/pool/x-s3.h5 --seed 3 --run-id y-s3" || { echo "FAIL: {seed}: $out"; exit 1; }
if out=$("$root/scripts/sweep" pool --dry-run 2>&1); then echo "FAIL: {seed} without --seeds ran"; exit 1; fi
echo "$out" | grep -q "needs --seeds" || { echo "FAIL: {seed} without --seeds: $out"; exit 1; }
printf 'x  --baseline none\n' > "$tmp/experiments/pool/runs.txt"
# After a failure the sweep starts no new run, lets the runs already going finish, then summarises and
# exits non-zero. Two at a time: 'bad' fails while 'ok' runs (it must be finished when the sweep
# summarises: 100 tiny epochs, a second or two); one at a time: the run after 'bad' is not started.
# 'bad' fails only once 'ok' has started (its log exists): on a loaded machine a 'bad' that failed at
# once could fail before 'ok' was started, and 'ok' would rightly not start.
mkdir -p "$tmp/experiments/fail"
cp "$tmp/experiments/tiny/config.ini" "$tmp/experiments/fail/"
printf 'bad  --glimpses 0\nok  --seed 1 --epochs 100\n' > "$tmp/experiments/fail/runs.txt"
printf '#!/bin/sh\ncase "$*" in *fail/bad.h5*) i=0; while [ ! -e "%s" ] && [ $i -lt 600 ]; do sleep 0.1; i=$((i + 1)); done ;; esac\nexec "%s" "$@"\n' \
  "$tmp/results/fail/ok.log" "$root/build/glimpse" > "$tmp/bad-after-ok" && chmod +x "$tmp/bad-after-ok"
if out=$(GLIMPSE_BIN=$tmp/bad-after-ok "$root/scripts/sweep" fail --jobs 2 --threads 1); then
  echo "FAIL: a sweep with a failed run exited 0"; exit 1
fi
# ($(...) also waits for a run the sweep left behind, so the order of the lines is what tells.)
done_at=$(echo "$out" | grep -n "done  fail/ok" | cut -d: -f1 || true)  # (empty: the check below says so)
table_at=$(echo "$out" | grep -n "^| run |" | cut -d: -f1 || true)
[ -n "$done_at" ] && [ -n "$table_at" ] && [ "$done_at" -lt "$table_at" ] \
  || { echo "FAIL: the sweep summarised before its running run finished: $out"; exit 1; }
[ "$("$root/build/glimpse" summarize --status "$tmp/results/fail/ok.h5")" = finished ] || { echo "FAIL: fail/ok"; exit 1; }
echo "$out" | grep -q "FAILED fail/bad" || { echo "FAIL: no FAILED line: $out"; exit 1; }
printf 'bad  --glimpses 0\nlater  --seed 2\n' > "$tmp/experiments/fail/runs.txt"
if out=$("$root/scripts/sweep" fail --jobs 1 --threads 1); then echo "FAIL: a sweep with a failed run exited 0"; exit 1; fi
echo "$out" | grep -q "not started fail/later: an earlier run failed" || { echo "FAIL: a run after a failure: $out"; exit 1; }
[ ! -e "$tmp/results/fail/later.h5" ] || { echo "FAIL: a run after a failure was started"; exit 1; }
! ls "$tmp/results/fail"/.failed.* 2>/dev/null || { echo "FAIL: the failure marker was left behind"; exit 1; }
echo "6 passed, 0 failed"
