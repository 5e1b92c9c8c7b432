#!/usr/bin/env bash
# scripts/dashboard in a real browser: headless Chromium (Debian's chromium) loads the page and the
# test checks what it shows: every run's id in the table, every picture decoded (data-loaded, set by
# the image's onload), a run file that cannot be read listed as skipped and shown again once whole,
# and a run that appears while the dashboard runs added at its next refresh. Keeps a screenshot in
# ARTIFACTS/dashboard.png.
#   tests/scripts/test_dashboard.sh SOURCE_DIR ARTIFACTS
set -euo pipefail
root=$1; artifacts=$2
mkdir -p "$artifacts"
tmp=$(mktemp -d)
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; rm -rf "$tmp"; }
trap cleanup EXIT
browser=$(command -v chromium || true)
[ -n "$browser" ] || { echo "FAIL: chromium is not installed (scripts/setup installs it)"; exit 1; }
. "$root/tests/scripts/sweep_common.sh"
make_tiny_experiment
"$root/scripts/sweep" tiny --jobs 2 --threads 1 >/dev/null
dom() {  # the page as the browser built it, after its pictures loaded; $1: virtual ms to wait (below a
         # live page's refresh period, which would reload it)
  timeout 60 "$browser" --headless --no-sandbox --disable-gpu --virtual-time-budget="${1:-5000}" \
    --dump-dom "file://$tmp/dash/index.html" 2>/dev/null
}
# A file that is being replaced (here: not yet an HDF5 file) is skipped, the others shown.
printf 'not yet a run file' > "$tmp/results/tiny/z.h5"
"$root/scripts/dashboard" "$tmp/results/tiny/*.h5" --out "$tmp/dash" --once
page=$(dom)
for id in a b; do
  echo "$page" | grep -q "data-run=\"$id\"" || { echo "FAIL: run $id not in the page"; exit 1; }
done
echo "$page" | grep -q 'class="skipped">skipped [^<]*z.h5' || { echo "FAIL: the unreadable z.h5 is not listed as skipped"; exit 1; }
imgs=$(echo "$page" | grep -o '<img ' | wc -l)
loaded=$(echo "$page" | grep -o 'data-loaded="1"' | wc -l)
[ "$imgs" -ge 2 ] && [ "$loaded" = "$imgs" ] || { echo "FAIL: $loaded of $imgs pictures loaded"; exit 1; }
timeout 60 "$browser" --headless --no-sandbox --disable-gpu --virtual-time-budget=5000 --window-size=1200,1400 \
  --screenshot="$artifacts/dashboard.png" "file://$tmp/dash/index.html" 2>/dev/null
[ -s "$artifacts/dashboard.png" ] || { echo "FAIL: no screenshot"; exit 1; }
# Live: the file becomes whole and a new run appears; both are on the page within two refreshes.
"$root/scripts/dashboard" "$tmp/results/tiny/*.h5" --out "$tmp/dash" --every 2 > "$tmp/live.log" & pids+=($!)
cp "$tmp/results/tiny/a.h5" "$tmp/results/tiny/z.h5.part" && mv "$tmp/results/tiny/z.h5.part" "$tmp/results/tiny/z.h5"
"$root/build/glimpse" train --config "$tmp/experiments/tiny/config.ini" --seed 4 --epochs 1 --run-id c \
  --out "$tmp/results/tiny/c.h5" --threads 1 >/dev/null
for i in $(seq 1 30); do
  grep -q "data-run='c'" "$tmp/dash/index.html" && ! grep -q "class='skipped'" "$tmp/dash/index.html" && break
  sleep 1
done
kill "${pids[0]}"
page=$(dom 500)
echo "$page" | grep -q 'data-run="c"' || { echo "FAIL: the new run c was not added"; cat "$tmp/live.log"; exit 1; }
echo "$page" | grep -q 'class="skipped"' && { echo "FAIL: z.h5 still skipped once whole"; exit 1; }
echo "$page" | grep -q 'http-equiv="refresh"' || { echo "FAIL: the live page does not refresh itself"; exit 1; }
echo "dashboard: runs, pictures, skipped and recovered files, live updates checked in $(timeout 30 "$browser" --version 2>/dev/null)"
