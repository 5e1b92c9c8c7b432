#!/usr/bin/env bash
# scripts/tables: every generated table of the tracked markdown files equals what its command prints
# from the committed run files (--check), and the script itself finds a stale table, rewrites it, and
# refuses a command that is not a result tool.
set -euo pipefail
root=$1
cd "$root"
scripts/tables --check
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
echo "tables: ok"
