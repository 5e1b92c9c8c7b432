#!/usr/bin/env bash
# scripts/tables: every generated table of the tracked markdown files equals what its command prints
# from the committed run files (--check), and the script itself finds a stale table, rewrites it, and
# refuses a command that is not a result tool.
set -euo pipefail
root=$1
cd "$root"
scripts/tables --check
# The benchmark's rows are the screens' rule's recipes, as the rule writes them.
/usr/bin/python3 scripts/results.py --recipes benchmark/screens benchmark/rows benchmark/rows_stage --check
for task in translated60 cluttered60; do  # the same recipes on the 60 x 60 tasks, without sources
  /usr/bin/python3 scripts/results.py --recipes benchmark/screens benchmark/rows_$task - --check
done
tmp=build/test_artifacts/tables
mkdir -p "$tmp"
doc=$tmp/doc.md
cmd='scripts/results.py --seeds ram_table/runs'
printf '# t\n<!-- table: %s -->\n| stale |\n<!-- end table -->\ntail\n' "$cmd" > "$doc"
if scripts/tables --check "$doc" 2> "$tmp/err"; then echo "FAIL: a stale table passed --check"; exit 1; fi
grep -q "stale: $doc: $cmd" "$tmp/err" || { echo "FAIL: --check did not name the stale table"; cat "$tmp/err"; exit 1; }
scripts/tables "$doc" > /dev/null
scripts/tables --check "$doc" > /dev/null || { echo "FAIL: a rewritten table is still stale"; exit 1; }
diff <(sed -n '3,/end table/p' "$doc" | sed '$d') <(/usr/bin/python3 scripts/results.py --seeds ram_table/runs) \
  || { echo "FAIL: the table is not the command's output"; exit 1; }
tail -1 "$doc" | grep -qx tail || { echo "FAIL: the text after the table changed"; exit 1; }
printf '<!-- table: rm -rf x -->\n<!-- end table -->\n' > "$doc"
if scripts/tables "$doc" 2> "$tmp/err"; then echo "FAIL: a command that is no result tool ran"; exit 1; fi
grep -q "does not start with one of" "$tmp/err" || { echo "FAIL: no reason for the refused command"; exit 1; }
# ... and a rows file that differs from the rule is found (a copy of the tree's experiments and screens).
fake=$tmp/root
rm -rf "$fake" && mkdir -p "$fake/results/benchmark/screens"
cp -r experiments "$fake/" && cp -r results/benchmark/screens/runs "$fake/results/benchmark/screens/"
ln -s "$root/build" "$fake/build"  # the compiled part of the Python package
echo "stn   --attention stn --patch 12 --scales 4 --core lstm" >> "$fake/experiments/benchmark/rows/runs.txt"
if GLIMPSE_ROOT=$fake /usr/bin/python3 scripts/results.py --recipes benchmark/screens benchmark/rows benchmark/rows_stage \
  --check 2> "$tmp/err"; then echo "FAIL: a rows file the rule does not give passed --check"; exit 1; fi
grep -q "stale: experiments/benchmark/rows/runs.txt" "$tmp/err" || { echo "FAIL: --recipes --check named no file"; cat "$tmp/err"; exit 1; }
GLIMPSE_ROOT=$fake /usr/bin/python3 scripts/results.py --recipes benchmark/screens benchmark/rows benchmark/rows_stage --write >/dev/null
GLIMPSE_ROOT=$fake /usr/bin/python3 scripts/results.py --recipes benchmark/screens benchmark/rows benchmark/rows_stage --check \
  || { echo "FAIL: --write did not give the rule's lines"; exit 1; }
head -1 "$fake/experiments/benchmark/rows/runs.txt" | grep -q '^# id' || { echo "FAIL: --write lost the file's comments"; exit 1; }
echo "tables: ok"
