#!/usr/bin/env bash
# scripts/dashboard in a real browser: headless Chromium (Debian's chromium) loads the page and the
# test checks what it shows: every run in the tables, the chart drawn by uPlot, every picture decoded,
# the interactions (tests/scripts/dashboard_selftest.js: metric, x axis, smoothing, log axis, toggling
# by box and by legend, kept across a reload, hover values, unpooled runs), a run file that cannot be
# read listed as skipped and shown again once whole, a run in training shown as running and as
# unfinished once its process is killed, a run that appears while the dashboard runs added at its next refresh, the page reloading
# its data, --serve on 127.0.0.1 only, and results/compare's 72 runs. Keeps a screenshot in
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
[ -f "$root/data/npm/uplot-1.6.32/uPlot.iife.min.js" ] || { echo "FAIL: uPlot is missing (scripts/setup fetches it)"; exit 1; }
. "$root/tests/scripts/sweep_common.sh"
make_tiny_experiment
"$root/scripts/sweep" tiny --jobs 2 --threads 1 >/dev/null
dom() {  # the page $1 (default index.html) as the browser built it; $2: virtual ms to wait
  timeout 60 "$browser" --headless --no-sandbox --disable-gpu --virtual-time-budget="${2:-5000}" \
    --dump-dom "file://$tmp/dash/${1:-index.html}" 2>/dev/null
}
# A single pass that finds no run file says so and fails; a name, a glob and a path are all looked for.
if "$root/scripts/dashboard" "$tmp/results/nothing/*.h5" no_such_experiment "$tmp/none.h5" --out "$tmp/empty" --once \
  > /dev/null 2> "$tmp/empty.err"; then
  echo "FAIL: dashboard --once with no run file exits 0"; exit 1
fi
grep -q 'no run files found for .*nothing/\*.h5, no_such_experiment' "$tmp/empty.err" \
  || { echo "FAIL: dashboard --once with no run file does not say so: $(cat "$tmp/empty.err")"; exit 1; }
# --hide-test: the page's data holds no test error, where without it the same runs show theirs.
"$root/scripts/dashboard" "$tmp/results/tiny/*.h5" --out "$tmp/hidden" --once --hide-test > /dev/null
"$root/scripts/dashboard" "$tmp/results/tiny/*.h5" --out "$tmp/shown" --once > /dev/null
grep -q '"test_error"' "$tmp/shown/data.js" && grep -q '"test_at_best":[0-9]' "$tmp/shown/data.js" \
  || { echo "FAIL: the dashboard's data shows no test error without --hide-test"; exit 1; }
! grep -q '"test_[a-z_]*":\[' "$tmp/hidden/data.js" && ! grep -q '"test_at_best":[0-9]' "$tmp/hidden/data.js" \
  && grep -q '"test":\[null,null\]' "$tmp/hidden/data.js" \
  || { echo "FAIL: dashboard --hide-test leaves a test error in the page's data"; exit 1; }
# A file that is being replaced (here: not yet an HDF5 file) is skipped, the others shown; run e
# trains while the page is written, so it is running, and unfinished once its process is gone.
printf 'not yet a run file' > "$tmp/results/tiny/z.h5"
"$root/build/glimpse" train --config "$tmp/experiments/tiny/config.ini" --seed 5 --epochs 1000000 --train-images 64 \
  --run-id e --out "$tmp/results/tiny/e.h5" --threads 1 > /dev/null 2>&1 & pids+=($!)
for i in $(seq 1 60); do [ -f "$tmp/results/tiny/e.h5" ] && break; sleep 0.5; done
"$root/scripts/dashboard" "$tmp/results/tiny/*.h5" --out "$tmp/dash" --once > /dev/null
grep -q '"id":"e","file":"[^"]*","seed":5,"status":"running"' "$tmp/dash/data.js" \
  || { echo "FAIL: run e, in training, is not running"; exit 1; }
page=$(dom)
grep -q 'data-run="e"[^>]*><td><input[^>]*>e</td><td class="text">[^<]*</td><td>[^<]*</td><td>[^<]*</td><td class="text"><span class="running">running</span></td>' <<< "$page" \
  || { echo "FAIL: the page does not show run e running"; exit 1; }
kill -KILL "${pids[0]}"; wait "${pids[0]}" 2>/dev/null || true
"$root/scripts/dashboard" "$tmp/results/tiny/*.h5" --out "$tmp/dash" --once > /dev/null
page=$(dom)
for id in a b e; do
  grep -q "data-run=\"$id\"" <<< "$page" || { echo "FAIL: run $id not in the page"; exit 1; }
done
grep -q 'data-ready="1"' <<< "$page" || { echo "FAIL: the page did not render its data"; exit 1; }
grep -q 'data-lines="3"' <<< "$page" || { echo "FAIL: not three lines drawn"; echo "$page" | grep -o 'data-lines="[^"]*"'; exit 1; }
grep -q '<canvas' <<< "$page" || { echo "FAIL: uPlot drew no canvas"; exit 1; }
grep -q 'class="skipped">skipped [^<]*z.h5' <<< "$page" || { echo "FAIL: the unreadable z.h5 is not listed as skipped"; exit 1; }
grep -q 'data-run="e"[^>]*><td><input[^>]*>e</td><td class="text">[^<]*</td><td>[^<]*</td><td>[^<]*</td><td class="text">unfinished</td>' <<< "$page" \
  || { echo "FAIL: run e, killed, is not unfinished"; exit 1; }
grep -q 'data-run="b"[^>]*><td><input[^>]*>b</td><td class="text">[^<]*</td><td>[^<]*</td><td>[^<]*</td><td class="text">finished</td>' <<< "$page" || { echo "FAIL: run b is not finished"; exit 1; }
grep -q 'data-name="e" class="group"><td><input[^>]*>e</td>\(<td[^>]*>[^<]*</td>\)\{7\}<td class="text">unfinished</td>' <<< "$page" \
  || { echo "FAIL: the configuration of run e, killed, is not unfinished"; exit 1; }
imgs=$(echo "$page" | grep -o '<img ' | wc -l)
loaded=$(echo "$page" | grep -o 'data-loaded="1"' | wc -l)
[ "$imgs" -ge 2 ] && [ "$loaded" = "$imgs" ] || { echo "FAIL: $loaded of $imgs pictures loaded"; exit 1; }
# The interactions, driven with DOM events in a copy of the page.
cp "$root/tests/scripts/dashboard_selftest.js" "$tmp/dash/"
sed 's|<script src="data.js"></script>|&<script src="dashboard_selftest.js"></script>|' "$tmp/dash/index.html" > "$tmp/dash/test.html"
report=$(dom test.html | sed -n '/<pre id="selftest">/,/<\/pre>/p')
grep -q FAIL <<< "$report" && { echo "FAIL: the page's interactions:"; echo "$report"; exit 1; }
[ "$(echo "$report" | grep -cE '(^|>)ok ')" = 12 ] || { echo "FAIL: not all 12 interaction checks ran:"; echo "$report"; exit 1; }
timeout 60 "$browser" --headless --no-sandbox --disable-gpu --virtual-time-budget=5000 --window-size=1200,1400 \
  --screenshot="$artifacts/dashboard.png" "file://$tmp/dash/index.html" 2>/dev/null
[ -s "$artifacts/dashboard.png" ] || { echo "FAIL: no screenshot"; exit 1; }
# Live: the file becomes whole and a new run appears; both are in the data within two refreshes, and
# the open page loads its data again at the same period.
port=$(/usr/bin/python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
"$root/scripts/dashboard" "$tmp/results/tiny/*.h5" --out "$tmp/dash" --every 2 --serve "$port" > "$tmp/live.log" & pids+=($!)
live=${pids[1]}
cp "$tmp/results/tiny/a.h5" "$tmp/results/tiny/z.h5.part" && mv "$tmp/results/tiny/z.h5.part" "$tmp/results/tiny/z.h5"
"$root/build/glimpse" train --config "$tmp/experiments/tiny/config.ini" --seed 4 --epochs 1 --run-id c \
  --out "$tmp/results/tiny/c.h5" --threads 1 >/dev/null
for i in $(seq 1 30); do
  grep -q '"id":"c"' "$tmp/dash/data.js" && grep -q '"skipped":\[\]' "$tmp/dash/data.js" && break
  sleep 1
done
page=$(dom index.html 4500)
grep -q 'data-run="c"' <<< "$page" || { echo "FAIL: the new run c was not added"; cat "$tmp/live.log"; exit 1; }
grep -q 'class="skipped"' <<< "$page" && { echo "FAIL: z.h5 still skipped once whole"; exit 1; }
loads=$(echo "$page" | grep -o 'data-loads="[0-9]*"' | grep -o '[0-9]*')
[ "${loads:-0}" -ge 2 ] || { echo "FAIL: the live page loaded its data ${loads:-0} times in 4.5 s, refreshing every 2 s"; exit 1; }
# --serve: the page over HTTP on the loopback address only.
code=$(/usr/bin/python3 -c "import urllib.request; print(urllib.request.urlopen('http://127.0.0.1:$port/data.js').status)")
[ "$code" = 200 ] || { echo "FAIL: --serve answered $code"; exit 1; }
listen=$(ss -ltnH "sport = :$port" | awk '{print $4}')
[ "$listen" = "127.0.0.1:$port" ] || { echo "FAIL: --serve listens on '$listen', not 127.0.0.1 only"; exit 1; }
kill "$live"
# Many runs: results/compare's 72 runs in 24 configurations.
if [ -d "$root/results/compare/runs" ]; then
  start=$(date +%s)
  "$root/scripts/dashboard" "$root/results/compare/runs/*.h5" --out "$tmp/dash" --once > /dev/null
  page=$(dom)
  [ "$(echo "$page" | grep -o 'class="run" data-run=' | wc -l)" = 72 ] || { echo "FAIL: not 72 runs in the table"; exit 1; }
  grep -q 'data-lines="24"' <<< "$page" || { echo "FAIL: not 24 pooled lines for results/compare: $(echo "$page" | grep -o 'data-[a-z]*="[0-9]*"' | head -3 | tr '\n' ' ')"; exit 1; }
  echo "compare: 72 runs written and drawn in $(( $(date +%s) - start )) s"
fi
echo "dashboard: runs, chart, interactions, skipped and recovered files, running state, live updates and --serve checked in $(timeout 30 "$browser" --version 2>/dev/null)"
